@testable package import MockdHTTP
import Synchronization

// Counts the tests wait on and check. The server never reads them itself, so they live here
// rather than in MockdHTTP.
extension HTTPServer {
    /// Requests parked right now (delays, timeout faults, upstream calls).
    package var parkedCount: Int { parking.count }
    /// Bytes of request bodies held in memory now (`--max-body-memory` bounds it).
    package var bodyMemoryInUse: Int { bodyBudget.inUse }
    /// Connections libmicrohttpd has accepted and not yet closed.
    package var openConnectionCount: Int { connections.openCount.load(ordering: .relaxed) }
}
