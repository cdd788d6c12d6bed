import Foundation
/// What answers which URL, in the order the Resolver tries them, per scenario: for
/// `mockd routes` and `GET /__mockd/routes`. A request in scenario S tries S's routes, then the
/// files under `scenarios/S/` (GraphQL operation files too), then the routes, files, GraphQL
/// operation files and schema, and `--openapi` operations every scenario shares.
package enum ResolutionOrder {
    /// `GET /api/users  ← file users/mock_api_users_get.json`
    package struct Entry: Sendable, Equatable {
        package var method: String
        /// The URL path (a route's pattern, or a file's path with `_` read as `/`).
        package var path: String
        /// What answers: `file users/mock_…json`, or `route routes/a.json#0 (header X=1)`.
        package var answeredBy: String
    }

    /// One scenario's own entries (tried first), or the shared ones (`scenario` nil: tried by every scenario after its own).
    package struct Section: Sendable {
        package var scenario: String?
        package var entries: [Entry]
    }

    package static func sections(_ snapshot: Snapshot) -> [Section] {
        var sections: [Section] = []
        for scenario in ([Scenario.default] + snapshot.scenarios.filter { $0 != Scenario.default }) {
            var entries = snapshot.routes.filter { $0.scenario == scenario }.map(routeEntry)
            entries += (snapshot.overlays[scenario] ?? [:]).values.sorted { $0.name < $1.name }.map { fileEntry($0, snapshot) }
            entries += graphQLEntries(snapshot.graphQL, scenario: scenario)
            if !entries.isEmpty || scenario != Scenario.default { sections.append(Section(scenario: scenario, entries: entries)) }
        }
        var shared = snapshot.routes.filter { $0.scenario == nil }.map(routeEntry)
        shared += snapshot.files.values.sorted { urlPath($0.name) < urlPath($1.name) }.map { fileEntry($0, snapshot) }
        shared += graphQLEntries(snapshot.graphQL, scenario: nil)
        shared += snapshot.operations.operations.map(operationEntry)
        sections.append(Section(scenario: nil, entries: shared))
        return sections
    }

    static func routeEntry(_ route: Route) -> Entry {
        let conditions = route.conditions.map(\.description).joined(separator: "; ")
        return Entry(
            method: route.methods.description, path: route.path.source,
            answeredBy: "route \(route.source)" + (conditions.isEmpty ? "" : " (\(conditions))"))
    }

    static func fileEntry(_ file: MockFile, _ snapshot: Snapshot) -> Entry {
        let shadowed = snapshot.shadowed[file.relativePath].map { " (never answers: \($0) comes first)" } ?? ""
        return Entry(method: file.method, path: urlPath(file.name), answeredBy: "file \(file.relativePath)" + shadowed)
    }

    /// `POST,GET /graphql  ← file graphql/GetFeed.json (graphql operation GetFeed)` for each
    /// endpoint; shared, then the schema: `← graphql schema.graphqls (any other operation)`.
    static func graphQLEntries(_ table: GraphQLTable, scenario: String?) -> [Entry] {
        var entries: [Entry] = []
        for endpoint in table.endpointPaths {
            for file in table.listedFiles(scenario: scenario) {
                entries.append(
                    Entry(
                        method: GraphQLTable.listedMethods, path: endpoint,
                        answeredBy: "file \(file.relativePath) (\(GraphQLTable.listedCondition(file)))"))
            }
            if scenario == nil, let schema = table.schemaPath {
                entries.append(
                    Entry(method: GraphQLTable.listedMethods, path: endpoint, answeredBy: "graphql \(schema) (any other operation)"))
            }
        }
        return entries
    }

    /// `GET /v2/pets  ← openapi api.yaml GET /pets (examples cat, empty)`: after the files, in
    /// document order; a scenario named like an example picks it.
    static func operationEntry(_ operation: APIOperation) -> Entry {
        var examples: [String] = []
        for response in operation.responses {
            for example in response.examples where !examples.contains(example.name) { examples.append(example.name) }
        }
        return Entry(
            method: operation.method, path: operation.pathTemplate,
            answeredBy: operation.source + (examples.isEmpty ? "" : " (examples \(examples.joined(separator: ", ")))"))
    }

    /// `mock_api_users_get.json` → `/api/users` (each `_` is read as `/`, as most names mean it).
    static func urlPath(_ fileName: String) -> String {
        guard case .mock(_, let stem) = MockFileName.parse(fileName) else { return fileName }
        let path = stem.replacingOccurrences(of: "_", with: "/")
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The listing as text, a section per scenario.
    package static func text(_ snapshot: Snapshot) -> String {
        var lines: [String] = []
        let all = sections(snapshot)
        let width = min(48, all.flatMap(\.entries).map { $0.method.count + 1 + $0.path.count }.max() ?? 0)
        for section in all {
            switch section.scenario {
            case let name?: lines.append("scenario \(name): first" + (section.entries.isEmpty ? " (nothing of its own)" : ""))
            case nil: lines.append("every scenario, after its own:")
            }
            for entry in section.entries {
                let left = "\(entry.method) \(entry.path)"
                lines.append("  " + left + String(repeating: " ", count: max(1, width - left.count + 2)) + "← " + entry.answeredBy)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The listing as JSON: `[{"scenario": "empty", "answers": [{"method", "path", "answeredBy"}]}, …, {"scenario": null, …}]`.
    package static func json(_ snapshot: Snapshot) -> JSONValue {
        .array(
            sections(snapshot).map { section in
                .object([
                    ("scenario", section.scenario.map { .string($0) } ?? .null),
                    (
                        "answers",
                        .array(
                            section.entries.map {
                                .object([
                                    ("method", .string($0.method)), ("path", .string($0.path)),
                                    ("answeredBy", .string($0.answeredBy)),
                                ])
                            })
                    ),
                ])
            })
    }
}
