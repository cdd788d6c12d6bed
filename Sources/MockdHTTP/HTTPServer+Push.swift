import Dispatch
import MockdCore

/// Carrying out the pushes the core orders: on the admin queue, now or after the order's delay
/// (a timer on the queue, no thread held meanwhile), each written to the journal as it went.
extension HTTPServer {
    /// Why pushes are refused (501) when the server was given no sender.
    static let noPusher =
        "no push command: xcrun is not on PATH (simctl comes with Xcode, on a Mac) and mockd was started without "
        + "--push-command; give --push-command PATH (or MOCKD_PUSH_COMMAND) to send pushes another way"

    /// Sends `order` now, or schedules it when it has a delay; called on `effectors.queue`.
    func sendOrSchedule(_ order: PushOrder) -> PushDelivery {
        guard order.afterMilliseconds > 0 else { return .done(sendNow(order)) }
        sendLater(order)
        return .scheduled
    }

    /// Runs the push command for `order` after its delay and `wait` (a route's push waits for
    /// its answer's delay too), on the admin queue, and journals what came of it.
    func sendLater(_ order: PushOrder, after wait: Duration = .zero) {
        let deadline = DispatchTime.now() + .milliseconds(order.afterMilliseconds) + .nanoseconds(ParkingLot.nanoseconds(wait))
        effectors.queue.asyncAfter(deadline: deadline) { [self] in
            _ = sendNow(order)
        }
    }

    private func sendNow(_ order: PushOrder) -> PushOutcome {
        let started = RequestState.monotonicNanoseconds()
        let outcome = effectors.pusher?.send(order) ?? PushOutcome(ending: .notStarted(Self.noPusher))
        log.recordPush(order, outcome: outcome, durationMicroseconds: (RequestState.monotonicNanoseconds() - started) / 1000)
        return outcome
    }
}
