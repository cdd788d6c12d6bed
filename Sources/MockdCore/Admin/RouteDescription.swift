/// The resolved table as data, for `GET /__mockd/routes` and `mockd routes`.
package enum RouteDescription {
    /// One row per thing that answers, in resolution order within each kind.
    package struct Row: Sendable {
        package var method: String
        package var path: String
        package var scenario: String
        package var conditions: [String]
        package var source: String
    }

    package static func rows(_ snapshot: Snapshot) -> [Row] {
        var rows: [Row] = []
        for route in snapshot.routes {
            rows.append(
                Row(
                    method: route.methods.description, path: route.path.source, scenario: route.scenario ?? "*",
                    conditions: route.conditions.map(\.description), source: route.source))
        }
        for scenario in snapshot.overlays.keys.sorted() {
            for file in snapshot.overlays[scenario]!.values.sorted(by: { $0.name < $1.name }) {
                rows.append(fileRow(file, scenario: scenario, snapshot))
            }
        }
        for file in snapshot.files.values.sorted(by: { $0.name < $1.name }) {
            rows.append(fileRow(file, scenario: "*", snapshot))
        }
        rows += OperationDescription.rows(snapshot.operations)
        return rows
    }

    static func fileRow(_ file: MockFile, scenario: String, _ snapshot: Snapshot) -> Row {
        Row(
            method: file.method, path: file.name, scenario: scenario, conditions: [],
            source: "\(snapshot.rootDisplayPath)/\(file.relativePath)")
    }

    static func table(_ snapshot: Snapshot) -> JSONValue {
        let routes: [JSONValue] = snapshot.routes.map { route in
            .object([
                ("name", route.name.map { .string($0) } ?? .null),
                ("method", .string(route.methods.description)),
                ("path", .string(route.path.source)),
                ("scenario", route.scenario.map { .string($0) } ?? .null),
                ("conditions", .array(route.conditions.map { .string($0.description) })),
                ("responses", .number(route.responses.count)),
                ("sequence", route.responses.count > 1 ? .string(route.sequence.rawValue) : .null),
                ("source", .string(route.source)),
            ])
        }
        var files: [JSONValue] = []
        for row in rows(snapshot).dropFirst(snapshot.routes.count).dropLast(snapshot.operations.operations.count) {
            files.append(
                .object([
                    ("method", .string(row.method)), ("file", .string(row.path)), ("url", .string(ResolutionOrder.urlPath(row.path))),
                    ("scenario", row.scenario == "*" ? .null : .string(row.scenario)), ("source", .string(row.source)),
                ]))
        }
        return .object([
            ("routes", .array(routes)), ("files", .array(files)), ("operations", OperationDescription.json(snapshot.operations)),
            ("scenarios", .array(snapshot.scenarios.map { .string($0) })), ("resolutionOrder", ResolutionOrder.json(snapshot)),
        ])
    }
}
