import MockdLock
@testable import MockdProxy
import Synchronization

// What the proxy tests read back. mockd itself never asks these, so they live here rather
// than in MockdProxy.
extension ProxyOutcome {
    /// The response came from the upstream; false for mockd's own 502/504 answers.
    var fromUpstream: Bool { failure == nil }
}

extension Recorder {
    /// The files written so far, absolute and standardized, sorted.
    var writtenFiles: [String] { written.withLock { $0.sorted() } }
}
