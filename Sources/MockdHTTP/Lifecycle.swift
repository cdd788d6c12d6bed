import Synchronization

/// Where a listener is in its life: the server's main port, or one session's port. The one
/// place that says so: code that must behave differently while stopping asks it, instead of
/// inferring it from which daemons are left or whether the parking lot still takes requests.
///
/// One atomic, not a lock: every answer asks it (while draining, answers close their
/// connection), and a load costs a request nothing. It only moves forward, each step a
/// compare-and-exchange, so of two callers only one can make a step (one drain per shutdown).
package final class Lifecycle: Sendable {
    package enum State: UInt8, AtomicRepresentable, Comparable, Sendable {
        /// Made; its daemons are not accepting yet.
        case starting
        /// Accepting and answering.
        case running
        /// Accepting no more: requests in flight finish, each answer closes its connection,
        /// and nothing is suspended any more (a delay is cut short, a stream sends the rest).
        case draining
        /// Its daemons are stopped (or never started).
        case stopped

        /// In the order a lifecycle goes through them.
        package static func < (left: State, right: State) -> Bool { left.rawValue < right.rawValue }
    }

    private let current = Atomic<State>(.starting)

    package init() {}

    package var state: State { current.load(ordering: .acquiring) }

    /// Draining or stopped: nothing may be suspended, every answer closes its connection.
    var isEnding: Bool { state >= .draining }

    /// Moves from `old` to `new`, forward only; false when the state was not `old`.
    @discardableResult
    package func move(from old: State, to new: State) -> Bool {
        precondition(new > old, "a lifecycle only moves forward")
        return current.compareExchange(expected: old, desired: new, ordering: .acquiringAndReleasing).exchanged
    }
}
