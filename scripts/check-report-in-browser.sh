#!/usr/bin/env bash
# Opens a bgsim HTML report in headless Chromium and checks what the browser actually rendered.
#
#   scripts/check-report-in-browser.sh REPORT.html [SCREENSHOT.png]
#
# 1. Finds Chrome or Chromium (PATH, /Applications on macOS, or BROWSER_BIN); in CI on Debian
#    (CI=true, root) it installs Debian's `chromium` if missing; elsewhere it says what to install.
# 2. Dumps the DOM as Chromium parsed it and checks that the SVG timeline is there: the app,
#    network, power and rate-limiter lanes, the tasks lane and at least one task bar with a phase.
#    A page the parser rejected or truncated fails here even if the file looks right.
# 3. Loads a probe copy of the page (the page plus a small script; the shipped page has none) and
#    asks the browser what it laid out: the stretched timeline shows by default and the linear
#    one is hidden; ticking "linear" swaps them (the CSS-only toggle works); the linear axis's
#    tick labels sit at x positions proportional to their times; and byte labels on the task
#    bars were drawn with a real width.
# 4. Takes a 1400x1000 screenshot (default: REPORT.png beside the report) to look at.
# Exits 0 when every check holds, 1 with a message naming what is missing, 2 on usage errors.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 REPORT.html [SCREENSHOT.png]" >&2
  exit 2
fi
report="$1"
if [[ ! -f "$report" ]]; then
  echo "error: no such report: $report" >&2
  exit 2
fi
report_abs="$(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
screenshot="${2:-${report_abs%.html}.png}"
case "$screenshot" in /*) ;; *) screenshot="$(pwd)/$screenshot" ;; esac

# Chrome or Chromium: on the PATH (Linux, Homebrew), or the macOS application bundles;
# BROWSER_BIN overrides.
find_browser() {
  local candidate
  if [[ -n "${BROWSER_BIN:-}" ]]; then
    echo "$BROWSER_BIN"
    return
  fi
  for candidate in chromium chromium-browser google-chrome google-chrome-stable; do
    if command -v "$candidate" >/dev/null 2>&1; then
      command -v "$candidate"
      return
    fi
  done
  for candidate in "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" \
    "/Applications/Chromium.app/Contents/MacOS/Chromium" \
    "$HOME/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"; do
    if [[ -x "$candidate" ]]; then
      echo "$candidate"
      return
    fi
  done
}
browser="$(find_browser)"
if [[ -z "$browser" ]]; then
  # Only CI on Debian installs a browser by itself; elsewhere say what to install.
  if [[ "${CI:-}" == "true" && "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "chromium not found; installing Debian's package (apt-get install chromium)" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    browser="$(command -v chromium)"
  else
    echo "error: no Chrome or Chromium found, so the report cannot be checked in a browser." >&2
    echo "  macOS: install Google Chrome, or: brew install --cask chromium" >&2
    echo "  Debian/Ubuntu: sudo apt-get install chromium" >&2
    echo "  or set BROWSER_BIN to a Chrome or Chromium executable" >&2
    exit 1
  fi
fi

# Headless Chromium in containers: no sandbox (no user namespaces), no GPU, a throwaway profile.
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile"
  --no-first-run --disable-dev-shm-usage)

dom="$profile/dom.html"
if ! "$browser" "${flags[@]}" --dump-dom "file://$report_abs" >"$dom" 2>"$profile/stderr"; then
  echo "error: chromium could not load $report_abs:" >&2
  cat "$profile/stderr" >&2
  exit 1
fi

missing=()
require() { # require PATTERN DESCRIPTION
  grep -qE "$1" "$dom" || missing+=("$2")
}
require '<svg[^>]*class="timeline"' 'the <svg class="timeline"> element'
for lane in app network power ratelimiter tasks; do
  require "<g class=\"lane\" data-lane=\"$lane\"" "the $lane lane (<g class=\"lane\" data-lane=\"$lane\">)"
done
require '<rect class="seg [^"]*" data-state=' 'state segments in the lanes (<rect class="seg">)'
require '<rect class="bar [^"]*" data-task="[^"]*" data-phase="(waiting|transferring|done|failed|cancelled)"' \
  'a task bar with a phase (<rect class="bar" data-task=... data-phase=...>)'
require '<text class="tick"[^>]*>[^<]+</text>' 'time axis tick labels'
require '<table class="expectations"|This scenario expects nothing' 'the expectations section'
require '<svg[^>]*class="timeline" data-axis="stretched"' 'the stretched timeline (<svg data-axis="stretched">)'
require '<svg[^>]*class="timeline" data-axis="linear"' 'the linear timeline (<svg data-axis="linear">)'
require '<input type="radio" name="axis" id="axis-linear"' 'the linear-axis toggle (<input id="axis-linear">)'
require '<tspan class="bytes">[^<]+</tspan>' 'byte labels on the task bars (<tspan class="bytes">)'

if [[ ${#missing[@]} -gt 0 ]]; then
  echo "FAIL: the report as rendered by chromium lacks:" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  echo "(DOM dump: $(wc -c <"$dom") bytes from $report_abs)" >&2
  exit 1
fi

# The probe: what the browser laid out, written into <body data-probe="..."> for --dump-dom.
probe="$profile/probe.html"
cat "$report" >"$probe"
cat >>"$probe" <<'PROBE'
<script>
(function () {
  var out = [];
  function shown(selector) {
    var element = document.querySelector(selector);
    return element ? getComputedStyle(element).display !== "none" : "missing";
  }
  out.push("default=" + shown(".timeline-stretched") + "/" + shown(".timeline-linear"));
  var radio = document.getElementById("axis-linear");
  if (radio) radio.checked = true;
  out.push("toggled=" + shown(".timeline-stretched") + "/" + shown(".timeline-linear"));
  // Tick labels are SimTime texts: 0s, 250ms, 1h30m, 2d3h0.5s.
  function seconds(text) {
    var units = { d: 86400, h: 3600, m: 60, s: 1, ms: 0.001, us: 1e-6, ns: 1e-9 };
    var total = 0, re = /([0-9.]+)(ms|us|ns|d|h|m|s)/g, match, used = 0;
    while ((match = re.exec(text))) { total += parseFloat(match[1]) * units[match[2]]; used += match[0].length; }
    return used === text.length ? total : NaN;
  }
  var ticks = Array.prototype.map.call(
    document.querySelectorAll('svg[data-axis="linear"] text.tick'),
    function (t) { return { x: parseFloat(t.getAttribute("x")), t: seconds(t.textContent) }; });
  var linear = ticks.length >= 3 ? "ok" : "too-few-ticks(" + ticks.length + ")";
  if (ticks.length >= 3) {
    var last = ticks[ticks.length - 1], pps = (last.x - ticks[0].x) / (last.t - ticks[0].t);
    ticks.forEach(function (tick) {
      var expected = ticks[0].x + (tick.t - ticks[0].t) * pps;
      if (!(Math.abs(tick.x - expected) <= 0.6)) linear = "tick-off-axis(" + tick.t + "s at x=" + tick.x + ")";
    });
  }
  out.push("linear=" + linear);
  radio.checked = false;
  document.getElementById("axis-stretched").checked = true;
  var drawn = 0;
  document.querySelectorAll('svg[data-axis="stretched"] tspan.bytes').forEach(function (b) {
    if (b.getComputedTextLength() > 0) drawn++;
  });
  out.push("bytes=" + drawn);
  document.body.setAttribute("data-probe", out.join(" "));
})();
</script>
PROBE
"$browser" "${flags[@]}" --dump-dom "file://$probe" >"$profile/probe-dom.html" 2>"$profile/stderr" || {
  echo "error: chromium could not load the probe page:" >&2
  cat "$profile/stderr" >&2
  exit 1
}
verdict="$(grep -oE 'data-probe="[^"]*"' "$profile/probe-dom.html" | head -1 || true)"
for expected in 'default=true/false' 'toggled=false/true' 'linear=ok'; do
  [[ "$verdict" == *"$expected"* ]] || missing+=("as laid out by chromium, $expected (got: ${verdict:-no probe result})")
done
[[ "$verdict" =~ bytes=[1-9] ]] || missing+=("byte labels drawn with a width on the bars (got: ${verdict:-no probe result})")
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "FAIL: the report as laid out by chromium:" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  exit 1
fi

# Counts (grep -c counts lines, so count matches; `|| true` because a page may have none).
count() { { grep -oE "$1" "$dom" || true; } | wc -l; }
# The page draws the timeline twice (stretched and linear): count one of them.
bars=$(($(count '<rect class="bar ') / 2))
tasks=$(($(count '<g class="task" data-task=') / 2))
wakes=$(($(count '<line class="wake"') / 2))

"$browser" "${flags[@]}" --window-size=1400,1000 --screenshot="$screenshot" "file://$report_abs" \
  >/dev/null 2>"$profile/stderr" || {
  echo "error: screenshot failed:" >&2
  cat "$profile/stderr" >&2
  exit 1
}
if [[ ! -s "$screenshot" ]]; then
  echo "error: chromium wrote no screenshot to $screenshot" >&2
  exit 1
fi
echo "ok: $report rendered with 5 lanes, $tasks tasks, $bars phase bars, $wakes wake markers;" \
  "the axis toggle, the linear axis and the byte labels check out (${verdict#data-probe=})"
echo "screenshot: $screenshot"
