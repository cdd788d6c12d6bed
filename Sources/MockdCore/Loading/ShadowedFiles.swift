/// Mock files that can never answer because a route the resolver tries first always does: a
/// scenario's overlay behind a route of that scenario without conditions, a file behind a route
/// without scenario or conditions. Silently, the user edits a file and nothing changes.
enum ShadowedFiles {
    struct Found {
        let file: MockFile
        let scenario: String?
        let route: Route
    }

    /// `bodyFiles`: files routes serve as their body (relative to the root); those answer through
    /// the route, as their author meant, so they are not reported.
    static func find(files: MockFileTable, overlays: [String: MockFileTable], routes: [Route], bodyFiles: Set<String>) -> [Found] {
        let always = routes.filter { $0.conditions.isEmpty }
        guard !always.isEmpty else { return [] }
        var found: [Found] = []
        let tables = [(String?.none, files)] + overlays.sorted { $0.key < $1.key }.map { (Optional($0.key), $0.value) }
        for (scenario, table) in tables {
            for file in table.values.sorted(by: { $0.relativePath < $1.relativePath }) where !bodyFiles.contains(file.relativePath) {
                let method = file.method
                let path = ResolutionOrder.urlPath(file.name)
                if let route = always.first(where: {
                    $0.scenario == scenario && $0.methods.contains(method) && answers($0, method: method, path: path, file: file)
                }) {
                    found.append(Found(file: file, scenario: scenario, route: route))
                }
            }
        }
        return found
    }

    /// Whether `route` answers the request `file` is named for (its `_` read as `/`, or the
    /// route's literal path named the same way).
    static func answers(_ route: Route, method: String, path: String, file: MockFile) -> Bool {
        if route.path.match(path) != nil { return true }
        return MockFileName.forRequest(method: method, path: route.path.source) == file.name
    }

    static func diagnostic(_ found: Found, rootDisplay: String) -> Diagnostic {
        let scenario = found.scenario.map { ", scenario \($0)" } ?? ""
        return Diagnostic(
            .warning, file: rootDisplay + "/" + found.file.relativePath,
            "never answers: \(found.route.source) (\(found.route.methods.description) \(found.route.path.source)\(scenario)) "
                + "has no condition and is tried first; remove that route, give it a \"match\", or remove this file")
    }
}
