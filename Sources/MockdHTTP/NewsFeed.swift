import Dispatch
import MockdCore
import MockdLock
import Synchronization

/// Long polls waiting for news: dashboards (`GET /__mockd/events`), parked until the journal or
/// the runtime state changes, and tests waiting for their app's requests (`count=`, `wait=`). It costs a request one relaxed load while no dashboard waits, and
/// never more than that on libmicrohttpd's threads: waiters are answered on the feed's own
/// queue, together, at most once per `cadence` however many requests come in meanwhile. Under
/// load every dashboard has seen the same entries, so they ask the same question: each answer
/// is built once per delivery and shared (ten dashboards cost one answer, four times a second).
/// Its own queue, not the process's timer thread: building an answer (a journal page as JSON)
/// takes far longer than a resume, and streams' events must not wait behind it.
final class NewsFeed: Sendable {
    private struct Waiter: Sendable {
        /// Waiters with the same question get the same answer (`after` and `state`).
        let question: String
        let hasNews: @Sendable () -> Bool
        let answer: @Sendable () -> AdminStep
        let deliver: @Sendable (AdminStep) -> Void
    }

    private let waiters = Lock<[UInt64: Waiter]>([:])
    /// Numbers waiters: a timer that outlives its waiter can never take a later one.
    private let nextKey = Atomic<UInt64>(0)
    /// Someone waits: the request path looks only at this.
    private let listening = Atomic<Bool>(false)
    /// A delivery is scheduled; news until then joins it.
    private let scheduled = Atomic<Bool>(false)
    private let queue: DispatchQueue
    /// How often waiters are answered at most.
    private let cadence: DispatchTimeInterval

    /// `cadence`: for dashboards 250 ms, live enough for a person, and few enough answers that
    /// dashboards do not take CPU from the mocks under load; for tests waiting for their app's
    /// requests a few ms, as they wait for one request, not a stream.
    init(label: String, cadence: DispatchTimeInterval) {
        queue = DispatchQueue(label: label)
        self.cadence = cadence
    }

    /// Waits for news until `timeout`, then `deliver`s `answer()` exactly once, on the feed's
    /// queue. A waiter that has news already is answered with the next delivery, not at once:
    /// a dashboard polling in a loop under load gets at most one answer per `cadence`.
    func wait(
        question: String, timeout: Duration, hasNews: @escaping @Sendable () -> Bool,
        answer: @escaping @Sendable () -> AdminStep, deliver: @escaping @Sendable (AdminStep) -> Void
    ) {
        let key = nextKey.add(1, ordering: .relaxed).newValue
        waiters.withLock { waiters in
            waiters[key] = Waiter(question: question, hasNews: hasNews, answer: answer, deliver: deliver)
            listening.store(true, ordering: .relaxed)
        }
        queue.asyncAfter(deadline: .now() + .nanoseconds(ParkingLot.nanoseconds(timeout))) { [self] in
            if let waiter = take(key) { waiter.deliver(waiter.answer()) }
        }
        if hasNews() { announce() }
    }

    /// Something changed (a request was journaled, a scenario set, a reload): waiters with news
    /// are answered with the next delivery.
    func announce() {
        guard listening.load(ordering: .relaxed) else { return }
        guard scheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        queue.asyncAfter(deadline: .now() + cadence) { [self] in
            scheduled.store(false, ordering: .releasing)
            deliver(takeAll(where: { $0.hasNews() }))
        }
    }

    /// Shutdown: every waiter is answered now.
    func flush() {
        deliver(takeAll(where: { _ in true }))
    }

    private func deliver(_ taken: [Waiter]) {
        var answers: [String: AdminStep] = [:]
        for waiter in taken {
            let answer = answers[waiter.question] ?? waiter.answer()
            answers[waiter.question] = answer
            waiter.deliver(answer)
        }
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
