/// Operations from API descriptions, answered after files and routes. Built
/// at load; a request costs a walk down a tree of path segments (whatever the number of
/// operations) and, for a static answer, nothing more.
package final class OperationTable: Sendable {
    /// What an invalid request (or one without the credentials its operation asks for) gets: an
    /// error answer (`enforce`), the answer anyway with the violations in the log and journal
    /// (`warn`), or no checks (`off`).
    package enum Validation: String, Sendable, CaseIterable {
        case enforce, warn, off
    }

    package let operations: [APIOperation]
    package let validation: Validation
    /// The documents, as shown in listings (`openapi api.yaml`), with their operation counts.
    package let documents: [(name: String, operations: Int)]
    /// The operations by path segment.
    let tree: SegmentTree

    /// `__code`, `__example` and `__dynamic` query parameters act as `Prefer` does (opt-in).
    package let queryOverrides: Bool

    package init(
        operations: [APIOperation] = [], validation: Validation = .enforce, documents: [(name: String, operations: Int)] = [],
        queryOverrides: Bool = false
    ) {
        self.queryOverrides = queryOverrides
        self.operations = operations
        self.validation = validation
        self.documents = documents
        self.tree = SegmentTree(operations.map(\.segments))
    }

    package var isEmpty: Bool { operations.isEmpty }

    /// The names of every named example: a scenario of that name picks it, so each is a known scenario.
    var exampleNames: Set<String> {
        Set(operations.flatMap { $0.responses.flatMap { $0.examples.map(\.name) } })
    }

    /// The answer for a request whose path an operation documents; nil when none does. (The
    /// resolver adds `--delay`, as to every answer.)
    package func answer(_ request: MockRequest, scenario: String) -> Reply? {
        // The path's segments as byte offsets, matched in its bytes: no Substring is made, and
        // none retained, unless the validator asks for a parameter's value.
        let path = request.path
        let method = request.method
        let (parts, found) = PathPattern.withBytes(path) { bytes in
            let parts = PathPattern.ranges(bytes)
            // Most specific template first (`/pets/mine` before `/pets/{id}`); the first with
            // the method answers. None: 405, allowing the methods of the most specific
            // template. The walk stops at the answer: the list of every match is made only for a 405.
            let found =
                tree.first(bytes, parts, where: { operations[$0].method == method })
                ?? HTTPMethods.alsoAnsweredAs(method).flatMap { other in tree.first(bytes, parts, where: { operations[$0].method == other })
                }
            return (parts, found)
        }
        guard let index = found else {
            let matched = tree.matches(path)
            guard let first = matched.first else { return nil }
            let template = operations[first].pathTemplate
            let allowed = matched.filter { operations[$0].pathTemplate == template }.map { operations[$0].method }
            return Reply(.built(OperationErrors.methodNotAllowed(request, allowed: allowed)), scenario: scenario)
        }
        let operation = operations[index]
        let parameters = PathParameters(segments: operation.segments, path: path, ranges: parts)
        var warning = ""
        if validation != .off {
            // Missing credentials are checked as the rest: `warn` answers and says so, `off` skips them.
            var violations: [String] = []
            if !operation.security.isEmpty, !operation.security.contains(where: { $0.allSatisfy { $0.isPresent(in: request) } }) {
                if validation == .enforce { return Reply(.built(OperationErrors.unauthorized(operation)), scenario: scenario) }
                violations.append("missing credentials: \(OperationErrors.challenges(operation).joined(separator: " or "))")
            }
            if let validator = operation.validator {
                let found = validator.violations(of: request, pathParameters: parameters)
                if !found.isEmpty { violations += found }
            }
            if !violations.isEmpty {
                if validation == .enforce {
                    let preferences = self.preferences(request)
                    return Reply(
                        .built(OperationErrors.invalid(operation, violations: violations, preferences: preferences)), scenario: scenario)
                }
                warning = " (openapi-validate warn: \(violations.joined(separator: "; ")))"
            }
        }
        let preferences = self.preferences(request)
        // What the rest would choose, without copying a response out of the list.
        if let plain = operation.plainAnswer, warning.isEmpty, scenario == Scenario.default, preferences.choosesNothing {
            return Reply(.prepared(plain), scenario: scenario)
        }
        guard !operation.responses.isEmpty else { return nil }
        // As Prism does: an override asking for a status the operation does not document is a 404.
        if queryOverrides, let code = preferences.code, request.query.contains(where: { $0.name == "__code" }),
            !operation.responses.contains(where: { $0.answers(code) || $0.status == nil })
        {
            return Reply(
                .built(
                    OperationErrors.problem(
                        status: 404, title: "Not Found",
                        detail: "\(operation.method) \(operation.pathTemplate) documents no \(code) answer (__code)",
                        violations: [], origin: .operation("\(operation.source) __code=\(code) not documented"))), scenario: scenario)
        }
        var response = operation.responses[0]
        var applied: [String] = []
        // Preferences the operation cannot meet: answered as without them, and said in
        // `X-Mockd-Warning`, as an unknown scenario is (a silent default hides a typo).
        var unmet: [String] = []
        if let code = preferences.code {
            // The status itself, else its class (`5XX`), else `default`.
            if let documented = operation.responses.first(where: { $0.status == code && !$0.isRange })
                ?? operation.responses.first(where: { $0.answers(code) }) ?? operation.responses.first(where: { $0.status == nil })
            {
                response = documented
                applied.append("code=\(code)")
            } else {
                unmet.append("code=\(code): \(operation.method) \(operation.pathTemplate) documents \(Self.documentedStatuses(operation))")
            }
        }
        // A named example of another status (`Prefer: example=notFound`, a 404's) answers with
        // its own status, unless `Prefer: code` chose one.
        if applied.isEmpty, let name = preferences.example ?? (scenario != Scenario.default ? scenario : nil),
            !response.examples.contains(where: { $0.name == name }),
            let other = operation.responses.first(where: { $0.examples.contains { $0.name == name } })
        {
            response = other
        }
        if !response.alternatives.isEmpty, let accept = request.headers.first(named: "Accept") {
            response = response.negotiated(accept)
        }
        var chosen = response.prepared
        if let name = preferences.example, let example = response.examples.first(where: { $0.name == name }) {
            chosen = example.response
            applied.append("example=\(name)")
        } else if let name = preferences.example {
            let names = operation.responses.flatMap { $0.examples.map(\.name) }
            unmet.append(
                "example=\(name): \(operation.method) \(operation.pathTemplate) names "
                    + (names.isEmpty ? "no examples" : names.map(JSONText.quoted).joined(separator: ", ")))
        } else if scenario != Scenario.default, let example = response.examples.first(where: { $0.name == scenario }) {
            chosen = example.response
        }
        let status = response.status.flatMap { response.isRange ? nil : $0 } ?? preferences.code ?? chosen.status
        if preferences.dynamic, response.dynamicBody == nil, response.dynamicHeaders == nil {
            unmet.append("dynamic=true: this answer has no schema to generate from")
        }
        let unmetText = unmet.isEmpty ? nil : "Prefer not met: " + unmet.joined(separator: "; ")
        func answered(_ reply: Reply) -> Reply { unmetText.map { reply.warned($0) } ?? reply }
        if preferences.dynamic, response.dynamicBody != nil || response.dynamicHeaders != nil {
            applied.append("dynamic=true")
            if let seed = preferences.seed { applied.append("seed=\(seed)") }
            let seed = preferences.seed ?? UInt64.random(in: 0...UInt64.max)
            let body = response.dynamicBody?(seed) ?? chosen.body.array
            var reply = built(chosen, status: status, body: body, applied: applied, warning: warning)
            for header in response.dynamicHeaders?(seed &+ 1) ?? [] {
                reply.headers.removeAll { HTTPHeader.namesEqual($0.name, header.name) }
                reply.headers.append(header)
            }
            return answered(Reply(.built(reply), scenario: scenario))
        }
        if applied.isEmpty, warning.isEmpty, status == chosen.status {
            return answered(Reply(.prepared(chosen), scenario: scenario))
        }
        return answered(
            Reply(.built(built(chosen, status: status, body: chosen.body.array, applied: applied, warning: warning)), scenario: scenario))
    }

    /// `200, 4XX, default`: what `Prefer: code` can choose.
    private static func documentedStatuses(_ operation: APIOperation) -> String {
        operation.responses.map { response in
            response.status.map { response.isRange ? "\($0 / 100)XX" : String($0) } ?? "default"
        }.joined(separator: ", ")
    }

    /// The `Prefer` header, and with `queryOverrides` the `__code`, `__example`, `__dynamic` query parameters over it.
    private func preferences(_ request: MockRequest) -> Preferences {
        var preferences = Preferences(request.headers.first(named: "Prefer"))
        guard queryOverrides else { return preferences }
        for item in request.query {
            switch item.name {
            case "__code": preferences.code = item.value.flatMap { Int($0) }
            case "__example": preferences.example = item.value
            case "__dynamic": preferences.dynamic = (item.value ?? "true").lowercased() == "true"
            default: continue
            }
        }
        return preferences
    }

    private func built(_ prepared: PreparedResponse, status: Int, body: [UInt8], applied: [String], warning: String) -> BuiltResponse {
        var headers = prepared.headersWithoutSource
        if !applied.isEmpty { headers.append(HTTPHeader("Preference-Applied", applied.joined(separator: ", "))) }
        let label = prepared.source + (applied.isEmpty ? "" : " prefer \(applied.joined(separator: " "))") + warning
        return BuiltResponse(status: status, headers: headers, body: status == 204 || status == 304 ? [] : body, origin: .operation(label))
    }

    /// Operations whose path looks like `path`, for the 404 report: same literal segments, most
    /// first; one that differs only by the base path (`/pets` for `/v1/pets`) comes before all.
    package func near(_ path: String, limit: Int = 5) -> [APIOperation] {
        let parts = PathPattern.split(path)
        var scored: [(score: Int, operation: APIOperation)] = []
        for operation in operations {
            if Self.basePath(of: operation, toReach: parts) != nil {
                scored.append((Int.max, operation))
                continue
            }
            var score = 0
            for (segment, part) in zip(operation.segments, parts) {
                if case .literal(let text) = segment, text == part { score += 2 } else if case .parameter = segment { score += 1 }
            }
            score -= abs(operation.segments.count - parts.count) * 2
            if score > 0 { scored.append((score, operation)) }
        }
        return scored.sorted { $0.score > $1.score }.prefix(limit).map(\.operation)
    }

    /// The operation for `method` `path` but for a base path (the document's server URL) the
    /// request left out or added, and that base path (`/v1`; `-/v1` when the request has it extra).
    func differingByBasePath(method: String, path: String) -> (operation: APIOperation, basePath: String)? {
        let parts = PathPattern.split(path)
        for operation in operations where HTTPMethods.answers(method, as: operation.method) {
            if let base = Self.basePath(of: operation, toReach: parts) { return (operation, base) }
        }
        return nil
    }

    /// The leading segments by which `operation`'s template and `parts` differ when the rest
    /// matches whole: `/v1` for template `/v1/pets` and request `/pets`, `-/api` for template
    /// `/pets` and request `/api/pets`; nil otherwise.
    static func basePath(of operation: APIOperation, toReach parts: [Substring]) -> String? {
        let segments = operation.segments
        guard segments.count != parts.count, !parts.isEmpty else { return nil }
        if segments.count > parts.count {
            let prefix = segments.prefix(segments.count - parts.count)
            guard prefix.allSatisfy({ if case .literal = $0 { true } else { false } }),
                APIOperation(
                    method: operation.method, pathTemplate: "/" + segments.suffix(parts.count).map(\.text).joined(separator: "/"),
                    responses: [], validator: nil, security: [], source: ""
                ).matches(parts)
            else { return nil }
            return "/" + prefix.map(\.text).joined(separator: "/")
        }
        guard operation.matches(Array(parts.suffix(segments.count))) else { return nil }
        return "-/" + parts.prefix(parts.count - segments.count).joined(separator: "/")
    }
}

/// Operation templates as a tree of path segments: literal segments by their text, parameter
/// segments (`{id}`, `{name}.json`) those with the most fixed text first, then in document
/// order. A request walks down its segments trying the literal child before the parameter ones,
/// so the operations it finds come most specific first (OpenAPI's rule: `/pets/mine` before
/// `/pets/{id}`, and so `/pets/{id}.json` before `/pets/{id}`) and a table of 600 operations costs
/// what one of 6 does, where a scan of every template with as many segments grows with the table.
struct SegmentTree: Sendable {
    private struct Building {
        var literals = LiteralChildren()
        var parameters: [(segment: OperationSegment, node: Int)] = []
        var operations: [Int] = []
    }

    /// A node, its fields constants: a request's walk reads them in place, where a struct's
    /// arrays would be retained and released at every step.
    final class Node: Sendable {
        let literals: LiteralChildren
        /// The parameter children, in document order: the bytes around the parameter, the child.
        let parameters: [(prefix: [UInt8], suffix: [UInt8], node: Int)]
        /// The operations whose template ends here, in table order.
        let operations: [Int]

        init(literals: LiteralChildren, parameters: [(prefix: [UInt8], suffix: [UInt8], node: Int)], operations: [Int]) {
            self.literals = literals
            self.parameters = parameters
            self.operations = operations
        }
    }

    private let nodes: [Node]

    /// The tree of `templates`; each operation is its template's position.
    init(_ templates: [[OperationSegment]]) {
        var building = [Building()]
        for (operation, segments) in templates.enumerated() {
            var current = 0
            for segment in segments {
                let existing: Int?
                switch segment {
                case .literal(let text): existing = building[current].literals[Array(text.utf8)]
                case .parameter: existing = building[current].parameters.first { $0.segment == segment }?.node
                }
                if let existing {
                    current = existing
                    continue
                }
                building.append(Building())
                switch segment {
                case .literal(let text): building[current].literals.insert(text, node: building.count - 1)
                case .parameter: building[current].parameters.append((segment, building.count - 1))
                }
                current = building.count - 1
            }
            building[current].operations.append(operation)
        }
        nodes = building.map { node in
            Node(
                literals: node.literals,
                // The more fixed text around a parameter, the more concrete the template
                // (`{id}.pgn` before `{id}`, which would take every `….pgn` first); a tie keeps
                // the document's order. Sorted here, once, so a request's walk stays as it was.
                parameters: node.parameters.enumerated().sorted { first, second in
                    (first.element.segment.fixedBytes, second.offset) > (second.element.segment.fixedBytes, first.offset)
                }.map(\.element).map { child in
                    guard case .parameter(_, let prefix, let suffix) = child.segment else { return ([], [], child.node) }
                    return (Array(prefix.utf8), Array(suffix.utf8), child.node)
                }, operations: node.operations)
        }
    }

    /// The operations whose template matches `path`, most specific first: the walk `first`
    /// makes, taking none.
    func matches(_ path: String) -> [Int] {
        var found: [Int] = []
        _ = first(path) { operation in
            found.append(operation)
            return false
        }
        return found
    }

    /// The first operation `accept` takes, in the order `matches(_:)` lists them.
    func first(_ path: String, where accept: (Int) -> Bool) -> Int? {
        PathPattern.withBytes(path) { bytes in first(bytes, PathPattern.ranges(bytes), where: accept) }
    }

    /// The same for a path's bytes and their segments (`PathPattern.ranges`).
    func first(_ bytes: UnsafeBufferPointer<UInt8>, _ parts: [Range<Int>], where accept: (Int) -> Bool) -> Int? {
        first(nodes[0], bytes, parts, 0, accept)
    }

    private func first(
        _ node: Node, _ bytes: UnsafeBufferPointer<UInt8>, _ parts: [Range<Int>], _ depth: Int, _ accept: (Int) -> Bool
    ) -> Int? {
        guard depth < parts.count else {
            for operation in node.operations where accept(operation) { return operation }
            return nil
        }
        let part = UnsafeBufferPointer(rebasing: bytes[parts[depth]])
        if let next = node.literals[part], let found = first(nodes[next], bytes, parts, depth + 1, accept) { return found }
        for child in node.parameters where Self.fits(part, child.prefix, child.suffix) {
            if let found = first(nodes[child.node], bytes, parts, depth + 1, accept) { return found }
        }
        return nil
    }

    /// Whether a parameter with this text around it takes `part`: `OperationSegment.value` on bytes.
    private static func fits(_ part: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8], _ suffix: [UInt8]) -> Bool {
        guard part.count > prefix.count + suffix.count else { return false }
        for index in prefix.indices where part[index] != prefix[index] { return false }
        let start = part.count - suffix.count
        for index in suffix.indices where part[start + index] != suffix[index] { return false }
        return true
    }
}

/// A tree node's literal children by their bytes, looked up once a segment on every request: a
/// hash of the bytes (the file table's FNV-1a) and a byte comparison, where a `[Substring: Int]`
/// hashes with SipHash and compares the texts as Unicode strings.
struct LiteralChildren: Sendable {
    private var texts: [[UInt8]] = []
    private var nodes: [Int] = []
    /// Open addressing: an index into `texts` plus one, 0 for an empty slot. A power of two
    /// long, at most half full.
    private var slots: [Int] = []

    subscript(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = Self.hash(bytes) & mask
        while slots[slot] != 0 {
            let index = slots[slot] - 1
            if Self.equal(texts[index], bytes) { return nodes[index] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    subscript(bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { self[$0] }
    }

    private static func equal(_ text: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count == bytes.count else { return false }
        for index in text.indices where text[index] != bytes[index] { return false }
        return true
    }

    /// Adds a child; `text` is not among them yet.
    mutating func insert(_ text: String, node: Int) {
        texts.append(Array(text.utf8))
        nodes.append(node)
        guard texts.count * 2 > slots.count else {
            place(texts.count - 1)
            return
        }
        slots = Array(repeating: 0, count: max(4, slots.count * 2))
        for index in texts.indices { place(index) }
    }

    private mutating func place(_ index: Int) {
        let mask = slots.count - 1
        var slot = texts[index].withUnsafeBufferPointer(Self.hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = index + 1
    }

    /// The file table's hash (FNV-1a, spread over every bit).
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = MockFileTable.Hasher64()
        for byte in bytes { hasher.feed(byte) }
        return Int(truncatingIfNeeded: hasher.finished)
    }
}

/// `Prefer: code=404, example=empty, dynamic=true, seed=7` (RFC 7240, as Prism reads it).
struct Preferences {
    var code: Int?
    var example: String?
    var dynamic = false
    var seed: UInt64?

    /// No status, example or generated body asked for (a seed alone changes nothing).
    var choosesNothing: Bool { code == nil && example == nil && !dynamic }

    init(_ header: String?) {
        guard let header else { return }
        for item in header.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimming(.spaces) }
            guard parts.count == 2 else { continue }
            let value = parts[1].trimming(.quotes)
            switch parts[0].lowercased() {
            case "code": code = Int(value)
            case "example": example = String(value)
            case "dynamic": dynamic = value.lowercased() == "true"
            case "seed": seed = UInt64(value)
            default: continue
            }
        }
    }
}
