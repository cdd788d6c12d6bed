package import Logging
import MockdLock
import Synchronization

/// A log line that an attacker can trigger thousands of times a second (refused connections,
/// timed-out heads): the first is logged, the rest are counted, and at most one line per
/// `interval` says how many more there were. It decides when a line is due and what it counts;
/// the caller writes the line, a fixed message with these fields added to its own.
package final class RateLimitedWarning: Sendable {
    private struct State {
        var windowStart: UInt64 = 0
        var suppressed = 0
        var started = false
    }

    private let state = Lock(State())
    private let intervalNanoseconds: UInt64

    package init(interval: Duration = .seconds(10)) {
        self.intervalNanoseconds =
            UInt64(interval.components.seconds) * 1_000_000_000 + UInt64(interval.components.attoseconds / 1_000_000_000)
    }

    /// One more occurrence at `now` (monotonic ns). nil: stay quiet, it was counted. Otherwise
    /// log it, with these fields: how many more there were since the last line (`mockd.more`,
    /// in the last `mockd.periodSeconds`), none when there were none.
    package func record(now: UInt64) -> Logger.Metadata? {
        state.withLock { state in
            if !state.started || now - state.windowStart >= intervalNanoseconds {
                let fields = state.suppressed > 0 ? fields(more: state.suppressed) : [:]
                state = State(windowStart: now, suppressed: 0, started: true)
                return fields
            }
            state.suppressed += 1
            return nil
        }
    }

    /// The fields of the summary of what was counted when the interval is over (called from a
    /// periodic tick), so a burst that stops is still reported once; nil when there is none due.
    package func flush(now: UInt64) -> Logger.Metadata? {
        state.withLock { state in
            guard state.started, state.suppressed > 0, now - state.windowStart >= intervalNanoseconds else { return nil }
            let fields = fields(more: state.suppressed)
            state.suppressed = 0
            state.windowStart = now
            return fields
        }
    }

    private func fields(more: Int) -> Logger.Metadata {
        ["mockd.more": "\(more)", "mockd.periodSeconds": "\(intervalNanoseconds / 1_000_000_000)"]
    }
}
