/// Reads every `*.json` route table in a folder (in file-name order) into routes, and reports
/// every problem with the file, the JSON path and what was expected and found.
struct RouteTableLoader {
    /// The routes folder as the user gave it.
    let directory: String
    /// The mock root, which `file` bodies are relative to.
    let root: String

    struct Output {
        var routes: [Route] = []
        var diagnostics: [Diagnostic] = []
        /// Files under the root that routes serve as bodies, relative to the root.
        var bodyFiles: Set<String> = []
    }

    func load(into builder: inout ResponseBuilder) -> Output {
        var output = Output()
        let display = MockDataLoader.displayPath(directory)
        guard FileTree.isDirectory(directory) else {
            output.diagnostics.append(Diagnostic(file: display, WorkingDirectory.whyNotAFolder(directory, what: "the routes", option: "--routes")))
            return output
        }
        let tables = FileTree.regularFiles(under: directory).filter { $0.hasSuffix(".json") }
        for table in tables {
            let shown = display + "/" + table
            let body: ResponseBody
            do {
                body = try FileTree.read(directory + "/" + table)
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
            var decoder = RouteDecoder(file: shown, root: root, builder: builder, firstOrder: output.routes.count)
            decoder.decodeTable(value)
            builder = decoder.builder
            output.routes += decoder.routes
            output.diagnostics += decoder.diagnostics
            output.bodyFiles.formUnion(decoder.bodyFiles)
        }
        output.diagnostics += Self.shadowed(output.routes)
        return output
    }

    /// Routes that can never answer because an earlier route without conditions always does.
    static func shadowed(_ routes: [Route]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (index, route) in routes.enumerated() {
            for earlier in routes[..<index] where earlier.conditions.isEmpty && earlier.scenario == route.scenario
                && earlier.methods.covers(route.methods) && earlier.path.covers(route.path) {
                let (file, position) = split(route.source)
                diagnostics.append(Diagnostic(.warning, file: file, location: "routes[\(position)]",
                    "never matches: \(earlier.source) (\(earlier.methods.description) \(earlier.path.source)) comes first and always answers; move this route above it or give that one a condition"))
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
