import Foundation
import MockdCore
import MockdHTTP
import Synchronization
import Testing
import TestSupport

/// Shutdown while keep-alive clients keep sending delayed requests. libmicrohttpd aborts the
/// whole process if it is stopped with a connection suspended, so this test "fails" by
/// crashing the test run: quiescing stops new connections, not new requests on open ones.
@Suite("Shutdown under keep-alive load")
struct ShutdownRaceTests {
    final class Flag: Sendable {
        let raised = Atomic<Bool>(false)
    }

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    static let table = #"{"routes": [{"method": "GET", "path": "/d", "response": {"json": {"ok": true}, "delayMs": 40}}]}"#

    @Test func shutdown_WhileClientsKeepParkingRequests_LeavesNothingSuspended() async throws {
        try await withRouteServer(files: ["mock_x_get.json": "{}"], tables: ["d.json": Self.table]) { server in
            let port = server.port
            let stop = Flag()
            // Threads started here, not tasks: a task may wait its turn on the cooperative pool
            // for longer than the deadline below on a busy machine.
            let answered = Counter()
            let clientsDone = DispatchSemaphore(value: 0)
            for _ in 0..<20 {
                Thread {
                    defer { clientsDone.signal() }
                    guard let connection = try? RawConnection(port: port, timeout: .seconds(3)) else { return }
                    while !stop.raised.load(ordering: .relaxed) {
                        guard (try? connection.send(RawConnection.request("GET", "/d"))) != nil,
                            let response = try? connection.readResponse(head: false), response.status == 200
                        else { break }
                        answered.value.add(1, ordering: .relaxed)
                    }
                }.start()
            }
            // Requests are flowing and parking before the shutdown starts.
            let flowing = try await blocking { () -> Bool in
                let deadline = Deadline(.seconds(20))
                while server.server.journal.entries().count < 40 && !deadline.hasPassed { usleep(2_000) }
                return server.server.journal.entries().count >= 40
            }
            #expect(flowing, "only \(server.server.journal.entries().count) requests answered")
            let took = try await blocking { () -> Double in
                let start = ContinuousClock.now
                server.server.shutdown(timeout: .seconds(5))
                let elapsed = ContinuousClock.now - start
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }
            stop.raised.store(true, ordering: .relaxed)
            try await blocking { for _ in 0..<20 { clientsDone.wait() } }
            let total = answered.value.load(ordering: .relaxed)
            #expect(server.server.parkedCount == 0)
            #expect(took < 5, "shutdown waited \(took) s")
            #expect(total >= 40)
        }
    }

    static let longTable = #"{"routes": [{"method": "GET", "path": "/long", "response": {"json": {"ok": true}, "delayMs": 60000}}]}"#

    /// The drain closes keep-alive connections: once shutdown begins, an answer says
    /// `Connection: close` and the connection ends, so a client cannot hold the drain open.
    @Test func shutdown_AnswersOnAKeepAliveConnectionThenClosesIt() async throws {
        try await withRouteServer(files: ["mock_x_get.json": "{}"], tables: ["d.json": Self.longTable]) { server in
            let (parked, response, closed) = try await server.test.withRawConnection { connection -> (Bool, RawResponse, Bool) in
                try connection.send(RawConnection.request("GET", "/long"))
                let deadline = Deadline(.seconds(20))
                while server.server.parkedCount != 1 && !deadline.hasPassed { usleep(2_000) }
                let parked = server.server.parkedCount == 1
                let stopped = DispatchSemaphore(value: 0)
                Thread {
                    server.server.shutdown(timeout: .seconds(5))
                    stopped.signal()
                }.start()
                let response = try connection.readResponse()
                let closed = try connection.waitForClose()
                stopped.wait()
                return (parked, response, closed)
            }
            #expect(parked, "the request was not parked")
            #expect(response.status == 200)
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(closed, "the keep-alive connection is still open after the answer")
        }
    }
}
