import Foundation
import MockdCore
@testable import MockdHTTP
import Synchronization
import Testing
import TestSupport

/// The server's lifecycle (starting → running → draining → stopped) and the drain's wait: it
/// ends when the last request in flight completes, not at a poll or at its deadline.
@Suite("Server lifecycle")
struct LifecycleTests {
    final class Box<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
    }

    @Test func aLifecycleMovesForwardOneStepAtATime() {
        let lifecycle = Lifecycle()
        #expect(lifecycle.state == .starting)
        #expect(!lifecycle.move(from: .running, to: .draining), "a server that never ran has nothing to drain")
        #expect(lifecycle.move(from: .starting, to: .running))
        #expect(!lifecycle.isEnding)
        #expect(lifecycle.move(from: .running, to: .draining))
        #expect(!lifecycle.move(from: .running, to: .draining), "a second shutdown drained again")
        #expect(lifecycle.isEnding)
        #expect(lifecycle.move(from: .draining, to: .stopped))
        #expect(lifecycle.state == .stopped)
    }

    @Test func theLastRequestToCompleteWakesTheDrain() async throws {
        let inFlight = InFlight()
        inFlight.enter()
        inFlight.enter()
        #expect(!inFlight.waitForNone(until: .now), "two requests are in flight")
        let waiting = DispatchSemaphore(value: 0)
        let drained = Box(false)
        Thread {
            let none = inFlight.waitForNone(until: .now + eventDeadline)
            drained.value.withLock { $0 = none }
            waiting.signal()
        }.start()
        inFlight.leave()
        inFlight.leave()
        try await blocking { waiting.wait() }
        let none = drained.value.withLock { $0 }
        #expect(none, "the drain ran out its deadline with no request in flight")
        #expect(inFlight.waitForNone(until: .now))
    }

    /// A request whose body is still on its way holds the drain: the server is draining until
    /// the body arrives, answers it with `Connection: close`, and is stopped once it completed,
    /// long before the drain's deadline.
    @Test func shutdown_DrainsUntilTheLastRequestCompletes_ThenIsStopped() async throws {
        try await withRouteServer(files: ["mock_x_post.json": #"{"ok":true}"#]) { route in
            let server = route.test.server
            #expect(server.state == .running)
            let port = server.port
            let result = try await blocking { () -> (draining: Bool, response: RawResponse, took: Duration, state: Lifecycle.State) in
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                try connection.send("POST /x HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n")
                let deadline = Deadline(eventDeadline)
                while server.inFlight.value == 0 && !deadline.hasPassed { usleep(1_000) }
                let stopped = DispatchSemaphore(value: 0)
                let took = Box(Duration.zero)
                Thread {
                    let start = ContinuousClock.now
                    server.shutdown(timeout: eventDeadline)
                    took.value.withLock { $0 = ContinuousClock.now - start }
                    stopped.signal()
                }.start()
                while server.state == .running && !deadline.hasPassed { usleep(1_000) }
                let draining = server.state == .draining
                try connection.send("{}")
                let response = try connection.readResponse()
                stopped.wait()
                return (draining, response, took.value.withLock { $0 }, server.state)
            }
            #expect(result.draining, "the shutdown did not wait for the request in flight")
            #expect(result.response.status == 200)
            #expect(result.response.header("Connection")?.lowercased() == "close")
            #expect(result.state == .stopped)
            #expect(result.took < eventDeadline, "the drain waited out its deadline: \(result.took)")
        }
    }
}
