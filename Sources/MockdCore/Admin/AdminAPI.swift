/// The admin endpoints under `/__mockd/` (SPEC section 5). Pure: answers from the snapshot
/// and runtime state it is given.
public struct AdminAPI: Sendable {
    public static let prefix = "/__mockd/"

    public struct Context: Sendable {
        public var snapshot: Snapshot
        public var state: RuntimeState
        public var uptimeSeconds: Double

        public init(snapshot: Snapshot, state: RuntimeState, uptimeSeconds: Double) {
            self.snapshot = snapshot
            self.state = state
            self.uptimeSeconds = uptimeSeconds
        }
    }

    public init() {}

    public static func isAdminPath(_ path: String) -> Bool {
        path.hasPrefix(prefix) || path == "/__mockd"
    }

    public func handle(_ request: MockRequest, context: Context) -> BuiltResponse {
        var path = request.path
        if path.count > 1, path.hasSuffix("/") { path.removeLast() }
        switch (request.method, path) {
        case ("GET", "/__mockd/health"), ("HEAD", "/__mockd/health"):
            return json(200, [
                "status": "ok",
                "files": .number(context.snapshot.fileCount),
                "routes": 0,
                "scenario": .string(context.state.runtimeScenario()),
                "uptime": .number((context.uptimeSeconds * 1000).rounded() / 1000),
            ])
        default:
            return json(404, ["error": .string("no admin endpoint \(request.method) \(request.path)"),
                              "endpoints": ["GET /__mockd/health"]])
        }
    }

    func json(_ status: Int, _ value: JSONValue) -> BuiltResponse {
        BuiltResponse(status: status, headers: [HTTPHeader("Content-Type", ContentType.json), HTTPHeader("Cache-Control", "no-store")],
                      body: Array((value.serialized + "\n").utf8), source: "admin")
    }
}
