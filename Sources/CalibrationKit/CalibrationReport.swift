import Foundation
import SimKernel
import SweepKit

/// The files and the console text of a calibration: `fit.json`, `residuals.csv` and
/// `observed-vs-simulated.svg`.
public enum CalibrationReport {
  public static let fitFile = "fit.json"
  public static let residualsFile = "residuals.csv"
  public static let chartFile = "observed-vs-simulated.svg"

  /// The files, by name, in writing order.
  public static func files(_ result: CalibrationResult, world: String, log: String) -> [(
    name: String, text: String
  )] {
    [
      (fitFile, fitJSON(result, world: world, log: log)), (residualsFile, residualsCSV(result)),
      (chartFile, CalibrationChart.svg(result)),
    ]
  }

  /// The fitted knobs as a `policy` section (identified knobs only) plus what the log says about each.
  public static func fitJSON(_ result: CalibrationResult, world: String, log: String) -> String {
    let r = result.request
    var out = "{\n"
    out += "  \"world\": \(JSONText.quoted(world)),\n"
    out += "  \"observed\": \(JSONText.quoted(log)),\n"
    out += "  \"seeds\": \(JSONText.quoted(SeedList.text(r.seeds))),\n"
    out +=
      "  \"tolerance\": \(JSONText.quoted(SimDuration(nanoseconds: Int64((r.tolerance * 1e9).rounded())).formatted)),\n"
    out += "  \"observedEvents\": \(result.observed.events.count),\n"
    out += "  \"unmatchedEvents\": \(result.score.unmatched),\n"
    out += "  \"rmsResidualSeconds\": \(number(result.score.rms)),\n"
    out += "  \"simulations\": \(result.simulations),\n"
    out += "  \"policy\": \(policySection(result.knobs.filter { $0.status == .identified }, indent: "  ")),\n"
    out += "  \"knobs\": ["
    out += result.knobs.map { fit in
      var fields = [
        "\"name\": \(JSONText.quoted(fit.knob.key))", "\"status\": \(JSONText.quoted(fit.status.rawValue))",
        "\"range\": \(JSONText.quoted(fit.knob.rangeText))",
      ]
      switch fit.status {
      case .identified:
        fields.append("\"value\": \(json(fit.knob, fit.value))")
        fields.append("\"fitsFrom\": \(json(fit.knob, fit.low))")
        fields.append("\"fitsTo\": \(json(fit.knob, fit.high))")
      case .bounded:
        fields.append("\"fitsFrom\": \(json(fit.knob, fit.low))")
        fields.append("\"fitsTo\": \(json(fit.knob, fit.high))")
      case .unidentified: break
      }
      fields.append("\"rmsRisePerPercentDown\": \(fit.risePerPercentDown.map(number) ?? "null")")
      fields.append("\"rmsRisePerPercentUp\": \(fit.risePerPercentUp.map(number) ?? "null")")
      return "\n    {" + fields.joined(separator: ", ") + "}"
    }.joined(separator: ",")
    out += result.knobs.isEmpty ? "]\n" : "\n  ]\n"
    out += "}\n"
    return out
  }

  /// Nested objects from dotted names: `rateLimiter.growth` -> `{"rateLimiter": {"growth": 2.0}}`.
  static func policySection(_ fits: [KnobFit], indent: String) -> String {
    guard !fits.isEmpty else { return "{}" }
    var groups: [String] = []
    var members: [String: [String]] = [:]
    for fit in fits {
      let parts = fit.knob.key.split(separator: ".", maxSplits: 1).map(String.init)
      let group = parts.count == 2 ? parts[0] : ""
      if members[group] == nil { groups.append(group) }
      let name = parts.count == 2 ? parts[1] : parts[0]
      members[group, default: []].append("\(JSONText.quoted(name)): \(json(fit.knob, fit.value))")
    }
    var lines: [String] = []
    for group in groups {
      if group.isEmpty {
        lines += members[group]!.map { indent + "  " + $0 }
      } else {
        lines.append(
          indent + "  \(JSONText.quoted(group)): {" + members[group]!.joined(separator: ", ") + "}")
      }
    }
    return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
  }

  /// A knob value as JSON: durations quoted, numbers bare.
  static func json(_ knob: KnobRange, _ value: Double) -> String {
    knob.unit == .seconds ? JSONText.quoted(knob.text(value)) : knob.text(value)
  }

  /// One row per observed event and seed: the observed and simulated times and their difference.
  public static func residualsCSV(_ result: CalibrationResult) -> String {
    var out = "seed,event,kind,subject,observedSeconds,simulatedSeconds,residualSeconds\n"
    for (s, partners) in result.partners.enumerated() {
      for (i, event) in result.observed.events.enumerated() {
        let seed = result.request.seeds[s]
        let observed = event.time.sinceStart.seconds
        var row = "\(seed),\(i + 1),\(csv(event.kind)),\(csv(result.observed.labels[i])),\(number(observed))"
        if let sim = partners[i] {
          row += ",\(number(sim.sinceStart.seconds)),\(number((sim - event.time).seconds))"
        } else {
          row += ",,"
        }
        out += row + "\n"
      }
    }
    return out
  }

  /// What `bgsim calibrate` prints: the fit, each knob, and the residual of every matched event.
  public static func text(_ result: CalibrationResult) -> String {
    var out = ""
    let events = result.observed.events
    guard result.matchesLog else {
      out += "no candidate matches the log: at best \(result.score.unmatched) of \(events.count) observed "
      out += "events (over \(result.request.seeds.count) seeds) have no simulated partner, first:\n"
      for (i, event) in events.enumerated() where result.partners.first?[i] == nil {
        out += "  #\(i + 1) \(event.time.sinceStart.formatted) \(event.kind) \(result.observed.labels[i])\n"
      }
      return out
    }
    out += "fit: RMS residual \(seconds(result.score.rms)) over \(events.count) observed events"
    out += " x \(result.request.seeds.count) seeds (\(result.simulations) simulations)\n"
    let width = result.knobs.map(\.knob.key.count).max() ?? 0
    for fit in result.knobs {
      let name = fit.knob.key + String(repeating: " ", count: width - fit.knob.key.count)
      let k = fit.knob
      switch fit.status {
      case .identified:
        out += "  \(name)  \(k.display(fit.value))  (fits \(k.display(fit.low))..\(k.display(fit.high)); "
        out += "error rises \(rise(fit.risePerPercentDown)) at -1%, \(rise(fit.risePerPercentUp)) at +1%)\n"
      case .bounded:
        let bound =
          fit.low <= k.low ? "at most \(k.display(fit.high))" : "at least \(k.display(fit.low))"
        out += "  \(name)  bounded: \(bound) (fits \(k.display(fit.low))..\(k.display(fit.high)) "
        out += "of \(k.rangeText); the log does not pin a value)\n"
      case .unidentified:
        out +=
          "  \(name)  unidentified: the error stays within \(seconds(result.request.tolerance)) of the best "
        out += "over the whole range \(k.rangeText); the log leaves no trace of it\n"
      }
    }
    out += "residuals (seed \(result.request.seeds.first ?? 0)):\n"
    for (i, event) in events.enumerated() {
      guard let sim = result.partners.first?[i] else { continue }
      let residual = (sim - event.time).seconds
      let label = result.observed.labels[i].isEmpty ? "" : " " + result.observed.labels[i]
      out += "  #\(i + 1) \(event.kind)\(label): observed \(event.time.sinceStart.formatted), "
      out += "simulated \(sim.sinceStart.formatted), residual \(signed(residual))\n"
    }
    return out
  }

  static func rise(_ value: Double?) -> String { value.map { "+" + seconds($0) } ?? "n/a" }

  static func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }

  static func signed(_ value: Double) -> String { String(format: "%+.3f s", value) }

  /// At most six decimals, so tiny floating-point noise prints as 0.
  static func number(_ value: Double) -> String {
    let rounded = (value * 1_000_000).rounded() / 1_000_000
    return JSONText.number(rounded == 0 ? 0 : rounded)
  }

  static func csv(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// Writes the files into `directory` (created if needed), each through a temporary file
  /// renamed into place (`SweepFiles`), so a reader never sees half a file.
  public static func write(_ files: [(name: String, text: String)], to directory: String)
    throws(CalibrationError)
  {
    do throws(SweepError) {
      try SweepFiles.createFolder(directory)
      for file in files {
        try SweepFiles.write(file.text, to: directory + "/" + file.name)
      }
    } catch {
      throw CalibrationError(error.message, isOutputFailure: error.isOutputFailure)
    }
  }
}
