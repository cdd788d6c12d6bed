/// Where an answer came from, typed: what the dashboard, the journal's `kind`, the recorder and
/// the tests decide on. Its `label` is the text people read (`X-Mockd-Source`, the access log, the
/// journal's `source`), derived from it and never matched on.
package enum Origin: Sendable, Equatable {
    /// A mock file, by its path under the root (`users/mock_api_users_get.json`).
    case file(String)
    /// A route of a table, by its place (`routes/auth.json#2`, `…#2.1` for one of its responses).
    case route(String)
    /// A stub a test added, by its name (`stub#3`, `stub#3.1`).
    case stub(String)
    /// A resource a table declares, by its place (`routes/notes.json#0`).
    case resource(String)
    /// An operation of an API description, by what chose the answer
    /// (`openapi api.yaml GET /pets 200 example "cat"`).
    case operation(String)
    /// The admin API (`/__mockd/`).
    case admin
    /// A browser's CORS preflight, answered with `--cors`.
    case preflight
    /// Nothing answers: the 404 report.
    case notFound
    /// Nothing answers a GraphQL operation (`query GetFeed`): its 404, in GraphQL's shape.
    case graphQLMiss(String)
    /// A method HTTP does not know: 501.
    case unknownMethod
    /// mockd refused the request (framing, limits, stopping), with why (`body memory`); "" for none.
    case refusal(String)
    /// Closed without an answer (a timeout fault ran out, mockd is stopping), with why.
    case closed(String)
    /// The request's body never all came: the client left, the connection timed out or failed.
    /// Boxed (`indirect`): inline, its fields would set the size of every origin, and so of
    /// every reply and resolution a request copies (callgrind: +300 instructions a request).
    indirect case unfinished(UnfinishedRequest)
    /// The upstream answered (`--proxy`); `note` follows the label (how long it took: `12ms`).
    case proxy(note: String)
    /// The upstream could not be asked (`--proxy`): mockd's 502 or 504; `note` as for `proxy`.
    case proxyFailure(note: String)
    /// A response read from a capture (`mockd import traffic.har`).
    case capture
    /// A WebSocket message, not an answer: one the app sent (`outgoing` false) or mockd sent on
    /// connection `connection`.
    case webSocketMessage(connection: Int, outgoing: Bool)

    /// What kind of source it is: the journal's `kind`, one word a program can test. `push` is
    /// no answer's: it is the kind of a push mockd sent to a simulator (`PushOrder.entry`).
    package enum Kind: String, Sendable, CaseIterable {
        case file, route, stub, resource, operation, admin, preflight, notFound, unknownMethod, refusal, closed, unfinished, proxy,
            proxyFailure, capture, message, push
    }

    package var kind: Kind {
        switch self {
        case .file: .file
        case .route: .route
        case .stub: .stub
        case .resource: .resource
        case .operation: .operation
        case .admin: .admin
        case .preflight: .preflight
        case .notFound, .graphQLMiss: .notFound
        case .unknownMethod: .unknownMethod
        case .refusal: .refusal
        case .closed: .closed
        case .unfinished: .unfinished
        case .proxy: .proxy
        case .proxyFailure: .proxyFailure
        case .capture: .capture
        case .webSocketMessage: .message
        }
    }

    /// As people read it in `X-Mockd-Source`, the access log and the journal's `source`.
    package var label: String {
        switch self {
        case .file(let path): "file " + path
        case .route(let place): "route " + place
        case .stub(let name): name
        case .resource(let place): "resource " + place
        case .operation(let text): text
        case .admin: "admin"
        case .preflight: "cors preflight"
        case .notFound: "404"
        case .graphQLMiss(let operation): "404 graphql " + operation
        case .unknownMethod: "501"
        case .refusal(let reason): reason.isEmpty ? "refused" : "refused: " + reason
        case .closed(let reason): reason
        case .unfinished(let request): request.label
        case .proxy(let note): note.isEmpty ? "proxy" : "proxy " + note
        case .proxyFailure(let note): note.isEmpty ? "proxy error" : "proxy error " + note
        case .capture: "har"
        case .webSocketMessage(let connection, let outgoing): "websocket #\(connection) \(outgoing ? "out" : "in")"
        }
    }

    /// This origin with `note` after its label (`proxy 12ms`): only the upstream's answers take one.
    package func noting(_ note: String) -> Origin {
        switch self {
        case .proxy(let old): .proxy(note: old.isEmpty ? note : old + " " + note)
        case .proxyFailure(let old): .proxyFailure(note: old.isEmpty ? note : old + " " + note)
        default: self
        }
    }

    /// Nothing mocked answers: the 404 report or the 501.
    package var isMiss: Bool { kind == .notFound || self == .unknownMethod }
}
