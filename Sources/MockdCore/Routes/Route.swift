/// One entry of a route table: when it applies and what it answers.
package struct Route: Sendable {
    /// Position in resolution order over all tables.
    package let order: Int
    package let name: String?
    /// `routes/auth.json#2` (the index is the one in the file's `routes` array, from 0).
    package let source: String
    /// Survives reloads while the route keeps its file, name, methods, path and scenario;
    /// sequence counters are kept under it.
    package let identity: String
    package let methods: MethodSet
    package let path: PathPattern
    package let conditions: [Condition]
    package let scenario: String?
    package let responses: [RouteResponse]
    package let sequence: SequenceMode

    /// What its answers say they came from: a route of a table, or a stub a test added.
    package let origin: Origin
}

package enum SequenceMode: String, Sendable {
    /// After the last response, keep answering with it.
    case repeatLast = "repeat-last"
    /// After the last response, start again from the first.
    case cycle
}

/// `"method": "GET"`, `["GET", "HEAD"]` or `"*"`.
package enum MethodSet: Sendable, Equatable {
    case any
    case only([String])

    package func contains(_ method: String) -> Bool {
        switch self {
        case .any: true
        case .only(let methods): methods.contains { HTTPMethods.answers(method, as: $0) }
        }
    }

    package var description: String {
        switch self {
        case .any: "*"
        case .only(let methods): methods.joined(separator: ",")
        }
    }

    /// Every method `other` accepts is accepted here.
    func covers(_ other: MethodSet) -> Bool {
        switch (self, other) {
        case (.any, _): true
        case (.only, .any): false
        case (.only(let mine), .only(let theirs)): theirs.allSatisfy { MethodSet.only(mine).contains($0) }
        }
    }
}

/// A condition of `match`.
package enum Condition: Sendable {
    /// Header `name` (case-insensitive) is present (`"*"`) or matches a glob.
    case header(name: String, pattern: Glob)
    /// Query argument `name` is present (`"*"`) or matches a glob.
    case query(name: String, pattern: Glob)
    /// The body is JSON and contains this value as a subset.
    case json(JSONValue)
    /// The raw body contains this text.
    case text(String)
    /// A GraphQL request (`--graphql`) for this operation, whose variables contain these (a subset, as `json`).
    case graphQL(operation: String, variables: JSONValue?)

    package var description: String {
        switch self {
        case .header(let name, let pattern): "header \(name): \(pattern.source)"
        case .query(let name, let pattern): "query \(name)=\(pattern.source)"
        case .json(let value): "json body contains \(value.serialized)"
        case .text(let text): "body contains \(JSONText.quoted(text))"
        case .graphQL(let operation, let variables):
            "graphql operation \(operation)" + (variables.map { " with variables containing \($0.serialized)" } ?? "")
        }
    }
}

/// A value pattern where `*` stands for any run of characters, and `"*"` alone for "present".
package struct Glob: Sendable {
    package let source: String
    private let parts: [Substring]

    init(_ source: String) {
        self.source = source
        self.parts = source.split(separator: "*", omittingEmptySubsequences: false)
    }

    package func matches(_ value: String) -> Bool {
        if parts.count == 1 { return value == source }
        var rest = Substring(value)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        let last = parts[parts.count - 1]
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let range = rest.firstRange(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.count >= last.count && rest.hasSuffix(last)
    }
}

/// A status, headers and body, with what happens on the wire (delay, fault).
package struct RouteResponse: Sendable {
    package enum Body: Sendable {
        /// The same bytes every time: built once at load.
        case prepared(PreparedResponse)
        /// A Mustache template rendered per request.
        case template(ResponseTemplate)
        /// No response at all (`fault` says what happens instead).
        case none
        /// Sent in pieces over time (`"stream"`), with these headers.
        case stream(ResponseStream, headers: [HTTPHeader], origin: Origin)
        /// A WebSocket conversation (`"websocket"`), held with each connection the route upgrades.
        /// Boxed, as `Resolution.upgrade` is: the other bodies stay their size.
        indirect case webSocket(WebSocketScript, origin: Origin)
    }

    package let body: Body
    package let delay: Delay?
    package let fault: Fault?
    package let status: Int
    /// `"then"`: a push sent after the answer.
    package var then: PushFollowUp? = nil
}

/// Added latency: fixed, or uniform between two bounds.
package struct Delay: Sendable, Equatable {
    let minimumMilliseconds: Int
    private let maximumMilliseconds: Int

    package init(milliseconds: Int) {
        minimumMilliseconds = milliseconds
        maximumMilliseconds = milliseconds
    }

    package init(minimum: Int, maximum: Int) {
        minimumMilliseconds = minimum
        maximumMilliseconds = maximum
    }

    package func sample() -> Duration {
        .milliseconds(
            minimumMilliseconds == maximumMilliseconds ? minimumMilliseconds : Int.random(in: minimumMilliseconds...maximumMilliseconds))
    }
}

/// What a broken network does instead of answering.
package enum Fault: String, Sendable, CaseIterable {
    /// The connection is reset with no response.
    case reset
    /// No answer at all; the client times out (mockd closes it after its stall limit, `ServerConfiguration.stallLimit`, 120 s).
    case timeout
    /// A Content-Length is promised, part of the body sent, then the connection closes.
    case truncated
}
