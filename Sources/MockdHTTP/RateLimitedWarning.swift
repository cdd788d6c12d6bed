import Logging
import MockdLock
import Synchronization

/// A warning that an attacker can trigger thousands of times a second (refused connections,
/// timed-out heads): the first is logged, the rest are counted, and at most one line per
/// `interval` says how many more there were ("… and 4,123 more refused in the last 10 s").
package final class RateLimitedWarning: Sendable {
    private struct State {
        var windowStart: UInt64 = 0
        var suppressed = 0
        var started = false
    }

    private let state = Lock(State())
    private let intervalNanoseconds: UInt64
    /// `… and N more <what> in the last 10 s`.
    private let what: String

    package init(what: String, interval: Duration = .seconds(10)) {
        self.what = what
        self.intervalNanoseconds =
            UInt64(interval.components.seconds) * 1_000_000_000 + UInt64(interval.components.attoseconds / 1_000_000_000)
    }

    /// The line to log for one more occurrence at `now` (monotonic ns), or nil to stay quiet.
    package func record(_ message: String, now: UInt64) -> String? {
        state.withLock { state in
            if !state.started || now - state.windowStart >= intervalNanoseconds {
                let summary = state.suppressed > 0 ? " (and \(Self.grouped(state.suppressed)) more \(what) in the last \(seconds) s)" : ""
                state = State(windowStart: now, suppressed: 0, started: true)
                return message + summary
            }
            state.suppressed += 1
            return nil
        }
    }

    /// The summary of what was counted when the interval is over (called from a periodic tick),
    /// so a burst that stops is still reported once.
    package func flush(now: UInt64) -> String? {
        state.withLock { state in
            guard state.started, state.suppressed > 0, now - state.windowStart >= intervalNanoseconds else { return nil }
            let line = "… and \(Self.grouped(state.suppressed)) more \(what) in the last \(seconds) s"
            state.suppressed = 0
            state.windowStart = now
            return line
        }
    }

    private var seconds: UInt64 { intervalNanoseconds / 1_000_000_000 }

    /// 4123 → `4,123`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
