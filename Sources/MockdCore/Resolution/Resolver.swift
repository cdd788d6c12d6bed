/// Decides the answer to a request from a snapshot. It does no I/O and opens no socket; it does
/// change the runtime state it is given (sequence positions, what requests wrote to resources),
/// which is why two requests of one session see each other.
///
/// Precedence, first hit wins: a CORS preflight (`--cors`; never on `/__mockd/`), the admin API
/// (`/__mockd/`), then stubs a test added (its session's first), then for a request in scenario S: routes with `"scenario": S`, files under
/// `scenarios/S/`, routes with no scenario, files anywhere else, resources, operations from API descriptions
/// (`--openapi`); then the upstream (`--proxy`), and only when nothing else will answer, the 404
/// report. A route's fault wins over its delay; `--delay` applies to every answer but the admin
/// API's and a preflight.
///
/// A class: every request reaches it through the serving state, and as a struct it was copied
/// (four references retained and released) per request.
package final class Resolver: Sendable {
    package let snapshot: Snapshot
    package let state: RuntimeState
    package let policy: ResolutionPolicy
    /// 404 reports and the near-name index for this snapshot, per server.
    package let misses: NotFoundCache
    /// Set while reloads fail: every answer says so (`X-Mockd-Warning`), and so does the 404.
    package let failedReload: FailedReload?
    /// `--delay`: added to every answer but the admin API's, misses (the 404 report, and the
    /// upstream's answer with `--proxy`) included, so that mocked and real endpoints compare.
    package var globalDelay: Duration { policy.globalDelay }

    package init(
        snapshot: Snapshot, state: RuntimeState, policy: ResolutionPolicy, misses: NotFoundCache = NotFoundCache(),
        failedReload: FailedReload? = nil
    ) {
        self.snapshot = snapshot
        self.state = state
        self.policy = policy
        self.misses = misses
        self.failedReload = failedReload
    }

    package convenience init(snapshot: Snapshot, state: RuntimeState, globalDelay: Duration = .zero) {
        self.init(snapshot: snapshot, state: state, policy: ResolutionPolicy(globalDelay: globalDelay))
    }

    /// `onSessionPort`: the request came to a session's own port, which serves mocks only.
    package func resolve(_ request: MockRequest, onSessionPort: Bool = false) -> Resolution {
        // No preflight for the admin API: `--cors` must not let a page of another origin read it.
        if policy.answersPreflight, request.method == "OPTIONS", !request.isAdmin,
            let asked = request.headers.first(named: "Access-Control-Request-Method")
        {
            return .respond(Reply(.built(Self.preflight(request, method: asked)), scenario: ""))
        }
        if policy.adminEnabled && request.isAdmin {
            // The admin API stays on the main port.
            if onSessionPort { return .respond(Reply(.built(AdminAPI.notOnSessionPort(request)), scenario: "")) }
            return .admin(AdminAPI.call(for: request, access: policy.adminAccess))
        }
        let scenario = state.scenario(for: request)
        var resolution = decide(request, scenario: scenario)
        // Before the scenario's warning, which is per request and logged; this one was logged once, at the reload.
        // Compared, not bound: the common case (no failed reload) retains nothing.
        if failedReload != nil { resolution = Self.warned(resolution, failedReload!.warning, logged: false) }
        // A misspelt X-Mock-Scenario is answered as before (the defaults) but said so. (The
        // runtime scenario is checked when set; the common `default` costs one comparison.)
        if scenario != Scenario.default, let unknown = Scenario.unknown(scenario, in: snapshot, startup: state.startupScenario) {
            return Self.warned(resolution, unknown)
        }
        return resolution
    }

    /// Everything after the preflight and the admin API: routes, files, the upstream, the miss.
    private func decide(_ request: MockRequest, scenario: String) -> Resolution {
        var body = RequestBody(request.body)
        // A GraphQL endpoint's request is read once, here: its operation is what files and routes answer.
        if !snapshot.graphQL.isEmpty, snapshot.graphQL.serves(request) {
            if WebSocketHandshake.asksForUpgrade(request) { return graphQLSocket(request, scenario: scenario) }
            switch GraphQLCall.read(request, json: { body.json }, reader: snapshot.graphQL.reader) {
            case .success(var call):
                if call.persistedQueryHash != nil, let refused = persistedQuery(&call, request) {
                    return delayed(Reply(.built(refused), scenario: scenario), by: globalDelay)
                }
                body.graphQL = call
            case .failure(let refusal): return delayed(Reply(.built(refusal.response()), scenario: scenario), by: globalDelay)
            }
        }
        if !state.stubs.isEmpty, let stubbed = stub(for: request, scenario: scenario, &body) { return stubbed }
        let parts = snapshot.routeIndex.isEmpty ? [] : PathPattern.split(request.path)
        let candidates = snapshot.routeIndex.isEmpty ? [] : snapshot.routeIndex.candidates(method: request.method, parts: parts)
        if !candidates.isEmpty, scenario != Scenario.default || hasScenarioRoutes(candidates) {
            for route in candidates where route.scenario == scenario {
                if let parameters = Self.match(route, request, parts, &body) { return answer(route, parameters, request, scenario) }
            }
        }
        if let call = body.graphQL, let name = call.operationName, let file = snapshot.graphQL.overlayFile(name, scenario: scenario) {
            return delayed(Reply(.prepared(file.response), scenario: scenario), by: globalDelay)
        }
        if let response = overlayFile(for: request, scenario: scenario) {
            if let conversation = response.conversation { return upgrade(conversation.script, response.origin, request, [:], scenario) }
            return delayed(Self.fileReply(response, request, scenario: scenario), by: globalDelay)
        }
        for route in candidates where route.scenario == nil {
            if let parameters = Self.match(route, request, parts, &body) { return answer(route, parameters, request, scenario) }
        }
        if let call = body.graphQL, let name = call.operationName, let file = snapshot.graphQL.files[name] {
            return delayed(Reply(.prepared(file.response), scenario: scenario), by: globalDelay)
        }
        if let response = baseFile(for: request) {
            if let conversation = response.conversation { return upgrade(conversation.script, response.origin, request, [:], scenario) }
            return delayed(Self.fileReply(response, request, scenario: scenario), by: globalDelay)
        }
        if !snapshot.resources.isEmpty, let answered = resource(for: request, scenario: scenario) { return answered }
        if !snapshot.operations.isEmpty, let reply = snapshot.operations.answer(request, scenario: scenario) {
            // An operation's `text/event-stream` example goes as a stream, as a `.sse` file does.
            if case .prepared(let prepared) = reply.response, prepared.stream != nil {
                var streamed = Self.fileReply(prepared, request, scenario: scenario)
                streamed.warning = streamed.warning ?? reply.warning
                return delayed(streamed, by: globalDelay)
            }
            return delayed(reply, by: globalDelay)
        }
        if let call = body.graphQL, let schema = snapshot.graphQL.schema, let query = call.query {
            let answer = schema.answer(query: query, operationName: call.operationName, variables: call.variables)
            let origin = Origin.operation("graphql " + (snapshot.graphQL.schemaPath ?? "schema") + " " + answer.operation)
            return delayed(
                Reply(.built(BuiltResponse.json(status: answer.status, answer.body.serialized + "\n", origin: origin)), scenario: scenario),
                by: globalDelay)
        }
        if policy.forwardsMisses {
            if WebSocketHandshake.asksForUpgrade(request) { return WebSocketRelay.relay(request, scenario: scenario) }
            return .forward(scenario: scenario, after: globalDelay)
        }
        if let call = body.graphQL {
            return delayed(
                Reply(.built(GraphQLNotFound.response(for: call, request: request, scenario: scenario, in: snapshot)), scenario: scenario),
                by: globalDelay)
        }
        if !MockFileName.knownMethods.contains(request.method) {
            // No file can be named for it, so a 404 asking for one would mislead.
            let message =
                "no route answers \(request.method) \(request.path); files only serve \(MockFileName.knownMethods.joined(separator: ", ")), so add a route with \"method\": \"\(request.method)\" or \"*\""
            return delayed(
                Reply(
                    .built(ErrorAnswer(501, message).response(origin: .unknownMethod, layout: .compact)),
                    scenario: scenario), by: globalDelay)
        }
        return delayed(
            Reply(
                .built(
                    NotFoundReport.response(
                        for: request, scenario: scenario, in: snapshot, cache: misses,
                        failedReload: failedReload)), scenario: scenario),
            by: globalDelay)
    }

    /// An automatic persisted query: a query sent with its hash is kept (per session); a hash
    /// alone takes the query kept for it, or is answered `PersistedQueryNotFound`.
    private func persistedQuery(_ call: inout GraphQLCall, _ request: MockRequest) -> BuiltResponse? {
        guard let hash = call.persistedQueryHash else { return nil }
        if let query = call.query {
            state.persistedQueries.keep(query, hash: hash, session: request.session)
            return nil
        }
        guard let query = state.persistedQueries.query(hash: hash, session: request.session) else {
            return PersistedQueries.notFound(call)
        }
        call.query = query
        return call.nameFromDocument(reader: snapshot.graphQL.reader)?.response()
    }

    /// The answer of the first stub (a test's route) that matches, built for this request: a
    /// stub's responses are not among the snapshot's prepared ones.
    private func stub(for request: MockRequest, scenario: String, _ body: inout RequestBody) -> Resolution? {
        let parts = PathPattern.split(request.path)
        for stub in state.stubs.candidates(session: request.session) where stub.route.scenario == nil || stub.route.scenario == scenario {
            if let parameters = Self.match(stub.route, request, parts, &body) {
                return Self.built(answer(stub.route, parameters, request, scenario))
            }
        }
        return nil
    }

    /// A file's answer: its prepared response, or for a `.sse` file its events as a stream.
    @inline(__always)
    static func fileReply(_ response: PreparedResponse, _ request: MockRequest, scenario: String) -> Reply {
        guard let stream = response.stream else { return Reply(.prepared(response), scenario: scenario) }
        let head = BuiltResponse(status: response.status, headers: response.headersWithoutSource, origin: response.origin)
        return streamed(head, stream, request, scenario: scenario)
    }

    /// A stream's reply, resumed after the request's `Last-Event-ID` (an EventSource that
    /// reconnects sends the last id it had) when the stream has ids: only then is the header read.
    static func streamed(_ head: BuiltResponse, _ stream: ResponseStream, _ request: MockRequest, scenario: String) -> Reply {
        guard !stream.resumptions.isEmpty, let lastEventID = request.headers.first(named: "Last-Event-ID"),
            let resumption = stream.resumed(after: lastEventID)
        else { return Reply(.streamed(StreamedResponse(head: head, stream: stream)), scenario: scenario) }
        let reply = Reply(.streamed(StreamedResponse(head: head, stream: resumption.stream)), scenario: scenario)
        return resumption.warning.map { reply.warned($0) } ?? reply
    }

    /// `resolution` with a prepared response turned into one built for the request.
    static func built(_ resolution: Resolution) -> Resolution {
        func built(_ reply: Reply) -> Reply {
            guard case .prepared(let prepared) = reply.response else { return reply }
            var copy = reply
            copy.response = .built(BuiltResponse(copying: prepared))
            return copy
        }
        switch resolution {
        case .respond(let reply): return .respond(built(reply))
        case .respondAfter(let delay, let reply): return .respondAfter(delay, built(reply))
        case .fault(let fault, let reply, let delay): return .fault(fault, built(reply), after: delay)
        case .thenPush(let answer, let order): return .thenPush(Self.built(answer), order)
        case .forward, .admin, .upgrade, .relay: return resolution
        }
    }

    /// `resolution` carrying `warning` (what is sent is unchanged but for the warning header).
    static func warned(_ resolution: Resolution, _ warning: String, logged: Bool = true) -> Resolution {
        switch resolution {
        case .respond(let reply): .respond(reply.warned(warning, logged: logged))
        case .respondAfter(let delay, let reply): .respondAfter(delay, reply.warned(warning, logged: logged))
        case .fault(let fault, let reply, let delay): .fault(fault, reply.warned(warning, logged: logged), after: delay)
        case .forward(let scenario, let delay, _): .forward(scenario: scenario, after: delay, warning: warning)
        case .thenPush(let answer, let order): .thenPush(warned(answer, warning, logged: logged), order)
        case .admin, .upgrade, .relay: resolution
        }
    }

    /// A browser's preflight: allow whatever it asks for.
    static func preflight(_ request: MockRequest, method: String) -> BuiltResponse {
        BuiltResponse(
            status: 204,
            headers: [
                HTTPHeader("Access-Control-Allow-Methods", method),
                HTTPHeader("Access-Control-Allow-Headers", request.headers.first(named: "Access-Control-Request-Headers") ?? "*"),
                HTTPHeader("Access-Control-Max-Age", "600"),
            ], origin: .preflight)
    }

    private func delayed(_ reply: Reply, by delay: Duration) -> Resolution {
        delay > .zero ? .respondAfter(delay, reply) : .respond(reply)
    }

    private func hasScenarioRoutes(_ routes: [Route]) -> Bool {
        routes.contains { $0.scenario != nil }
    }

    private func answer(_ route: Route, _ parameters: [String: String], _ request: MockRequest, _ scenario: String) -> Resolution {
        let response = route.responses[state.nextResponse(route: route, session: request.session)]
        let resolution = answer(response, route, parameters, request, scenario)
        // One check of an optional per route answer: only a response with `"then"` pays more.
        guard let then = response.then else { return resolution }
        switch then.order(
            for: request, parameters: parameters, scenario: scenario, snapshot: snapshot, state: state,
            defaultBundle: policy.pushBundleID, trigger: route.origin)
        {
        case .success(let order): return .thenPush(resolution, order)
        case .failure(let why): return Self.warned(resolution, "push \(JSONText.quoted(then.name)) not sent: \(why.message)")
        }
    }

    private func answer(
        _ response: RouteResponse, _ route: Route, _ parameters: [String: String], _ request: MockRequest, _ scenario: String
    ) -> Resolution {
        let delay = globalDelay + (response.delay?.sample() ?? .zero)
        let reply: Reply
        switch response.body {
        case .prepared(let prepared):
            reply = Reply(.prepared(prepared), scenario: scenario)
        case .template(let template):
            reply = Reply(.built(template.render(request: request, parameters: parameters)), scenario: scenario)
        case .none:
            reply = Reply(.built(BuiltResponse(status: response.status, origin: route.origin)), scenario: scenario)
        case .stream(let stream, let headers, let origin):
            let head = BuiltResponse(status: response.status, headers: headers, origin: origin)
            reply = Self.streamed(head, stream.rendered(request: request, parameters: parameters), request, scenario: scenario)
            // A reset of a stream happens after its events (`cutAfter`), not instead of them.
            return delayed(reply, by: delay)
        case .webSocket(let script, let origin):
            return upgrade(script, origin, request, parameters, scenario)
        }
        if let fault = response.fault { return .fault(fault, reply, after: delay) }
        return delayed(reply, by: delay)
    }

    /// A WebSocket route's or `.ws` file's answer: the upgrade, or the handshake's refusal.
    private func upgrade(
        _ script: WebSocketScript, _ origin: Origin, _ request: MockRequest, _ parameters: [String: String], _ scenario: String
    ) -> Resolution {
        switch WebSocketHandshake.answer(request, subprotocols: script.subprotocols, origin: origin) {
        case .accepted(let head):
            let conversation = WebSocketConversation(script: script, request: request, parameters: parameters)
            return .upgrade(
                WebSocketUpgrade(
                    head: head, peer: .conversation(conversation), session: request.session, path: request.path, scenario: scenario))
        case .refused(let refusal):
            return .respond(Reply(.built(refusal), scenario: scenario))
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
        case .graphQL(let operation, let variables):
            guard let call = body.graphQL, call.operationName == operation else { return false }
            return variables.map { call.variables.contains($0) } ?? true
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

    /// HEAD uses `_head.json` when there is one, else `_get.json` (`HTTPMethods.alsoAnsweredAs`). Only the response is taken
    /// from the entry: with 10,000 files its other fields are cold memory, not worth touching.
    private func lookup(_ request: MockRequest, in files: MockFileTable) -> PreparedResponse? {
        if let response = files.response(method: request.method, path: request.path) { return response }
        guard let other = HTTPMethods.alsoAnsweredAs(request.method) else { return nil }
        return files.response(method: other, path: request.path)
    }
}

/// The request body, parsed as JSON at most once and only if a condition asks.
struct RequestBody {
    let bytes: [UInt8]
    private var parsed: JSONValue??
    /// The GraphQL request it carries, read when it came to a GraphQL endpoint (`--graphql`).
    var graphQL: GraphQLCall?

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
    package func contains(_ expected: JSONValue) -> Bool {
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
