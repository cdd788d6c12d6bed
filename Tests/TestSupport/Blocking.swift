import Foundation

/// Runs blocking work (sockets, waiting for a process) on a thread of its own, so it never holds
/// one of the few threads of Swift's cooperative pool or of GCD (which URLSession and Process's
/// termination handler need) while tests run in parallel.
package func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.start()
    }
}

/// A point in time a wait must not pass.
package struct Deadline: Sendable {
    package let instant: ContinuousClock.Instant

    package init(_ duration: Duration) { instant = .now + duration }

    package var hasPassed: Bool { ContinuousClock.now >= instant }
    /// Milliseconds left, at least 0 (for poll(2)).
    package var remainingMilliseconds: Int32 {
        let left = instant - .now
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}
