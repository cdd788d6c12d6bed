/// The refusals the adapter sends when a limit or the shutdown stops a request. They are worded
/// here, beside the value that renders them, so the core's tests pin their bodies and the adapter
/// only decides when to send one.
extension ErrorAnswer {
    /// A request that cannot be read (its framing, its size, its path), with why; its connection
    /// closes, since what follows the head cannot be trusted to be the next request.
    package static func unreadable(status: Int, reason: String) -> ErrorAnswer {
        ErrorAnswer(status, reason, headers: [HTTPHeader("Connection", "close")])
    }

    /// `--max-body-memory` is full: the body could not be kept, and may be sent again in a moment.
    package static func bodyMemoryFull(limit: Int) -> ErrorAnswer {
        ErrorAnswer(
            503, "request bodies in memory are at the limit (\(limit) bytes, --max-body-memory); try again shortly",
            headers: [HTTPHeader("Retry-After", "1"), HTTPHeader("Connection", "close")])
    }

    /// `--max-parked` requests wait already.
    package static func tooManyParked(limit: Int) -> ErrorAnswer {
        ErrorAnswer(
            503,
            "too many parked requests (--max-parked \(limit)): delays, timeout faults and upstream calls wait in parallel up to that limit")
    }

    /// Work (an upstream call, a reload) that cannot run or finish while mockd stops.
    package static let stopping = ErrorAnswer(503, "mockd is stopping", headers: [HTTPHeader("Connection", "close")])

    /// The request head did not come within `--head-timeout`.
    package static func headTimeout(seconds: Int) -> ErrorAnswer {
        ErrorAnswer(408, "the request head did not arrive within \(seconds) s (--head-timeout)")
    }

    /// At `--max-connections`, the connection that had waited longest for its request head was
    /// closed to make room for a new one.
    package static let evictedForRoom = ErrorAnswer(
        408, "the connection was closed to make room for a new one (--max-connections) before its request head had all arrived")

    /// The request body came slower than `--min-body-rate` over a window.
    package static func slowBody(bytesPerSecond: Int, windowSeconds: Int) -> ErrorAnswer {
        ErrorAnswer(408, "the request body came slower than \(bytesPerSecond) bytes/s over \(windowSeconds) s (--min-body-rate)")
    }
}
