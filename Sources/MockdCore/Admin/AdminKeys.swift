/// The keys each admin endpoint reads, from its JSON body or from its query, and the one check
/// of what a call sent against them. A key the endpoint does not read is refused (400) with the
/// keys it does read and, for a near miss, the one meant: a misspelt `"sesion"` would otherwise
/// act for every session, a misspelt filter would select everything, and the test that sent it
/// would pass for the wrong reason.
struct AdminKeys: Sendable {
    /// Where the keys are, as the refusal names them.
    enum Place: String, Sendable {
        case body = "key"
        case query = "query argument"
    }

    let place: Place
    /// Listed in this order in the refusal.
    let known: [String]
    /// Keys a caller may well send that the endpoint cannot honour, with what to do instead.
    var elsewhere: [String: String] = [:]

    // One list per endpoint that reads a body or a query; the endpoint reads no other key.
    static let scenario = AdminKeys(place: .query, known: ["session"])
    static let setScenario = AdminKeys(place: .body, known: ["scenario", "session"])
    static let requests = AdminKeys(place: .query, known: ["method", "path", "session", "status", "kind", "limit", "count", "wait"])
    static let clearRequests = AdminKeys(place: .query, known: ["session"])
    static let reset = AdminKeys(place: .body, known: ["session"])
    static let source = AdminKeys(place: .query, known: ["origin"])
    static let events = AdminKeys(place: .query, known: ["after", "state", "wait"])
    static let mocks = AdminKeys(
        place: .body, known: ["method", "path", "body", "status", "scenario"],
        elsewhere: ["session": #"a mock file answers every session; POST /__mockd/stubs with "session" adds a route for one"#])
    static let routeTables = AdminKeys(place: .body, known: ["table", "routes"])
    static let sessions = AdminKeys(place: .body, known: ["id", "scenario", "device", "bundleId"])
    static let push = AdminKeys(place: .body, known: ["name", "payload", "device", "bundleId", "afterMs", "session"])
    /// A route's keys and the stub's own `session`, which `Stub.decode` takes off before the
    /// route decoder reads the rest.
    static let stubs = AdminKeys(place: .body, known: RouteDecoder.routeKeys + ["session"])
    static let resources = AdminKeys(place: .query, known: ["path", "session", "scenario"])
    static let webSocketSend = AdminKeys(place: .body, known: ["session", "path", "message"])
    static let webSocketConnections = AdminKeys(place: .query, known: ["session"])
    static let webSocketClose = AdminKeys(place: .query, known: ["code", "reason"])
    static let webSocketMessages = AdminKeys(place: .query, known: ["path", "session", "direction", "limit", "count", "wait"])

    /// The 400 for the keys of the JSON object `body` not known here; nil when all are known, or
    /// when `body` is no object (the endpoint says what it expects instead).
    func refusal(_ body: JSONValue) -> BuiltResponse? {
        guard case .object(let members) = body else { return nil }
        return unknown(members.map(\.key)).map(AdminAPI().refuse)
    }

    /// The 400 for the query arguments of `request` not known here; nil when all are known.
    func refusal(_ request: MockRequest) -> BuiltResponse? {
        unknown(request.query.map(\.name)).map(AdminAPI().refuse)
    }

    /// The 400 for the names not known here, each named once (`unknown key "sesion"; did you
    /// mean "session"?`) with the known ones; nil when all are known.
    func unknown(_ names: [String]) -> ErrorAnswer? {
        var unknown: [String] = []
        for name in names where !known.contains(name) && !unknown.contains(name) { unknown.append(name) }
        guard !unknown.isEmpty else { return nil }
        let notes = unknown.compactMap { name -> String? in
            if let note = elsewhere[name] { return note }
            guard let meant = EditDistance.nearest(to: name, in: known) else { return nil }
            return "did you mean \(JSONText.quoted(meant))\(unknown.count == 1 ? "" : " for \(JSONText.quoted(name))")?"
        }
        let names = "unknown \(place.rawValue)\(unknown.count == 1 ? "" : "s") \(unknown.map(JSONText.quoted).joined(separator: ", "))"
        return ErrorAnswer(400, ([names] + notes).joined(separator: "; "), details: [("known", .array(known.map { .string($0) }))])
    }
}
