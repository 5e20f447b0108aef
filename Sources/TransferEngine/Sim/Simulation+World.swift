import SimKernel

extension Simulation {
  /// The server this simulation was made with (an exploration writes it into replay scenarios).
  public var server: ServerModel { serverModel }
}
