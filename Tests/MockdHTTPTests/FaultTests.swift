import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdHTTP
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import TestSupport

/// Faults and delays on the wire: faults as URLSession sees them, delays that hold no
/// thread, the parking limit, and a shutdown with requests parked.
@Suite("Faults and delays over HTTP")
struct FaultTests {
    static let bigJSON = #"{"data": ""# + String(repeating: "x", count: 4000) + #""}"#

    static let faultTable = routeTable(
        #"{"method": "GET", "path": "/reset", "response": {"fault": "reset"}}"#,
        #"{"method": "GET", "path": "/timeout", "response": {"fault": "timeout"}}"#,
        #"{"method": "GET", "path": "/truncated", "response": {"fault": "truncated", "file": "big.json"}}"#,
        #"{"method": "GET", "path": "/fine", "response": {"file": "big.json"}}"#)

    static let files = ["big.json": bigJSON, "mock_api_users_get.json": #"[{"id": 1}]"#]

    /// What URLSession reports for one request: an error code, or a status and the body.
    enum Outcome: CustomStringConvertible {
        case failed(URLError.Code)
        case answered(status: Int, bytes: Int)

        var description: String {
            switch self {
            case .failed(let code): "URLError(\(code.rawValue))"
            case .answered(let status, let bytes): "HTTP \(status), \(bytes) body bytes"
            }
        }
    }

    static func outcome(_ server: RouteServer, _ target: String) async -> Outcome {
        do {
            let result = try await server.request("GET", target)
            return .answered(status: result.status, bytes: result.body.count)
        } catch let error as URLError {
            return .failed(error.code)
        } catch {
            Issue.record("not a URLError: \(error)")
            return .failed(.unknown)
        }
    }

    // MARK: - Faults

    @Test func reset_IsNetworkConnectionLost() async throws {
        try await withRouteServer(files: Self.files, tables: ["f.json": Self.faultTable], session: makeSession(timeout: 1)) {
            server async throws in
            let outcome = await Self.outcome(server, "/reset")
            guard case .failed(let code) = outcome else { Issue.record("reset answered: \(outcome)"); return }
            #expect(code == .networkConnectionLost, "URLError(\(code.rawValue))")
            let entry = server.server.journal.entries().last
            #expect(entry?.status == 0)
            #expect(entry?.source.hasSuffix("#0 (fault reset)") == true, "\(entry?.source ?? "no entry")")
            // The server serves on.
            #expect(try await server.request("GET", "/fine").body == Array(Self.bigJSON.utf8))
        }
    }

    @Test func reset_IsAnRSTOnTheWire() async throws {
        try await withRouteServer(files: Self.files, tables: ["f.json": Self.faultTable]) { server in
            let received = try await server.test.withRawConnection { connection -> String in
                try connection.send(RawConnection.request("GET", "/reset"))
                do {
                    let response = try connection.readResponse()
                    return "a response: \(response)"
                } catch {
                    return "\(error)"
                }
            }
            // Not a single byte of a response.
            // README: "a real RST" (SO_LINGER 0), not an orderly close.
            #expect(received == "recv: Connection reset by peer")
        }
    }

    @Test func timeout_IsTimedOutAndTheServerClosesItAtShutdown() async throws {
        try await withRouteServer(files: Self.files, tables: ["f.json": Self.faultTable], session: makeSession(timeout: 1)) {
            server async throws in
            // Timed on a thread of its own: the cooperative pool's queue is not the client's timeout.
            let (outcome, elapsed) = try await onOwnThread { () -> (Outcome, Double) in
                let start = ContinuousClock.now
                let outcome = await Self.outcome(server, "/timeout")
                return (outcome, seconds(since: start))
            }
            guard case .failed(let code) = outcome else { Issue.record("timeout answered: \(outcome) after \(elapsed) s"); return }
            #expect(code == .timedOut, "URLError(\(code.rawValue))")
            // About the client's 1 s, far below the server's 120 s stall limit.
            #expect(elapsed >= 0.9 && elapsed < 20, "\(elapsed) s")
            #expect(try await server.request("GET", "/fine").status == 200)
            // The client gave up; the server still holds the request until it stops, then lets it go.
            #expect(try await Self.waitFor(server.server, parked: 1))
            let shutdownTook = try await blocking { () -> Double in
                let start = ContinuousClock.now
                server.server.shutdown(timeout: .seconds(5))
                return seconds(since: start)
            }
            #expect(shutdownTook < 10, "shutdown took \(shutdownTook) s")
            #expect(server.server.parkedCount == 0)
        }
    }

    @Test func timeout_StallsUntilShutdownClosesIt() async throws {
        try await withRouteServer(files: Self.files, tables: ["f.json": Self.faultTable]) { server in
            let (parked, shutdownTook, closed) = try await server.test.withRawConnection { connection -> (Bool, Double, Bool) in
                try connection.send(RawConnection.request("GET", "/timeout"))
                let deadline = Deadline(eventDeadline)
                while server.server.parkedCount != 1 && !deadline.hasPassed { usleep(2_000) }
                let parked = server.server.parkedCount == 1
                let start = ContinuousClock.now
                server.server.shutdown(timeout: .seconds(5))
                return (parked, seconds(since: start), try connection.waitForClose())
            }
            #expect(parked, "the request was not parked")
            #expect(shutdownTook < 10, "shutdown took \(shutdownTook) s")
            #expect(closed, "the stalled connection is still open after shutdown")
        }
    }

    /// `stallLimit`: a timeout fault is closed by the server after it, so a client that never
    /// gives up cannot pin a slot forever.
    @Test func timeout_ClosedAfterTheStallLimit() async throws {
        try await withRouteServer(
            files: Self.files, tables: ["f.json": Self.faultTable],
            configure: { $0.stallLimit = .milliseconds(300) }
        ) { server in
            let (closed, elapsed) = try await server.test.withRawConnection { connection -> (Bool, Double) in
                let start = ContinuousClock.now
                try connection.send(RawConnection.request("GET", "/timeout"))
                return (try connection.waitForClose(), seconds(since: start))
            }
            #expect(closed, "still open after the stall limit")
            // Far below the 120 s default: the 300 ms limit closed it (allowing for a loaded machine).
            #expect(elapsed >= 0.3 && elapsed < 3 * Double(loadAllowance), "\(elapsed) s")
            #expect(try await Self.waitFor(server.server, parked: 0))
            #expect(server.server.journal.entries().last?.source == "closed: timeout fault")
        }
    }

    @Test func truncated_TheClientSeesItIsIncomplete() async throws {
        try await withRouteServer(files: Self.files, tables: ["f.json": Self.faultTable], session: makeSession(timeout: 1)) { server in
            let outcome = await Self.outcome(server, "/truncated")
            switch outcome {
            case .failed(let code):
                // Any error is a detection.
                #expect(code != .timedOut, "the client waited for the rest instead of seeing the close")
                // What FoundationNetworking (libcurl) reports on Linux, as the README's fault table says.
                #expect(code == .unknown, "URLError(\(code.rawValue))")
            case .answered(_, let bytes):
                // The fault sends exactly the first half, then closes.
                #expect(bytes == Self.bigJSON.utf8.count / 2, "\(bytes) of \(Self.bigJSON.utf8.count) body bytes arrived")
            }
        }
    }

    @Test func truncated_PromisesTheWholeLengthAndSendsHalf() async throws {
        try await withRouteServer(files: Self.files, tables: ["f.json": Self.faultTable]) { server in
            let error = try await server.test.withRawConnection { connection -> String in
                try connection.send(RawConnection.request("GET", "/truncated"))
                do {
                    return "a full response: \(try connection.readResponse())"
                } catch {
                    return "\(error)"
                }
            }
            let length = Self.bigJSON.utf8.count
            #expect(error == "connection closed after \(length / 2) of \(length) body bytes")
        }
    }

    /// A browser app sees the fault, not a CORS error: `--cors` headers come with it too.
    @Test func truncated_CarriesTheCORSHeaders() async throws {
        try await withRouteServer(files: Self.files, tables: ["f.json": Self.faultTable], configure: { $0.cors = true }) { server in
            let head = try await server.test.withRawConnection { connection -> RawResponse in
                try connection.send(RawConnection.request("GET", "/truncated"))
                return try connection.readResponse(head: true)  // the headers only: the body is cut
            }
            #expect(head.status == 200)
            #expect(head.header("Access-Control-Allow-Origin") == "*")
            #expect(head.header("Content-Length") == "\(Self.bigJSON.utf8.count)")
        }
    }

    // MARK: - Delays

    static let delayTable = routeTable(
        #"{"method": "GET", "path": "/slow", "response": {"text": "slow", "delayMs": 200}}"#,
        #"{"method": "GET", "path": "/seq", "responses": [{"text": "first", "delayMs": 1100}, {"text": "second"}]}"#,
        #"{"method": "GET", "path": "/long", "response": {"text": "long", "delayMs": 60000}}"#)

    /// Polls `parkedCount` until it is `parked`; false at the deadline. On a thread of its own, so
    /// a cooperative pool kept busy by other suites does not make it miss the moment.
    /// The deadline is long because it costs nothing when things work, and a loaded CI machine can
    /// take seconds to get URLSession's first requests out; `/long` outlasts it.
    static func waitFor(_ server: HTTPServer, parked: Int, within timeout: Duration = .seconds(30)) async throws -> Bool {
        try await blocking { waitForParked(server, parked, within: timeout) }
    }

    /// The blocking poll itself, for use inside `blocking { }`.
    static func waitForParked(_ server: HTTPServer, _ parked: Int, within timeout: Duration = .seconds(30)) -> Bool {
        let deadline = Deadline(timeout)
        while server.parkedCount != parked && !deadline.hasPassed { usleep(2_000) }
        return server.parkedCount == parked
    }

    /// How long the server took for each journaled request, in seconds: from the request line to
    /// the answer. Upper bounds use these, so a test process whose threads are busy with other
    /// suites cannot blur them; lower bounds are also checked on the client's clock.
    static func serverSeconds(_ server: HTTPServer) -> [Double] {
        server.journal.entries().map { Double($0.durationMicroseconds) / 1e6 }
    }

    @Test func delayMs_TakesAtLeastTheDelay() async throws {
        try await withRouteServer(files: Self.files, tables: ["d.json": Self.delayTable]) { server in
            let start = ContinuousClock.now
            let result = try await server.request("GET", "/slow")
            let elapsed = seconds(since: start)
            #expect(result.text == "slow")
            #expect(elapsed >= 0.2, "\(elapsed) s")
            let onServer = Self.serverSeconds(server.server)
            #expect(onServer.count == 1)
            #expect(onServer.allSatisfy { $0 >= 0.2 && $0 < 1 }, "\(onServer)")
            #expect(server.server.parkedCount == 0)
        }
    }

    @Test func sequence_SlowThenFast() async throws {
        try await withRouteServer(files: Self.files, tables: ["d.json": Self.delayTable]) { server in
            let start = ContinuousClock.now
            let first = try await server.request("GET", "/seq")
            let firstElapsed = seconds(since: start)
            let second = try await server.request("GET", "/seq")
            #expect(first.text == "first")
            #expect(second.text == "second")
            #expect(firstElapsed >= 1.1, "\(firstElapsed) s")
            let onServer = Self.serverSeconds(server.server)
            #expect(onServer.count == 2)
            // The delay is over a second, so "not delayed" needs no sub-second bound.
            #expect(onServer.first.map { $0 >= 1.1 && $0 < 2 } == true, "\(onServer)")
            #expect(onServer.last.map { $0 < 1 } == true, "\(onServer)")
        }
    }

    @Test func globalDelay_AddsToFilesAndRoutes() async throws {
        try await withRouteServer(
            files: Self.files, tables: ["d.json": Self.delayTable],
            configure: { $0.globalDelay = .milliseconds(1100) }
        ) { server in
            var start = ContinuousClock.now
            let file = try await server.request("GET", "/api/users")
            let fileElapsed = seconds(since: start)
            #expect(file.status == 200)
            #expect(fileElapsed >= 1.1, "file: \(fileElapsed) s")
            start = ContinuousClock.now
            let route = try await server.request("GET", "/slow")
            let routeElapsed = seconds(since: start)
            #expect(route.text == "slow")
            #expect(routeElapsed >= 1.3, "route: \(routeElapsed) s")
            // A miss is delayed too (with --proxy, real endpoints must not look faster).
            #expect(try await server.request("GET", "/api/none").status == 404)
            let onServer = Self.serverSeconds(server.server)
            #expect(onServer.count == 3)
            if onServer.count == 3 {
                #expect(onServer[0] >= 1.1 && onServer[0] < 2, "file: \(onServer)")
                #expect(onServer[1] >= 1.3 && onServer[1] < 2.2, "route: \(onServer)")
                #expect(onServer[2] >= 1.1 && onServer[2] < 2, "miss: \(onServer)")
            }
        }
    }

    /// 200 requests delayed 200 ms each, at once, on a server with 2 threads. Holding a thread per
    /// delay, the server would need 200 × 200 ms / 2 threads = 20 s from the first request to the
    /// last answer; parked, a little over 200 ms (plus however long the client takes to send them).
    @Test func concurrentDelays_HoldNoThread() async throws {
        try await withRouteServer(
            files: Self.files, tables: ["d.json": Self.delayTable],
            session: makeSession(timeout: 30, connections: 256)
        ) { server in
            let start = ContinuousClock.now
            let texts = try await allAtOnce(200) { _ in try await server.request("GET", "/slow").text }
            let elapsed = seconds(since: start)
            #expect(texts.count == 200)
            #expect(texts.allSatisfy { $0 == "slow" })
            #expect(elapsed >= 0.2)
            // On the server's clock: from the first request line to the last answer.
            let entries = server.server.journal.entries()
            let firstStart = entries.map { $0.time - Double($0.durationMicroseconds) / 1e6 }.min() ?? 0
            let lastAnswer = entries.map(\.time).max() ?? 0
            let span = lastAnswer - firstStart
            #expect(entries.count == 200)
            #expect(entries.allSatisfy { $0.durationMicroseconds >= 200_000 })
            // Holding a thread per delay would take 20 s; the bound allows for a loaded machine.
            #expect(
                span >= 0.2 && span < 2 * Double(loadAllowance),
                "the server took \(span) s for 200 delayed requests (\(elapsed) s on the client)")
            #expect(try await Self.waitFor(server.server, parked: 0), "still parked: \(server.server.parkedCount)")
        }
    }

    /// 50 requests parked on a 5 s delay; a plain request is answered while they all still wait,
    /// then a shutdown answers them at once.
    @Test func parkedRequests_LeaveOthersServed() async throws {
        try await withRouteServer(
            files: Self.files, tables: ["d.json": Self.delayTable],
            session: makeSession(timeout: 30, connections: 64)
        ) { server in
            let waiting = taskOnOwnThread { () -> [String] in
                try await allAtOnce(50) { _ in try await server.request("GET", "/long").text }
            }
            // Observed and sent from one thread, so nothing stands between the two.
            let (parked, plain, parkedAfter) = try await blocking { () -> (Bool, RawResponse, Int) in
                let parked = Self.waitForParked(server.server, 50)
                let plain = try RawConnection.exchange(port: server.port, "GET", "/api/users")
                return (parked, plain, server.server.parkedCount)
            }
            #expect(parked, "parked: \(server.server.parkedCount)")
            #expect(plain.status == 200)
            #expect(plain.body == Array(Self.files["mock_api_users_get.json"]!.utf8))
            #expect(parkedAfter == 50, "the plain request waited for the parked ones")
            try await blocking { server.server.shutdown(timeout: .seconds(10)) }
            #expect(try await waiting.value == Array(repeating: "long", count: 50))
            #expect(server.server.parkedCount == 0)
        }
    }

    @Test func maxParked_Exceeded_Is503AtOnce() async throws {
        try await withRouteServer(
            files: Self.files, tables: ["d.json": Self.delayTable],
            configure: { $0.maxParked = 2 }, session: makeSession(timeout: 30)
        ) { server in
            let waiting = taskOnOwnThread { () -> [String] in
                try await allAtOnce(2) { _ in try await server.request("GET", "/long").text }
            }
            let (parked, refused, plain) = try await blocking { () -> (Bool, RawResponse, RawResponse) in
                let parked = Self.waitForParked(server.server, 2)
                return (
                    parked, try RawConnection.exchange(port: server.port, "GET", "/long"),
                    try RawConnection.exchange(port: server.port, "GET", "/api/users")
                )
            }
            #expect(parked)
            #expect(refused.status == 503)
            #expect(refused.header("Content-Type") == "application/json; charset=utf-8")
            let error = try #require(try JSONSerialization.jsonObject(with: Data(refused.body)) as? [String: Any])
            #expect((error["error"] as? String)?.contains("--max-parked 2") == true, "\(refused)")
            // At once, on the server's clock: far below /long's 60 s delay (no sub-second bound:
            // a loaded machine may hold a server thread that long).
            let refusal = server.server.journal.entries().first { $0.status == 503 }
            #expect(
                refusal.map { $0.durationMicroseconds < 1_000_000 * loadAllowance } == true,
                "\(String(describing: refusal?.durationMicroseconds)) µs")
            // Answers that need no parking are still served.
            #expect(plain.status == 200)
            #expect(server.server.parkedCount == 2)
            // The two parked ones are answered (a shutdown cuts their delay short).
            try await blocking { server.server.shutdown(timeout: .seconds(10)) }
            #expect(try await waiting.value == ["long", "long"])
        }
    }

    @Test func shutdown_AnswersDelayedRequestsAtOnceAndReturnsPromptly() async throws {
        try await withRouteServer(files: Self.files, tables: ["d.json": Self.delayTable], session: makeSession(timeout: 30)) { server in
            let inFlight = taskOnOwnThread { () -> [HTTPResult] in
                try await allAtOnce(5) { _ in try await server.request("GET", "/long") }
            }
            #expect(try await Self.waitFor(server.server, parked: 5), "parked: \(server.server.parkedCount)")
            let shutdownTook = try await blocking { () -> Double in
                let start = ContinuousClock.now
                server.server.shutdown(timeout: .seconds(10))
                return seconds(since: start)
            }
            #expect(shutdownTook < 10, "shutdown took \(shutdownTook) s")
            let results = try await inFlight.value
            #expect(results.map(\.status) == Array(repeating: 200, count: 5))
            #expect(results.allSatisfy { $0.text == "long" })
            // Cut short: well before the 60 s delay, on the server's clock.
            let onServer = Self.serverSeconds(server.server)
            #expect(onServer.count == 5)
            #expect(onServer.allSatisfy { $0 < 30 }, "the delayed requests waited their full delay: \(onServer)")
            #expect(server.server.parkedCount == 0)
        }
    }
}
