/// The admin endpoints under `/__mockd/` (SPEC section 5): JSON in and out, errors as JSON
/// with a message. Pure: answers from the context it is given.
public struct AdminAPI: Sendable {
    public static let prefix = "/__mockd/"

    public struct Context: Sendable {
        public var snapshot: Snapshot
        public var state: RuntimeState
        public var journal: RequestJournal
        public var uptimeSeconds: Double
        /// Re-reads files and routes now and installs them if they are valid.
        public var reload: @Sendable () -> ReloadReport
        public var lastReload: ReloadReport?
        /// Writes new mock files (`POST /__mockd/mocks`); nil: this server cannot.
        public var writer: (any MockFileWriting)?
        /// Why writing is refused (mockd listens beyond loopback without `--admin-token`); nil: allowed.
        public var writeRefusal: String?

        public init(snapshot: Snapshot, state: RuntimeState, journal: RequestJournal, uptimeSeconds: Double,
                    reload: @escaping @Sendable () -> ReloadReport, lastReload: ReloadReport?,
                    writer: (any MockFileWriting)? = nil, writeRefusal: String? = nil) {
            self.snapshot = snapshot
            self.state = state
            self.journal = journal
            self.uptimeSeconds = uptimeSeconds
            self.reload = reload
            self.lastReload = lastReload
            self.writer = writer
            self.writeRefusal = writeRefusal
        }
    }

    static let endpoints: [(method: String, path: String)] = [
        ("GET", "/__mockd/health"), ("GET", "/__mockd/routes"), ("GET", "/__mockd/scenario"), ("PUT", "/__mockd/scenario"),
        ("GET", "/__mockd/requests"), ("DELETE", "/__mockd/requests"), ("POST", "/__mockd/reset"), ("POST", "/__mockd/reload"),
        ("GET", "/__mockd/"), ("GET", "/__mockd/sources"), ("GET", "/__mockd/source"), ("GET", "/__mockd/events"), ("POST", "/__mockd/mocks"),
    ]

    public init() {}

    public static func isAdminPath(_ path: String) -> Bool {
        // The second byte first: nearly every path fails there, without a string comparison.
        // A plain byte read where the bytes are contiguous (always, for Swift's own strings),
        // not the UTF-8 view's index walk: this runs twice per request.
        let secondIsUnderscore = path.utf8.withContiguousStorageIfAvailable { $0.count >= 8 && $0[1] == UInt8(ascii: "_") }
            ?? (path.utf8.count >= 8 && path.utf8.dropFirst().first == UInt8(ascii: "_"))
        return secondIsUnderscore && (path.hasPrefix(prefix) || path == "/__mockd")
    }

    static func endpointPath(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    public func handle(_ request: MockRequest, context: Context) -> BuiltResponse {
        if let page = dashboard(request) { return page }
        let path = Self.endpointPath(request.path)
        let method = request.method == "HEAD" ? "GET" : request.method
        switch (method, path) {
        case ("GET", "/__mockd/health"): return health(context)
        case ("GET", "/__mockd/routes"): return json(200, RouteDescription.table(context.snapshot))
        case ("GET", "/__mockd/scenario"): return scenario(session: request.query.first { $0.name == "session" }?.value, context)
        case ("PUT", "/__mockd/scenario"), ("POST", "/__mockd/scenario"): return setScenario(request, context)
        case ("GET", "/__mockd/requests"): return requests(request, context)
        case ("DELETE", "/__mockd/requests"):
            let count = context.journal.entries().count
            context.journal.clear()
            return json(200, ["cleared": .number(count)])
        case ("POST", "/__mockd/reset"):
            context.state.reset()
            context.journal.clear()
            return json(200, ["reset": true, "scenario": .string(context.state.runtimeScenario())])
        case ("POST", "/__mockd/reload"):
            let report = context.reload()
            return json(report.ok ? 200 : 422, report.json)
        case ("GET", "/__mockd/sources"): return sources(context)
        case ("GET", "/__mockd/source"): return source(request, context)
        case ("GET", "/__mockd/events"): return events(request, context)
        case ("POST", "/__mockd/mocks"): return createMock(request, context)
        default:
            let allowed = Self.endpoints.filter { Self.endpointPath($0.path) == path }.map(\.method)
            if !allowed.isEmpty {
                var response = json(405, ["error": .string("\(request.method) is not allowed on \(path)"),
                                          "allowed": .array(allowed.map { .string($0) })])
                response.headers.append(HTTPHeader("Allow", allowed.joined(separator: ", ")))
                return response
            }
            return json(404, ["error": .string("no admin endpoint \(request.method) \(request.path)"),
                              "endpoints": .array(Self.endpoints.map { .string("\($0.method) \($0.path)") })])
        }
    }

    func health(_ context: Context) -> BuiltResponse {
        json(200, [
            "status": "ok",
            "files": .number(context.snapshot.fileCount),
            "routes": .number(context.snapshot.routes.count),
            "scenario": .string(context.state.runtimeScenario()),
            "uptime": .number((context.uptimeSeconds * 1000).rounded() / 1000),
            "lastReload": context.lastReload?.json ?? .null,
        ])
    }

    func scenario(session: String??, _ context: Context) -> BuiltResponse {
        let session = session.flatMap { $0 }
        return json(200, [
            "scenario": .string(context.state.runtimeScenario(session: session)),
            "session": session.map { .string($0) } ?? .null,
            "known": .array(knownScenarios(context).map { .string($0) }),
        ])
    }

    func setScenario(_ request: MockRequest, _ context: Context) -> BuiltResponse {
        guard let body = try? JSONParser.parse(request.body), case .string(let name)? = body["scenario"], !name.isEmpty else {
            return json(400, ["error": #"expected a JSON body like {"scenario": "error"} or {"scenario": "error", "session": "sim-3"}"#])
        }
        var session: String?
        if let raw = body["session"] {
            guard case .string(let text) = raw else { return json(400, ["error": "\"session\" must be a string"]) }
            session = text
        }
        let known = knownScenarios(context)
        guard known.contains(name) else {
            return json(400, ["error": .string("unknown scenario \(JSONText.quoted(name))"), "known": .array(known.map { .string($0) })])
        }
        context.state.setScenario(name, session: session)
        return json(200, ["scenario": .string(name), "session": session.map { .string($0) } ?? .null])
    }

    /// `default`, `--scenario`, and every scenario named by a route or an overlay folder.
    func knownScenarios(_ context: Context) -> [String] {
        Scenario.known(in: context.snapshot, startup: context.state.startupScenario)
    }

    func requests(_ request: MockRequest, _ context: Context) -> BuiltResponse {
        func argument(_ name: String) -> String? {
            request.query.first { $0.name == name }?.value.flatMap { $0.isEmpty ? nil : $0 }
        }
        var limit: Int?
        if let text = argument("limit") {
            guard let value = Int(text), value >= 0 else { return json(400, ["error": .string("limit must be a whole number, found \(JSONText.quoted(text))")]) }
            limit = value
        }
        let entries = context.journal.numberedEntries(method: argument("method"), path: argument("path"), session: argument("session"), limit: limit)
        return json(200, ["requests": .array(entries.map(\.json))])
    }

    func compactJSON(_ status: Int, _ value: JSONValue) -> BuiltResponse {
        BuiltResponse(status: status, headers: [HTTPHeader("Content-Type", ContentType.json), HTTPHeader("Cache-Control", "no-store")],
                      body: Array((value.serialized + "\n").utf8), source: "admin")
    }

    func json(_ status: Int, _ value: JSONValue) -> BuiltResponse {
        BuiltResponse(status: status, headers: [HTTPHeader("Content-Type", ContentType.json), HTTPHeader("Cache-Control", "no-store")],
                      body: Array((value.prettyPrinted + "\n").utf8), source: "admin")  // for people, like the 404 report
    }
}

/// What a reload did, for `POST /__mockd/reload`, `GET /__mockd/health` and the log.
public struct ReloadReport: Sendable {
    public var time: Double
    public var ok: Bool
    public var files: Int
    public var routes: Int
    public var errors: [String]
    public var durationMilliseconds: Double
    /// What asked for it: `watch`, `SIGHUP`, `admin`.
    public var trigger: String

    public init(time: Double, ok: Bool, files: Int, routes: Int, errors: [String], durationMilliseconds: Double, trigger: String) {
        self.time = time
        self.ok = ok
        self.files = files
        self.routes = routes
        self.errors = errors
        self.durationMilliseconds = durationMilliseconds
        self.trigger = trigger
    }

    public var json: JSONValue {
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

/// Who reads the configuration again when `POST /__mockd/reload` asks (the executable's
/// reloader), and what the last reload did, for `GET /__mockd/health`. A class: the server holds
/// it weakly (the reloader holds the server).
public protocol Reloading: AnyObject, Sendable {
    func reload(trigger: String) -> ReloadReport
    /// Read without waiting for a reload in progress (health checks must not stall).
    var lastReload: ReloadReport? { get }
}
