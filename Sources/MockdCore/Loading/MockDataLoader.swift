/// Reads a MockData folder and a routes folder into a `Snapshot`: every
/// `mock_<path>_<method>.json` file is read, checked to be JSON, and turned into a prepared
/// response; every route table is decoded. Collects every problem instead of stopping at the first.
package struct MockDataLoader: Sendable {
    package let root: String
    /// Where the route tables are: given, or looked for beside the root on every load.
    package let routesFolder: RoutesFolder
    /// The folder of route tables loaded now, if any.
    package var routes: String? { routesFolder.current(in: files) }
    /// Where files are read from: the disk (`DiskFiles`), or memory in tests.
    package var files: any FileSource
    /// API descriptions loaded after files and routes, into the same snapshot.
    package var operationSources: [any OperationSource]
    /// `--contract`: documents mocks (and, with `--proxy`, the upstream's answers) are held to, which answer nothing.
    package var contractSources: [any OperationSource] = []
    /// The wait between the events of a `mock_<path>_<method>.sse` file (`--stream-interval`).
    package var streamIntervalMilliseconds = ResponseStream.defaultIntervalMilliseconds
    /// `--graphql`: endpoints, and the reader of their documents. With an endpoint, every
    /// `graphql/<Operation>.json` under the root answers that operation.
    package var graphQL = GraphQLConfiguration()

    package init(files: any FileSource, root: String, routes: String? = nil, operationSources: [any OperationSource] = []) {
        self.files = files
        self.root = root
        self.routesFolder = RoutesFolder(routes)
        self.operationSources = operationSources
    }

    package init(files: any FileSource, root: String, routesFolder: RoutesFolder, operationSources: [any OperationSource] = []) {
        self.files = files
        self.root = root
        self.routesFolder = routesFolder
        self.operationSources = operationSources
    }

    /// The folder under the root that holds per-scenario overlays.
    static let scenariosFolder = "scenarios"

    package struct Result: Sendable {
        /// nil when there were errors.
        package var snapshot: Snapshot?
        /// Errors and warnings, in file order.
        package var diagnostics: [Diagnostic]
    }

    package func load() -> Result {
        var builder = ResponseBuilder()
        var files = loadFiles(into: &builder)
        var diagnostics = files.diagnostics
        // Before the routes: their JSON answers are held to the documents' schemas.
        let operations = OperationSources.load(operationSources, files: self.files, into: &builder)
        // Their answers are prepared too, and never served: the load is the same as a served document's.
        let contracts = OperationSources.load(contractSources, files: self.files, into: &builder)
        var routeList: [Route] = []
        var resources: [Resource] = []
        var bodyFiles: Set<String> = []
        var graphQLAnswers: [GraphQLWrittenAnswer] = []
        if let routes, let overlap = Self.routesHoldTheRoot(routes, root: root, in: self.files.workingDirectory) {
            diagnostics.append(Diagnostic(file: PathText.withoutTrailingSlashes(routes), overlap))
        } else if let routes {
            let tables = RouteTableLoader(
                directory: routes, root: root, files: self.files, overlays: files.overlays,
                operations: operations.table.isEmpty ? contracts.table : operations.table
            ).load(into: &builder)
            routeList = tables.routes
            resources = tables.resources
            bodyFiles = tables.bodyFiles
            graphQLAnswers = tables.graphQLAnswers
            // A seed's file would answer the collection's GET before the resource does: the
            // resource answers for it now.
            if !tables.seedFiles.isEmpty { files.remove(tables.seedFiles) }
            if tables.diagnostics.contains(where: { $0.severity == .error }), let note = routesFolder.fallbackNote(in: self.files) {
                diagnostics.append(Diagnostic(.warning, file: PathText.withoutTrailingSlashes(routes), note))
            }
            diagnostics += tables.diagnostics
        }
        diagnostics += Self.unknownPushes(in: routeList, pushes: files.pushes)
        diagnostics += operations.diagnostics + contracts.diagnostics
        for table in [operations.table, contracts.table] {
            diagnostics += ContractDrift.warnings(
                files: files.base, overlays: files.overlays, operations: table, rootDisplay: PathText.withoutTrailingSlashes(root))
            diagnostics += ContractDrift.seedWarnings(
                resources: resources, operations: table, rootDisplay: PathText.withoutTrailingSlashes(root))
        }
        var schema: (any GraphQLSchemaAnswering)?
        if let source = graphQL.schema {
            switch source.load(files: self.files) {
            case .success(let loaded):
                schema = loaded.answering
                diagnostics += loaded.warnings
            case .failure(let errors): diagnostics += errors.diagnostics
            }
        }
        let graphQLTable = GraphQLTable(configuration: graphQL, files: files.graphQL, overlays: files.graphQLOverlays, schema: schema)
        diagnostics += graphQLTable.schemaWarnings(rootDisplay: PathText.withoutTrailingSlashes(root))
        diagnostics += graphQLTable.warnings(graphQLAnswers)
        let shadowed = ShadowedFiles.find(files: files.base, overlays: files.overlays, routes: routeList, bodyFiles: bodyFiles)
        diagnostics += shadowed.map { ShadowedFiles.diagnostic($0, rootDisplay: PathText.withoutTrailingSlashes(root)) }
        let errors = diagnostics.contains { $0.severity == .error }
        let snapshot =
            errors
            ? nil
            : Snapshot(
                preparedResponses: builder.responses, files: files.base, overlays: files.overlays,
                routes: routeList, resources: ResourceIndex(resources), operations: operations.table,
                contracts: contracts.table, graphQL: graphQLTable, warnings: diagnostics,
                rootDisplayPath: PathText.withoutTrailingSlashes(root), unserved: files.unserved,
                shadowed: Dictionary(shadowed.map { ($0.file.relativePath, $0.route.source) }) { first, _ in first },
                rootPath: normalized(root), routesPath: routes.map(normalized), pushes: files.pushes)
        return Result(snapshot: snapshot, diagnostics: diagnostics)
    }

    struct LoadedFiles {
        var base = MockFileTable()
        var overlays: [String: MockFileTable] = [:]
        var diagnostics: [Diagnostic] = []
        /// Files that look like mocks but are not served, for the 404 report's near names.
        var unserved: [UnservedFile] = []
        /// `graphql/<Operation>.json` files (with `--graphql`): operation → file, and per scenario.
        var graphQL: [String: GraphQLOperationFile] = [:]
        var graphQLOverlays: [String: [String: GraphQLOperationFile]] = [:]
        /// `pushes/<name>.apns` payloads, and per scenario.
        var pushes = PushTable()

        /// Takes files (relative paths) out of the base table and the overlays.
        mutating func remove(_ relativePaths: Set<String>) {
            base = base.removing(relativePaths)
            for (scenario, table) in overlays { overlays[scenario] = table.removing(relativePaths) }
        }
    }

    /// Reads every mock file under the root; prepared responses are added to `builder`.
    func loadFiles(into builder: inout ResponseBuilder) -> LoadedFiles {
        var loaded = LoadedFiles()
        guard files.isFolder(root) else {
            // An API description may be all there is to serve: then no MockData folder is fine.
            if !operationSources.isEmpty || !contractSources.isEmpty { return loaded }
            loaded.diagnostics.append(
                Diagnostic(file: root, WorkingDirectory.whyNotAFolder(root, what: "the mock root", option: "--root", files: files)))
            return loaded
        }
        let paths = files.regularFiles(under: root)
        // Sized once for every file (most are mocks): no rehashing while 10,000 are added.
        loaded.base.reserveCapacity(paths.count)
        files.withFolder(root) { folder in
            load(paths, in: folder, into: &loaded, builder: &builder)
        }
        return loaded
    }

    private func load(_ paths: [String], in folder: FileFolder, into loaded: inout LoadedFiles, builder: inout ResponseBuilder) {
        let display = PathText.withoutTrailingSlashes(root)
        for relativePath in paths {
            let actualName = String(PathText.lastComponent(relativePath, .bytes))
            // `mock_…_get.500.json` answers the request of `mock_…_get.json`, with status 500;
            // `mock_…_get.sse` answers it too, as a stream of the events it holds; `mock_…_get.ws`
            // upgrades it to a WebSocket and holds the conversation it writes down.
            let isEvents = actualName.hasSuffix(".sse") && actualName.hasPrefix("mock_")
            let isConversation = actualName.hasSuffix(".ws") && actualName.hasPrefix("mock_")
            let withStatus = isEvents || isConversation ? nil : MockFileName.splitStatus(actualName)
            let fileName =
                isEvents
                ? String(actualName.dropLast(".sse".count)) + ".json"
                : isConversation ? String(actualName.dropLast(".ws".count)) + ".json" : withStatus?.name ?? actualName
            // Only problems name the file: no string is built for each of 10,000 good ones.
            let shown = { display + "/" + relativePath }
            if actualName.hasSuffix(PushTable.fileExtension), let push = PushTable.payloadFile(relativePath) {
                loadPushPayload(relativePath, name: push.name, scenario: push.scenario, shown: shown(), in: folder, into: &loaded)
                continue
            }
            switch MockFileName.parse(fileName) {
            case .other:
                if !graphQL.endpoints.isEmpty, let named = GraphQLTable.operationFile(relativePath) {
                    loadOperationFile(
                        relativePath, operation: named.operation, status: named.status, events: named.events, in: folder, into: &loaded,
                        builder: &builder)
                } else if let why = MockFileName.miscasedPrefix(fileName) {
                    loaded.diagnostics.append(Diagnostic(.warning, file: shown(), "not served: \(why)"))
                    loaded.unserved.append(UnservedFile(name: actualName, relativePath: relativePath, why: why))
                } else if fileName.hasSuffix(".json"), let warning = misplacedRouteTable(relativePath, in: folder) {
                    loaded.diagnostics.append(Diagnostic(.warning, file: shown(), warning))
                }
                continue
            case .unreachable(let why):
                loaded.diagnostics.append(Diagnostic(.warning, file: shown(), "not served: \(why)"))
                loaded.unserved.append(UnservedFile(name: actualName, relativePath: relativePath, why: why))
                continue
            case .mock:
                break
            }
            guard let body = read(relativePath, in: folder, shown: shown(), into: &loaded) else { continue }
            var stream: ResponseStream?
            var conversation: WebSocketFileConversation?
            if isConversation {
                var decoder = RouteDecoder(file: shown(), root: root, files: files, builder: builder, firstOrder: 0)
                conversation = decoder.decodeConversation(Array(body.bytes)).map(WebSocketFileConversation.init)
                loaded.diagnostics += decoder.diagnostics
                if conversation == nil { continue }
            } else if isEvents {
                stream = ResponseStream.events(inText: body.bytes, intervalMilliseconds: streamIntervalMilliseconds)
                if stream == nil {
                    loaded.diagnostics.append(
                        Diagnostic(
                            file: shown(), "no events: expected events as they go on the wire (data: … lines), separated by blank lines"))
                    continue
                }
            } else if let problem = JSONParser.validate(body.bytes) {
                loaded.diagnostics.append(Diagnostic(file: shown(), location: problem.location, "invalid JSON: \(problem.message)"))
                continue
            }
            let scenario = Self.scenario(of: relativePath)
            let existing = scenario.map { loaded.overlays[$0]?[fileName] } ?? loaded.base[fileName]
            if let existing {
                let scope = scenario.map { " per scenario (\($0))" } ?? ""
                if String(PathText.lastComponent(existing.relativePath, .bytes)) != actualName {
                    loaded.diagnostics.append(
                        Diagnostic(
                            file: shown(),
                            "answers the same request as \(display)/\(existing.relativePath) (a status in the name changes only the status); one file per request\(scope), remove one"
                        ))
                    continue
                }
                loaded.diagnostics.append(
                    Diagnostic(
                        file: shown(),
                        "the same file name is also at \(display)/\(existing.relativePath); a name may appear once\(scope), rename or remove one"
                    ))
                continue
            }
            let response = builder.prepare(
                status: withStatus?.status ?? 200, contentType: isEvents ? "text/event-stream" : ContentType.json,
                headers: isEvents ? [HTTPHeader("Cache-Control", "no-cache")] : [], body: body,
                origin: .file(relativePath), stream: stream, conversation: conversation)  // which of several same names answered
            let file = MockFile(name: fileName, relativePath: relativePath, response: response)
            if let scenario {
                loaded.overlays[scenario, default: [:]].insert(file)
            } else {
                loaded.base.insert(file)
            }
        }
    }

    /// A file under the root, or nil with why it could not be read among the diagnostics.
    private func read(_ relativePath: String, in folder: FileFolder, shown: String, into loaded: inout LoadedFiles) -> ResponseBody? {
        do {
            return try files.read(relativePath, in: folder)
        } catch {
            loaded.diagnostics.append(Diagnostic(file: shown, error.reason))
            return nil
        }
    }

    /// `graphql/<Operation>.json`: checked to be JSON and prepared as a mock file is, with the same
    /// rule for a repeated name (once per scenario). `graphql/<Operation>.ws` (`events`): a
    /// subscription's events, read as a `.ws` conversation of sends; over HTTP its operation is
    /// refused (400) with where to subscribe instead.
    private func loadOperationFile(
        _ relativePath: String, operation: String, status: Int, events: Bool, in folder: FileFolder, into loaded: inout LoadedFiles,
        builder: inout ResponseBuilder
    ) {
        let shown = PathText.withoutTrailingSlashes(root) + "/" + relativePath
        guard var body = read(relativePath, in: folder, shown: shown, into: &loaded) else { return }
        var conversation: WebSocketFileConversation?
        var status = status
        if events {
            var decoder = RouteDecoder(file: shown, root: root, files: files, builder: builder, firstOrder: 0)
            let script = decoder.decodeConversation(Array(body.bytes))
            loaded.diagnostics += decoder.diagnostics
            guard let script else { return }
            if script.steps.contains(where: { if case .expect = $0 { true } else { false } }) {
                loaded.diagnostics.append(
                    Diagnostic(file: shown, "has an expect line: a subscription's events only go out, one {\"send\": …} line each"))
                return
            }
            conversation = WebSocketFileConversation(script)
            status = 400
            body = ResponseBody(
                Array(
                    GraphQLErrors.body(
                        message:
                            "\(operation) is answered over WebSocket: subscribe on the endpoint with graphql-transport-ws (its events are in \(relativePath))",
                        extensions: [("code", .string("BAD_REQUEST"))]
                    ).serialized.utf8) + [UInt8(ascii: "\n")])
        } else if let problem = JSONParser.validate(body.bytes) {
            loaded.diagnostics.append(Diagnostic(file: shown, location: problem.location, "invalid JSON: \(problem.message)"))
            return
        }
        let scenario = Self.scenario(of: relativePath)
        if let existing = scenario.map({ loaded.graphQLOverlays[$0]?[operation] }) ?? loaded.graphQL[operation] {
            let scope = scenario.map { " in scenario \($0)" } ?? ""
            loaded.diagnostics.append(
                Diagnostic(
                    file: shown,
                    "answers operation \(operation) as \(PathText.withoutTrailingSlashes(root))/\(existing.relativePath) does; one file per operation\(scope), remove one"
                ))
            return
        }
        let response = builder.prepare(
            status: status, contentType: ContentType.json, headers: [], body: body, origin: .file(relativePath), conversation: conversation)
        let file = GraphQLOperationFile(operation: operation, relativePath: relativePath, response: response)
        if let scenario {
            loaded.graphQLOverlays[scenario, default: [:]][operation] = file
        } else {
            loaded.graphQL[operation] = file
        }
    }

    /// A route's `"then": {"push": NAME}` with no payload of that name, in any scenario: it
    /// could never be sent, so it is an error at load, not a warning on every answer.
    static func unknownPushes(in routes: [Route], pushes: PushTable) -> [Diagnostic] {
        let known = Set(pushes.names)
        var diagnostics: [Diagnostic] = []
        for route in routes {
            for (index, response) in route.responses.enumerated() {
                guard let name = response.then?.name, !known.contains(name) else { continue }
                let parts = route.source.split(separator: "#", maxSplits: 1)
                let key = route.responses.count > 1 ? "responses[\(index)]" : "response"
                diagnostics.append(
                    Diagnostic(
                        file: String(parts[0]), location: "routes[\(parts.count > 1 ? parts[1] : "?")].\(key).then.push",
                        "no push payload \(JSONText.quoted(name)): expected a file pushes/\(name).apns under the root"))
            }
        }
        return diagnostics
    }

    /// `pushes/<name>.apns`: checked to be a JSON object and parsed as a template; a problem is
    /// a configuration error with its place in the file.
    private func loadPushPayload(
        _ relativePath: String, name: String, scenario: String?, shown: String, in folder: FileFolder, into loaded: inout LoadedFiles
    ) {
        guard let body = read(relativePath, in: folder, shown: shown, into: &loaded) else { return }
        switch PushPayload.load(name: name, relativePath: relativePath, bytes: Array(body.bytes)) {
        case .success(let payload):
            loaded.pushes.insert(payload, scenario: scenario)
        case .failure(let problem):
            loaded.diagnostics.append(Diagnostic(file: shown, location: problem.location, problem.message))
        }
    }

    /// Route tables in the root (or around it) would read every mock as a table, and recording
    /// would write mocks among the tables: refused, at check and at start.
    static func routesHoldTheRoot(_ routes: String, root: String, in directory: String?) -> String? {
        let routesPath = WorkingDirectory.normalized(routes, in: directory), rootPath = WorkingDirectory.normalized(root, in: directory)
        guard routesPath == rootPath || rootPath.hasPrefix(routesPath == "/" ? "/" : routesPath + "/") else { return nil }
        return "the routes folder must not be the mock root or hold it (\(PathText.withoutTrailingSlashes(root))); "
            + "give the route tables a folder of their own, such as \(RoutesFolder.besideRoot(root)), with --routes DIR"
    }

    /// `path` made absolute against the file source's working directory.
    private func normalized(_ path: String) -> String { WorkingDirectory.normalized(path, in: files.workingDirectory) }

    /// A route table saved under the root is never read (tables come from the routes folder):
    /// said, with where it belongs. Tables in a routes folder inside the root are in place.
    private func misplacedRouteTable(_ relativePath: String, in folder: FileFolder) -> String? {
        let routes = self.routes.map(normalized)
        if let routes, (normalized(root) + "/" + relativePath).hasPrefix(routes + "/") { return nil }
        guard let body = try? files.read(relativePath, in: folder), RouteTableLoader.isRouteTable(body.bytes) else { return nil }
        let destination = self.routes ?? routesFolder.given ?? routesFolder.candidates.first
        return "a route table under the mock root is not read; move it to "
            + (destination.map { PathText.withoutTrailingSlashes($0) } ?? "a routes folder and give --routes DIR")
    }

    /// `scenarios/<name>/…` → name; anything else → nil. (Runs once per file at load: the
    /// common "no" is decided by a prefix check, not by splitting the path.)
    static func scenario(of relativePath: String) -> String? {
        guard relativePath.hasPrefix(Self.scenariosFolder + "/") else { return nil }
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 3 else { return nil }
        return String(parts[1])
    }

}

/// Hands out prepared responses with dense ids while a snapshot is being built.
package struct ResponseBuilder {
    private(set) var responses: [PreparedResponse] = []

    package init() {}

    package mutating func prepare(
        status: Int, contentType: String?, headers: [HTTPHeader], body: ResponseBody, origin: Origin,
        stream: ResponseStream? = nil, conversation: WebSocketFileConversation? = nil
    ) -> PreparedResponse {
        let response = PreparedResponse(
            id: responses.count, status: status, contentType: contentType, customHeaders: headers, body: body,
            origin: origin, stream: stream, conversation: conversation)
        responses.append(response)
        return response
    }
}
