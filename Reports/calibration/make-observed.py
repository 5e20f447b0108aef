#!/usr/bin/env python3
"""Builds ios-12.4-observed.jsonl: what the app saw in ios-12.4-world.json (from
`bgsim run --trace-out`, app-visible kinds only) plus the three lines nsurlsessiond printed in
Console on the iPhone 7 (Apple Developer Forums thread 128813), as ratelimiter.wake events.

The world puts the first wake at 30 s; the Console times fix the other two relative to it.
Usage: bgsim run ios-12.4-world.json --trace-out full.jsonl && python3 make-observed.py full.jsonl
"""
import json
import sys

# Console, iOS 12.4: "Set request delay for <app> to N" at each wake.
CONSOLE = [
    ("22:02:42.313511", 60),
    ("22:03:53.193396", 120),
    ("22:04:52.505582", 240),
]
FIRST_WAKE_NS = 30_000_000_000


def seconds(clock):
    h, m, s = clock.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def duration(ns):
    """SimDuration.formatted for whole microseconds and up (the times here)."""
    out, n = "", ns
    for size, unit in ((86_400 * 10**9, "d"), (3_600 * 10**9, "h"), (60 * 10**9, "m")):
        if n >= size:
            out += f"{n // size}{unit}"
            n %= size
    if n or not out:
        whole, frac = divmod(n, 10**9)
        out += str(whole) + (("." + f"{frac:09d}".rstrip("0")) if frac else "") + "s"
    return out


APP_VISIBLE = ("app.launch", "app.foreground", "app.background", "app.completionHandlerCalled",
               "task.created", "network.change", "power.change")

lines = []
for raw in open(sys.argv[1]):
    event = json.loads(raw)
    kind = event["kind"]
    if kind in APP_VISIBLE or kind.startswith("delegate."):
        lines.append((event["t"], raw.rstrip("\n")))
origin = seconds(CONSOLE[0][0])
for n, (clock, delay) in enumerate(CONSOLE, start=1):
    t = FIRST_WAKE_NS + round((seconds(clock) - origin) * 1e6) * 1000
    line = (f'{{"t": {t}, "at": "{duration(t)}", "kind": "ratelimiter.wake", "delay": "{duration(delay * 10**9)}", '
            f'"wake": {n}, "console": "default {clock} -0800 nsurlsessiond Set request delay to {delay}.000000"}}')
    lines.append((t, line))
# Stable: a Console line goes before the app's events at the same instant (the delay grows first).
lines.sort(key=lambda pair: (pair[0], 0 if '"ratelimiter.wake"' in pair[1] else 1))
with open("ios-12.4-observed.jsonl", "w") as out:
    for _, line in lines:
        out.write(line + "\n")
