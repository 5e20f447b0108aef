import Foundation
import SimKernel
import SweepKit

/// An SVG of each observed event's time against its simulated time at the fit (first seed):
/// a perfect fit puts every point on the diagonal.
enum CalibrationChart {
  static func svg(_ result: CalibrationResult) -> String {
    let events = result.observed.events
    let partners = result.partners.first ?? []
    var pairs: [(Int, Double, Double)] = []
    for (i, event) in events.enumerated() {
      guard i < partners.count, let sim = partners[i] else { continue }
      pairs.append((i, event.time.sinceStart.seconds, sim.sinceStart.seconds))
    }
    let (step, maxT) = SweepChart.niceScale(max(pairs.map { max($0.1, $0.2) }.max() ?? 1, 1e-3), ticks: 4)
    let size = 520.0
    let left = 80.0
    let top = 50.0
    let plot = size - left - 30
    func px(_ t: Double) -> Double { left + t / maxT * plot }
    func py(_ t: Double) -> Double { top + plot - t / maxT * plot }
    func f(_ v: Double) -> String { String(format: "%.1f", v) }
    let height = Int(top + plot + 60)
    var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(size))\" height=\"\(height)\" "
    out += "viewBox=\"0 0 \(Int(size)) \(height)\" font-family=\"sans-serif\" font-size=\"12\">\n"
    out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    let title =
      "observed vs simulated event times (RMS residual \(String(format: "%.3f", result.score.rms)) s)"
    out +=
      "<text x=\"\(f(size / 2))\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">\(SweepChart.escape(title))</text>\n"
    for i in 0...Int((maxT / step).rounded()) {
      let t = step * Double(i)
      let label = SweepChart.escape(SimDuration(nanoseconds: Int64((t * 1e9).rounded())).formatted)
      out +=
        "<line x1=\"\(f(px(0)))\" y1=\"\(f(py(t)))\" x2=\"\(f(px(maxT)))\" y2=\"\(f(py(t)))\" stroke=\"#eee\"/>\n"
      out += "<text x=\"\(f(left - 6))\" y=\"\(f(py(t) + 4))\" text-anchor=\"end\">\(label)</text>\n"
      out += "<text x=\"\(f(px(t)))\" y=\"\(f(top + plot + 18))\" text-anchor=\"middle\">\(label)</text>\n"
    }
    out += "<line x1=\"\(f(px(0)))\" y1=\"\(f(py(0)))\" x2=\"\(f(px(maxT)))\" y2=\"\(f(py(maxT)))\" "
    out += "stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n"
    out +=
      "<text x=\"\(f(left + plot / 2))\" y=\"\(f(top + plot + 40))\" text-anchor=\"middle\">observed time</text>\n"
    out += "<text x=\"16\" y=\"\(f(top + plot / 2))\" text-anchor=\"middle\" "
    out += "transform=\"rotate(-90 16 \(f(top + plot / 2)))\">simulated time</text>\n"
    for (i, observed, simulated) in pairs {
      let event = events[i]
      let tip =
        "#\(i + 1) \(event.kind) \(result.observed.labels[i]): observed \(observed) s, simulated \(simulated) s"
      out += "<circle cx=\"\(f(px(observed)))\" cy=\"\(f(py(simulated)))\" r=\"3.5\" fill=\"#1f77b4\">"
      out += "<title>\(SweepChart.escape(tip))</title></circle>\n"
    }
    out += "</svg>\n"
    return out
  }
}
