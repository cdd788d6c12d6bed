/// One operation of an API description (method + templated path), with every answer it can
/// give prepared at load. The core knows nothing of the description format: a loader (the
/// OpenAPI target) fills these in; the resolver only picks among them. A class: the request
/// path takes one from the table, and copying a struct of seven fields would retain and release
/// each of them on every request.
package final class APIOperation: Sendable {
    package let method: String
    /// The path as documented, base path included: `/v1/pets/{petId}`.
    package let pathTemplate: String
    let segments: [OperationSegment]
    /// Documented answers, in the order of choice: the first one answers by default.
    package let responses: [OperationResponse]
    /// Checks a request against the documented parameters and body; nil when none are documented.
    package let validator: (any RequestValidator)?
    /// Alternatives (any one suffices); each lists schemes that must all be present. Empty: open.
    package let security: [[SecurityScheme]]
    /// `openapi api.yaml GET /pets`, for X-Mockd-Source, listings and the 404 report.
    package let source: String
    /// The answer to a request that chooses nothing (no preference, the default scenario, one
    /// media type): the first response's prepared one, when it goes as it is. Nil when the
    /// answer must be chosen or built.
    let plainAnswer: PreparedResponse?

    package init(
        method: String, pathTemplate: String, responses: [OperationResponse], validator: (any RequestValidator)?,
        security: [[SecurityScheme]], source: String
    ) {
        self.method = method
        self.pathTemplate = pathTemplate
        self.segments = OperationSegment.parse(pathTemplate)
        self.responses = responses
        self.validator = validator
        self.security = security
        self.source = source
        // A range (`2XX`) or `default` answers with its prepared status; an explicit status
        // must be that one.
        if let first = responses.first, first.alternatives.isEmpty,
            first.isRange || first.status == nil || first.status == first.prepared.status
        {
            plainAnswer = first.prepared
        } else {
            plainAnswer = nil
        }
    }

    /// Whether the path's parts fit the template (the 404 report's base-path check; requests
    /// are matched by the operation table's tree).
    func matches(_ parts: [Substring]) -> Bool {
        guard parts.count == segments.count else { return false }
        return zip(segments, parts).allSatisfy { segment, part in
            switch segment {
            case .literal(let text): part == text
            case .parameter(_, let prefix, let suffix): OperationSegment.value(in: part, prefix: prefix, suffix: suffix) != nil
            }
        }
    }
}

/// The path parameters of a request an operation matched: read from its path when the
/// validator asks, not gathered into a dictionary on every request.
package struct PathParameters {
    let segments: [OperationSegment]
    let path: String
    /// The path's segments as byte offsets (`PathPattern.ranges`).
    let ranges: [Range<Int>]

    /// The value of parameter `name`, without the text around it in the template.
    package subscript(name: String) -> Substring? {
        for (segment, range) in zip(segments, ranges) {
            if case .parameter(let parameter, let prefix, let suffix) = segment, parameter == name {
                return OperationSegment.value(in: PathPattern.part(of: path, range), prefix: prefix, suffix: suffix)
            }
        }
        return nil
    }
}

enum OperationSegment: Sendable, Equatable {
    case literal(String)
    /// `{id}`, or `{id}.json` / `v{n}`: a parameter with fixed text around it.
    case parameter(String, prefix: String, suffix: String)

    /// The segment as the template writes it.
    var text: String {
        switch self {
        case .literal(let text): text
        case .parameter(let name, let prefix, let suffix): prefix + "{" + name + "}" + suffix
        }
    }

    /// How concrete the segment is, to order templates that match the same path: a literal's
    /// whole text is fixed and comes first anyway; a parameter's fixed text is what surrounds it,
    /// none for a bare `{id}`, which takes any value.
    var fixedBytes: Int {
        switch self {
        case .literal(let text): text.utf8.count
        case .parameter(_, let prefix, let suffix): prefix.utf8.count + suffix.utf8.count
        }
    }

    /// A parameter's value in `part`: the non-empty text between `prefix` and `suffix`, nil
    /// when `part` does not have them. Compared as UTF-8 bytes, not with Character comparisons
    /// (`hasPrefix`, `count`): this runs for every segment of every request.
    @inline(__always)
    static func value(in part: Substring, prefix: String, suffix: String) -> Substring? {
        if prefix.isEmpty, suffix.isEmpty { return part.isEmpty ? nil : part }
        let bytes = part.utf8
        let before = prefix.utf8.count
        let after = suffix.utf8.count
        guard bytes.count > before + after, bytes.prefix(before).elementsEqual(prefix.utf8),
            bytes.suffix(after).elementsEqual(suffix.utf8)
        else { return nil }
        return Substring(bytes.dropFirst(before).dropLast(after))
    }

    static func parse(_ template: String) -> [OperationSegment] {
        PathPattern.split(template).map { part in
            guard let open = part.firstIndex(of: "{"), let close = part[open...].firstIndex(of: "}") else { return .literal(String(part)) }
            return .parameter(
                String(part[part.index(after: open)..<close]), prefix: String(part[..<open]),
                suffix: String(part[part.index(after: close)...]))
        }
    }
}

/// One documented status: its prepared default answer and its named examples.
package struct OperationResponse: Sendable {
    /// nil for `default`.
    package var status: Int?
    /// The answer with the first named example (else `example`, else a generated body).
    package var prepared: PreparedResponse
    /// Named examples, in document order, each prepared: `Prefer: example=NAME` and scenarios pick them.
    package var examples: [(name: String, response: PreparedResponse)]
    /// Makes a random valid body for `Prefer: dynamic=true`; nil when there is no schema.
    package var dynamicBody: (@Sendable (UInt64) -> [UInt8])?
    /// The documented media type of these answers, bare (lower case, no parameters); nil without content.
    package var mediaType: String?
    /// The same status in its other documented media types, in document order: `Accept`
    /// chooses among this response and them. Empty (no negotiation) for a single media type.
    package var alternatives: [OperationResponse] = []
    /// Makes every documented header from its schema for `Prefer: dynamic=true`; nil when none has one.
    package var dynamicHeaders: (@Sendable (UInt64) -> [HTTPHeader])?
    /// Documented as a class (`5XX`): `status` is its first code, and `Prefer: code` any of the class.
    package var isRange = false
    /// Every way a JSON body breaks this response's schema, each with its place (`body.id:
    /// expected integer, found "7"`); nil when the media type is not JSON or has no schema.
    /// A mock written through the admin API is checked with it before it is written.
    package var bodyViolations: (@Sendable (JSONValue) -> [String])?

    package init(
        status: Int?, prepared: PreparedResponse, examples: [(name: String, response: PreparedResponse)] = [],
        dynamicBody: (@Sendable (UInt64) -> [UInt8])? = nil
    ) {
        self.status = status
        self.prepared = prepared
        self.examples = examples
        self.dynamicBody = dynamicBody
    }

    /// Marks this response and its other media types as answering a class of statuses.
    package mutating func markRange() {
        isRange = true
        for index in alternatives.indices { alternatives[index].isRange = true }
    }

    /// Answers `code`: its own status, or a class (`5XX`) that holds it.
    func answers(_ code: Int) -> Bool {
        guard let status else { return false }
        return isRange ? status / 100 == code / 100 : status == code
    }

    /// The representation `Accept` prefers (RFC 9110); this one when none is acceptable.
    func negotiated(_ accept: String) -> OperationResponse {
        let offered = [mediaType ?? ""] + alternatives.map { $0.mediaType ?? "" }
        let index = MediaNegotiation.choice(accept: accept, offered: offered)
        return index == 0 ? self : alternatives[index - 1]
    }
}

/// How a request proves who it is, as far as a mock can tell: the credential is present.
package enum SecurityScheme: Sendable, Equatable {
    case apiKeyHeader(String)
    case apiKeyQuery(String)
    case apiKeyCookie(String)
    case bearer
    case basic
    case digest

    /// The `WWW-Authenticate` challenge for a request that lacks it.
    var challenge: String {
        switch self {
        case .bearer: "Bearer"
        case .basic: "Basic realm=\"mockd\""
        case .digest: "Digest realm=\"mockd\", qop=\"auth\", nonce=\"mockd\""
        case .apiKeyHeader(let name): "ApiKey header=\"\(name)\""
        case .apiKeyQuery(let name): "ApiKey query=\"\(name)\""
        case .apiKeyCookie(let name): "ApiKey cookie=\"\(name)\""
        }
    }

    func isPresent(in request: MockRequest) -> Bool {
        switch self {
        case .apiKeyHeader(let name): return !(request.headers.first(named: name) ?? "").isEmpty
        case .apiKeyQuery(let name): return request.query.contains { $0.name == name && !($0.value ?? "").isEmpty }
        case .apiKeyCookie(let name): return RequestCookies.value(name, in: request) != nil
        case .bearer: return Self.credential(request, scheme: "bearer")
        case .basic: return Self.credential(request, scheme: "basic")
        case .digest: return Self.credential(request, scheme: "digest")
        }
    }

    /// `Authorization: Bearer <something>`: the scheme (`scheme` in lower case, letters only) in
    /// any case, a space, then more than spaces. Read as bytes: on every request to such an operation.
    /// Compared in the two texts' contiguous bytes, not by walking their UTF-8 views by index.
    static func credential(_ request: MockRequest, scheme: String) -> Bool {
        guard let value = request.headers.first(named: "Authorization") else { return false }
        return PathPattern.withBytes(value) { bytes in PathPattern.withBytes(scheme) { credential(bytes, scheme: $0) } }
    }

    private static func credential(_ bytes: UnsafeBufferPointer<UInt8>, scheme: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count > scheme.count, bytes[scheme.count] == UInt8(ascii: " ") else { return false }
        for index in 0..<scheme.count where bytes[index] | 0x20 != scheme[index] { return false }
        return bytes[(scheme.count + 1)...].contains { $0 != UInt8(ascii: " ") }
    }
}

/// Cookies from the `Cookie` header.
package enum RequestCookies {
    package static func value(_ name: String, in request: MockRequest) -> String? {
        guard let header = request.headers.first(named: "Cookie") else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimming(.spaces) == name { return String(parts[1].trimming(.spaces)) }
        }
        return nil
    }
}

/// Checks a request against what its operation documents. Compiled at load.
package protocol RequestValidator: Sendable {
    /// Every violation, each with its place: `query.limit: expected integer, found "x"`.
    func violations(of request: MockRequest, pathParameters: PathParameters) -> [String]
}
