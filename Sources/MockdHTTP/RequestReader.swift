import MockdCore

/// What mockd knows of a request once its head is in: decided once, on the handler's first
/// call, and read by every later step (the refusals, how much body to keep, the request the
/// core resolves).
struct RequestHead: Sendable {
    /// Decoded once (the common methods without decoding the C string).
    let method: String
    /// Percent-decoded, in origin form (`http://host:port/a` → `/a`); nil when it is not UTF-8.
    let path: String?
    let headers: [HTTPHeader]
    /// The admin API takes it (its path is under `/__mockd/` and the admin API is on): decided
    /// here, once, for how much body to keep, who answers and whether it is journaled.
    let isAdmin: Bool
    /// The body's framing facts, once the framing rules accepted the head: whether a body
    /// follows, and its declared `Content-Length` (nil when chunked or absent).
    let hasBody: Bool
    let declaredLength: Int?
    /// The configuration this request is served with, from its head to its answer: a reload
    /// during its upload changes neither how much of its body is kept nor who answers it.
    let serving: ServingState
}

/// One request as it is read: its head, then its body as it arrives (held as far as something
/// reads it: see `BodyBudget`), then the `MockRequest` the core resolves.
///
/// Moved, never copied: into `RequestState` at the head, out of it (and back) to grow the body,
/// and out for good when the body is in (a copy is a retain and a release of every field).
struct RequestReader: Sendable {
    let head: RequestHead
    /// How much of the body to hold.
    let keepLimit: Int
    var body: [UInt8] = []
    /// Body bytes received (`body` may hold fewer).
    var bytesSeen = 0
    /// A chunk did not fit in the body budget: answered 503.
    var overBudget = false
    /// A chunked body went past `--max-body-bytes`: answered 413.
    var tooLarge = false
    /// The connection guard watches this body's rate (`--min-body-rate`): it is told when the body is in.
    var watched = false

    init(head: RequestHead, keepLimit: Int) {
        self.head = head
        self.keepLimit = keepLimit
    }

    /// The request for the core, once the body is in (the headers and the body move into it).
    /// `query`: the decoded arguments (read from libmicrohttpd only when there is a query).
    consuming func request(path: String, target: RequestTarget, query: [(name: String, value: String?)]) -> MockRequest {
        MockRequest(
            method: head.method, path: path, query: query, rawQuery: target.rawQuery, headers: head.headers, body: body,
            rawPath: target.rawPath.map(HTTPServer.originForm), isAdmin: head.isAdmin)
    }
}
