/// A request mockd refuses, and why: the one value every refusal's JSON body is rendered from,
/// in the core and in the adapter. The body is always `{"error": message}` followed by what
/// helps to fix the request (`known` keys, the `resource`, the `file`…) in the order given, so a
/// client reads every refusal the same way and a new one cannot spell it differently.
package struct ErrorAnswer: Error, Sendable {
    package let status: Int
    /// What is wrong, in words: the body's `error`.
    package let message: String
    /// The body's members after `error`, in this order.
    package var details: [(key: String, value: JSONValue)]
    /// Headers the refusal needs besides `Content-Type` (`Allow`, `Retry-After`,
    /// `WWW-Authenticate`, `Connection: close`), in this order.
    package var headers: [HTTPHeader]

    package init(_ status: Int, _ message: String, details: [(key: String, value: JSONValue)] = [], headers: [HTTPHeader] = []) {
        self.status = status
        self.message = message
        self.details = details
        self.headers = headers
    }

    /// How the body is laid out. Both are the same JSON; where it is read decides the layout.
    package enum Layout: Sendable {
        /// One line: the refusals a program meets (limits, framing, the admin API's access
        /// check, a method no file serves, resources), small and cheap to make.
        case compact
        /// Indented, for people: the admin API's refusals (like its other answers), the proxy's
        /// failures and a collection's request without an example (like the 404 report).
        case pretty
    }

    package var json: JSONValue { .object([("error", .string(message))] + details) }

    /// The body's text, ending in a newline.
    package func body(_ layout: Layout) -> String {
        switch layout {
        case .compact: json.serialized + "\n"
        case .pretty: json.prettyPrinted + "\n"
        }
    }

    /// The answer that sends it: `Content-Type`, then `leading` (the headers every answer of the
    /// sender has, such as the admin API's `Cache-Control`), then the refusal's own headers.
    package func response(origin: Origin, layout: Layout, leading: [HTTPHeader] = []) -> BuiltResponse {
        BuiltResponse(
            status: status, headers: [HTTPHeader("Content-Type", ContentType.json)] + leading + headers, body: Array(body(layout).utf8),
            origin: origin)
    }
}
