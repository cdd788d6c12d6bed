/// Reads every `*.json` route table in a folder (in file-name order) into routes, and reports
/// every problem with the file, the JSON path and what was expected and found.
struct RouteTableLoader {
    /// The routes folder as the user gave it.
    let directory: String
    /// The mock root, which `file` bodies are relative to.
    let root: String
    let files: any FileSource
    /// Its scenario overlays, where resources' seeds find their overlays.
    var overlays: [String: MockFileTable] = [:]
    /// The API descriptions served beside the routes: each route's JSON answers are held to
    /// the schema of the answer they give, as warnings (`ContractDrift` does the same for files).
    var operations = OperationTable()

    struct Output {
        var routes: [Route] = []
        var diagnostics: [Diagnostic] = []
        /// Files under the root that routes serve as bodies, relative to the root.
        var bodyFiles: Set<String> = []
        var resources: [Resource] = []
        /// Files resources are seeded from, relative to the root: the resource answers for them.
        var seedFiles: Set<String> = []
        /// GraphQL routes' `json` answers, checked once the schema is loaded.
        var graphQLAnswers: [GraphQLWrittenAnswer] = []
    }

    func load(into builder: inout ResponseBuilder) -> Output {
        var output = Output()
        let display = PathText.withoutTrailingSlashes(directory)
        guard files.isFolder(directory) else {
            output.diagnostics.append(
                Diagnostic(file: display, WorkingDirectory.whyNotAFolder(directory, what: "the routes", option: "--routes", files: files)))
            return output
        }
        let tables = files.regularFiles(under: directory).filter { $0.hasSuffix(".json") }
        for table in tables {
            let shown = display + "/" + table
            let body: ResponseBody
            do {
                body = try files.read(directory + "/" + table)
            } catch {
                output.diagnostics.append(Diagnostic(file: shown, error.reason))
                continue
            }
            let value: JSONValue
            do {
                value = try JSONParser.parse(body.array)
            } catch {
                output.diagnostics.append(Diagnostic(file: shown, location: error.location, "invalid JSON: \(error.message)"))
                continue
            }
            if Self.looksLikeMockFile(table, value) {
                output.diagnostics.append(
                    Diagnostic(
                        file: shown,
                        "this looks like a mock file, not a route table: move it under the mock root (\(PathText.withoutTrailingSlashes(root))); a route table is {\"routes\": [ … ]}"
                    ))
                continue
            }
            var decoder = RouteDecoder(file: shown, root: root, files: files, builder: builder, firstOrder: output.routes.count)
            decoder.overlays = overlays
            decoder.decodeTable(value)
            output.graphQLAnswers += decoder.graphQLAnswers
            if !operations.isEmpty, case .array(let items)? = value["routes"] {
                for (index, item) in items.enumerated() {
                    output.diagnostics += operations.contractViolations(route: item, at: "routes[\(index)]").map {
                        Diagnostic(.warning, file: shown, location: $0.location, $0.message)
                    }
                }
            }
            for resource in decoder.resources {
                if let earlier = (output.resources + decoder.resources).first(where: {
                    $0.path == resource.path && $0.scenario == resource.scenario
                }),
                    earlier.source != resource.source
                {
                    let (file, position) = Self.split(resource.source)
                    output.diagnostics.append(
                        Diagnostic(
                            file: file, location: "routes[\(position)].resource",
                            "\(resource.path)\(resource.scenario.map { " (scenario \($0))" } ?? "") is already a resource at \(earlier.source); declare it once"
                        ))
                }
            }
            output.resources += decoder.resources
            output.seedFiles.formUnion(decoder.seedFiles)
            builder = decoder.builder
            output.routes += decoder.routes
            output.diagnostics += decoder.diagnostics
            output.bodyFiles.formUnion(decoder.bodyFiles)
        }
        output.diagnostics += Self.shadowed(output.routes)
        return output
    }

    /// A mock's name, or JSON with nothing like a `routes` key: a file that belongs under the root.
    static func looksLikeMockFile(_ table: String, _ value: JSONValue) -> Bool {
        let name = String(PathText.lastComponent(table, .bytes))
        if case .mock = MockFileName.parse(MockFileName.splitStatus(name)?.name ?? name) { return true }
        guard case .object(let members) = value else { return true }
        return !members.contains { EditDistance.bounded(Array($0.key.lowercased().utf8), "routes".utf8, bound: 2) != nil }
    }

    /// Whether `bytes` begin like a route table, `{"routes":` (white space aside): cheap enough
    /// for every other JSON file under the root.
    static func isRouteTable(_ bytes: some Collection<UInt8>) -> Bool {
        var rest = bytes.drop(while: JSONParser.isWhiteSpace)
        guard rest.first == UInt8(ascii: "{") else { return false }
        rest = rest.dropFirst().drop(while: JSONParser.isWhiteSpace)
        return rest.starts(with: Array(#""routes""#.utf8))
    }

    /// Routes that can never answer because an earlier route without conditions always does.
    static func shadowed(_ routes: [Route]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (index, route) in routes.enumerated() {
            for earlier in routes[..<index]
            where earlier.conditions.isEmpty && earlier.scenario == route.scenario
                && earlier.methods.covers(route.methods) && earlier.path.covers(route.path)
            {
                let (file, position) = split(route.source)
                diagnostics.append(
                    Diagnostic(
                        .warning, file: file, location: "routes[\(position)]",
                        "never matches: \(earlier.source) (\(earlier.methods.description) \(earlier.path.source)) comes first and always answers; move this route above it or give that one a condition"
                    ))
                break
            }
        }
        return diagnostics
    }

    static func split(_ source: String) -> (String, String) {
        guard let hash = source.lastIndex(of: "#") else { return (source, "?") }
        return (String(source[..<hash]), String(source[source.index(after: hash)...]))
    }
}
