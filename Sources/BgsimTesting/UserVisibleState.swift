/// An app delegate that can say what its user sees (the episodes listed and their state, the
/// files offered), one line per item: the exploration compares it with the run without faults.
/// Read after the world's settle time, from the live process's delegate.
public protocol UserVisibleState: AnyObject {
  /// What the user sees now, one line per item, in an order that does not depend on hashing
  /// (sort it): equal states must give equal text.
  func userVisibleState() -> String
}
