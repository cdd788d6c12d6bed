import Foundation
import InMemoryLogging
import Logging
import MockdHTTP
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Slow clients cannot lock others out: a request head has a deadline from its first byte, and
/// at --max-connections the slowest connection makes room for a new one.
@Suite("Slow clients")
struct SlowClientTests {
    /// True when the socket has something to read (or was closed) within `milliseconds`.
    static func readable(_ connection: RawConnection, within milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    @Test func dribbledHead_Gets408AtTheHeadTimeout() async throws {
        try await withTestServer(configure: {
            $0.headTimeoutSeconds = 1; $0.idleTimeoutSeconds = 30
        }) { server in
            // Before connecting: the server's deadline runs from the accept, which comes before the
            // connection is handed to the closure, so a clock started inside would start late.
            let started = ContinuousClock.now
            let (response, took) = try await server.withRawConnection { connection -> (RawResponse, Duration) in
                // One byte every 200 ms: each resets libmicrohttpd's idle timeout, never the head deadline.
                let head =
                    Array("GET /api/users HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ".utf8)
                    + [UInt8](repeating: UInt8(ascii: "p"), count: 200)
                for byte in head {
                    if Self.readable(connection, within: 200) { break }
                    try connection.send([byte])
                }
                return (try connection.readResponse(), ContinuousClock.now - started)
            }
            #expect(response.status == 408, "\(response)")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.text.contains("--head-timeout"), "\(response)")
            #expect(took >= .seconds(1), "closed after \(took)")
            try await server.expectStillServing()
        }
    }

    /// An idle keep-alive connection is not a slow head: it stays open past the head timeout.
    @Test func idleKeepAlive_IsNotCutByTheHeadTimeout() async throws {
        try await withTestServer(configure: {
            $0.headTimeoutSeconds = 1; $0.idleTimeoutSeconds = 30
        }) { server in
            let statuses = try await server.withRawConnection { connection -> [Int] in
                try connection.send(RawConnection.request("GET", "/api/users"))
                let first = try connection.readResponse().status
                // Longer than the head timeout and the tick, without a byte.
                let closed = Self.readable(connection, within: 2500)
                try connection.send(RawConnection.request("GET", "/api/users"))
                return [first, closed ? -1 : 0, try connection.readResponse().status]
            }
            #expect(statuses == [200, 0, 200])
        }
    }

    @Test func dribbledBody_Gets408AtTheMinimumRate() async throws {
        // 1,000 bytes a second over 1 s windows; the body comes at ~5 bytes a second. Each byte
        // resets libmicrohttpd's idle timeout (30 s), never the rate check.
        try await withTestServer(configure: {
            $0.minimumBodyRate = 1000; $0.bodyRateWindowSeconds = 1; $0.idleTimeoutSeconds = 30
        }) { server in
            let started = ContinuousClock.now
            let (response, took) = try await server.withRawConnection { connection -> (RawResponse, Duration) in
                try connection.send("POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n")
                for _ in 0..<200 {
                    if Self.readable(connection, within: 200) { break }
                    try connection.send("x")
                }
                return (try connection.readResponse(), ContinuousClock.now - started)
            }
            #expect(response.status == 408, "\(response)")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.text.contains("--min-body-rate"), "\(response)")
            #expect(took >= .seconds(1), "closed after \(took)")
            try await server.expectStillServing()
        }
    }

    @Test func aSlowButSteadyBody_IsServedAcrossWindows() async throws {
        // 200 bytes every 200 ms for ~5 s against a minimum of 10 bytes a second over 2 s windows:
        // two windows pass mid-body, each with ~2,000 bytes (only a 2 s stall of this client would fail it).
        try await withTestServer(configure: {
            $0.minimumBodyRate = 10; $0.bodyRateWindowSeconds = 2
        }) { server in
            let response = try await server.withRawConnection { connection -> RawResponse in
                try connection.send("POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5200\r\n\r\n")
                for _ in 0..<26 {
                    try connection.send(String(repeating: "x", count: 200))
                    _ = Self.readable(connection, within: 200)  // a pause that ends early if the server answers (it must not)
                }
                return try connection.readResponse()
            }
            #expect(response.status == 200, "\(response)")
        }
    }

    @Test func atTheLimit_ANewClientEvictsTheSlowestHead() async throws {
        let log = InMemoryLogHandler()
        try await withTestServer(
            configure: {
                $0.maxConnections = 3; $0.threads = 1
            }, logger: Logger(label: "mockd-test", factory: { _ in log })
        ) { server in
            let result = try await server.withRawConnection { oldest -> (evicted: RawResponse?, served: Int, others: [Bool]) in
                try oldest.send("GET /api/us")
                let slow = try (0..<2).map { _ in try RawConnection(port: oldest.port) }
                for connection in slow { try connection.send("GET /api/us") }
                // Wait until mockd has accepted all three (it counts them as it accepts).
                let deadline = Deadline(.seconds(5))
                while server.server.openConnectionCount < 3 && !deadline.hasPassed { usleep(5_000) }
                let served = try RawConnection.exchange(port: oldest.port, "GET", "/api/users").status
                let evicted = try? oldest.readResponse()
                let othersOpen = slow.map { !Self.readable($0, within: 100) }
                return (evicted, served, othersOpen)
            }
            #expect(result.served == 200)
            #expect(result.evicted?.status == 408, "\(String(describing: result.evicted))")
            #expect(result.others == [true, true], "only the oldest is evicted")
            // Said before the new connection was accepted, so before it was served.
            let evictions = log.entries.filter { $0.message.description.hasPrefix("connection limit reached (--max-connections)") }
            #expect(evictions.map(\.metadata) == [["mockd.limit": "3"]], "\(log.entries)")
        }
    }

    @Test func atTheLimit_AnIdleKeepAliveMakesRoom() async throws {
        try await withTestServer(configure: {
            $0.maxConnections = 2; $0.threads = 1
        }) { server in
            let result = try await server.withRawConnection { idle -> (served: Int, idleClosed: Bool) in
                try idle.send(RawConnection.request("GET", "/api/users"))
                _ = try idle.readResponse()
                let busy = try RawConnection(port: idle.port)
                // `100 Continue` proves the head was read: the connection is inside a request.
                try busy.send("POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n")
                _ = try busy.readResponse()
                let served = try RawConnection.exchange(port: idle.port, "GET", "/api/users").status
                return (served, try idle.waitForClose())
            }
            #expect(result.served == 200)
            #expect(result.idleClosed)
        }
    }
}

@Suite("Rate-limited warnings")
struct RateLimitedWarningTests {
    @Test func firstIsLogged_RestAreCountedOncePerInterval() {
        let warning = RateLimitedWarning(interval: .seconds(10))
        let second: UInt64 = 1_000_000_000
        // The first is logged, with nothing more to say; the fields are what the line adds.
        #expect(warning.record(now: 1 * second) == [:])
        for offset in 0..<4123 { #expect(warning.record(now: 2 * second + UInt64(offset)) == nil) }
        #expect(warning.flush(now: 5 * second) == nil, "the interval is not over")
        #expect(warning.flush(now: 11 * second) == ["mockd.more": "4123", "mockd.periodSeconds": "10"])
        #expect(warning.flush(now: 30 * second) == nil, "nothing new")
        #expect(warning.record(now: 31 * second) == [:])
        _ = warning.record(now: 32 * second)
        #expect(warning.record(now: 41 * second) == ["mockd.more": "1", "mockd.periodSeconds": "10"])
    }
}
