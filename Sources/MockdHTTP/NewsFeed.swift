import Dispatch
import MockdLock
import Synchronization

/// Dashboards waiting for news (`GET /__mockd/events`), parked until the journal or the
/// runtime state changes. A request costs one relaxed load while no dashboard waits, and
/// never more than that on libmicrohttpd's threads: waiters are answered on the feed's own
/// queue, at most once per `coalescing` however many requests come in meanwhile (under load,
/// ten dashboards make ten answers every 50 ms, not ten per request).
final class NewsFeed: Sendable {
    private struct Waiter: Sendable {
        let hasNews: @Sendable () -> Bool
        let deliver: @Sendable () -> Void
    }

    private let waiters = Lock<[UInt64: Waiter]>([:])
    /// Numbers waiters: a timer that outlives its waiter can never take a later one.
    private let nextKey = Atomic<UInt64>(0)
    /// Someone waits: the request path looks only at this.
    private let listening = Atomic<Bool>(false)
    /// A delivery is scheduled; news until then joins it.
    private let scheduled = Atomic<Bool>(false)
    private let queue = DispatchQueue(label: "mockd.news")
    private let coalescing: DispatchTimeInterval = .milliseconds(50)

    /// Waits for news until `timeout`; `deliver` runs exactly once, on the feed's queue, with
    /// news or at the timeout. `hasNews` is asked again once the waiter is in place: news that
    /// came between the caller's check and now is not missed.
    func wait(timeout: Duration, hasNews: @escaping @Sendable () -> Bool, deliver: @escaping @Sendable () -> Void) {
        let key = nextKey.add(1, ordering: .relaxed).newValue
        waiters.withLock { waiters in
            waiters[key] = Waiter(hasNews: hasNews, deliver: deliver)
            listening.store(true, ordering: .relaxed)
        }
        queue.asyncAfter(deadline: .now() + .nanoseconds(ParkingLot.nanoseconds(timeout))) { [self] in
            take(key)?.deliver()
        }
        if hasNews() { announce() }
    }

    /// Something changed (a request was journaled, a scenario set, a reload): waiters are
    /// answered shortly, together.
    func announce() {
        guard listening.load(ordering: .relaxed) else { return }
        guard scheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        queue.asyncAfter(deadline: .now() + coalescing) { [self] in
            scheduled.store(false, ordering: .releasing)
            for waiter in takeAll(where: { $0.hasNews() }) { waiter.deliver() }
        }
    }

    /// Shutdown: every waiter is answered now.
    func flush() {
        for waiter in takeAll(where: { _ in true }) { waiter.deliver() }
    }

    private func take(_ key: UInt64) -> Waiter? {
        waiters.withLock { waiters in
            defer { listening.store(!waiters.isEmpty, ordering: .relaxed) }
            return waiters.removeValue(forKey: key)
        }
    }

    private func takeAll(where wanted: (Waiter) -> Bool) -> [Waiter] {
        waiters.withLock { waiters in
            defer { listening.store(!waiters.isEmpty, ordering: .relaxed) }
            let chosen = waiters.filter { wanted($0.value) }
            for key in chosen.keys { waiters.removeValue(forKey: key) }
            return Array(chosen.values)
        }
    }
}
