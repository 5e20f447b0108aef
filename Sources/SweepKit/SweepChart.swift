import Foundation

/// An SVG line chart of one metric's mean over seeds against the first swept parameter, one
/// line per combination of the other parameters.
public enum SweepChart {
  static let palette = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
    "#17becf",
  ]

  /// The chart's SVG text; `metric` is a column of `runs.csv`.
  public static func svg(_ summary: SweepSummary, metric: String) -> String {
    let parameters = summary.manifest.parameters
    let xValues = parameters.first?.values ?? [""]
    let isTime = metric.hasSuffix("Seconds")
    // Series: the other parameters' values, in grid order.
    var seriesNames: [String] = []
    var series: [String: [(Int, Double)]] = [:]
    for point in summary.points {
      let name = zip(parameters.dropFirst(), point.values.dropFirst()).map { "\($0.key)=\($1)" }
        .joined(separator: ", ")
      if series[name] == nil {
        seriesNames.append(name)
        series[name] = []
      }
      guard let x = xValues.firstIndex(of: point.values.first ?? ""), let s = summary.stats(point, metric)
      else { continue }
      series[name]!.append((x, isTime ? s.mean : s.mean))
    }
    let maxY = max(series.values.flatMap { $0.map(\.1) }.max() ?? 1, 1e-9)
    let (step, top) = niceScale(maxY)
    let legendHeight = seriesNames.count > 1 ? 18 * seriesNames.count + 10 : 0
    let width = 760.0
    let plotLeft = 90.0
    let plotRight = width - 30
    let plotTop = 50.0
    let plotBottom = 330.0
    let height = Int(plotBottom) + 60 + legendHeight
    func px(_ i: Int) -> Double {
      xValues.count == 1
        ? (plotLeft + plotRight) / 2
        : plotLeft + 20 + Double(i) * (plotRight - plotLeft - 40) / Double(xValues.count - 1)
    }
    func py(_ y: Double) -> Double { plotBottom - y / top * (plotBottom - plotTop) }
    func f(_ v: Double) -> String { String(format: "%.1f", v) }
    func label(_ y: Double) -> String { isTime ? SweepSummary.duration(y) : trimmed(y) }

    var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(height)\" "
    out += "viewBox=\"0 0 \(Int(width)) \(height)\" font-family=\"sans-serif\" font-size=\"12\">\n"
    out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    let title = "\(summary.manifest.name): \(metric) (mean over seeds \(summary.manifest.seeds))"
    out +=
      "<text x=\"\(f(width / 2))\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">\(escape(title))</text>\n"
    var tick = 0.0
    while tick <= top + step / 2 {
      let y = py(tick)
      out +=
        "<line x1=\"\(f(plotLeft))\" y1=\"\(f(y))\" x2=\"\(f(plotRight))\" y2=\"\(f(y))\" stroke=\"#ddd\"/>\n"
      out +=
        "<text x=\"\(f(plotLeft - 8))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(escape(label(tick)))</text>\n"
      tick += step
    }
    out +=
      "<line x1=\"\(f(plotLeft))\" y1=\"\(f(plotBottom))\" x2=\"\(f(plotRight))\" y2=\"\(f(plotBottom))\" stroke=\"black\"/>\n"
    out +=
      "<line x1=\"\(f(plotLeft))\" y1=\"\(f(plotTop))\" x2=\"\(f(plotLeft))\" y2=\"\(f(plotBottom))\" stroke=\"black\"/>\n"
    for (i, value) in xValues.enumerated() {
      out +=
        "<text x=\"\(f(px(i)))\" y=\"\(f(plotBottom + 18))\" text-anchor=\"middle\">\(escape(value))</text>\n"
    }
    let xName = parameters.first.map { "policy.\($0.key)" } ?? ""
    out += "<text x=\"\(f((plotLeft + plotRight) / 2))\" y=\"\(f(plotBottom + 40))\" text-anchor=\"middle\">"
    out += "\(escape(xName))</text>\n"
    for (k, name) in seriesNames.enumerated() {
      let color = palette[k % palette.count]
      let points = series[name]!.map { "\(f(px($0.0))),\(f(py($0.1)))" }
      if points.count > 1 {
        out +=
          "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>\n"
      }
      for (x, y) in series[name]! {
        out += "<circle cx=\"\(f(px(x)))\" cy=\"\(f(py(y)))\" r=\"3\" fill=\"\(color)\"><title>"
        out +=
          "\(escape(name.isEmpty ? xValues[x] : "\(name), \(xValues[x])")): \(escape(label(y)))</title></circle>\n"
      }
      if seriesNames.count > 1 {
        let y = plotBottom + 62 + Double(18 * k)
        out += "<rect x=\"\(f(plotLeft))\" y=\"\(f(y - 9))\" width=\"14\" height=\"4\" fill=\"\(color)\"/>\n"
        out += "<text x=\"\(f(plotLeft + 20))\" y=\"\(f(y - 3))\">\(escape(name))</text>\n"
      }
    }
    out += "</svg>\n"
    return out
  }

  /// A tick step of 1, 2 or 5 times a power of ten giving about `ticks` ticks, and the axis top.
  public static func niceScale(_ maxY: Double, ticks: Double = 5) -> (step: Double, top: Double) {
    let raw = maxY / ticks
    let magnitude = pow(10, floor(log10(raw)))
    let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
    return (step, (maxY / step).rounded(.up) * step)
  }

  static func trimmed(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(format: "%.3g", v)
  }

  /// `s` as SVG text content or attribute value.
  public static func escape(_ s: String) -> String {
    var out = ""
    for c in s {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(c)
      }
    }
    return out
  }
}
