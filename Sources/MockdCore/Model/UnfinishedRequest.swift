/// A request that mockd began to read and that ended before it was answered: the rest of its
/// head, or its body, never all came. Decided here from what the adapter saw, so the access
/// line, the journal entry and the last 408 (when one can still be sent) say the same thing
/// about it.
package struct UnfinishedRequest: Sendable, Equatable {
    /// What ended it, as the adapter saw it.
    package enum Cause: Sendable, Equatable {
        /// The connection's idle timeout (`--idle-timeout`) ran out while the head or body was awaited.
        case idleTimeout(seconds: Int)
        /// The head took longer than `--head-timeout`: the connection guard closed the
        /// connection and sent its own 408.
        case headTimeout(seconds: Int)
        /// At `--max-connections`, the connection guard closed it to make room for a new
        /// connection (it had waited longest for its head) and sent its own 408.
        case evicted
        /// The body came slower than `--min-body-rate`: the connection guard closed the
        /// connection and sent its own 408.
        case slowBody(bytesPerSecond: Int)
        /// The client closed or reset the connection.
        case clientLeft
        /// mockd stopped while the body was awaited.
        case stopping
        /// The connection failed in a way the library does not name.
        case connectionError
    }

    /// How far the request got.
    package enum Stage: Sendable, Equatable {
        /// Its request line came, the rest of its head did not: the method and headers are unknown.
        case head
        /// Its head came, and `received` bytes of its body; `declared` is its `Content-Length`
        /// (nil for a chunked body).
        case body(received: Int, declared: Int?)
    }

    package let cause: Cause
    package let stage: Stage

    /// A request whose body never all came.
    package init(_ cause: Cause, received: Int, declared: Int?) {
        self.cause = cause
        self.stage = .body(received: received, declared: declared)
    }

    /// A request whose head never all came.
    package static func head(_ cause: Cause) -> UnfinishedRequest { UnfinishedRequest(cause, stage: .head) }

    private init(_ cause: Cause, stage: Stage) {
        self.cause = cause
        self.stage = stage
    }

    /// The 408 mockd still sends: only at the idle timeout, when the connection is still open
    /// for writing. The guard has sent its own 408 for a head too slow, a connection closed to
    /// make room and a body too slow; the other endings have nobody left to read one.
    package var answer: ErrorAnswer? {
        guard case .idleTimeout(let seconds) = cause else { return nil }
        switch stage {
        case .head: return ErrorAnswer(408, "the request head stopped coming for \(seconds) s (--idle-timeout)")
        case .body: return ErrorAnswer(408, "the request body stopped coming for \(seconds) s (--idle-timeout) \(progress)")
        }
    }

    /// The status the access line and the journal give: the 408 that was sent, else 0 (no answer).
    package var status: Int {
        switch cause {
        case .idleTimeout, .headTimeout, .evicted, .slowBody: 408
        case .clientLeft, .stopping, .connectionError: 0
        }
    }

    /// As people read it (the access line's and the journal's `source`).
    package var label: String {
        switch cause {
        case .idleTimeout: "timed out \(progress) (--idle-timeout)"
        case .headTimeout(let seconds): "timed out \(progress) (--head-timeout \(seconds))"
        case .evicted: "closed \(progress) to make room (--max-connections)"
        case .slowBody(let rate): "too slow \(progress) (--min-body-rate \(rate))"
        case .clientLeft: "client left \(progress)"
        case .stopping: "mockd stopped \(progress)"
        case .connectionError: "connection failed \(progress)"
        }
    }

    /// "after 512 of 2,048 body bytes", "after 512 body bytes (chunked)" when no length was
    /// declared, or "during the head".
    private var progress: String {
        switch stage {
        case .head: return "during the head"
        case .body(let received, let declared?): return "after \(Self.grouped(received)) of \(Self.grouped(declared)) body bytes"
        case .body(let received, nil): return "after \(Self.grouped(received)) body bytes (chunked)"
        }
    }

    /// `2048` → `2,048`: byte counts people compare at a glance.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return number < 0 ? "-" + text : text
    }
}
