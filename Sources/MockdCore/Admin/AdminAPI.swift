/// The admin endpoints under `/__mockd/`: JSON in and out, errors as JSON with a message.
/// `call(for:access:)` decides a request into an `AdminCall` (the access check first, then one
/// table of endpoints); the call answers from the facts the adapter gives it, and names any effect
/// it needs (`AdminStep`) instead of carrying it out.
package struct AdminAPI: Sendable {
    package static let prefix = "/__mockd/"

    /// What an answer may read and change: facts the adapter has at the moment of the call.
    /// The runtime state and the journal are changed in place; every other change is an effect
    /// the answer names (`AdminStep`).
    package struct Context: Sendable {
        package var snapshot: Snapshot
        package var state: RuntimeState
        package var journal: RequestJournal
        package var uptimeSeconds: Double
        /// What the last reload did; nil before the first.
        package var lastReload: ReloadReport?
        /// This server can write new mock files (`POST /__mockd/mocks`).
        package var writesMocks: Bool
        /// Why writing is refused (mockd listens beyond loopback without `--admin-token`); nil: allowed.
        package var writeRefusal: String?
        /// The open session ports, by id; nil: this server cannot open any.
        package var sessionPorts: [SessionPort]?
        /// Why this server sends no pushes (no `xcrun`, no `--push-command`); nil: it sends them.
        package var pushRefusal: String?
        /// `--push-bundle-id`: the app a push goes to when nothing else names one.
        package var pushBundleID: String?
        /// The open WebSocket connections, read when called (the events answer lists them, built
        /// once for every waiting dashboard; a test's calls go through `AdminStep.webSockets`).
        package var openWebSockets: @Sendable () -> [WebSocketConnectionInfo]

        package init(
            snapshot: Snapshot, state: RuntimeState, journal: RequestJournal, uptimeSeconds: Double,
            lastReload: ReloadReport? = nil, writesMocks: Bool = false, writeRefusal: String? = nil, sessionPorts: [SessionPort]? = nil,
            pushRefusal: String? = "this server sends no pushes", pushBundleID: String? = nil,
            openWebSockets: @escaping @Sendable () -> [WebSocketConnectionInfo] = { [] }
        ) {
            self.openWebSockets = openWebSockets
            self.pushRefusal = pushRefusal
            self.pushBundleID = pushBundleID
            self.snapshot = snapshot
            self.state = state
            self.journal = journal
            self.uptimeSeconds = uptimeSeconds
            self.lastReload = lastReload
            self.writesMocks = writesMocks
            self.writeRefusal = writeRefusal
            self.sessionPorts = sessionPorts
        }
    }

    /// One endpoint: its method and path, and how a request for it becomes a call (most answer
    /// at once; a few parse arguments that decide when they can answer).
    struct Endpoint: Sendable {
        let method: String
        /// Ending in `/`: a prefix, and what follows names one item (`/__mockd/stubs/3`).
        let path: String
        /// Listed in the 404's `endpoints` and a 405's `allowed` (aliases are not).
        var listed = true
        let call: @Sendable (MockRequest) -> AdminCall

        /// As the 404 lists it: `/__mockd/stubs/{id}` for a prefix.
        var shownPath: String { isPrefix ? path + "{id}" : path }

        var isPrefix: Bool { path.hasSuffix("/") && path != AdminAPI.prefix }

        /// `path` (without a trailing `/`) is this endpoint's.
        func serves(_ path: String) -> Bool {
            if isPrefix {
                return path.count > self.path.count && path.hasPrefix(self.path) && !path.dropFirst(self.path.count).contains("/")
            }
            return AdminAPI.endpointPath(self.path) == path
        }

        /// An endpoint answered at once from the request and the context.
        init(
            _ method: String, _ path: String, listed: Bool = true,
            _ answer: @escaping @Sendable (AdminAPI, MockRequest, Context) -> BuiltResponse
        ) {
            self.init(method, path, listed: listed, stepping: { api, request, context in .answer(answer(api, request, context)) })
        }

        /// An endpoint whose answer may need an effect first (a reload, a file, a session port).
        init(
            _ method: String, _ path: String, listed: Bool = true,
            stepping answer: @escaping @Sendable (AdminAPI, MockRequest, Context) -> AdminStep
        ) {
            self.method = method
            self.path = path
            self.listed = listed
            call = { request in AdminCall(changesState: method != "GET") { answer(AdminAPI(), request, $0) } }
        }

        /// An endpoint that reads its arguments first (`GET /__mockd/events`).
        init(_ method: String, _ path: String, calling call: @escaping @Sendable (MockRequest) -> AdminCall) {
            self.method = method
            self.path = path
            self.call = call
        }
    }

    /// Every endpoint, in the order the 404 lists them.
    static let endpoints: [Endpoint] = [
        Endpoint("GET", "/__mockd/health") { api, _, context in api.health(context) },
        Endpoint("GET", "/__mockd/routes") { api, _, context in api.json(200, RouteDescription.table(context.snapshot)) },
        Endpoint("GET", "/__mockd/scenario") { api, request, context in api.scenario(request, context) },
        Endpoint("PUT", "/__mockd/scenario") { api, request, context in api.setScenario(request, context) },
        Endpoint("POST", "/__mockd/scenario", listed: false) { api, request, context in api.setScenario(request, context) },
        Endpoint("GET", "/__mockd/requests", calling: AdminAPI.requestsCall),
        Endpoint("DELETE", "/__mockd/requests") { api, request, context in api.clearRequests(request, context) },
        Endpoint("POST", "/__mockd/reset") { api, request, context in api.reset(request, context) },
        Endpoint(
            "POST", "/__mockd/reload",
            stepping: { api, _, _ in
                .reload(trigger: "admin") { report in .answer(api.json(report.ok ? 200 : 422, report.json)) }
            }),
        Endpoint("GET", "/__mockd/") { api, request, _ in api.dashboard(request) ?? api.refuse(ErrorAnswer(404, "no page")) },
        Endpoint("GET", "/__mockd/sources") { api, _, context in api.sources(context) },
        Endpoint("GET", "/__mockd/source") { api, request, context in api.source(request, context) },
        Endpoint("GET", "/__mockd/events", calling: AdminAPI.eventsCall),
        Endpoint("POST", "/__mockd/mocks", stepping: { api, request, context in api.createMock(request, context) }),
        Endpoint("POST", "/__mockd/route-tables", stepping: { api, request, context in api.createRouteTable(request, context) }),
        Endpoint("POST", "/__mockd/sessions", stepping: { api, request, context in api.openSession(request, context) }),
        Endpoint("GET", "/__mockd/sessions") { api, _, context in api.listSessions(context) },
        Endpoint("DELETE", "/__mockd/sessions/", stepping: { api, request, context in api.closeSession(request, context) }),
        Endpoint("POST", "/__mockd/stubs", stepping: { api, request, context in api.addStub(request, context) }),
        Endpoint("GET", "/__mockd/stubs") { api, _, context in api.listStubs(context) },
        Endpoint("DELETE", "/__mockd/stubs/") { api, request, context in api.removeStub(request, context) },
        Endpoint("GET", "/__mockd/resources") { api, request, context in api.resources(request, context) },
        Endpoint("POST", "/__mockd/ws/send", stepping: { api, request, context in api.sendWebSocket(request, context) }),
        Endpoint("GET", "/__mockd/ws/connections", stepping: { api, request, context in api.listWebSockets(request, context) }),
        Endpoint("DELETE", "/__mockd/ws/connections/", stepping: { api, request, context in api.closeWebSocket(request, context) }),
        Endpoint("GET", "/__mockd/ws/messages", calling: AdminAPI.messagesCall),
        Endpoint("POST", "/__mockd/push", stepping: { api, request, context in api.push(request, context) }),
    ]

    package init() {}

    package static func isAdminPath(_ path: String) -> Bool {
        // The second byte first: nearly every path fails there, without a string comparison.
        // A plain byte read where the bytes are contiguous (always, for Swift's own strings),
        // not the UTF-8 view's index walk.
        let secondIsUnderscore =
            path.utf8.withContiguousStorageIfAvailable { $0.count >= 8 && $0[1] == UInt8(ascii: "_") }
            ?? (path.utf8.count >= 8 && path.utf8.dropFirst().first == UInt8(ascii: "_"))
        return secondIsUnderscore && (path.hasPrefix(prefix) || path == "/__mockd")
    }

    static func endpointPath(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The call `request` makes: a refusal (Host, token), a dashboard file, an endpoint with
    /// its arguments, or the 405/404 that lists what there is.
    package static func call(for request: MockRequest, access: AdminAccess = AdminAccess()) -> AdminCall {
        let isPage = isDashboardAsset(request)
        if let refusal = access.refusal(request, isPage: isPage) { return .answered(refusal) }
        if isPage, let page = AdminAPI().dashboard(request) { return .answered(page) }
        let path = endpointPath(request.path)
        let method = HTTPMethods.alsoAnsweredAs(request.method) ?? request.method
        if let endpoint = endpoints.first(where: { $0.method == method && $0.serves(path) }) {
            return endpoint.call(request)
        }
        let allowed = endpoints.filter { $0.listed && $0.serves(path) }.map(\.method)
        let api = AdminAPI()
        if !allowed.isEmpty {
            return .answered(
                api.refuse(
                    ErrorAnswer(
                        405, "\(request.method) is not allowed on \(path)", details: [("allowed", .array(allowed.map { .string($0) }))],
                        headers: [HTTPHeader("Allow", allowed.joined(separator: ", "))])))
        }
        return .answered(
            api.refuse(
                ErrorAnswer(
                    404, "no admin endpoint \(request.method) \(request.path)",
                    details: [("endpoints", .array(endpoints.filter(\.listed).map { .string("\($0.method) \($0.shownPath)") }))])))
    }

    func health(_ context: Context) -> BuiltResponse {
        json(
            200,
            [
                "status": "ok",
                "files": .number(context.snapshot.fileCount),
                "routes": .number(context.snapshot.routes.count),
                "root": .string(context.snapshot.rootPath),
                "routesFolder": context.snapshot.routesPath.map { .string($0) } ?? .null,
                "scenario": .string(context.state.runtimeScenario()),
                "uptime": .number((context.uptimeSeconds * 1000).rounded() / 1000),
                "lastReload": context.lastReload?.json ?? .null,
            ])
    }

    func scenario(_ request: MockRequest, _ context: Context) -> BuiltResponse {
        if let refusal = AdminKeys.scenario.refusal(request) { return refusal }
        let session = request.query.first { $0.name == "session" }?.value
        return json(
            200,
            [
                "scenario": .string(context.state.runtimeScenario(session: session)),
                "session": session.map { .string($0) } ?? .null,
                "known": .array(knownScenarios(context).map { .string($0) }),
            ])
    }

    func setScenario(_ request: MockRequest, _ context: Context) -> BuiltResponse {
        let expected = ErrorAnswer(400, #"expected a JSON body like {"scenario": "error"} or {"scenario": "error", "session": "sim-3"}"#)
        guard let body = try? JSONParser.parse(request.body) else { return refuse(expected) }
        // Before the scenario is looked for: a misspelt "scenario" is named as such.
        if let refusal = AdminKeys.setScenario.refusal(body) { return refusal }
        guard case .string(let name)? = body["scenario"], !name.isEmpty else { return refuse(expected) }
        var session: String?
        if let raw = body["session"] {
            guard case .string(let text) = raw else { return refuse(ErrorAnswer(400, "\"session\" must be a string")) }
            session = text
        }
        let known = knownScenarios(context)
        guard known.contains(name) else {
            return refuse(
                ErrorAnswer(400, "unknown scenario \(JSONText.quoted(name))", details: [("known", .array(known.map { .string($0) }))]))
        }
        context.state.setScenario(name, session: session)
        return json(200, ["scenario": .string(name), "session": session.map { .string($0) } ?? .null])
    }

    /// `default`, `--scenario`, and every scenario named by a route or an overlay folder.
    func knownScenarios(_ context: Context) -> [String] {
        Scenario.known(in: context.snapshot, startup: context.state.startupScenario)
    }

    /// `GET /__mockd/requests`: the entries the filters select, at once, or with `count` and
    /// `wait` once that many have come (a long poll: the adapter parks the request meanwhile).
    static func requestsCall(_ request: MockRequest) -> AdminCall {
        journalCall(request, messages: false)
    }

    /// `GET /__mockd/ws/messages`: the WebSocket messages in the journal, read and waited for as
    /// requests are.
    static func messagesCall(_ request: MockRequest) -> AdminCall {
        journalCall(request, messages: true)
    }

    private static func journalCall(_ request: MockRequest, messages: Bool) -> AdminCall {
        let api = AdminAPI()
        if let refusal = (messages ? AdminKeys.webSocketMessages : AdminKeys.requests).refusal(request) { return .answered(refusal) }
        switch RequestsQuery.parse(request, messages: messages) {
        case .failure(let refusal):
            return .answered(api.refuse(refusal))
        case .success(let query):
            let work: AdminWork =
                if let count = query.count, query.wait > 0 {
                    .waitForRequests(query.filter, count: count, wait: .seconds(query.wait))
                } else {
                    .now
                }
            return AdminCall(work: work) { context in .answer(api.requests(query, context)) }
        }
    }

    /// Whether a test waiting for `count` entries `filter` selects has them now.
    package static func hasRequests(_ filter: RequestFilter, count: Int, journal: RequestJournal) -> Bool {
        let matches = filter.matcher()
        return journal.count(where: matches) >= count
    }

    func requests(_ query: RequestsQuery, _ context: Context) -> BuiltResponse {
        let entries = context.journal.numberedEntries(query.filter, limit: query.limit)
        var members: [(key: String, value: JSONValue)] = [(query.filter.messages ? "messages" : "requests", .array(entries.map(\.json)))]
        if let count = query.count {
            // Counted before `limit`: whether what the test waits for has come.
            members.append(("complete", .bool(context.journal.count(where: query.filter.matcher()) >= count)))
        }
        return json(200, .object(members))
    }

    /// `DELETE /__mockd/requests`: the whole journal, or one session's entries (`?session=ID`).
    func clearRequests(_ request: MockRequest, _ context: Context) -> BuiltResponse {
        if let refusal = AdminKeys.clearRequests.refusal(request) { return refusal }
        if let session = request.query.first(where: { $0.name == "session" })?.value, !session.isEmpty {
            return json(200, ["cleared": .number(context.journal.clear(session: session)), "session": .string(session)])
        }
        let count = context.journal.entries().count
        context.journal.clear()
        return json(200, ["cleared": .number(count)])
    }

    /// `POST /__mockd/reset`: everything back to the start, or with `{"session": ID}` that
    /// session only (its scenario, sequences and journal entries), leaving the others whole.
    func reset(_ request: MockRequest, _ context: Context) -> BuiltResponse {
        guard !request.body.allSatisfy(JSONParser.isWhiteSpace) else {
            context.state.reset()
            context.journal.clear()
            return json(200, ["reset": true, "scenario": .string(context.state.runtimeScenario())])
        }
        guard let body = try? JSONParser.parse(request.body), case .object = body else {
            return refuse(ErrorAnswer(400, #"expected no body (everything), or a JSON body like {"session": "sim-3"} (one session)"#))
        }
        if let refusal = AdminKeys.reset.refusal(body) { return refusal }
        guard case .string(let session)? = body["session"], !session.isEmpty else {
            return refuse(ErrorAnswer(400, "\"session\" must be a session's id (a non-empty string)"))
        }
        context.state.reset(session: session)
        context.journal.clear(session: session)
        return json(
            200, ["reset": true, "session": .string(session), "scenario": .string(context.state.runtimeScenario(session: session))])
    }

    /// Every admin answer says what is true now: a cached one would be stale at the next request.
    static let noStore = HTTPHeader("Cache-Control", "no-store")

    func compactJSON(_ status: Int, _ value: JSONValue) -> BuiltResponse {
        BuiltResponse(
            status: status, headers: [HTTPHeader("Content-Type", ContentType.json), Self.noStore],
            body: Array((value.serialized + "\n").utf8), origin: .admin)
    }

    func json(_ status: Int, _ value: JSONValue) -> BuiltResponse {
        BuiltResponse(
            status: status, headers: [HTTPHeader("Content-Type", ContentType.json), Self.noStore],
            body: Array((value.prettyPrinted + "\n").utf8), origin: .admin)  // for people, like the 404 report
    }

    /// A refusal as the admin API sends it: indented and never cached, like its other answers.
    func refuse(_ error: ErrorAnswer) -> BuiltResponse {
        error.response(origin: .admin, layout: .pretty, leading: [Self.noStore])
    }
}

/// What a reload did, for `POST /__mockd/reload`, `GET /__mockd/health` and the log.
package struct ReloadReport: Sendable {
    package var time: Double
    package var ok: Bool
    package var files: Int
    package var routes: Int
    package var errors: [String]
    package var durationMilliseconds: Double
    /// What asked for it: `watch`, `SIGHUP`, `admin`.
    package var trigger: String

    package init(time: Double, ok: Bool, files: Int, routes: Int, errors: [String], durationMilliseconds: Double, trigger: String) {
        self.time = time
        self.ok = ok
        self.files = files
        self.routes = routes
        self.errors = errors
        self.durationMilliseconds = durationMilliseconds
        self.trigger = trigger
    }

    package var json: JSONValue {
        .object([
            ("status", .string(ok ? "ok" : "failed")),
            ("time", .string(RequestJournal.Entry.iso8601(time))),
            ("trigger", .string(trigger)),
            ("files", .number(files)),
            ("routes", .number(routes)),
            ("durationMs", .number((durationMilliseconds * 10).rounded() / 10)),
            ("errors", .array(errors.map { .string($0) })),
        ])
    }
}
