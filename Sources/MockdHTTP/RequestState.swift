#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MockdCore
import MockdLock
import Synchronization

/// What mockd remembers about one request between libmicrohttpd's calls of the access handler:
/// the target as sent, then the reader (head, body), then, while parked, what to do when resumed.
///
/// libmicrohttpd calls the handler for a connection from one thread at a time, so the fields
/// need no lock, and no run-time exclusivity check either (`@exclusivity(unchecked)`: two
/// checks a request otherwise); it is created in the URI-log callback and released in the
/// completion callback.
final class RequestState: @unchecked Sendable {  // mutable fields: one libmicrohttpd thread at a time
    enum Phase {
        /// Only the request line has been seen (URI-log callback).
        case new
        /// Headers seen; the body, if any, is arriving.
        case receiving
        /// Suspended (delay, timeout fault, upstream call); `pending` says what to do when resumed.
        case parked
        /// A response was queued.
        case answered
    }

    /// What a parked request does once it is resumed: the part of its resolution that was left.
    struct Pending: Sendable {
        var execution: Execution
        var request: MockRequest
        var serving: ServingState
        /// The admin API answers it (no `--cors` headers).
        var admin: Bool
    }

    /// Set when parked (work replaces its resolution before resuming); read by the handler call
    /// that follows on the libmicrohttpd thread.
    let pending = Lock<Pending?>(nil)

    @exclusivity(unchecked) var phase = Phase.new
    let target: RequestTarget
    /// Set on the handler's first call, when the head is in.
    @exclusivity(unchecked) var reader: RequestReader?
    /// Bytes reserved from the server's body budget for the body (its capacity), returned at completion.
    @exclusivity(unchecked) var heldBodyBytes = 0
    /// The reader, moved out (nil left behind): its arrays are then grown or handed on in place,
    /// not copied. (`Optional.take()` did the same through the type's generic value witnesses.)
    func takeReader() -> RequestReader? {
        var taken: RequestReader?
        swap(&taken, &reader)
        return taken
    }

    /// Monotonic nanoseconds when the request line arrived, for the access log's duration.
    let startNanoseconds: UInt64
    /// Monotonic nanoseconds when the answer was logged (0 until then): the connection's idle
    /// time starts there, without another clock read at completion.
    @exclusivity(unchecked) var loggedNanoseconds: UInt64 = 0
    /// A WebSocket upgrade relayed upstream (`--proxy`): its upstream stream may wait in the
    /// server's `relayStreams` until the app's 101, and goes when the request completes.
    @exclusivity(unchecked) var relayed = false

    /// The session port it arrived on (nil: the main port): the request belongs to that session.
    let sessionPort: SessionListener?

    /// The path as sent, its first `sentPathCapacity` bytes, copied into the state itself (no
    /// allocation of its own): all that is known of a request whose head never completes, since
    /// libmicrohttpd's decoded URL comes with the rest of the head.
    private var sentPathBytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private static let sentPathCapacity = 64

    init(rawURI: UnsafePointer<CChar>?, sessionPort: SessionListener? = nil) {
        target = rawURI.map(RequestTarget.init) ?? .empty
        self.sessionPort = sessionPort
        startNanoseconds = Self.monotonicNanoseconds()
        if let rawURI {
            let count = min(target.pathLength, Self.sentPathCapacity)
            withUnsafeMutableBytes(of: &sentPathBytes) { _ = memcpy($0.baseAddress!, rawURI, count) }
        }
    }

    /// The path as sent (its first 64 bytes, then `…`).
    var sentPath: String {
        let count = min(target.pathLength, Self.sentPathCapacity)
        let prefix = withUnsafeBytes(of: sentPathBytes) { String(decoding: $0.prefix(count), as: UTF8.self) }
        return target.pathLength > count ? prefix + "…" : prefix
    }

    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
