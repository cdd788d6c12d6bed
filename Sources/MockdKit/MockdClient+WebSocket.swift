public import Foundation

// MARK: - WebSocket connections

extension MockdClient {
    /// Sends `message` to every open WebSocket connection of `session` (`nil`: connections
    /// without one) on `path`: `POST /__mockd/ws/send`. Returns how many got it; none open is
    /// ``MockdError/http(status:message:body:)`` with status 404.
    ///
    /// ```swift
    /// try await mockd.sendWebSocket(.json(["type": "goal", "minute": "90"]), session: session.id, path: "/ws/scores")
    /// ```
    @discardableResult
    public func sendWebSocket(_ message: MockdWebSocketPayload, session: String?, path: String) async throws -> Int {
        var body: [String: Any] = ["path": path, "message": message.json]
        if let session { body["session"] = session }
        let data = try JSONSerialization.data(withJSONObject: body)
        struct Sent: Decodable { var sent: Int }
        return try decode(Sent.self, from: await send("POST", "/__mockd/ws/send", body: data)).sent
    }

    /// The open WebSocket connections, of one session or all: `GET /__mockd/ws/connections`.
    public func webSocketConnections(session: String? = nil) async throws -> [MockdWebSocketConnection] {
        struct List: Decodable { var connections: [MockdWebSocketConnection] }
        let query = session.map { [URLQueryItem(name: "session", value: $0)] } ?? []
        return try decode(List.self, from: await send("GET", "/__mockd/ws/connections", query: query)).connections
    }

    /// Starts the close handshake of one connection: `DELETE /__mockd/ws/connections/ID`.
    public func closeWebSocket(_ id: Int, code: Int = 1000, reason: String = "") async throws {
        var query = [URLQueryItem(name: "code", value: String(code))]
        if !reason.isEmpty { query.append(URLQueryItem(name: "reason", value: reason)) }
        _ = try await send("DELETE", "/__mockd/ws/connections/\(id)", query: query)
    }

    /// The journaled WebSocket messages that match `filter`, oldest first: `GET /__mockd/ws/messages`.
    public func webSocketMessages(_ filter: MockdMessageFilter = MockdMessageFilter()) async throws -> [MockdWebSocketMessage] {
        try decode(MessageList.self, from: await send("GET", "/__mockd/ws/messages", query: filter.queryItems)).messages
    }

    /// Waits until at least `count` journaled messages match `filter`, with one long-poll call,
    /// as ``waitForRequests(_:count:timeout:)`` does for requests.
    ///
    /// ```swift
    /// let subscribes = try await mockd.waitForMessages(
    ///     MockdMessageFilter(session: session.id, path: "/ws/scores", direction: .fromApp))
    /// #expect(subscribes[0].text?.contains("subscribe") == true)
    /// ```
    /// - Throws: ``MockdError/messagesTimedOut(found:)`` with what matched when the time ran out.
    public func waitForMessages(_ filter: MockdMessageFilter, count: Int = 1, timeout: TimeInterval = 5) async throws
        -> [MockdWebSocketMessage]
    {
        var query = filter.queryItems
        query.append(URLQueryItem(name: "count", value: String(max(count, 1))))
        query.append(URLQueryItem(name: "wait", value: Self.seconds(timeout)))
        let list = try decode(MessageList.self, from: await send("GET", "/__mockd/ws/messages", query: query, timeout: timeout + 30))
        guard list.complete ?? (list.messages.count >= count) else { throw MockdError.messagesTimedOut(found: list.messages) }
        return list.messages
    }

    private struct MessageList: Decodable {
        var messages: [MockdWebSocketMessage]
        var complete: Bool?
    }
}

/// A message for ``MockdClient/sendWebSocket(_:session:path:)``.
public enum MockdWebSocketPayload: Sendable {
    /// A text message.
    case text(String)
    /// A JSON value, sent as compact text: a `String`, number, `Bool`, array or dictionary of them.
    case json(any Sendable)
    /// A binary message.
    case binary(Data)

    var json: [String: Any] {
        switch self {
        case .text(let text): ["text": text]
        case .json(let value): ["json": value]
        case .binary(let data): ["base64": data.base64EncodedString()]
        }
    }
}

/// An open WebSocket connection, as `GET /__mockd/ws/connections` lists it.
public struct MockdWebSocketConnection: Sendable, Decodable, Equatable {
    public var id: Int
    public var session: String?
    public var path: String
    /// When it opened (ISO 8601).
    public var opened: String
    /// Messages the app sent on it.
    public var messagesIn: Int
    /// Messages mockd sent on it.
    public var messagesOut: Int
}

/// A journaled WebSocket message.
public struct MockdWebSocketMessage: Sendable, Decodable, Equatable {
    public var id: Int
    public var time: String
    /// `in`: the app sent it; `out`: mockd did.
    public var direction: String
    public var connection: Int
    public var session: String?
    public var path: String
    /// The whole message's size in bytes (the journal may keep less).
    public var size: Int
    /// A text message's text.
    public var text: String?
    /// A binary message's bytes, in base64.
    public var base64: String?
}

/// Which journaled WebSocket messages to read or wait for; `nil` fields match everything.
public struct MockdMessageFilter: Sendable, Equatable, Hashable {
    public enum Direction: String, Sendable {
        /// The app's messages.
        case fromApp = "in"
        /// mockd's.
        case fromMockd = "out"
    }

    public var session: String?
    /// A glob, as for requests.
    public var path: String?
    public var direction: Direction?
    public var limit: Int?

    public init(session: String? = nil, path: String? = nil, direction: Direction? = nil, limit: Int? = nil) {
        self.session = session
        self.path = path
        self.direction = direction
        self.limit = limit
    }

    var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let session { items.append(URLQueryItem(name: "session", value: session)) }
        if let path { items.append(URLQueryItem(name: "path", value: path)) }
        if let direction { items.append(URLQueryItem(name: "direction", value: direction.rawValue)) }
        if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        return items
    }
}
