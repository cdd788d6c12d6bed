public import Foundation

/// What went wrong talking to mockd, or starting one: each case says what the server (or the
/// process) answered, so a failed test shows the reason without a debugger.
public enum MockdError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status outside 200-299.
    ///
    /// - Parameters:
    ///   - status: The HTTP status, such as 400 for an unknown scenario or 409 for a session id
    ///     that exists already.
    ///   - message: The `error` text of mockd's JSON answer (`unknown scenario "x"`), followed
    ///     by its `errors` when there are (a refused stub's, each naming a JSON path); the body
    ///     itself when it is not such JSON.
    ///   - body: The whole body as text, with any further fields (`"known": [...]`).
    case http(status: Int, message: String, body: String)

    /// ``MockdClient/waitForRequests(_:count:timeout:)`` ran out of time before enough requests
    /// matched; `found` holds those that did.
    case timedOut(found: [MockdRequest])

    /// ``MockdClient/waitForMessages(_:count:timeout:)`` ran out of time before enough WebSocket
    /// messages matched; `found` holds those that did.
    case messagesTimedOut(found: [MockdWebSocketMessage])

    /// The answer was not what the admin API sends: no HTTP response, or a body that does not
    /// decode. The text says what was expected and what came.
    case invalidResponse(String)

    /// A call was given something it cannot send, such as a route that is not a JSON object. The
    /// text says what.
    case invalidArgument(String)

    /// A `MockdProcess` could not start mockd, or mockd exited before it listened. The text
    /// says why and holds what mockd printed (its configuration errors, for one).
    case processFailed(String)

    /// The HTTP status for ``http(status:message:body:)``, else `nil`.
    public var status: Int? {
        if case .http(let status, _, _) = self { return status }
        return nil
    }

    /// The server's `error` text for ``http(status:message:body:)``, else `nil`.
    public var message: String? {
        if case .http(_, let message, _) = self { return message }
        return nil
    }

    /// One line for test output: the status and the server's text, or what failed.
    public var description: String {
        switch self {
        case .http(let status, let message, let body):
            return message == body ? "mockd answered \(status): \(message)" : "mockd answered \(status): \(message) (\(body))"
        case .timedOut(let found):
            return "timed out waiting for requests; \(found.count) matched: "
                + found.map { "\($0.method) \($0.path) → \($0.status)" }.joined(separator: ", ")
        case .messagesTimedOut(let found):
            return "timed out waiting for WebSocket messages; \(found.count) matched: "
                + found.map { "\($0.direction) #\($0.connection) \($0.text ?? "\($0.size) bytes")" }.joined(separator: ", ")
        case .invalidResponse(let text):
            return "unexpected answer from mockd: \(text)"
        case .invalidArgument(let text):
            return "invalid argument: \(text)"
        case .processFailed(let text):
            return "mockd process: \(text)"
        }
    }
}

extension MockdError: LocalizedError {
    /// The same text as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}
