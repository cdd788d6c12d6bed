/// Operations as listed by `mockd routes`, `GET /__mockd/routes` and the startup line.
package enum OperationDescription {
    package static func rows(_ table: OperationTable) -> [RouteDescription.Row] {
        table.operations.map { operation in
            RouteDescription.Row(
                method: operation.method, path: operation.pathTemplate, scenario: "*", conditions: [], source: operation.source)
        }
    }

    static func json(_ table: OperationTable) -> JSONValue {
        .array(
            table.operations.map { operation in
                .object([
                    ("method", .string(operation.method)),
                    ("path", .string(operation.pathTemplate)),
                    ("statuses", .array(operation.responses.map { $0.status.map { .number($0) } ?? .string("default") })),
                    ("examples", .array(operation.responses.flatMap { $0.examples.map { .string($0.name) } })),
                    ("source", .string(operation.source)),
                ])
            })
    }

    /// `, 3 operations from openapi petstore.yaml` (empty without documents).
    package static func summary(_ table: OperationTable) -> String {
        guard !table.documents.isEmpty else { return "" }
        return ", \(table.operations.count) operation\(table.operations.count == 1 ? "" : "s") from "
            + table.documents.map { "\($0.name)" }.joined(separator: " and ")
    }
}
