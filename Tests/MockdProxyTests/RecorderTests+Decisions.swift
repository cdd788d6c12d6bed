import Foundation
import MockdCore
import MockdDisk
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

        let loaded = MockDataLoader(files: DiskFiles(), root: space.root, routes: space.recorder().routesDirectory).load()
        let snapshot = try #require(loaded.snapshot, "\(loaded.diagnostics)")
        let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
        func body(_ request: MockRequest) -> String {
            let reply: Reply
            switch resolver.resolve(request) {
            case .respond(let answer), .respondAfter(_, let answer), .fault(_, let answer, _): reply = answer
            case .forward, .admin, .upgrade, .relay, .thenPush: return ""
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

extension RecorderTests {
    /// ETag, rate limits, any X- header and the names --record-headers adds make a 200 JSON answer a
    /// route keeping them; Date, Server, Content-Length and hop-by-hop headers are never kept.
    @Test func headersTheAppReadsMakeARoute() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        let recorder = Recorder(
            root: space.root, routesDirectory: space.routes, overwrite: false, keptHeaders: ["Cache-Control"], logger: testLogger)
        let transfer = [
            HTTPHeader("Date", "Mon, 01 Jan 2024 00:00:00 GMT"), HTTPHeader("Server", "nginx"), HTTPHeader("Content-Length", "2"),
            HTTPHeader("Connection", "keep-alive"), HTTPHeader("Transfer-Encoding", "chunked"),
        ]
        func answer(_ header: HTTPHeader) -> BuiltResponse {
            Self.json("{}", headers: [HTTPHeader("Content-Type", "application/json"), header] + transfer)
        }
        let kept = [
            HTTPHeader("ETag", "\"v1\""), HTTPHeader("X-Request-Id", "r-1"), HTTPHeader("RateLimit-Remaining", "9"),
            HTTPHeader("X-RateLimit-Reset", "60"), HTTPHeader("Cache-Control", "no-store"),
        ]
        for (index, header) in kept.enumerated() {
            #expect(recorder.record(MockRequest(method: "GET", path: "/h\(index)"), answer(header)) == .wroteRoute(index), "\(header.name)")
        }
        let routes = try space.routeTable()
        for (index, header) in kept.enumerated() {
            let headers = (routes[index]["response"] as? [String: Any])?["headers"] as? [String: String]
            #expect(headers == ["Content-Type": "application/json", header.name: header.value], "\(header.name)")
        }
        // Without a header the app reads, it stays a plain mock file.
        #expect(
            recorder.record(
                MockRequest(method: "GET", path: "/plain"),
                Self.json("{}", headers: [HTTPHeader("Content-Type", "application/json")] + transfer))
                == .wroteMock(space.root + "/mock_plain_get.json"))
    }

    /// An image is saved under its own extension, byte for byte, and a mockd on the recorded root
    /// serves it with its type; an undone Content-Encoding is said in the route's name.
    @Test func aBinaryBodyKeepsItsTypeAndAnUndoneCodingIsSaid() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        let recorder = space.recorder()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE]
        let image = BuiltResponse(status: 200, headers: [HTTPHeader("Content-Type", "image/png")], body: png, origin: .proxy(note: ""))
        #expect(recorder.record(MockRequest(method: "GET", path: "/logo"), image, undoneCoding: "gzip") == .wroteRoute(0))
        let route = try #require(try space.routeTable().first)
        #expect(route["name"] as? String == "recorded GET /logo (gzip undone)")
        let file = try #require((route["response"] as? [String: Any])?["file"] as? String)
        #expect(file.hasSuffix(".png"))
        #expect(FileManager.default.contents(atPath: space.root + "/" + file).map(Array.init) == png)

        let loaded = MockDataLoader(files: DiskFiles(), root: space.root, routes: space.routes).load()
        let snapshot = try #require(loaded.snapshot, "\(loaded.diagnostics)")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        guard
            case .respond(let reply) = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(
                MockRequest(method: "GET", path: "/logo"))
        else {
            Issue.record("expected an answer")
            return
        }
        switch reply.response {
        case .prepared(let prepared):
            #expect(prepared.body.array == png)
            #expect(prepared.headers.first(named: "Content-Type") == "image/png")
        case .built(let built):
            #expect(built.body == png)
            #expect(built.headers.first(named: "Content-Type") == "image/png")
        case .streamed:
            Issue.record("a recorded body is not a stream")
        }
    }
}
