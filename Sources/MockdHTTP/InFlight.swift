import Dispatch
import Synchronization

/// Requests between their request line and their completion, on the server or on one session
/// port, and a wait for the last of them to end: a drain sleeps until a request's completion
/// says it was the last, or until its deadline, instead of looking again every few ms.
final class InFlight: Sendable {
    private let count = Atomic<Int>(0)
    /// A drain is waiting: only then does the last request's completion signal.
    private let waiting = Atomic<Bool>(false)
    private let noneLeft = DispatchSemaphore(value: 0)

    /// Requests in flight now.
    var value: Int { count.load(ordering: .sequentiallyConsistent) }

    /// A request line arrived.
    func enter() {
        count.add(1, ordering: .relaxed)
    }

    /// A request completed. Costs the request path one more load, and only for the last one.
    func leave() {
        // Sequentially consistent with `waitForNone`'s store and load: either this sees the
        // waiter and signals, or the waiter sees the count at zero; a wake cannot be lost.
        guard count.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 else { return }
        if waiting.load(ordering: .sequentiallyConsistent) { noneLeft.signal() }
    }

    /// Waits until no request is in flight, or until `deadline`; true when none is. A keep-alive
    /// connection can bring a request after the count touched zero: then the wait goes on.
    func waitForNone(until deadline: ContinuousClock.Instant) -> Bool {
        waiting.store(true, ordering: .sequentiallyConsistent)
        // A signal left over from a count that touched zero earlier only wakes a later look.
        defer { waiting.store(false, ordering: .sequentiallyConsistent) }
        while true {
            if value == 0 { return true }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            if noneLeft.wait(timeout: .now() + .nanoseconds(ParkingLot.nanoseconds(left))) == .timedOut { return value == 0 }
        }
    }
}
