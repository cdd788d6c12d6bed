import Foundation
import MockdCore
import MockdHTTP
@testable import MockdProxy
import Synchronization
import Testing
import TestSupport

extension RecorderTests {
    /// A query that matters: /api/feed?page=2 after ?page=1 was recorded is a route matching the
    /// query; the plain file keeps the first answer, and a mockd on the recorded root serves both.
    /// (While recording, mockd does not reload on its own writes, so every page reaches the upstream.)
    @Test func aQueryThatMattersIsRecordedAsARouteMatchingIt() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        let recorder = space.recorder()
        func feed(_ page: String) -> MockRequest {
            MockRequest(method: "GET", path: "/api/feed", query: [("page", page)], rawQuery: "page=" + page)
        }
        #expect(recorder.record(feed("1"), Self.json(#"{"page":1}"#)) == .wroteMock(space.root + "/mock_api_feed_get.json"))
        #expect(recorder.record(feed("2"), Self.json(#"{"page":2}"#)) == .wroteRoute(0))
        #expect(recorder.record(feed("2"), Self.json(#"{"page":2}"#)) == .duplicate(2))
        // A new run keeps what is there.
        #expect(space.recorder().record(feed("2"), Self.json(#"{"page":22}"#)) == .keptExisting(space.recorder().routesFile + "#0"))

        let loaded = MockDataLoader(root: space.root, routes: space.recorder().routesDirectory).load()
        let snapshot = try #require(loaded.snapshot, "\(loaded.diagnostics)")
        let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
        func body(_ request: MockRequest) -> String {
            let reply: Reply
            switch resolver.resolve(request) {
            case .respond(let answer), .respondAfter(_, let answer), .fault(_, let answer, _): reply = answer
            case .forward, .admin, .refuse, .close: return ""
            }
            switch reply.response {
            case .prepared(let prepared): return String(decoding: prepared.body.array, as: UTF8.self)
            case .built(let built): return String(decoding: built.body, as: UTF8.self)
            case .streamed(let streamed): return String(decoding: streamed.stream.pieces.flatMap(\.bytes), as: UTF8.self)
            }
        }
        #expect(body(feed("2")).contains(#""page":2"#) || body(feed("2")).contains(#""page": 2"#), "\(body(feed("2")))")
        #expect(body(feed("1")).contains(#""page":1"#), "\(body(feed("1")))")
        #expect(body(MockRequest(method: "GET", path: "/api/feed")).contains(#""page":1"#))
    }

    @Test func aQueryThatCannotBeMatchedLiterallyIsSkipped() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        let recorder = space.recorder()
        #expect(recorder.record(MockRequest(method: "GET", path: "/s"), Self.json("[]")) == .wroteMock(space.root + "/mock_s_get.json"))
        let starred = recorder.record(MockRequest(method: "GET", path: "/s", query: [("q", "a*")], rawQuery: "q=a*"), Self.json("[1]"))
        guard case .skipped = starred else { Issue.record("\(starred)"); return }
    }
}

extension RecorderTests {
    /// The log says what recording did in words, not as a Swift value (`wroteMock("…")`).
    @Test func outcomesReadAsWords() {
        #expect("\(RecordOutcome.wroteMock("MockData/mock_a_get.json"))" == "wrote MockData/mock_a_get.json")
        #expect("\(RecordOutcome.wroteRoute(3))" == "wrote route #3 of recorded.json")
        #expect("\(RecordOutcome.skipped("HEAD is answered from the GET mock"))" == "not recorded: HEAD is answered from the GET mock")
        #expect(!"\(RecordOutcome.duplicate(2))".contains("duplicate("))
    }
}
