import MockdLock
import Synchronization

/// Automatic persisted queries, as Apollo's servers keep them: a client sends a query's SHA-256
/// alone (`extensions.persistedQuery.sha256Hash`), is told `PersistedQueryNotFound` until it has
/// sent the hash with the full query once, and is then answered by hash. Kept per session ("" for
/// none), like sequences, in the runtime state: a reload keeps them, a reset forgets them. The
/// hash is taken as the client gives it (not checked against the query: mockd has no SHA-256, and
/// a mock answers by the operation's name anyway).
package final class PersistedQueries: Sendable {
    /// Queries a session may keep; past it, the oldest is forgotten (the client sends it again).
    static let limitPerSession = 1000

    private let queries = Lock<[String: Session]>([:])

    struct Session {
        var byHash: [String: String] = [:]
        var order: [String] = []
    }

    package init() {}

    /// `query` for `hash`, kept for `session`.
    package func keep(_ query: String, hash: String, session: String?) {
        queries.withLock { all in
            var kept = all[session ?? "", default: Session()]
            if kept.byHash.updateValue(query, forKey: hash) == nil { kept.order.append(hash) }
            if kept.order.count > Self.limitPerSession { kept.byHash[kept.order.removeFirst()] = nil }
            all[session ?? ""] = kept
        }
    }

    /// The query `session` sent with `hash`, nil when it has not.
    package func query(hash: String, session: String?) -> String? {
        queries.withLock { $0[session ?? ""]?.byHash[hash] }
    }

    /// Forgets one session's queries, or every session's (`nil`).
    package func removeAll(session: String?) {
        queries.withLock { all in
            if let session { all[session] = nil } else { all.removeAll() }
        }
    }

    /// The answer while a hash is unknown, as Apollo's servers give it (200, with the code
    /// Apollo iOS looks for before it sends the full query).
    static func notFound(_ call: GraphQLCall) -> BuiltResponse {
        GraphQLErrors.response(
            status: 200, message: "PersistedQueryNotFound", extensions: [("code", .string("PERSISTED_QUERY_NOT_FOUND"))],
            origin: .refusal("graphql persisted query not found"))
    }
}
