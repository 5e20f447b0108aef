/// A scenario that uses every section and form of scenario-format.md, shared by the tests.
enum Fixtures {
  static let fullScenario = #"""
    {
      "name": "relaunch-after-termination",
      "description": "one line that says what this scenario shows",
      "seed": 42,
      "duration": "7d",
      "x-note": "ignored",
      "device": {
        "network": [ {"at": "0s",  "interface": "wifi", "down": "50Mbps", "up": "10Mbps", "latency": "30ms"},
                     {"at": "20m", "interface": "cellular", "down": "5Mbps", "up": "1Mbps", "expensive": true},
                     {"at": "40m", "interface": "none"} ],
        "power":   [ {"at": "0s", "charging": false, "battery": 0.62, "lowPowerMode": false},
                     {"at": "1h", "charging": true} ],
        "backgroundAppRefresh": true
      },
      "server": {
        "resources": [ {"url": "https://example.com/book.zip", "size": "50MB", "etag": "v1",
                        "acceptsRanges": true, "status": 200, "redirectTo": null,
                        "responseBody": "1KB"},
                       {"url": "https://example.com/next.zip", "size": "1.5MiB"},
                       {"url": "https://example.com/upload", "method": "POST", "responseBody": 512} ],
        "changes":   [ {"at": "2h", "url": "https://example.com/book.zip", "etag": "v2", "size": "51MB"} ],
        "faults":    [ {"at": "10m", "url": "https://example.com/book.zip", "kind": "dropConnection", "times": 1},
                       {"from": "1h", "to": "2h", "host": "example.com", "kind": "status", "status": 503} ]
      },
      "policy": {
        "rateLimiter":   {"initialDelay": "0s", "firstDelay": "1m", "growth": 2.5, "maxDelay": "2h",
                          "resetOnForeground": true, "idleResetFactor": 1.5},
        "discretionary": {"requires": ["wifi"], "avoidLowPowerMode": false},
        "backgroundRunTime": "30s",
        "completionHandlerTimeout": "20s",
        "maxConnectionsPerHost": 6,
        "retry": {"backoff": "5s", "maxBackoff": "5m"}
      },
      "app": {
        "sessions": [ {"identifier": "MySession", "kind": "background", "discretionary": true,
                       "sendsLaunchEvents": true, "allowsCellularAccess": false,
                       "allowsExpensiveNetworkAccess": true, "allowsConstrainedNetworkAccess": true,
                       "timeoutForRequest": "60s", "timeoutForResource": "7d",
                       "httpMaximumConnectionsPerHost": 2},
                      {"identifier": "Fg", "kind": "default", "waitsForConnectivity": true} ],
        "behavior": {
          "recreatesSessionsOnLaunch": true,
          "storesCompletionHandler": false,
          "callsCompletionHandler": "immediately",
          "movesDownloadedFile": true,
          "on": [ {"event": "didFinishDownloading", "task": "chapter-*",
                   "do": [ {"do": "download", "session": "MySession", "url": "https://example.com/next.zip",
                            "name": "next-{n}", "earliestBegin": "+30s"} ]} ]
        }
      },
      "timeline": [
        {"at": "1m", "do": "background"},
        {"at": "0s", "do": "launch"},
        {"at": "10s", "do": "download", "session": "MySession", "url": "https://example.com/book.zip", "name": "book",
         "earliestBegin": "1h", "expectsToReceive": "50MB", "description": "{\"id\":1}", "priority": 0.75},
        {"at": "10s", "do": "download", "session": "MySession", "url": "https://example.com/book.zip", "name": "chapter-1"},
        {"at": "20s", "do": "upload", "session": "Fg", "url": "https://example.com/upload", "name": "up", "from": "file", "size": "2MB"},
        {"at": "2m", "do": "cancel", "task": "book", "produceResumeData": true},
        {"at": "3m", "do": "resumeFromData", "task": "book", "name": "book2"},
        {"at": "4m", "do": "getAllTasks", "session": "MySession"},
        {"at": "5m", "do": "terminate"},
        {"at": "6m", "do": "forceQuit"},
        {"at": "7m", "do": "invalidate", "session": "Fg", "cancelTasks": true}
      ],
      "expect": [
        {"task": "book", "state": "completed", "by": "2h"},
        {"task": "book", "startsAfter": "1h"},
        {"task": "book", "error": "cancelled", "reason": "userForceQuitApplication"},
        {"task": "book2", "resumedAtOffset": "12MB"},
        {"task": "book", "status": 503},
        {"task": "next-1", "state": "completed"},
        {"app": "backgroundLaunches", "equals": 1},
        {"app": "backgroundResumes", "atLeast": 2},
        {"rateLimiter": "delayAtWake", "wake": 3, "equals": "4m"},
        {"trace": ["app.launch reason=background", "delegate.handleEvents session=MySession"], "inOrder": true},
        {"trace": "delegate.didComplete task=book", "count": 1},
        {"trace": "delegate.didComplete task=*", "count": {"atLeast": 2}},
        {"trace": "task.started task=book"},
        {"lint": "completionHandlerNeverCalled", "present": true}
      ]
    }
    """#
}
