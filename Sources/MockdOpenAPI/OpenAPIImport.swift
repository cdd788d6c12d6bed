package import MockdCore

/// `mockd import openapi`: an editable starting point from a document. Fixed-path operations
/// whose chosen answer is a 200 JSON body without headers become convention files; everything else (templated
/// paths, other statuses, named examples as scenarios) becomes route-table entries.
package enum OpenAPIImport {
    package struct Plan: Sendable {
        /// Relative to the root: `mock_v1_pets_get.json` → its bytes.
        package var files: [(name: String, bytes: [UInt8])] = []
        /// The route table's routes, in document order.
        package var routes: [JSONValue] = []
    }

    package static func plan(_ table: OperationTable) -> Plan {
        var plan = Plan()
        for operation in table.operations {
            let path = routePath(operation.pathTemplate)
            for (index, response) in operation.responses.enumerated() {
                let prepared = response.prepared
                let status = response.status ?? (index == 0 ? prepared.status : 500)
                // A file cannot carry headers: an answer with documented headers (a required
                // rate limit, an ETag example) is a route, so the import sends what serving would.
                if index == 0, !operation.pathTemplate.contains("{"), status == 200, isJSON(prepared.contentType),
                    prepared.customHeaders.isEmpty,
                    let json = try? JSONParser.parse(prepared.body.array)
                {
                    plan.files.append(
                        (
                            MockFileName.forRequest(method: operation.method, path: operation.pathTemplate),
                            Array((json.prettyPrinted + "\n").utf8)
                        ))
                } else {
                    let scenario: String? = index == 0 ? nil : "status-\(status)"
                    plan.routes.append(route(operation, path: path, status: status, prepared, scenario: scenario))
                }
                for example in response.examples.dropFirst(index == 0 ? 1 : 0) {
                    plan.routes.append(route(operation, path: path, status: status, example.response, scenario: example.name))
                }
            }
        }
        return plan
    }

    /// The file is a Postman collection (JSON whose `info` says so), which `mockd import FILE` imports as a document.
    package static func isPostmanCollection(path: String, files: any FileSource) -> Bool {
        guard let root = try? DocumentReader.read(path: path, files: files), case .object = root else { return false }
        return PostmanCollection.isCollection(root)
    }

    /// `/pets/{id}` → `/pets/:id`; a segment with text around its parameter → `*`.
    static func routePath(_ template: String) -> String {
        let segments = template.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.contains("{") else { return String(segment) }
            if segment.hasPrefix("{"), segment.hasSuffix("}"), segment.filter({ $0 == "{" }).count == 1 {
                return ":" + segment.dropFirst().dropLast()
            }
            return "*"
        }
        return segments.joined(separator: "/")
    }

    static func isJSON(_ contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.lowercased() else { return false }
        return type == "application/json" || type.hasSuffix("+json")
    }

    static func route(_ operation: APIOperation, path: String, status: Int, _ prepared: PreparedResponse, scenario: String?) -> JSONValue {
        var response: [(key: String, value: JSONValue)] = [("status", .number(status))]
        var headers = prepared.customHeaders.map { (key: $0.name, value: JSONValue.string($0.value)) }
        let json = isJSON(prepared.contentType) ? try? JSONParser.parse(prepared.body.array) : nil
        if let type = prepared.contentType, json == nil || type != "application/json" {
            headers.insert((key: "Content-Type", value: .string(type)), at: 0)
        }
        if !headers.isEmpty { response.append(("headers", .object(headers))) }
        if let json {
            response.append(("json", json))
        } else if prepared.body.count > 0 {
            response.append(("text", .string(String(decoding: prepared.body.array, as: UTF8.self))))
        }
        var route: [(key: String, value: JSONValue)] = [
            ("name", .string(operation.source + (scenario.map { " (\($0))" } ?? ""))),
            ("method", .string(operation.method)), ("path", .string(path)),
        ]
        if let scenario { route.append(("scenario", .string(scenario))) }
        route.append(("response", .object(response)))
        return .object(route)
    }
}
