public import Foundation

/// The answer of `GET /__mockd/health`: what the server has loaded and how long it has run.
public struct MockdHealth: Sendable, Equatable, Decodable {
    /// `"ok"` while the server answers.
    public var status: String
    /// Mock files loaded from the root.
    public var files: Int
    /// Routes loaded from the route tables.
    public var routes: Int
    /// The runtime scenario of requests that name none.
    public var scenario: String
    /// Seconds since the server started.
    public var uptime: Double
    /// The data root, as an absolute path on the server's machine; `nil` from servers that do not
    /// say.
    public var root: String?
    /// The routes folder, as an absolute path on the server's machine; `nil` when there is none or
    /// the server does not say.
    public var routesFolder: String?
}

/// A session: a port of its own on which every request belongs to that session, with its own
/// scenario, sequence counters, stubs and journal entries.
///
/// Give ``baseURL`` to the app under test (for example through `launchEnvironment`): the app
/// talks to its own world without sending any header.
public struct MockdSession: Sendable, Equatable, Hashable, Decodable {
    /// The session's id, as given to ``MockdClient/newSession(id:scenario:device:bundleID:)`` or made by the
    /// server.
    public var id: String
    /// The port the session listens on.
    public var port: Int
    /// The base URL the app should use, such as `http://127.0.0.1:53121`.
    public var baseURL: URL
    /// The session's scenario, or `nil` when it has none of its own.
    public var scenario: String?
    /// The simulator its pushes go to, when it was opened with one.
    public var device: String?
    /// The app its pushes go to, when it was opened with one.
    public var bundleId: String?

    /// A session as the server describes it.
    public init(id: String, port: Int, baseURL: URL, scenario: String? = nil) {
        self.id = id
        self.port = port
        self.baseURL = baseURL
        self.scenario = scenario
    }
}

/// One entry of mockd's request journal (`GET /__mockd/requests`): a request the server answered,
/// with what answered it. Fields the server adds later are ignored.
public struct MockdRequest: Sendable, Equatable, Hashable, Decodable {
    /// What the server answered, when the journal keeps it.
    public struct Response: Sendable, Equatable, Hashable, Decodable {
        /// The answer's `Content-Type`, if it had one.
        public var contentType: String?
        /// The answer's body as text.
        public var body: String?
    }

    /// The entry's number: later requests have larger ones.
    public var id: Int
    /// When the request came, ISO 8601 with milliseconds (`2026-11-25T01:06:10.373Z`).
    public var time: String
    /// The request method, such as `"POST"`.
    public var method: String
    /// The path, without the query.
    public var path: String
    /// The query string without `?`; empty when there was none.
    public var query: String
    /// The request headers as sent; a repeated header's values are joined with `", "`.
    /// ``header(_:)`` looks one up without regard to case.
    public var headers: [String: String]
    /// The request body as text (UTF-8), cut at the server's `--journal-body-bytes`.
    public var body: String
    /// `true` when ``body`` was cut.
    public var bodyTruncated: Bool
    /// The scenario the request was answered in.
    public var scenario: String?
    /// The session the request belonged to, or `nil`.
    public var session: String?
    /// What answered, for people to read: `file mock_api_users_get.json`,
    /// `route routes/auth.json#2`, `stub#2`, `proxy 12ms`, `404`… Decide on ``kind``, not on this.
    public var source: String?
    /// What kind of source answered: ``SourceKind/file``, ``SourceKind/notFound``,
    /// ``SourceKind/proxy``…; `nil` from a mockd that does not say.
    ///
    /// ```swift
    /// let feed = try await mockd.requests(MockdRequestFilter(path: "/api/feed"))
    /// #expect(feed.allSatisfy { $0.kind != .notFound })
    /// ```
    public var kind: SourceKind?
    /// The status of the answer.
    public var status: Int
    /// How long answering took, in milliseconds.
    public var durationMs: Double
    /// The answer, when the server includes it.
    public var response: Response?

    /// The value of the header `name`, found without regard to case.
    public func header(_ name: String) -> String? {
        if let value = headers[name] { return value }
        return headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body decoded as JSON into `type`, to check what the app sent.
    ///
    /// ```swift
    /// let login = try request.decodeBody(LoginBody.self)
    /// #expect(login.email == "ada@example.com")
    /// ```
    public func decodeBody<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: Data(body.utf8))
    }

    private enum CodingKeys: String, CodingKey {
        case id, time, method, path, query, headers, body, bodyTruncated, scenario, session, source, kind, status, durationMs, response
    }

    /// Decodes a journal entry; missing optional fields take their empty value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        time = try container.decodeIfPresent(String.self, forKey: .time) ?? ""
        method = try container.decode(String.self, forKey: .method)
        path = try container.decode(String.self, forKey: .path)
        query = try container.decodeIfPresent(String.self, forKey: .query) ?? ""
        headers = try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
        body = try container.decodeIfPresent(String.self, forKey: .body) ?? ""
        bodyTruncated = try container.decodeIfPresent(Bool.self, forKey: .bodyTruncated) ?? false
        scenario = try container.decodeIfPresent(String.self, forKey: .scenario)
        session = try container.decodeIfPresent(String.self, forKey: .session)
        source = try container.decodeIfPresent(String.self, forKey: .source)
        kind = try container.decodeIfPresent(String.self, forKey: .kind).map(SourceKind.init(rawValue:))
        status = try container.decode(Int.self, forKey: .status)
        durationMs = try container.decodeIfPresent(Double.self, forKey: .durationMs) ?? 0
        response = try container.decodeIfPresent(Response.self, forKey: .response)
    }
}

/// Which journal entries to read or wait for. Every field left `nil` matches everything.
///
/// ```swift
/// MockdRequestFilter(session: session.id, method: "POST", path: "/api/v1/*")
/// ```
public struct MockdRequestFilter: Sendable, Equatable, Hashable {
    /// Only requests of this session.
    public var session: String?
    /// Only requests with this method.
    public var method: String?
    /// Only requests whose path matches this glob (`*` is one segment, a final `**` the rest).
    public var path: String?
    /// Only requests answered with this status.
    public var status: Int?
    /// At most this many entries, the newest.
    public var limit: Int?
    /// Only entries of this kind, such as ``SourceKind/push`` for the pushes mockd sent.
    public var kind: SourceKind?

    /// A filter; no arguments match every request.
    public init(
        session: String? = nil, method: String? = nil, path: String? = nil, status: Int? = nil, limit: Int? = nil,
        kind: SourceKind? = nil
    ) {
        self.session = session
        self.method = method
        self.path = path
        self.status = status
        self.limit = limit
        self.kind = kind
    }

    /// The query arguments, only those set (the server refuses arguments it does not know, so
    /// none is sent empty).
    var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let session { items.append(URLQueryItem(name: "session", value: session)) }
        if let method { items.append(URLQueryItem(name: "method", value: method)) }
        if let path { items.append(URLQueryItem(name: "path", value: path)) }
        if let status { items.append(URLQueryItem(name: "status", value: String(status))) }
        if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        if let kind { items.append(URLQueryItem(name: "kind", value: kind.rawValue)) }
        return items
    }
}

/// A stub added from a test with ``MockdClient/stub(route:session:)`` or its typed forms: it
/// answers ahead of files, routes and OpenAPI operations until deleted or its session is reset.
public struct MockdStub: Sendable, Equatable, Hashable, Decodable {
    /// The stub's id, for ``MockdClient/deleteStub(_:)``; its answers say
    /// `X-Mockd-Source: stub#ID`.
    public var id: String
    /// The session it answers for, or `nil` when it answers everyone.
    public var session: String?
    /// What its answers name in `X-Mockd-Source` and the journal's `source`, such as `stub#2`.
    public var origin: String?
    /// The method it matches (a list's methods joined with `,`), when the route names one.
    public var method: String?
    /// The path it matches as the server shows it: the route's `path`, or `~REGEX` for a
    /// `pathPattern`.
    public var path: String?

    private enum CodingKeys: String, CodingKey { case id, origin, session, method, path }

    /// Decodes the server's description of a stub; `method` may be a string or a list.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        session = try container.decodeIfPresent(String.self, forKey: .session)
        origin = try? container.decodeIfPresent(String.self, forKey: .origin)
        if let one = try? container.decodeIfPresent(String.self, forKey: .method) {
            method = one
        } else if let many = try? container.decodeIfPresent([String].self, forKey: .method) {
            method = many.joined(separator: ",")
        } else {
            method = nil
        }
        path = try? container.decodeIfPresent(String.self, forKey: .path)
    }
}

/// What kind of source answered a request: the journal's `kind`. A string underneath, so a kind a
/// newer mockd adds decodes too; compare with the constants.
public struct SourceKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// A mock file under the root.
    public static let file = SourceKind(rawValue: "file")
    /// A route of a route table.
    public static let route = SourceKind(rawValue: "route")
    /// A stub a test added (``MockdClient/stub(route:session:)``).
    public static let stub = SourceKind(rawValue: "stub")
    /// A resource a route table declares.
    public static let resource = SourceKind(rawValue: "resource")
    /// An operation of an `--openapi` document or a Postman collection.
    public static let operation = SourceKind(rawValue: "operation")
    /// The admin API.
    public static let admin = SourceKind(rawValue: "admin")
    /// A CORS preflight (`--cors`).
    public static let preflight = SourceKind(rawValue: "preflight")
    /// Nothing answered: the 404 report.
    public static let notFound = SourceKind(rawValue: "notFound")
    /// A method no file can serve: the 501.
    public static let unknownMethod = SourceKind(rawValue: "unknownMethod")
    /// mockd refused the request (framing, limits, stopping).
    public static let refusal = SourceKind(rawValue: "refusal")
    /// Closed without an answer (a timeout fault, a stop).
    public static let closed = SourceKind(rawValue: "closed")
    /// The request's body never all came: the client left (status 0), or mockd's 408 when the
    /// body stopped coming or came too slowly. The source says how far it got.
    public static let unfinished = SourceKind(rawValue: "unfinished")
    /// The upstream answered (`--proxy`).
    public static let proxy = SourceKind(rawValue: "proxy")
    /// The upstream could not be asked: mockd's own 502 or 504.
    public static let proxyFailure = SourceKind(rawValue: "proxyFailure")
    /// A WebSocket message (read with ``MockdClient/webSocketMessages(_:)``), not a request.
    public static let message = SourceKind(rawValue: "message")
    /// A push mockd sent to a simulator (``MockdClient/push(_:device:bundleID:session:afterMs:)``),
    /// not a request: its status is 201 when simctl took it, 502 when it did not.
    public static let push = SourceKind(rawValue: "push")

    public var description: String { rawValue }
}
