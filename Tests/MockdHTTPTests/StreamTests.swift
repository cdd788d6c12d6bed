import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdDisk
import MockdHTTP
import Testing
import TestSupport

/// Streaming answers: server-sent events and timed chunks, each piece when its time comes,
/// with the connection suspended in between (no thread waits).
@Suite("Streams")
struct StreamTests {
    static let chat =
        #"{"method": "POST", "path": "/api/v1/chat", "response": {"stream": {"events": [{"data": {"delta": "Hel"}}, {"data": {"delta": "lo"}, "delayMs": 150}, {"event": "done", "id": "3", "data": "[DONE]"}], "intervalMs": 100}}}"#
    static let table = routeTable(
        chat,
        #"{"method": "GET", "path": "/api/lines", "response": {"stream": {"events": [{"data": "one\ntwo"}, {"retry": 500, "data": ""}]}}}"#,
        #"{"method": "GET", "path": "/api/download", "response": {"text": "0123456789abcdefghij", "stream": {"bytesPerSecond": 50}}}"#,
        #"{"method": "GET", "path": "/api/cut", "response": {"stream": {"chunks": ["a", {"base64": "Yg=="}, "c"], "intervalMs": 50, "cutAfter": 2}}}"#,
        #"{"method": "GET", "path": "/api/reset", "response": {"fault": "reset", "stream": {"chunks": ["a", "b", "c"], "intervalMs": 50, "cutAfter": 1}}}"#,
        #"{"method": "GET", "path": "/api/slow", "response": {"stream": {"chunks": ["first", "second"], "intervalMs": 600000}}}"#,
        #"{"method": "GET", "path": "/api/hello/:name", "response": {"template": true, "stream": {"events": [{"data": {"greeting": "hi {{path.name}}"}}, {"data": "from {{query.city}}"}]}}}"#,
        #"{"method": "GET", "path": "/api/ticks", "response": {"stream": {"events": [{"id": "1", "data": "a"}, {"id": "2", "data": "b"}, {"data": "c"}, {"id": "3", "data": "d"}]}}}"#
    )

    static let eventsFile = "data: {\"n\": 1}\n\nevent: tick\ndata: two\ndata: lines\n\r\n\r\ndata: [DONE]\n"
    /// Events with ids, as a `.sse` file writes them (`id:` with and without its space).
    static let eventsWithIDs = "id: 1\ndata: a\n\nid:2\ndata: b\n\ndata: c\n\nid: 3\ndata: d\n"

    static func withServer<T>(_ body: (RouteServer) async throws -> T) async throws -> T {
        try await withRouteServer(
            files: [
                "mock_api_users_get.json": "[]", "mock_api_feed_get.sse": eventsFile, "mock_api_news_get.sse": eventsWithIDs,
            ], tables: ["streams.json": table], body)
    }

    /// The stream's head and chunks, each chunk with how long after the request was sent it
    /// arrived: the server cannot send a piece before its time, so these are lower bounds
    /// whatever the load (the gap between two arrivals is not: a late first read shortens it).
    static func stream(_ server: RouteServer, _ method: String, _ target: String, headers: [(String, String)] = []) async throws
        -> (response: RawResponse, chunks: [(bytes: [UInt8], at: Duration)], end: RawConnection.StreamEnd)
    {
        try await server.test.withRawConnection { connection in
            let sent = ContinuousClock.now
            try connection.send(RawConnection.request(method, target, headers: headers, body: method == "POST" ? Array("{}".utf8) : []))
            let (response, chunks, end) = try connection.readStream()
            return (response, chunks.map { ($0.bytes, sent.duration(to: $0.at)) }, end)
        }
    }

    @Test func serverSentEventsAreFramedAndSentAsTheirTimeComes() async throws {
        try await Self.withServer { server in
            let (response, chunks, end) = try await Self.stream(server, "POST", "/api/v1/chat")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/event-stream")
            #expect(response.header("Cache-Control") == "no-cache")
            #expect(end == .complete)
            let text = chunks.map { String(decoding: $0.bytes, as: UTF8.self) }
            #expect(text == ["data: {\"delta\":\"Hel\"}\n\n", "data: {\"delta\":\"lo\"}\n\n", "event: done\nid: 3\ndata: [DONE]\n\n"])
            // Lower bounds only: the second waits its own 150 ms, the third the 100 ms interval after it.
            #expect(chunks[1].at >= .milliseconds(150))
            #expect(chunks[2].at >= .milliseconds(250))
            let journal = try await server.admin("GET", "/__mockd/requests?path=/api/v1/chat").object
            #expect(
                RequestWaitTests.entries(journal).first?["source"] as? String
                    == "route \(server.routes)/streams.json#0 (stream: 3 of 3 events, complete)")
        }
    }

    @Test func anSSEFileIsServedAsAStreamOfItsEvents() async throws {
        try await Self.withServer { server in
            let (response, chunks, end) = try await Self.stream(server, "GET", "/api/feed")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/event-stream")
            #expect(response.header("X-Mockd-Source") == "file mock_api_feed_get.sse")
            #expect(end == .complete)
            // Blank lines (LF or CR LF) separate events; each goes as written, ending in a blank line.
            #expect(
                chunks.map { String(decoding: $0.bytes, as: UTF8.self) }
                    == ["data: {\"n\": 1}\n\n", "event: tick\ndata: two\ndata: lines\n\n", "data: [DONE]\n\n"])
            // The default interval, 50 ms, between events: lower bounds only.
            #expect(chunks[2].at >= .milliseconds(100))
        }
    }

    /// A reconnecting EventSource sends the id of the last event it had: a real server goes on
    /// after that event (and the events without ids that followed it), not from the first.
    @Test(arguments: ["/api/ticks", "/api/news"])
    func lastEventIDResumesAfterThatEvent(_ path: String) async throws {
        try await Self.withServer { server in
            let (response, chunks, end) = try await Self.stream(server, "GET", path, headers: [("Last-Event-ID", "2")])
            #expect(response.status == 200)
            #expect(response.header("X-Mockd-Warning") == nil)
            #expect(end == .complete)
            #expect(chunks.map { String(decoding: $0.bytes, as: UTF8.self) } == ["data: c\n\n", "id: 3\ndata: d\n\n"])
            // After the last event: nothing is left to send, and the stream ends cleanly.
            let (_, after, last) = try await Self.stream(server, "GET", path, headers: [("Last-Event-ID", "3")])
            #expect(after.isEmpty)
            #expect(last == .complete)
        }
    }

    /// An id the stream does not have: the server cannot know where the client was, so the
    /// whole stream goes, and the warning says why.
    @Test(arguments: ["/api/ticks", "/api/news"])
    func anUnknownLastEventIDSendsTheWholeStreamWithAWarning(_ path: String) async throws {
        try await Self.withServer { server in
            let (response, chunks, _) = try await Self.stream(server, "GET", path, headers: [("Last-Event-ID", "9")])
            #expect(chunks.count == 4)
            #expect(response.header("X-Mockd-Warning")?.contains("Last-Event-ID") == true, "\(response)")
        }
    }

    @Test func aStreamWithoutIDsIgnoresLastEventID() async throws {
        try await Self.withServer { server in
            let (response, chunks, _) = try await Self.stream(server, "GET", "/api/feed", headers: [("Last-Event-ID", "2")])
            #expect(chunks.count == 3)
            #expect(response.header("X-Mockd-Warning") == nil)
        }
    }

    @Test func templatesWorkInsideEvents() async throws {
        try await Self.withServer { server in
            let (_, chunks, end) = try await Self.stream(server, "GET", "/api/hello/A%22da?city=Oslo")
            #expect(end == .complete)
            // In JSON data a value is escaped for a JSON string (the quote in the name stays valid JSON).
            #expect(
                chunks.map { String(decoding: $0.bytes, as: UTF8.self) } == [
                    "data: {\"greeting\":\"hi A\\\"da\"}\n\n", "data: from Oslo\n\n",
                ])
        }
    }

    @Test func curlReadsTheEventsAsTheyAreWritten() async throws {
        try await Self.withServer { server in
            let result = try await runProcess("/usr/bin/curl", ["-sN", "http://127.0.0.1:\(server.test.port)/api/lines"])
            #expect(result.status == 0)
            // A multi-line string is one data line per line; an empty one is one empty data line.
            #expect(result.stdout == "data: one\ndata: two\n\nretry: 500\ndata: \n\n")
        }
    }

    @Test func bytesPerSecondSendsTheBodyInTimedPieces() async throws {
        try await Self.withServer { server in
            let (_, chunks, end) = try await Self.stream(server, "GET", "/api/download")
            #expect(end == .complete)
            #expect(chunks.map(\.bytes.count) == [5, 5, 5, 5])
            #expect(String(decoding: chunks.flatMap(\.bytes), as: UTF8.self) == "0123456789abcdefghij")
            #expect(chunks.last!.at >= .milliseconds(300))
        }
    }

    @Test func cutAfterEndsTheStreamWithoutItsEnd() async throws {
        try await Self.withServer { server in
            let (_, chunks, end) = try await Self.stream(server, "GET", "/api/cut")
            #expect(chunks.map { String(decoding: $0.bytes, as: UTF8.self) } == ["a", "b"])
            #expect(end == .closed)
            let journal = try await server.admin("GET", "/__mockd/requests?path=/api/cut").object
            #expect((RequestWaitTests.entries(journal).first?["source"] as? String)?.hasSuffix("(stream: 2 of 3 chunks, cut)") == true)
        }
    }

    @Test func cutAfterWithAResetResetsTheConnection() async throws {
        try await Self.withServer { server in
            let (_, chunks, end) = try await Self.stream(server, "GET", "/api/reset")
            #expect(chunks.map { String(decoding: $0.bytes, as: UTF8.self) } == ["a"])
            #expect(end == .reset)
        }
    }

    @Test func aClientLeavingMidStreamEndsItAndFreesTheConnection() async throws {
        try await Self.withServer { server in
            try await server.test.withRawConnection { connection in
                try connection.send(RawConnection.request("GET", "/api/slow"))
                let (response, _, _) = (try connection.readResponse(head: true), 0, 0)
                #expect(response.status == 200)
                connection.close()
            }
            // The next piece is due in ten minutes; the stream ends (and is journaled) once the
            // server sees the client gone, not then.
            let ended = try await server.admin("GET", "/__mockd/requests?path=/api/slow&count=1&wait=30")
            #expect(ended.object["complete"] as? Bool == true)
            #expect(
                (RequestWaitTests.entries(ended.object).first?["source"] as? String)?.hasSuffix("(stream: 1 of 2 chunks, the client left)")
                    == true,
                "\(ended.object)")
            #expect(server.test.server.parkedCount == 0)
        }
    }

    @Test(arguments: [
        (#"{"stream": {"events": [{"dta": 1}]}}"#, "stream.events[0]"),
        (#"{"stream": {"events": [], "chunks": []}}"#, "stream"),
        (#"{"stream": {"chunks": [{"base64": "!!"}]}}"#, "stream.chunks[0].base64"),
        (#"{"stream": {"chunks": ["a"], "cutAfter": 5}}"#, "stream.cutAfter"),
        (#"{"stream": {"bytesPerSecond": 10}}"#, "stream"),
    ])
    func aBadStreamIsAConfigurationErrorNamingItsPlace(_ response: String, _ place: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write([
            "MockData/mock_a_get.json": "{}", "routes/s.json": routeTable(#"{"method": "GET", "path": "/s", "response": \#(response)}"#),
        ])
        let loaded = MockDataLoader(files: DiskFiles(), root: folder.path + "/MockData", routes: folder.path + "/routes").load()
        let messages = loaded.diagnostics.map(\.description)
        #expect(messages.contains { $0.contains("routes[0].response.\(place):") }, "\(messages)")
    }
}

/// SIGTERM in the middle of a stream: what is left goes at once, the stream ends cleanly, and
/// mockd exits 0 (a real `mockd` process).
@Suite("Streams and SIGTERM", .timeLimit(.minutes(2)))
struct StreamShutdownTests {
    @Test func sigtermSendsWhatIsLeftAndExitsZero() async throws {
        try await withTemporaryFolder([
            "MockData/mock_a_get.json": "{}",
            "routes/s.json": routeTable(
                #"{"method": "GET", "path": "/slow", "response": {"stream": {"chunks": ["first", "second", "third"], "intervalMs": 600000}}}"#
            ),
        ]) { folder async throws in
            try await FirstHourTests.withMockd(["--root", "MockData", "--routes", "routes", "--port", "0"], in: folder.path) {
                mockd, startup async throws in
                let port = startup.port
                let pid = mockd.pid
                let (chunks, end) = try await blocking { () -> ([String], RawConnection.StreamEnd) in
                    let connection = try RawConnection(port: port)
                    try connection.send(RawConnection.request("GET", "/slow"))
                    // The head and the first piece arrive; the next is ten minutes away. Then stop mockd.
                    _ = try connection.readResponse(head: true)
                    kill(pid, SIGTERM)
                    let rest = try connection.readStreamBody()
                    return (rest.chunks.map { String(decoding: $0, as: UTF8.self) }, rest.end)
                }
                #expect(chunks == ["first", "second", "third"])
                #expect(end == .complete)
                let status = try await blocking { mockd.waitForExit() }
                #expect(status == 0)
            }
        }
    }
}
