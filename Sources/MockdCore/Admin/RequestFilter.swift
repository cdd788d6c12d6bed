/// Which journal entries a test asks about (`GET /__mockd/requests`): every filter given must
/// hold. Read from the query once, then used to list, to count and, for a wait, to decide when
/// enough have come.
package struct RequestFilter: Sendable, Equatable {
    package var method: String?
    /// A glob (`/api/v1/*`).
    package var path: String?
    package var session: String?
    package var status: Int?

    init(method: String? = nil, path: String? = nil, session: String? = nil, status: Int? = nil) {
        self.method = method?.uppercased()
        self.path = path
        self.session = session
        self.status = status
    }

    /// A matcher made once for a listing or a wait (the glob compiled once).
    func matcher() -> @Sendable (RequestJournal.Entry) -> Bool {
        let glob = path.map(Glob.init)
        let method = method, session = session, status = status
        return { entry in
            (method == nil || entry.method == method)
                && (glob == nil || glob!.matches(entry.path))
                && (session == nil || entry.session == session)
                && (status == nil || entry.status == status)
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

    /// The query, or the message of a 400 naming the argument and what was found.
    static func parse(_ request: MockRequest) -> Result<RequestsQuery, AdminAPI.Refusal> {
        var query = RequestsQuery()
        func number(_ name: String, _ text: String, minimum: Int) -> Result<Int, AdminAPI.Refusal> {
            guard let value = Int(text), value >= minimum else {
                return .failure(
                    .init("\(name) must be a whole number\(minimum > 0 ? " from \(minimum)" : ""), found \(JSONText.quoted(text))"))
            }
            return .success(value)
        }
        var method: String?, path: String?, session: String?, status: Int?
        for argument in request.query {
            guard let text = argument.value, !text.isEmpty else { continue }
            switch argument.name {
            case "method": method = text
            case "path": path = text
            case "session": session = text
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
        query.filter = RequestFilter(method: method, path: path, session: session, status: status)
        return .success(query)
    }
}
