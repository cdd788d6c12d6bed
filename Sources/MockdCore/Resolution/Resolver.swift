/// Decides the answer to a request from a snapshot. Pure: no I/O, no sockets.
///
/// Order for a request in scenario S (SPEC section 3), first hit wins: routes with
/// `"scenario": S`, files under `scenarios/S/`, routes with no scenario, files anywhere else,
/// operations from API descriptions (`--openapi`), then a miss (the 404 report, or the upstream with `--proxy`).
public struct Resolver: Sendable {
    public let snapshot: Snapshot
    public let state: RuntimeState
    /// `--delay`: added to every mocked answer.
    public let globalDelay: Duration

    public init(snapshot: Snapshot, state: RuntimeState, globalDelay: Duration = .zero) {
        self.snapshot = snapshot
        self.state = state
        self.globalDelay = globalDelay
    }

    public func resolve(_ request: MockRequest) -> Answer {
        let scenario = state.scenario(for: request)
        var body = RequestBody(request.body)
        let parts = snapshot.routeIndex.isEmpty ? [] : PathPattern.split(request.path)
        let candidates = snapshot.routeIndex.isEmpty ? [] : snapshot.routeIndex.candidates(method: request.method, parts: parts)
        if !candidates.isEmpty, scenario != Scenario.default || hasScenarioRoutes(candidates) {
            for route in candidates where route.scenario == scenario {
                if let parameters = Self.match(route, request, parts, &body) { return answer(route, parameters, request, scenario) }
            }
        }
        if let response = overlayFile(for: request, scenario: scenario) {
            return Answer(.prepared(response), scenario: scenario, delay: globalDelay)
        }
        for route in candidates where route.scenario == nil {
            if let parameters = Self.match(route, request, parts, &body) { return answer(route, parameters, request, scenario) }
        }
        if let response = baseFile(for: request) {
            return Answer(.prepared(response), scenario: scenario, delay: globalDelay)
        }
        if !snapshot.operations.isEmpty, let answer = snapshot.operations.answer(request, scenario: scenario, delay: globalDelay) {
            return answer
        }
        if !MockFileName.knownMethods.contains(request.method) {
            // No file can be named for it, so a 404 asking for one would mislead.
            let message = "no route answers \(request.method) \(request.path); files only serve \(MockFileName.knownMethods.joined(separator: ", ")), so add a route with \"method\": \"\(request.method)\" or \"*\""
            return Answer(.built(.json(status: 501, JSONValue.object([("error", .string(message))]).serialized + "\n", source: "501")),
                          scenario: scenario, isMiss: true)
        }
        return Answer(.built(NotFoundReport.response(for: request, scenario: scenario, in: snapshot)), scenario: scenario, isMiss: true)
    }

    private func hasScenarioRoutes(_ routes: [Route]) -> Bool {
        routes.contains { $0.scenario != nil }
    }

    private func answer(_ route: Route, _ parameters: [String: String], _ request: MockRequest, _ scenario: String) -> Answer {
        let response = route.responses[state.nextResponse(route: route, session: request.session)]
        let delay = globalDelay + (response.delay?.sample() ?? .zero)
        switch response.body {
        case .prepared(let prepared):
            return Answer(.prepared(prepared), scenario: scenario, delay: delay, fault: response.fault)
        case .template(let template):
            return Answer(.built(template.render(request: request, parameters: parameters)), scenario: scenario, delay: delay, fault: response.fault)
        case .none:
            return Answer(.built(BuiltResponse(status: response.status, source: "route \(route.source)")), scenario: scenario, delay: delay,
                          fault: response.fault)
        }
    }

    /// The path parameters when `route` answers `request`, nil when it does not.
    static func match(_ route: Route, _ request: MockRequest, _ parts: [Substring], _ body: inout RequestBody) -> [String: String]? {
        guard route.methods.contains(request.method), let parameters = route.path.match(request.path, parts: parts) else { return nil }
        for condition in route.conditions where !holds(condition, request, &body) { return nil }
        return parameters
    }

    static func holds(_ condition: Condition, _ request: MockRequest, _ body: inout RequestBody) -> Bool {
        switch condition {
        case .header(let name, let pattern):
            guard let value = request.headers.first(named: name) else { return false }
            return pattern.source == "*" || pattern.matches(value)
        case .query(let name, let pattern):
            guard let argument = request.query.first(where: { $0.name == name }) else { return false }
            return pattern.source == "*" || pattern.matches(argument.value ?? "")
        case .json(let expected):
            guard let actual = body.json else { return false }
            return actual.contains(expected)
        case .text(let text):
            return body.text.contains(text)
        }
    }

    /// The response of the mock file for a request in a scenario's overlay.
    func overlayFile(for request: MockRequest, scenario: String) -> PreparedResponse? {
        guard !snapshot.overlays.isEmpty, let overlay = snapshot.overlays[scenario] else { return nil }
        return lookup(request, in: overlay)
    }

    func baseFile(for request: MockRequest) -> PreparedResponse? {
        lookup(request, in: snapshot.files)
    }

    /// HEAD uses `_head.json` when there is one, else `_get.json`. Only the response is taken
    /// from the entry: with 10,000 files its other fields are cold memory, not worth touching.
    private func lookup(_ request: MockRequest, in files: [String: MockFile]) -> PreparedResponse? {
        if let response = files[MockFileName.forRequest(method: request.method, path: request.path)]?.response { return response }
        if request.method == "HEAD" { return files[MockFileName.forRequest(method: "GET", path: request.path)]?.response }
        return nil
    }
}

/// The request body, parsed as JSON at most once and only if a condition asks.
struct RequestBody {
    let bytes: [UInt8]
    private var parsed: JSONValue??

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var json: JSONValue? {
        mutating get {
            if let parsed { return parsed }
            let value = bytes.isEmpty ? nil : try? JSONParser.parse(bytes)
            parsed = .some(value)
            return value
        }
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension JSONValue {
    /// `expected` is a subset of `self`: objects by key (extra keys allowed), arrays when every
    /// expected item is contained in some item, scalars by value (numbers numerically).
    public func contains(_ expected: JSONValue) -> Bool {
        switch (self, expected) {
        case (.object, .object(let wanted)):
            return wanted.allSatisfy { member in self[member.key].map { $0.contains(member.value) } ?? false }
        case (.array(let items), .array(let wanted)):
            return wanted.allSatisfy { item in items.contains { $0.contains(item) } }
        default:
            return self == expected
        }
    }
}
