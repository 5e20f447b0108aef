import ScenarioKit
import SimKernel

/// The report's "why each task took as long as it did" table: the task accounts `bgsim run`
/// ends with, every task, slowest first.
enum AccountTable {
  static func render(_ accounts: [TaskAccount]) -> String {
    var out = "<h2 id=\"accounts\">Why each task took as long as it did</h2>\n"
    guard !accounts.isEmpty else { return out + "<p class=\"meta\">This run created no tasks.</p>\n" }
    out += "<p class=\"meta\">Slowest first. <code>bgsim explain FILE TASK</code> lists the trace lines "
    out += "behind each interval.</p>\n"
    out += "<table class=\"accounts\">\n<tr><th>task</th><th>outcome</th><th>took</th><th>created</th>"
    out += "<th>first started</th><th>ended in the daemon</th><th>delivered to the app</th>"
    out += "<th>where the time went</th></tr>\n"
    for account in TaskAccounts.slowestFirst(accounts) {
      out += "<tr><td><code>\(esc(account.task))</code></td><td>\(account.outcome.rawValue)</td>"
      out += "<td>\(account.total.readable)</td><td>\(time(account.created))</td>"
      out += "<td>\(time(account.firstStarted))</td><td>\(time(account.ended))</td>"
      out +=
        "<td>\(time(account.delivered))</td><td>\(esc(AccountText.whereTheTimeWent(account)))</td></tr>\n"
    }
    return out + "</table>\n"
  }

  private static func time(_ t: SimTime?) -> String { t?.sinceStart.readable ?? "–" }

  private static func esc(_ text: String) -> String { HTMLText.escape(text) }
}
