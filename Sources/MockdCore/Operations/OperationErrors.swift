/// The answers an operation gives a request it refuses: 405, 401, and the validation error.
/// Built per request: refusals are not the fast path, and their bodies name the request.
enum OperationErrors {
    static func methodNotAllowed(_ request: MockRequest, allowed: [String]) -> BuiltResponse {
        var methods = allowed
        if methods.contains("GET"), !methods.contains("HEAD") { methods.append("HEAD") }
        let allow = methods.joined(separator: ", ")
        var response = problem(
            status: 405, title: "Method Not Allowed",
            detail: "\(request.method) is not documented for \(request.path); allowed: \(allow)", violations: [],
            origin: .operation("openapi 405"))
        response.headers.insert(HTTPHeader("Allow", allow), at: 0)
        return response
    }

    /// The `WWW-Authenticate` challenges of the operation's schemes, each once.
    static func challenges(_ operation: APIOperation) -> [String] {
        var unique: [String] = []
        for challenge in operation.security.flatMap({ $0 }).map(\.challenge) where !unique.contains(challenge) { unique.append(challenge) }
        return unique
    }

    static func unauthorized(_ operation: APIOperation) -> BuiltResponse {
        let unique = challenges(operation)
        let detail = "\(operation.method) \(operation.pathTemplate) needs credentials: \(unique.joined(separator: " or "))"
        var response =
            documented(operation, statuses: [401], fallback: 401)
            ?? problem(
                status: 401, title: "Unauthorized", detail: detail, violations: [], origin: .operation(""))
        response.origin = .operation("\(operation.source) 401 missing credentials")
        for challenge in unique { response.headers.append(HTTPHeader("WWW-Authenticate", challenge)) }
        return response
    }

    /// The documented 422, else 400, else `default` (as 400), else mockd's own 422 listing every
    /// violation. `Prefer: code` picks another documented status, `example` one of its examples.
    static func invalid(_ operation: APIOperation, violations: [String], preferences: Preferences) -> BuiltResponse {
        var statuses = [422, 400]
        if let code = preferences.code, operation.responses.contains(where: { $0.status == code && !$0.isRange }) {
            statuses.insert(code, at: 0)
        }
        if let name = preferences.example,
            let status = statuses.first(where: { status in operation.responses.contains { $0.status == status } }),
            let example = operation.responses.first(where: { $0.status == status })?.examples.first(where: { $0.name == name })
        {
            var response = BuiltResponse(copying: example.response, status: status)
            response.origin = .operation("\(operation.source) \(status) invalid request: \(violations.joined(separator: "; "))")
            return response
        }
        var response =
            documented(operation, statuses: statuses, fallback: 400)
            ?? problem(
                status: 422, title: "Unprocessable Content",
                detail: "the request does not match \(operation.method) \(operation.pathTemplate)",
                violations: violations, origin: .operation(""))
        response.origin = .operation("\(operation.source) \(response.status) invalid request: \(violations.joined(separator: "; "))")
        return response
    }

    private static func documented(_ operation: APIOperation, statuses: [Int], fallback: Int) -> BuiltResponse? {
        for status in statuses {
            if let response = operation.responses.first(where: { $0.status == status }) {
                return BuiltResponse(copying: response.prepared, status: status)
            }
        }
        if let response = operation.responses.first(where: { $0.status == nil }) {
            return BuiltResponse(copying: response.prepared, status: fallback)
        }
        return nil
    }

    static func problem(status: Int, title: String, detail: String, violations: [String], origin: Origin) -> BuiltResponse {
        var members: [(key: String, value: JSONValue)] = [
            ("type", "about:blank"), ("title", .string(title)), ("status", .number(status)),
            ("detail", .string(detail)),
        ]
        if !violations.isEmpty { members.append(("errors", .array(violations.map { .string($0) }))) }
        return BuiltResponse(
            status: status, headers: [HTTPHeader("Content-Type", "application/problem+json")],
            body: Array((JSONValue.object(members).prettyPrinted + "\n").utf8), origin: origin)
    }
}
