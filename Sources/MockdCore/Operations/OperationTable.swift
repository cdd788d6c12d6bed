/// Operations from API descriptions, answered after files and routes (SPEC section 3). Built
/// at load; a request costs a match on path segments and, for a static answer, nothing more.
public final class OperationTable: Sendable {
    /// What an invalid request gets: an error answer (`enforce`), the answer anyway with the
    /// violations in the log and journal (`warn`), or no checks (`off`).
    public enum Validation: String, Sendable, CaseIterable {
        case enforce, warn, off
    }

    public let operations: [APIOperation]
    public let validation: Validation
    /// The documents, as shown in listings (`openapi api.yaml`), with their operation counts.
    public let documents: [(name: String, operations: Int)]
    /// By segment count, most specific template first.
    private let bySegmentCount: [Int: [APIOperation]]

    public init(operations: [APIOperation] = [], validation: Validation = .enforce, documents: [(name: String, operations: Int)] = []) {
        self.operations = operations
        self.validation = validation
        self.documents = documents
        var index: [Int: [APIOperation]] = [:]
        for operation in operations { index[operation.segments.count, default: []].append(operation) }
        for key in index.keys { index[key]!.sort { $0.specificity.lexicographicallyPrecedes($1.specificity) } }
        self.bySegmentCount = index
    }

    public var isEmpty: Bool { operations.isEmpty }

    /// The names of every named example: a scenario of that name picks it, so each is a known scenario.
    public var exampleNames: Set<String> {
        Set(operations.flatMap { $0.responses.flatMap { $0.examples.map(\.name) } })
    }

    /// The answer for a request whose path an operation documents; nil when none does. (The
    /// resolver adds `--delay`, as to every answer.)
    public func answer(_ request: MockRequest, scenario: String) -> Reply? {
        guard let candidates = bySegmentCount[PathPattern.split(request.path).count] else { return nil }
        let parts = PathPattern.split(request.path)
        // Most specific template first (`/pets/mine` before `/pets/{id}`); the first with the
        // method answers. None: 405, allowing the methods of the most specific template.
        var matched: [(APIOperation, [String: String])] = []
        for operation in candidates {
            guard let parameters = operation.match(parts) else { continue }
            matched.append((operation, parameters))
        }
        guard let first = matched.first else { return nil }
        let method = request.method
        guard let (operation, parameters) = matched.first(where: { $0.0.method == method })
            ?? (method == "HEAD" ? matched.first(where: { $0.0.method == "GET" }) : nil)
        else {
            let allowed = matched.filter { $0.0.pathTemplate == first.0.pathTemplate }.map(\.0.method)
            return Reply(.built(OperationErrors.methodNotAllowed(request, allowed: allowed)), scenario: scenario)
        }
        if !operation.security.isEmpty, !operation.security.contains(where: { $0.allSatisfy { $0.isPresent(in: request) } }) {
            return Reply(.built(OperationErrors.unauthorized(operation)), scenario: scenario)
        }
        var warning = ""
        if validation != .off, let validator = operation.validator {
            let violations = validator.violations(of: request, pathParameters: parameters)
            if !violations.isEmpty {
                if validation == .enforce {
                    return Reply(.built(OperationErrors.invalid(operation, violations: violations)), scenario: scenario)
                }
                warning = " (openapi-validate warn: \(violations.joined(separator: "; ")))"
            }
        }
        let preferences = Preferences(request.headers.first(named: "Prefer"))
        guard !operation.responses.isEmpty else { return nil }
        var response = operation.responses[0]
        var applied: [String] = []
        if let code = preferences.code {
            if let documented = operation.responses.first(where: { $0.status == code }) ?? operation.responses.first(where: { $0.status == nil }) {
                response = documented
                applied.append("code=\(code)")
            }
        }
        var chosen = response.prepared
        if let name = preferences.example, let example = response.examples.first(where: { $0.name == name }) {
            chosen = example.response
            applied.append("example=\(name)")
        } else if scenario != Scenario.default, let example = response.examples.first(where: { $0.name == scenario }) {
            chosen = example.response
        }
        let status = response.status ?? preferences.code ?? chosen.status
        if preferences.dynamic, let make = response.dynamicBody {
            applied.append("dynamic=true")
            if let seed = preferences.seed { applied.append("seed=\(seed)") }
            let body = make(preferences.seed ?? UInt64.random(in: 0...UInt64.max))
            return Reply(.built(built(chosen, status: status, body: body, applied: applied, warning: warning)), scenario: scenario)
        }
        if applied.isEmpty, warning.isEmpty, status == chosen.status {
            return Reply(.prepared(chosen), scenario: scenario)
        }
        return Reply(.built(built(chosen, status: status, body: chosen.body.array, applied: applied, warning: warning)), scenario: scenario)
    }

    private func built(_ prepared: PreparedResponse, status: Int, body: [UInt8], applied: [String], warning: String) -> BuiltResponse {
        var headers = prepared.headersWithoutSource
        if !applied.isEmpty { headers.append(HTTPHeader("Preference-Applied", applied.joined(separator: ", "))) }
        let source = prepared.source + (applied.isEmpty ? "" : " prefer \(applied.joined(separator: " "))") + warning
        return BuiltResponse(status: status, headers: headers, body: status == 204 || status == 304 ? [] : body, source: source)
    }

    /// Operations whose path looks like `path`, for the 404 report: same literal segments, most first.
    public func near(_ path: String, limit: Int = 5) -> [APIOperation] {
        let parts = PathPattern.split(path)
        var scored: [(score: Int, operation: APIOperation)] = []
        for operation in operations {
            var score = 0
            for (segment, part) in zip(operation.segments, parts) {
                if case .literal(let text) = segment, text == part { score += 2 } else if case .parameter = segment { score += 1 }
            }
            score -= abs(operation.segments.count - parts.count) * 2
            if score > 0 { scored.append((score, operation)) }
        }
        return scored.sorted { $0.score > $1.score }.prefix(limit).map(\.operation)
    }
}

/// `Prefer: code=404, example=empty, dynamic=true, seed=7` (RFC 7240, as Prism reads it).
struct Preferences {
    var code: Int?
    var example: String?
    var dynamic = false
    var seed: UInt64?

    init(_ header: String?) {
        guard let header else { return }
        for item in header.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " ") }
            guard parts.count == 2 else { continue }
            let value = parts[1].trimmingCharacters(in: "\"")
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
