import Synchronization

/// Everything mockd serves, loaded at start (and on reload) and never changed afterwards.
/// Requests read it without locks; a reload builds a new one and swaps it in whole.
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
    /// Operations from API descriptions (`--openapi`), answered after files and routes.
    public let operations: OperationTable
    /// Scenario names known from overlays and route tables, sorted.
    public let scenarios: [String]
    /// Problems that did not stop loading (unreachable names…), for logs and `mockd check`.
    public let warnings: [Diagnostic]
    /// Where it was loaded from, for messages.
    public let rootDisplayPath: String
    /// File names by length, for the 404 report's "a small edit away" (lengths bound the
    /// distance). Built by the first miss that needs it, not at load: it would add to every
    /// start and reload, and many runs never ask.
    var namesByLength: [Int: [String]] {
        nameIndex.withLock { index in
            if let index { return index }
            var byLength: [Int: [String]] = [:]
            for name in files.keys { byLength[name.utf8.count, default: []].append(name) }
            index = byLength
            return byLength
        }
    }
    private let nameIndex = Mutex<[Int: [String]]?>(nil)
    /// 404 reports are the same for the same miss; keep the last few so a polling client
    /// or a benchmark does not pay for the near-name search on every request.
    let notFoundCache = Mutex<[NotFoundReport.Key: BuiltResponse]>([:])

    public init(preparedResponses: [PreparedResponse], files: [String: MockFile], overlays: [String: [String: MockFile]],
                routes: [Route] = [], operations: OperationTable = OperationTable(), warnings: [Diagnostic], rootDisplayPath: String) {
        self.preparedResponses = preparedResponses
        self.files = files
        self.overlays = overlays
        self.routeIndex = RouteIndex(routes: routes)
        self.operations = operations
        self.scenarios = Array(Set(overlays.keys).union(routes.compactMap(\.scenario))).sorted()
        self.warnings = warnings
        self.rootDisplayPath = rootDisplayPath
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
