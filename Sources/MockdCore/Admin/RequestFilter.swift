/// Which journal entries a test asks about (`GET /__mockd/requests`): every filter given must
/// hold. Read from the query once, then used to list, to count and, for a wait, to decide when
/// enough have come.
package struct RequestFilter: Sendable, Equatable {
    package var method: String?
    /// A glob (`/api/v1/*`).
    package var path: String?
    package var session: String?
    package var status: Int?
    /// The entry's `kind` (`push`, `route`, `notFound`…).
    package var kind: Origin.Kind?
    /// WebSocket messages instead of requests (`GET /__mockd/ws/messages`), and which way (`in`, `out`).
    package var messages = false
    package var direction: String?

    package init(
        method: String? = nil, path: String? = nil, session: String? = nil, status: Int? = nil, kind: Origin.Kind? = nil,
        messages: Bool = false, direction: String? = nil
    ) {
        self.method = method?.uppercased()
        self.path = path
        self.session = session
        self.status = status
        self.kind = kind
        self.messages = messages
        self.direction = direction
    }

    /// A matcher made once for a listing or a wait (the glob compiled once).
    func matcher() -> @Sendable (RequestJournal.Entry) -> Bool {
        let glob = path.map(Glob.init)
        let method = method, session = session, status = status, kind = kind, messages = messages, direction = direction
        return { entry in
            (entry.message != nil) == messages && (direction == nil || entry.message?.direction == direction)
                && (method == nil || entry.method == method)
                && (glob == nil || glob!.matches(entry.path))
                && (session == nil || entry.session == session)
                && (status == nil || entry.status == status)
                && (kind == nil || entry.kind == kind)
        }
    }
}

/// `GET /__mockd/requests` read from its query: the filter, `limit`, and for a test that waits
/// for its app, `count` (how many entries it expects) and `wait` (how long it may wait for them).
struct RequestsQuery: Sendable {
    /// The longest wait one call may ask for: a test's whole budget, not a server's.
    static let maximumWait = 60

    var filter = RequestFilter()
    var limit: Int?
    var count: Int?
    var wait = 0

    /// The query, or the 400 naming the argument and what was found. `messages`: the query of
    /// `GET /__mockd/ws/messages`, which also reads `direction`.
    static func parse(_ request: MockRequest, messages: Bool = false) -> Result<RequestsQuery, ErrorAnswer> {
        var query = RequestsQuery()
        func number(_ name: String, _ text: String, minimum: Int) -> Result<Int, ErrorAnswer> {
            guard let value = Int(text), value >= minimum else {
                return .failure(
                    ErrorAnswer(
                        400, "\(name) must be a whole number\(minimum > 0 ? " from \(minimum)" : ""), found \(JSONText.quoted(text))"))
            }
            return .success(value)
        }
        var method: String?, path: String?, session: String?, status: Int?, kind: Origin.Kind?, direction: String?
        for argument in request.query {
            guard let text = argument.value, !text.isEmpty else { continue }
            switch argument.name {
            case "method": method = text
            case "path": path = text
            case "session": session = text
            case "kind":
                guard let known = Origin.Kind(rawValue: text) else {
                    return .failure(
                        ErrorAnswer(
                            400,
                            "kind must be one of \(Origin.Kind.allCases.map(\.rawValue).joined(separator: ", ")), found \(JSONText.quoted(text))"
                        ))
                }
                kind = known
            case "direction":
                guard text == "in" || text == "out" else {
                    return .failure(
                        ErrorAnswer(
                            400, "direction must be \"in\" (the app's messages) or \"out\" (mockd's), found \(JSONText.quoted(text))"))
                }
                direction = text
            case "status":
                switch number("status", text, minimum: 0) {
                case .success(let value): status = value
                case .failure(let refusal): return .failure(refusal)
                }
            case "limit":
                switch number("limit", text, minimum: 0) {
                case .success(let value): query.limit = value
                case .failure(let refusal): return .failure(refusal)
                }
            case "count":
                switch number("count", text, minimum: 1) {
                case .success(let value): query.count = value
                case .failure(let refusal): return .failure(refusal)
                }
            case "wait":
                switch number("wait", text, minimum: 0) {
                case .success(let value): query.wait = min(value, maximumWait)
                case .failure(let refusal): return .failure(refusal)
                }
            default:
                continue  // refused before parsing (`AdminKeys.requests`)
            }
        }
        query.filter = RequestFilter(
            method: method, path: path, session: session, status: status, kind: kind, messages: messages, direction: direction)
        return .success(query)
    }
}
