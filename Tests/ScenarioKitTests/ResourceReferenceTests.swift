import Foundation
import ScenarioKit
import Testing

/// Templated URLs and a resource's `method`, checked when the file is read like a plain URL
/// typo (issue 27, item 7): before, each ran as a 404 or a 200 that an expectation could pass.
@Suite("Templated URLs and resource methods")
struct ResourceReferenceTests {
  static func reaction(url: String) -> String {
    """
    {"name": "r", "server": {"resources": [{"url": "https://example.com/ep-{n}.mp3", "count": 3, "size": "1MB"},
                                           {"url": "https://example.com/first.mp3", "size": "1MB"}]},
     "app": {"sessions": [{"identifier": "S"}], "behavior": {"on": [{"event": "didFinishDownloading", "task": "first",
       "do": [{"do": "download", "session": "S", "url": "\(url)", "name": "ep-{n}"}]}]}},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://example.com/first.mp3", "name": "first"}]}
    """
  }

  static func delayedAnswer(url: String) -> String {
    """
    {"name": "d", "server": {"resources": [{"url": "https://example.com/feed.json", "size": "1MB"},
                                           {"url": "https://example.com/new/feed.json", "size": "1MB"}]},
     "app": {"sessions": [{"identifier": "S"}], "behavior": {"willBeginDelayedRequest": [
       {"task": "feed", "answer": "useNewRequest", "url": "\(url)"}]}},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://example.com/feed.json", "name": "feed",
                   "earliestBegin": "+1h"}]}
    """
  }

  @Test("a reaction's {n} URL that can name no resource is refused as a plain typo is")
  func numberedTypo() {
    #expect(loaderProblems(Self.reaction(url: "https://example.com/ep-{n}.mp3")) == [])
    #expect(
      loaderProblems(Self.reaction(url: "https://example.com/epp-{n}.mp3"))
        == [
          "s.json: app.behavior.on[0].do[0].url: no resource 'https://example.com/epp-{n}.mp3' in server.resources; "
            + "did you mean 'https://example.com/ep-{n}.mp3'?"
        ])
  }

  @Test("a delayed-request answer's {task} URL that can name no resource is refused as a plain typo is")
  func taskTypo() {
    #expect(loaderProblems(Self.delayedAnswer(url: "https://example.com/new/{task}.json")) == [])
    #expect(
      loaderProblems(Self.delayedAnswer(url: "https://example.org/new/{task}.json"))
        == [
          "s.json: app.behavior.willBeginDelayedRequest[0].url: no resource 'https://example.org/new/{task}.json' "
            + "in server.resources; add it to server.resources"
        ])
  }

  static func fault(_ target: String) -> String {
    """
    {"name": "f", "server": {"resources": [{"url": "https://h{n}.example.com/f", "count": 3, "size": "1MB"}],
       "faults": [{"kind": "stall", "from": "1s", "to": "2s", \(target)}]},
     "app": {"sessions": [{"identifier": "S"}]},
     "timeline": [{"at": "0s", "do": "launch"}]}
    """
  }

  @Test("a fault may name one copy of a numbered resource, by URL or by host, as a download may")
  func faultOnACopy() {
    #expect(loaderProblems(Self.fault(#""url": "https://h2.example.com/f""#)) == [])
    #expect(loaderProblems(Self.fault(#""host": "h3.example.com""#)) == [])
    #expect(loaderProblems(Self.fault(#""host": "H3.example.com""#)) == [])
    #expect(
      loaderProblems(Self.fault(#""host": "h3x.example.com""#))
        == [
          "s.json: server.faults[0].host: no resource in server.resources is on host 'h3x.example.com'; "
            + "did you mean 'h{n}.example.com'?"
        ])
    #expect(
      loaderProblems(Self.fault(#""url": "https://h2.example.com/g""#))
        == [
          "s.json: server.faults[0].url: no resource 'https://h2.example.com/g' in server.resources; "
            + "add it to server.resources"
        ])
  }

  @Test("among several numbered resources, a fault and a download find the one whose copy they name")
  func severalNumberedResources() {
    let text = """
      {"name": "f", "server": {"resources": [{"url": "https://a{n}.example.com/f", "count": 2, "size": "1MB"},
                                             {"url": "https://cdn.example.com/ep-{n}.mp3", "count": 3, "size": "1MB"},
                                             {"url": "https://cdn.example.com/e{n}.mp3", "count": 3, "size": "1MB"}],
         "faults": [{"kind": "stall", "from": "1s", "to": "2s", "url": "https://cdn.example.com/e3.mp3"},
                    {"kind": "stall", "from": "1s", "to": "2s", "host": "a2.example.com"},
                    {"kind": "stall", "from": "1s", "to": "2s", "url": "https://cdn.example.com/ep-x.mp3"}]},
       "app": {"sessions": [{"identifier": "S"}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "S", "url": "https://cdn.example.com/ep-2.mp3", "name": "d"}]}
      """
    #expect(
      loaderProblems(text)
        == [
          "s.json: server.faults[2].url: no resource 'https://cdn.example.com/ep-x.mp3' in server.resources; "
            + "did you mean 'https://cdn.example.com/ep-{n}.mp3'?"
        ])
  }

  static func methods(resource: String, action: String) -> String {
    """
    {"name": "m", "server": {"resources": [\(resource)]}, "app": {"sessions": [{"identifier": "S"}]},
     "timeline": [{"at": "0s", "do": "launch"}, \(action)]}
    """
  }

  @Test("a download of a POST resource, and an upload to a GET one, are refused with the fix")
  func methodChecked() {
    let post = #"{"url": "https://example.com/up", "method": "POST", "responseBody": "1KB"}"#
    let get = #"{"url": "https://example.com/up", "size": "1KB"}"#
    let download =
      #"{"at": "1s", "do": "download", "session": "S", "url": "https://example.com/up", "name": "a"}"#
    let upload =
      #"{"at": "1s", "do": "upload", "session": "S", "url": "https://example.com/up", "name": "a", "from": "file", "size": "1MB"}"#
    #expect(loaderProblems(Self.methods(resource: post, action: upload)) == [])
    #expect(loaderProblems(Self.methods(resource: get, action: download)) == [])
    #expect(
      loaderProblems(Self.methods(resource: post, action: download))
        == [
          "s.json: timeline[1].url: resource 'https://example.com/up' takes POST (its \"method\" in server.resources); "
            + "a download or data task sends GET, so upload to it, or remove its \"method\""
        ])
    #expect(
      loaderProblems(Self.methods(resource: get, action: upload))
        == [
          "s.json: timeline[1].url: resource 'https://example.com/up' takes GET (its \"method\" in server.resources, "
            + "GET when not given); an upload sends POST or PUT, so give the resource \"method\": \"POST\" or \"PUT\""
        ])
  }
}
