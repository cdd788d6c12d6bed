/// The dashboard's page at `/__mockd/` (`Dashboard/` in the repository, compiled in as
/// `DashboardAssets`) and the calls only it makes: what can answer, one source in full, and
/// the live feed of requests (`AdminAPI+Events`).
extension AdminAPI {
    struct Asset: Sendable {
        let contentType: String
        let bytes: [UInt8]
    }

    /// Path → the file; built once (the bytes are shared by every answer).
    static let assets: [String: Asset] = [
        "/__mockd/": Asset(contentType: "text/html; charset=utf-8", bytes: Array(DashboardAssets.indexHTML.utf8)),
        "/__mockd/index.html": Asset(contentType: "text/html; charset=utf-8", bytes: Array(DashboardAssets.indexHTML.utf8)),
        "/__mockd/dashboard.css": Asset(contentType: "text/css; charset=utf-8", bytes: Array(DashboardAssets.css.utf8)),
        "/__mockd/dashboard.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: Array(DashboardAssets.javascript.utf8)),
    ]

    /// The page and its files hold no data, so they need no token (a browser cannot send one
    /// when it opens a page); the page asks for the token and sends it on every call.
    static func isDashboardAsset(_ request: MockRequest) -> Bool {
        HTTPMethods.answers(request.method, as: "GET") && (request.path == "/__mockd" || assets[request.path] != nil)
    }

    /// The page, a file of it, or the redirect from `/__mockd` to `/__mockd/`; nil for other paths.
    func dashboard(_ request: MockRequest) -> BuiltResponse? {
        guard Self.isDashboardAsset(request) else { return nil }
        guard let asset = Self.assets[request.path] else {
            return BuiltResponse(
                status: 308, headers: [HTTPHeader("Location", "/__mockd/"), HTTPHeader("Content-Type", ContentType.json)],
                body: Array(#"{"location":"/__mockd/"}"#.utf8) + [UInt8(ascii: "\n")], origin: .admin)
        }
        // no-cache: a new mockd's page is fetched after an upgrade, with nothing to configure.
        // The policy keeps the page to its own origin: it loads nothing from anywhere else.
        return BuiltResponse(
            status: 200,
            headers: [
                HTTPHeader("Content-Type", asset.contentType), HTTPHeader("Cache-Control", "no-cache"),
                HTTPHeader("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
                HTTPHeader("X-Content-Type-Options", "nosniff"),
            ], body: asset.bytes, origin: .admin)
    }

    /// `GET /__mockd/sources`: everything that can answer, in resolution order, with the known
    /// scenarios and who runs in which.
    func sources(_ context: Context) -> BuiltResponse {
        json(
            200,
            .object([
                ("sources", .array(SourceCatalog.list(context.snapshot, stubs: context.state.stubs.all()))),
                ("scenarios", .array(knownScenarios(context).map { .string($0) })),
                ("scenario", .string(context.state.runtimeScenario())),
                ("sessions", sessions(context)),
                // A button per payload: what `POST /__mockd/push` sends by name, and why it cannot.
                ("pushes", .array(context.snapshot.pushes.names.map { .string($0) })),
                ("pushRefusal", context.pushRefusal.map { .string($0) } ?? .null),
            ]))
    }

    /// `GET /__mockd/source?origin=routes/auth.json%230`: one source's responses in full.
    func source(_ request: MockRequest, _ context: Context) -> BuiltResponse {
        if let refusal = AdminKeys.source.refusal(request) { return refusal }
        guard let origin = request.query.first(where: { $0.name == "origin" })?.value, !origin.isEmpty else {
            return refuse(ErrorAnswer(400, "name the source: ?origin=routes/auth.json%230 or ?origin=users/mock_api_users_get.json"))
        }
        guard let detail = SourceCatalog.detail(origin: origin, context.snapshot, stubs: context.state.stubs.all()) else {
            return refuse(ErrorAnswer(404, "nothing answers as \(JSONText.quoted(origin)) (reloaded since?)"))
        }
        return json(200, detail)
    }

    func sessions(_ context: Context) -> JSONValue {
        .object(context.state.sessionScenarios().sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
    }
}
