import ScenarioKit
import TransferEngine

extension ScenarioJSONWriter {
  /// The JSON of the continued-processing app actions.
  static func continuedProcessingAction(_ a: AppAction) -> [(String, JSONNode)] {
    switch a {
    case .submitContinuedProcessing(let identifier, let title, let subtitle, let strategy):
      var fields: [(String, JSONNode)] = [
        ("do", .string("submitContinuedProcessing")), ("identifier", .string(identifier)),
        ("title", .string(title)),
      ]
      if !subtitle.isEmpty { fields.append(("subtitle", .string(subtitle))) }
      return fields + [("strategy", .string(strategy.rawValue))]
    case .reportContinuedProgress(let identifier, let add, let total):
      var fields: [(String, JSONNode)] = [
        ("do", .string("reportContinuedProgress")), ("identifier", .string(identifier)), ("add", int(add)),
      ]
      if let total { fields.append(("total", int(total))) }
      return fields
    case .completeContinuedProcessing(let identifier, let success):
      return [
        ("do", .string("completeContinuedProcessing")), ("identifier", .string(identifier)),
        ("success", .bool(success)),
      ]
    default: return []
    }
  }
}
