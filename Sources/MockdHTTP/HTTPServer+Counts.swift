import Synchronization

// Counts the tests wait on and check; the server never reads them itself. They stay in the
// module, as `package`: the test support is an ordinary target, built by `swift build -c
// release` too (`make run`), where `@testable import` is refused.
extension HTTPServer {
    /// Requests parked right now (delays, timeout faults, upstream calls).
    package var parkedCount: Int { parking.count }
    /// Bytes of request bodies held in memory now (`--max-body-memory` bounds it).
    package var bodyMemoryInUse: Int { bodyBudget.inUse }
    /// Connections libmicrohttpd has accepted and not yet closed.
    package var openConnectionCount: Int { connections.openCount.load(ordering: .relaxed) }
}

extension HTTPServer {
    /// Blocks until no request is in flight, up to `timeout`: true when none is. Every request's
    /// completion, with the lines it writes, has then happened.
    package func waitUntilNoRequestInFlight(timeout: Duration) -> Bool {
        inFlight.waitForNone(until: .now + timeout)
    }
}
