/// A request whose head mockd read and that ended before it was answered: its body never all
/// came. Decided here from what the adapter saw, so the access line, the journal entry and the
/// last 408 (when one can still be sent) say the same thing about it.
package struct UnfinishedRequest: Sendable, Equatable {
    /// What ended it, as the adapter saw it.
    package enum Cause: Sendable, Equatable {
        /// The connection's idle timeout (`--idle-timeout`) ran out while the body was awaited.
        case idleTimeout(seconds: Int)
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

    package let cause: Cause
    /// Body bytes that arrived.
    package let received: Int
    /// The body's `Content-Length`; nil for a chunked body.
    package let declared: Int?

    package init(_ cause: Cause, received: Int, declared: Int?) {
        self.cause = cause
        self.received = received
        self.declared = declared
    }

    /// The 408 mockd still sends: only at the idle timeout, when the connection is still open
    /// for writing. The slow body's 408 has been sent by the guard already; the other endings
    /// have nobody left to read one.
    package var answer: ErrorAnswer? {
        guard case .idleTimeout(let seconds) = cause else { return nil }
        return ErrorAnswer(408, "the request body stopped coming for \(seconds) s (--idle-timeout) after \(progress)")
    }

    /// The status the access line and the journal give: the 408 that was sent, else 0 (no answer).
    package var status: Int {
        switch cause {
        case .idleTimeout, .slowBody: 408
        case .clientLeft, .stopping, .connectionError: 0
        }
    }

    /// As people read it (the access line's and the journal's `source`).
    package var label: String {
        switch cause {
        case .idleTimeout: "timed out after \(progress) (--idle-timeout)"
        case .slowBody(let rate): "too slow after \(progress) (--min-body-rate \(rate))"
        case .clientLeft: "client left after \(progress)"
        case .stopping: "mockd stopped after \(progress)"
        case .connectionError: "connection failed after \(progress)"
        }
    }

    /// "512 of 2,048 body bytes", or "512 body bytes (chunked)" when no length was declared.
    private var progress: String {
        guard let declared else { return "\(Self.grouped(received)) body bytes (chunked)" }
        return "\(Self.grouped(received)) of \(Self.grouped(declared)) body bytes"
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
