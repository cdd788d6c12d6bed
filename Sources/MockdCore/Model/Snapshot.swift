/// Everything mockd serves, loaded at start (and on reload) and never changed afterwards.
/// Requests read it without locks; a reload builds a new one and swaps it in whole. What a
/// server learns while serving it (404 reports) lives beside it, in `NotFoundCache`.
package final class Snapshot: Sendable {
    /// Every response that is the same for every request, built once; `id` = position.
    package let preparedResponses: [PreparedResponse]
    /// Files outside `scenarios/`: file name → the response that serves it.
    package let files: MockFileTable
    /// Files under `scenarios/<name>/`: scenario → file name → response.
    package let overlays: [String: MockFileTable]
    /// Route tables, in resolution order.
    package var routes: [Route] { routeIndex.routes }
    let routeIndex: RouteIndex
    /// Collections requests write to and read back, answered after routes and files.
    package let resources: ResourceIndex
    /// Operations from API descriptions (`--openapi`), answered after files and routes.
    package let operations: OperationTable
    /// Operations from API descriptions only checked against (`--contract`): mocks are held to
    /// them at load, and with `--proxy` so are the upstream's answers; they answer nothing.
    package let contracts: OperationTable
    /// `--graphql`: the endpoints and the operations answered by file.
    package let graphQL: GraphQLTable
    /// `pushes/<name>.apns` payloads, and their scenario overlays.
    package let pushes: PushTable
    /// Scenario names known from overlays, route tables and operations' named examples, sorted.
    package let scenarios: [String]
    /// The same, for a lookup per request that names one.
    let scenarioSet: Set<String>
    /// Problems that did not stop loading (unreachable names…), for logs and `mockd check`.
    package let warnings: [Diagnostic]
    /// Where it was loaded from, for messages.
    let rootDisplayPath: String
    /// The root and the routes folder loaded (nil: none), absolute: which instance is which.
    package let rootPath: String
    package let routesPath: String?
    /// Files that look like mocks but are not served (`.josn`, `_GET`, `Mock_`), and why.
    let unserved: [UnservedFile]
    /// Files a route tried first always answers for: relative path → that route's source.
    package let shadowed: [String: String]
    /// Whether any route looks at request bodies (a `json`/`text` condition or a template), a resource is declared
    /// or an OpenAPI operation is served (its body is validated);
    /// when none does, a body only feeds the journal and need not be held whole.
    package let readsRequestBodies: Bool

    package init(
        preparedResponses: [PreparedResponse], files: MockFileTable, overlays: [String: MockFileTable],
        routes: [Route] = [], resources: ResourceIndex = ResourceIndex(), operations: OperationTable = OperationTable(),
        contracts: OperationTable = OperationTable(), graphQL: GraphQLTable = GraphQLTable(), warnings: [Diagnostic],
        rootDisplayPath: String,
        unserved: [UnservedFile] = [], shadowed: [String: String] = [:], rootPath: String = "", routesPath: String? = nil,
        pushes: PushTable = PushTable()
    ) {
        self.pushes = pushes
        self.rootPath = rootPath
        self.routesPath = routesPath
        self.unserved = unserved
        self.shadowed = shadowed
        self.preparedResponses = preparedResponses
        self.files = files
        self.overlays = overlays
        self.routeIndex = RouteIndex(routes: routes)
        self.resources = resources
        // A named example of an operation is picked by the scenario of its name (`X-Mock-Scenario: empty`).
        self.scenarioSet = Set(overlays.keys).union(routes.compactMap(\.scenario)).union(resources.all.compactMap(\.scenario))
            .union(operations.exampleNames).union(graphQL.overlays.keys).union(pushes.overlays.keys)
        self.scenarios = scenarioSet.sorted()
        self.operations = operations
        self.contracts = contracts
        self.graphQL = graphQL
        self.warnings = warnings
        self.rootDisplayPath = rootDisplayPath
        // A resource stores what is posted to it; an OpenAPI operation validates it.
        // A GraphQL endpoint reads every request's body for its operation.
        self.readsRequestBodies =
            !resources.isEmpty || !operations.isEmpty || !graphQL.isEmpty || routes.contains(where: \.readsRequestBody)
    }

    /// Number of files served by the convention (overlays included).
    /// (GraphQL operation files are `graphQL.count`.)
    package var fileCount: Int { files.count + overlays.values.reduce(0) { $0 + $1.count } }
}

/// A file under the root that looks like a mock but no request reaches.
package struct UnservedFile: Sendable, Equatable {
    package let name: String
    /// Relative to the root.
    package let relativePath: String
    /// Why it is not served, as the warning at load says.
    package let why: String
}

/// A `mock_<path>_<method>.json` file and the response built from it.
package struct MockFile: Sendable {
    package let name: String
    /// Relative to the root, e.g. `users/mock_api_users_get.json` or `scenarios/empty/mock_api_users_get.json`.
    package let relativePath: String
    package let response: PreparedResponse

    /// The method its name answers (`GET` for `mock_api_users_get.json`); `?` for a name that
    /// is not a mock name (never the case for a served file).
    package var method: String {
        if case .mock(let method, _) = MockFileName.parse(name) { method } else { "?" }
    }
}
