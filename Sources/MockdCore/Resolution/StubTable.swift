import MockdLock
import Synchronization

/// A route a test added at run time (`POST /__mockd/stubs`): in the route-table format, for one
/// session or for everyone, in front of files, routes and operations. Never written to disk.
package struct Stub: Sendable {
    package let id: Int
    /// The session it answers (its `X-Mock-Session` or session port); nil: every request.
    package let session: String?
    package let route: Route
    /// The route as the test sent it, for listings.
    let definition: JSONValue
    /// Its GraphQL `json` answers, checked against the schema when it is added.
    var graphQLAnswers: [GraphQLWrittenAnswer] = []

    /// How answers, the journal and listings name it.
    package var origin: String { "stub#\(id)" }

    static let originPrefix = "stub#"

    /// A stub from the JSON a test sent: one route object and an optional `"session"`, or every
    /// problem, each with its place in that JSON (`stub.response.status: expected …`).
    static func decode(_ body: JSONValue, id: Int, root: String, files: any FileSource) -> Result<Stub, StubErrors> {
        guard case .object(var members) = body else {
            return .failure(
                StubErrors([
                    "stub: expected a route object like {\"method\": \"GET\", \"path\": \"/api/users\", \"response\": {\"json\": []}}"
                ]))
        }
        var session: String?
        if let index = members.firstIndex(where: { $0.key == "session" }) {
            guard case .string(let text) = members[index].value, !text.isEmpty else {
                return .failure(
                    StubErrors(["stub.session: expected a session id (a non-empty string), found \(members[index].value.serialized)"]))
            }
            session = text
            members.remove(at: index)
        }
        let definition = JSONValue.object(members)
        var decoder = RouteDecoder(file: "stub", root: root, files: files, builder: ResponseBuilder(), firstOrder: 0)
        decoder.decodesStubs = true
        let decoded = decoder.decodeRoute(definition, index: id, at: "stub")
        // `stub.response.status: expected …`: the place in the JSON the test sent, not a file.
        let errors = decoder.diagnostics.filter { $0.severity == .error }.map { diagnostic -> String in
            (diagnostic.location.map { "\($0): " } ?? "stub: ") + diagnostic.message
        }
        guard let decoded, errors.isEmpty else { return .failure(StubErrors(errors)) }
        // Its own sequence counters: two stubs of the same shape must not share a place.
        let route = Route(
            order: 0, name: decoded.name, source: decoded.source, identity: "stub#\(id)", methods: decoded.methods,
            path: decoded.path, conditions: decoded.conditions, scenario: decoded.scenario, responses: decoded.responses,
            sequence: decoded.sequence, origin: decoded.origin)
        return .success(Stub(id: id, session: session, route: route, definition: definition, graphQLAnswers: decoder.graphQLAnswers))
    }
}

/// Why a stub was refused: every problem found, each with its place.
struct StubErrors: Error, Sendable {
    let messages: [String]
    init(_ messages: [String]) { self.messages = messages }
}

/// The stubs tests added, kept outside the snapshot so that a reload keeps them. A request
/// looks at them only when there are some: one relaxed load otherwise.
package final class StubTable: Sendable {
    /// Oldest first; the newest answers first.
    private let stubs = Lock<[Stub]>([])
    private let count = Atomic<Int>(0)
    private let lastID = Atomic<Int>(0)

    init() {}

    package var isEmpty: Bool { count.load(ordering: .relaxed) == 0 }

    /// The next stub's number (numbers are never reused while mockd runs).
    func nextID() -> Int {
        lastID.add(1, ordering: .relaxed).newValue
    }

    func add(_ stub: Stub) {
        stubs.withLock { stubs in
            stubs.append(stub)
            count.store(stubs.count, ordering: .relaxed)
        }
    }

    /// Removes the stub numbered `id`; nil when there is none.
    func remove(id: Int) -> Stub? {
        stubs.withLock { stubs in
            guard let index = stubs.firstIndex(where: { $0.id == id }) else { return nil }
            defer { count.store(stubs.count, ordering: .relaxed) }
            return stubs.remove(at: index)
        }
    }

    /// Removes a session's stubs (nil: every stub).
    func removeAll(session: String? = nil) {
        stubs.withLock { stubs in
            if let session { stubs.removeAll { $0.session == session } } else { stubs.removeAll() }
            count.store(stubs.count, ordering: .relaxed)
        }
    }

    /// Every stub, oldest first.
    package func all() -> [Stub] {
        stubs.withLock { $0 }
    }

    /// The stubs that may answer a request of `session`, in the order they are tried: the
    /// session's own, newest first, then everyone's, newest first.
    func candidates(session: String?) -> [Stub] {
        stubs.withLock { stubs in
            let own = session.map { session in stubs.reversed().filter { $0.session == session } } ?? []
            return own + stubs.reversed().filter { $0.session == nil }
        }
    }
}
