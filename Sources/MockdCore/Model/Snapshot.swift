/// Everything mockd serves, loaded at start (and on reload) and never changed afterwards.
/// Requests read it without locks; a reload builds a new one and swaps it in whole. What a
/// server learns while serving it (404 reports) lives beside it, in `NotFoundCache`.
public final class Snapshot: Sendable {
    /// Every response that is the same for every request, built once; `id` = position.
    public let preparedResponses: [PreparedResponse]
    /// Files outside `scenarios/`: file name → the response that serves it.
    public let files: [String: MockFile]
    /// Files under `scenarios/<name>/`: scenario → file name → response.
    public let overlays: [String: [String: MockFile]]
    /// Route tables, in resolution order.
    public var routes: [Route] { routeIndex.routes }
    let routeIndex: RouteIndex
    /// Scenario names known from overlays and route tables, sorted.
    public let scenarios: [String]
    /// Problems that did not stop loading (unreachable names…), for logs and `mockd check`.
    public let warnings: [Diagnostic]
    /// Where it was loaded from, for messages.
    public let rootDisplayPath: String
    /// Whether any route looks at request bodies (a `json`/`text` condition or a template);
    /// when none does, a body only feeds the journal and need not be held whole.
    public let readsRequestBodies: Bool

    public init(preparedResponses: [PreparedResponse], files: [String: MockFile], overlays: [String: [String: MockFile]],
                routes: [Route] = [], warnings: [Diagnostic], rootDisplayPath: String) {
        self.preparedResponses = preparedResponses
        self.files = files
        self.overlays = overlays
        self.routeIndex = RouteIndex(routes: routes)
        self.scenarios = Array(Set(overlays.keys).union(routes.compactMap(\.scenario))).sorted()
        self.warnings = warnings
        self.rootDisplayPath = rootDisplayPath
        self.readsRequestBodies = routes.contains(where: \.readsRequestBody)
    }

    /// Number of files served by the convention (overlays included).
    public var fileCount: Int { files.count + overlays.values.reduce(0) { $0 + $1.count } }
}

/// A `mock_<path>_<method>.json` file and the response built from it.
public struct MockFile: Sendable {
    public let name: String
    /// Relative to the root, e.g. `users/mock_api_users_get.json` or `scenarios/empty/mock_api_users_get.json`.
    public let relativePath: String
    public let response: PreparedResponse
}
