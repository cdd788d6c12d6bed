import MockdCore

/// What the adapter carries out for one request: the core's decision, or what only the adapter
/// decides, for a request the core never saw resolved (it cannot be read) or a connection the
/// adapter ends (a timeout fault ran out, mockd is stopping).
enum Execution: Sendable {
    /// The core's decision.
    case resolved(Resolution)
    /// The request cannot be read (framing, limits): a JSON reason and `Connection: close`.
    case refuse(status: Int, reason: String)
    /// Close without an answer; `reason` is what the log says.
    case close(reason: String)

    /// `reply`, now.
    static func respond(_ reply: Reply) -> Execution { .resolved(.respond(reply)) }
}
