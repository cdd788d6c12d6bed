import Foundation
import InMemoryLogging
import Logging
import MockdCore
import MockdHTTP
import Testing
import TestSupport

/// Every request whose head mockd read ends in exactly one access line and one journal entry:
/// answered, refused, timed out while its body was awaited, or left by its client.
@Suite("Unfinished requests")
struct UnfinishedRequestTests {
    /// A POST that announces 2,048 bytes; `100 Continue` proves its head was read.
    static let head =
        "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2048\r\nExpect: 100-continue\r\n\r\n"

    /// What one request left: its access lines and journal entries, once nothing is in flight;
    /// and what the client saw.
    struct Trace<Seen: Sendable> {
        var lines: [AccessRecord]
        var entries: [RequestJournal.Entry]
        var seen: Seen
    }

    /// Runs `client` against a server configured by `configure`, waits until the server has
    /// completed every request, and returns what was logged and journaled for `path`.
    static func trace<Seen: Sendable>(
        path: String = "/api/v1/sleep", configure: @escaping (inout ServerConfiguration) -> Void,
        _ client: @escaping @Sendable (RawConnection) throws -> Seen
    ) async throws -> Trace<Seen> {
        let log = InMemoryLogHandler()
        return try await withTestServer(configure: configure, logger: Logger(label: "mockd-test", factory: { _ in log })) { server in
            let seen = try await server.withRawConnection(client)
            // The request's own trace first: on a busy machine the server may not have read the
            // request line yet when the client is done, and then nothing is in flight to wait for.
            _ = try await server.request("GET", "/__mockd/requests?path=\(path)&count=1&wait=30")
            let server = server.server
            let settled = try await blocking { server.waitUntilNoRequestInFlight(timeout: eventDeadline) }
            #expect(settled, "a request is still in flight")
            let lines = Self.accessLines(log)
            return Trace(lines: lines.filter { $0.path == path }, entries: server.journal.entries().filter { $0.path == path }, seen: seen)
        }
    }

    /// The access lines `log` received, in order.
    static func accessLines(_ log: InMemoryLogHandler) -> [AccessRecord] {
        log.entries.filter { $0.message == "request" }.compactMap { entry -> AccessRecord? in
            guard case .stringConvertible(let value)? = entry.metadata[AccessRecord.metadataKey] else { return nil }
            return value as? AccessRecord
        }
    }

    /// Sends the head, reads `100 Continue`, then sends 512 of the 2,048 bytes.
    static func sendHalfABody(_ connection: RawConnection) throws {
        try connection.send(head)
        let interim = try connection.readResponse()
        guard interim.status == 100 else { throw RawHTTPError(description: "expected 100 Continue: \(interim)") }
        try connection.send([UInt8](repeating: UInt8(ascii: "x"), count: 512))
    }

    @Test func clientLeavesMidBody_OneLineAndOneEntrySayHowFarItGot() async throws {
        let trace = try await Self.trace(configure: { $0.idleTimeoutSeconds = 30 }) { connection in
            try Self.sendHalfABody(connection)
            connection.close()
        }
        #expect(trace.lines.map(\.status) == [0], "\(trace.lines)")
        #expect(trace.lines.first?.source == "client left after 512 of 2,048 body bytes")
        #expect(trace.entries.count == 1)
        let entry = try #require(trace.entries.first)
        #expect(entry.kind == .unfinished && entry.status == 0)
        #expect(entry.source == "client left after 512 of 2,048 body bytes")
        #expect(entry.method == "POST" && entry.body.count == 512)
    }

    @Test func bodyStopsComing_408AtTheIdleTimeout_OneLineAndOneEntry() async throws {
        // No body rate rule: libmicrohttpd's idle timeout (1 s) ends the wait.
        let trace = try await Self.trace(configure: {
            $0.idleTimeoutSeconds = 1; $0.minimumBodyRate = 0
        }) { connection in
            try Self.sendHalfABody(connection)
            return try connection.readResponse()
        }
        let response = trace.seen
        #expect(response.status == 408, "\(response)")
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        #expect(response.text.contains("--idle-timeout") && response.text.contains("512 of 2,048 body bytes"), "\(response)")
        #expect(response.header("X-Mockd-Source") == "timed out after 512 of 2,048 body bytes (--idle-timeout)")
        #expect(trace.lines.map(\.status) == [408], "\(trace.lines)")
        #expect(trace.entries.map(\.status) == [408])
        #expect(trace.entries.first?.kind == .unfinished)
        #expect(trace.entries.first?.source == "timed out after 512 of 2,048 body bytes (--idle-timeout)")
    }

    @Test func bodyTooSlow_TheGuards408_OneLineAndOneEntry() async throws {
        let trace = try await Self.trace(configure: {
            $0.minimumBodyRate = 1000; $0.bodyRateWindowSeconds = 1; $0.idleTimeoutSeconds = 30
        }) { connection in
            try Self.sendHalfABody(connection)
            return try connection.readResponse()
        }
        let response = trace.seen
        #expect(response.status == 408, "\(response)")
        #expect(response.text.contains("--min-body-rate"), "\(response)")
        // The 408's source says what the journal says.
        #expect(response.header("X-Mockd-Source") == "too slow after 512 of 2,048 body bytes (--min-body-rate 1000)")
        #expect(trace.lines.map(\.status) == [408], "\(trace.lines)")
        #expect(trace.entries.map(\.status) == [408])
        #expect(trace.entries.first?.kind == .unfinished)
        #expect(trace.entries.first?.source == "too slow after 512 of 2,048 body bytes (--min-body-rate 1000)")
    }

    @Test func mockdStopsMidBody_OneLineAndOneEntry() async throws {
        let log = InMemoryLogHandler()
        try await withTestServer(configure: { $0.idleTimeoutSeconds = 30 }, logger: Logger(label: "mockd-test", factory: { _ in log })) {
            server in
            let http = server.server
            let closed = try await server.withRawConnection { connection -> Bool in
                try Self.sendHalfABody(connection)
                // The drain waits for the request briefly, then the daemon stops with it unfinished.
                http.shutdown(timeout: .milliseconds(200))
                return try connection.waitForClose()
            }
            #expect(closed)
            let lines = Self.accessLines(log).filter { $0.path == "/api/v1/sleep" }
            #expect(lines.map(\.status) == [0], "\(lines)")
            let entries = http.journal.entries().filter { $0.path == "/api/v1/sleep" }
            #expect(entries.map(\.source) == ["mockd stopped after 512 of 2,048 body bytes"])
            #expect(entries.first?.kind == .unfinished)
        }
    }

    /// A request line and part of the head: the method and headers never come.
    static let partialHead = "GET /api/v1/sleep?page=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n"

    @Test func clientLeavesDuringTheHead_OneLineAndOneEntryWithItsPath() async throws {
        let trace = try await Self.trace(configure: { $0.idleTimeoutSeconds = 30 }) { connection in
            try connection.send(Self.partialHead)
            connection.close()
        }
        #expect(trace.lines.map(\.status) == [0], "\(trace.lines)")
        #expect(trace.lines.first?.source == "client left during the head")
        #expect(trace.lines.first?.method == "-" && trace.lines.first?.query == "page=2")
        let entry = try #require(trace.entries.first)
        #expect(trace.entries.count == 1)
        #expect(entry.kind == .unfinished && entry.status == 0 && entry.method == "-")
        #expect(entry.source == "client left during the head" && entry.query == "page=2")
    }

    @Test func aLongPathDuringTheHead_KeepsItsFirst64Bytes() async throws {
        let path = "/api/" + String(repeating: "a", count: 59) + "/rest-of-it"
        let kept = String(path.prefix(64)) + "…"
        let trace = try await Self.trace(path: kept, configure: { $0.idleTimeoutSeconds = 30 }) { connection in
            try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            connection.close()
        }
        #expect(trace.lines.map(\.status) == [0], "\(trace.lines)")
        #expect(trace.entries.map(\.source) == ["client left during the head"])
    }

    /// The head stops coming: whichever timeout is shorter ends the wait with a 408 (the guard's
    /// at `--head-timeout`, libmicrohttpd's idle timeout otherwise), one line and one entry.
    @Test(arguments: [
        (1, 30, "--head-timeout", "timed out during the head (--head-timeout 1)"),
        (30, 1, "the request head stopped coming for 1 s", "timed out during the head (--idle-timeout)"),
    ])
    func headStopsComing_A408_OneLineAndOneEntry(headTimeout: Int, idleTimeout: Int, answerSays: String, source: String)
        async throws
    {
        let trace = try await Self.trace(configure: {
            $0.headTimeoutSeconds = headTimeout; $0.idleTimeoutSeconds = idleTimeout
        }) { connection in
            try connection.send(Self.partialHead)
            return try connection.readResponse()
        }
        #expect(trace.seen.status == 408, "\(trace.seen)")
        #expect(trace.seen.text.contains(answerSays), "\(trace.seen)")
        #expect(trace.lines.map(\.status) == [408], "\(trace.lines)")
        #expect(trace.entries.map(\.source) == [source])
        #expect(trace.entries.first?.kind == .unfinished)
    }

    @Test func evictedDuringTheHead_TheGuards408_OneLineAndOneEntry() async throws {
        let trace = try await Self.trace(
            path: "/evicted",
            configure: {
                $0.maxConnections = 2; $0.threads = 1; $0.idleTimeoutSeconds = 30
            }
        ) { oldest -> RawResponse in
            try oldest.send("GET /evicted HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            let other = try RawConnection(port: oldest.port)
            try other.send("GET /other HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            // A third connection makes room by closing the one that has waited longest.
            let served = try RawConnection.exchange(port: oldest.port, "GET", "/api/users").status
            guard served == 200 else { throw RawHTTPError(description: "the new connection got \(served)") }
            let evicted = try oldest.readResponse()
            other.close()
            return evicted
        }
        #expect(trace.seen.status == 408, "\(trace.seen)")
        #expect(trace.seen.header("X-Mockd-Source") == "closed during the head to make room (--max-connections)")
        #expect(trace.lines.map(\.status) == [408], "\(trace.lines)")
        #expect(trace.entries.map(\.source) == ["closed during the head to make room (--max-connections)"])
    }

    @Test func aKeepAliveConnectionsSecondHeadNeverCompletes_ItHasItsOwnEntry() async throws {
        let trace = try await Self.trace(configure: { $0.idleTimeoutSeconds = 30 }) { connection in
            try connection.send(RawConnection.request("POST", "/api/v1/sleep", body: Array("{}".utf8)))
            let first = try connection.readResponse().status
            try connection.send(Self.partialHead)
            connection.close()
            return first
        }
        #expect(trace.seen == 200)
        #expect(trace.lines.map(\.status) == [200, 0], "\(trace.lines)")
        #expect(trace.entries.map(\.kind) == [.file, .unfinished])
    }

    @Test func answered_OneLineAndOneEntry() async throws {
        let trace = try await Self.trace(configure: { _ in }) { connection in
            try connection.send(RawConnection.request("POST", "/api/v1/sleep", body: Array("{}".utf8)))
            return try connection.readResponse().status
        }
        #expect(trace.seen == 200)
        #expect(trace.lines.map(\.status) == [200], "\(trace.lines)")
        #expect(trace.entries.map(\.status) == [200])
        #expect(trace.entries.first?.kind == .file)
    }

    @Test func refusedBeforeItsBody_OneLineAndOneEntry() async throws {
        let trace = try await Self.trace(configure: { $0.maxBodyBytes = 1024 }) { connection in
            try connection.send(Self.head)
            let status = try connection.readResponse().status
            // Whatever the client does next, the request has had its answer.
            connection.close()
            return status
        }
        #expect(trace.seen == 413)
        #expect(trace.lines.map(\.status) == [413], "\(trace.lines)")
        #expect(trace.entries.map(\.status) == [413])
        #expect(trace.entries.first?.kind == .refusal)
    }
}
