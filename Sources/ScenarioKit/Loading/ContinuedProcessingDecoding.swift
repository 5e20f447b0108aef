import SafeOutput
import SimKernel
import TransferEngine

/// Reading the continued-processing actions (`submitContinuedProcessing`,
/// `reportContinuedProgress`, `completeContinuedProcessing`, `cancelContinuedProcessing`).
enum ContinuedProcessingDecoding {
  static func action(_ name: ActionName, _ r: inout ObjectReader) -> TimelineAction? {
    let submitted = name == .submitContinuedProcessing
    guard let identifier = identifier(&r, submitted: submitted) else {
      r.acceptAll()
      return nil
    }
    switch name {
    case .submitContinuedProcessing:
      let title = r.required("title", .name("the title the system's progress UI shows"))
      let subtitle = r.optional("subtitle", .string)
      let strategy: ContinuedProcessingStrategy? = r.optional("strategy", .enumeration("submission strategy"))
      guard let title else { return nil }
      return .app(
        .submitContinuedProcessing(
          identifier: identifier, title: title, subtitle: subtitle ?? "", strategy: strategy ?? .queue))
    case .reportContinuedProgress:
      let add = r.optional("add", .integer(0...1_000_000_000_000, "a number of units from 0 to 10^12 like 1"))
      let total = r.optional(
        "total", .integer(0...1_000_000_000_000, "a number of units from 0 to 10^12 like 250"))
      return .app(.reportContinuedProgress(identifier: identifier, add: add ?? 1, total: total))
    case .completeContinuedProcessing:
      let success = r.optional("success", .bool)
      return .app(.completeContinuedProcessing(identifier: identifier, success: success ?? true))
    default:
      return .cancelContinuedProcessing(identifier: identifier)
    }
  }

  /// The request's `identifier`: literal, recorded so the loader can check that every action
  /// names one a `submitContinuedProcessing` submits.
  private static func identifier(_ r: inout ObjectReader, submitted: Bool) -> String? {
    guard
      let identifier = r.required(
        "identifier", .name("a task request identifier like \"com.example.export\"")),
      let v = r.raw("identifier")
    else { return nil }
    let path = JSONPath.member(r.path, "identifier")
    if identifier.hasPlaceholder {
      r.context.invalid(
        path, v, "a continued-processing identifier must be literal, so the actions that follow can name it")
      return nil
    }
    let use = References.Use(name: identifier, path: path, position: v.position)
    if submitted {
      r.context.references.submittedContinuedTasks.append(use)
    } else {
      r.context.references.namedContinuedTasks.append(use)
    }
    return identifier
  }
}

extension References {
  /// Every identifier a continued-processing action names must be one the scenario submits.
  func checkContinuedTasks(_ context: DecodeContext) {
    let submitted = submittedContinuedTasks.map(\.name)
    let known = Set(submitted.map(WrittenKey.init))
    let twins = NormalizationTwins(submitted)
    for use in namedContinuedTasks where !known.contains(WrittenKey(use.name)) {
      let hint =
        twins.note(for: use.name).map { "; \($0)" }
        ?? context.suggest(use.name, among: submitted).map { "; did you mean '\($0)'?" }
        ?? "; add a submitContinuedProcessing with this identifier"
      context.report(
        .reference, use.path, at: use.position,
        "no submitContinuedProcessing submits a request with identifier '\(use.name)'\(hint)")
    }
  }
}
