#if canImport(Glibc)
    import Glibc
#endif
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdHTTP
import Testing
import TestSupport

/// A session is a base URL: `POST /__mockd/sessions` opens a port whose every request belongs
/// to the session, so an app under test only changes its base URL (no header of its own).
@Suite("Session ports")
struct SessionPortTests {
    /// One request to a session's base URL, as the app sends it (no mockd header).
    static func get(_ baseURL: String, _ path: String, headers: [String: String] = [:]) async throws -> HTTPResult {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (data, response) = try await session.data(for: request)
        return try HTTPResult(data, response)
    }

    @Test func aSessionsPortServesItsScenarioAndJournalsItsRequests() async throws {
        try await AdminHTTPTests.withServer { server in
            let opened = try await server.admin("POST", "/__mockd/sessions", body: #"{"id": "sim-3", "scenario": "empty"}"#)
            #expect(opened.status == 201)
            #expect(opened.object["id"] as? String == "sim-3")
            #expect(opened.object["scenario"] as? String == "empty")
            let port = try #require(opened.object["port"] as? Int)
            let baseURL = try #require(opened.object["baseURL"] as? String)
            #expect(baseURL == "http://127.0.0.1:\(port)")
            #expect(port != server.test.port)

            // The app sends no header: the port says which session it is.
            let answered = try await Self.get(baseURL, "/api/users")
            #expect(answered.text == "[]")
            // An explicit X-Mock-Scenario still applies per request; X-Mock-Session cannot move it.
            let error = try await Self.get(baseURL, "/api/users", headers: ["X-Mock-Scenario": "error", "X-Mock-Session": "other"])
            #expect(error.status == 500)
            // The main port is untouched.
            let main = try await server.request("GET", "/api/users")
            #expect(main.text.contains("Ada"))
            let journal = try await server.admin("GET", "/__mockd/requests?session=sim-3").object
            #expect(RequestWaitTests.entries(journal).map { $0["path"] as? String } == ["/api/users", "/api/users"])
            let listed = (try await server.admin("GET", "/__mockd/sessions").object["sessions"] as? [[String: Any]]) ?? []
            #expect(listed.map { $0["id"] as? String } == ["sim-3"])
        }
    }

    @Test func theAdminAPIIsNotOnASessionsPort() async throws {
        try await AdminHTTPTests.withServer { server in
            let opened = try await server.admin("POST", "/__mockd/sessions")
            #expect(opened.status == 201)
            #expect(opened.object["id"] as? String == "s1")
            let baseURL = try #require(opened.object["baseURL"] as? String)
            let health = try await Self.get(baseURL, "/__mockd/health")
            #expect(health.status == 404)
            #expect(
                try health.jsonObject()["error"] as? String
                    == "no admin API on a session's port: GET /__mockd/health goes to mockd's main port")
        }
    }

    @Test func mistakesAreRefused() async throws {
        try await AdminHTTPTests.withServer(configure: { $0.maxSessions = 1 }) { server in
            #expect(try await server.admin("POST", "/__mockd/sessions", body: #"{"id": "a b"}"#).status == 400)
            let unknown = try await server.admin("POST", "/__mockd/sessions", body: #"{"scenario": "nope"}"#)
            #expect(unknown.status == 400)
            #expect((unknown.object["known"] as? [String])?.contains("empty") == true)
            #expect(try await server.admin("POST", "/__mockd/sessions", body: #"{"id": "A", "sceanrio": "empty"}"#).status == 400)
            #expect(try await server.admin("POST", "/__mockd/sessions", body: #"{"id": "A"}"#).status == 201)
            let again = try await server.admin("POST", "/__mockd/sessions", body: #"{"id": "A"}"#)
            #expect(again.status == 409)
            let full = try await server.admin("POST", "/__mockd/sessions", body: #"{"id": "B"}"#)
            #expect(full.status == 503)
            #expect((full.object["error"] as? String)?.contains("--max-sessions 1") == true)
            #expect(try await server.admin("DELETE", "/__mockd/sessions/nope").status == 404)
        }
    }

    @Test func closingASessionClosesItsPortAndForgetsItsState() async throws {
        try await AdminHTTPTests.withServer { server in
            let opened = try await server.admin("POST", "/__mockd/sessions", body: #"{"id": "gone", "scenario": "empty"}"#)
            let baseURL = try #require(opened.object["baseURL"] as? String)
            #expect(
                try await server.admin(
                    "POST", "/__mockd/stubs", body: #"{"method": "GET", "path": "/x", "response": {"text": "x"}, "session": "gone"}"#
                ).status == 201)
            #expect(try await Self.get(baseURL, "/x").text == "x")
            let closed = try await server.admin("DELETE", "/__mockd/sessions/gone")
            #expect(closed.status == 200)
            #expect(closed.object["deleted"] as? Bool == true)
            // Nothing of this mockd answers on the port any more. (Servers of the tests running
            // beside this one take free ports all the time, so another may already listen on
            // the number: then it answers, and this server's journal does not have the request.)
            let probe = "/after-close-\(UUID().uuidString)"
            if (try? await Self.get(baseURL, probe)) != nil {
                let journal = RequestWaitTests.entries(try await server.admin("GET", "/__mockd/requests").object)
                #expect(!journal.contains { ($0["path"] as? String) == probe }, "the closed port still answered for this server")
            }
            #expect(try await server.admin("GET", "/__mockd/scenario?session=gone").object["scenario"] as? String == "default")
            #expect(((try await server.admin("GET", "/__mockd/stubs").object["stubs"] as? [Any]) ?? [1]).isEmpty)
            #expect(try await server.admin("DELETE", "/__mockd/sessions/gone").status == 404)
        }
    }

    @Test func aDelayedRequestOnAClosingPortIsAnsweredNotAborted() async throws {
        try await AdminHTTPTests.withServer { server in
            let opened = try await server.admin("POST", "/__mockd/sessions", body: #"{"id": "slow"}"#)
            let baseURL = try #require(opened.object["baseURL"] as? String)
            #expect(
                try await server.admin(
                    "POST", "/__mockd/stubs", body: #"{"method": "GET", "path": "/slow", "response": {"text": "late", "delayMs": 600000}}"#
                ).status == 201)
            async let slow = Self.get(baseURL, "/slow")
            // Closed once the request is parked (the journal has it only when answered, so ask the server).
            let deadline = ContinuousClock.now + .seconds(30)
            while server.test.server.parkedCount == 0 && ContinuousClock.now < deadline { await Task.yield() }
            #expect(try await server.admin("DELETE", "/__mockd/sessions/slow").status == 200)
            #expect(try await slow.text == "late")
        }
    }

    @Test func aStreamOnAClosingPortSendsWhatIsLeftAndTheCloseDoesNotWaitForIt() async throws {
        try await AdminHTTPTests.withServer { server in
            let opened = try await server.admin("POST", "/__mockd/sessions", body: #"{"id": "streaming"}"#)
            let port = try #require(opened.object["port"] as? Int)
            let stub = #"{"method": "GET", "path": "/feed", "response": {"stream": {"chunks": ["a", "b", "c"], "intervalMs": 600000}}}"#
            #expect(try await server.admin("POST", "/__mockd/stubs", body: stub).status == 201)
            let stream = Task {
                try await blocking { () -> ([String], RawConnection.StreamEnd) in
                    let connection = try RawConnection(port: port)
                    try connection.send(RawConnection.request("GET", "/feed"))
                    _ = try connection.readResponse(head: true)
                    let rest = try connection.readStreamBody()
                    return (rest.chunks.map { String(decoding: $0, as: UTF8.self) }, rest.end)
                }
            }
            // Closed once the stream waits for its second piece.
            let deadline = ContinuousClock.now + .seconds(30)
            while server.test.server.parkedCount == 0 && ContinuousClock.now < deadline { await Task.yield() }
            let started = ContinuousClock.now
            #expect(try await server.admin("DELETE", "/__mockd/sessions/streaming").status == 200)
            #expect(ContinuousClock.now - started < .seconds(5), "the close waited for the stream instead of ending it")
            let (chunks, end) = try await stream.value
            #expect(chunks == ["a", "b", "c"])
            #expect(end == .complete)
        }
    }

    @Test func thePortRangeOptionIsParsed() throws {
        #expect(ServerConfiguration.portRange("50000-50003") == 50000...50003)
        for bad in ["50000", "5-1", "0-10", "1-70000", "a-b"] {
            #expect(ServerConfiguration.portRange(bad) == nil, "\(bad)")
        }
    }
}

/// `mockd health --wait S`: what a test's pre-action runs after starting mockd in the background.
@Suite("Health wait")
struct HealthWaitTests {
    /// A port nothing listens on now (bound, read, released).
    static func unusedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func healthWaitsForAMockdThatStartsLater() async throws {
        let port = try Self.unusedPort()
        try await withTemporaryFolder(["MockData/mock_api_a_get.json": "{}"]) { folder async throws in
            let waited = Task {
                try await runProcess(
                    SecondHourTests.run, ["health", "--port", String(port), "--wait", "60"], currentDirectory: folder.path)
            }
            try await FirstHourTests.withMockd(["--root", "MockData", "--no-routes", "--port", String(port)], in: folder.path) { _, _ in
                let result = try await waited.value
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout.contains("\"status\": \"ok\""), "\(result)")
            }
        }
    }

    @Test func healthWithoutAMockdFailsOnceTheWaitIsOver() async throws {
        let port = try Self.unusedPort()
        let result = try await runProcess(SecondHourTests.run, ["health", "--port", String(port), "--wait", "1"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("(asked for 1 s)"), "\(result)")
    }
}
