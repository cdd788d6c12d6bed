import MockdCore

/// Swagger 2.0 → OpenAPI 3.0, on the document tree, at load: `basePath` becomes the server
/// path, `definitions` the component schemas, body and formData parameters a `requestBody`,
/// `schema` on a response its content under the first `produces` type.
enum Swagger2Converter {
    static func convert(_ document: JSONValue) -> JSONValue {
        let produces = document["produces"]?.arrayValue?.compactMap(\.stringValue) ?? ["application/json"]
        let consumes = document["consumes"]?.arrayValue?.compactMap(\.stringValue) ?? ["application/json"]
        var result: [(key: String, value: JSONValue)] = [("openapi", "3.0.3"), ("info", document["info"] ?? [:])]
        result.append(("servers", .array([.object([("url", .string(document["basePath"]?.stringValue ?? "/"))])])))
        var paths: [(key: String, value: JSONValue)] = []
        for item in document["paths"]?.objectValue ?? [] {
            var members: [(key: String, value: JSONValue)] = []
            for member in item.value.objectValue ?? [] {
                if member.key == "parameters" {
                    members.append((member.key, .array((member.value.arrayValue ?? []).filter { !isBodyLike($0) }.map(parameter))))
                } else if OperationBuilder.methods.contains(member.key) {
                    members.append((member.key, operation(member.value, produces: produces, consumes: consumes)))
                } else {
                    members.append(member)
                }
            }
            paths.append((item.key, .object(members)))
        }
        result.append(("paths", .object(paths)))
        var components: [(key: String, value: JSONValue)] = []
        if let definitions = document["definitions"] { components.append(("schemas", definitions)) }
        if let parameters = document["parameters"]?.objectValue {
            components.append(("parameters", .object(parameters.map { ($0.key, parameter($0.value)) })))
        }
        if let responses = document["responses"]?.objectValue {
            components.append(("responses", .object(responses.map { ($0.key, response($0.value, produces: produces)) })))
        }
        if let schemes = document["securityDefinitions"]?.objectValue {
            components.append(("securitySchemes", .object(schemes.map { ($0.key, securityScheme($0.value)) })))
        }
        result.append(("components", .object(components)))
        if let security = document["security"] { result.append(("security", security)) }
        return rewriteReferences(.object(result))
    }

    private static func isBodyLike(_ parameter: JSONValue) -> Bool {
        ["body", "formData"].contains(parameter["in"]?.stringValue ?? "")
    }

    private static func operation(_ value: JSONValue, produces: [String], consumes: [String]) -> JSONValue {
        let produces = value["produces"]?.arrayValue?.compactMap(\.stringValue) ?? produces
        let consumes = value["consumes"]?.arrayValue?.compactMap(\.stringValue) ?? consumes
        var members: [(key: String, value: JSONValue)] = []
        let parameters = value["parameters"]?.arrayValue ?? []
        for member in value.objectValue ?? [] {
            switch member.key {
            case "parameters":
                members.append((member.key, .array(parameters.filter { !isBodyLike($0) }.map(parameter))))
            case "responses":
                members.append(
                    (member.key, .object((member.value.objectValue ?? []).map { ($0.key, response($0.value, produces: produces)) })))
            case "produces", "consumes", "schemes":
                continue
            default:
                members.append(member)
            }
        }
        if let body = parameters.first(where: { $0["in"]?.stringValue == "body" }) {
            let content = consumes.map { (key: $0, value: JSONValue.object([("schema", body["schema"] ?? [:])])) }
            members.append(
                ("requestBody", .object([("required", .bool(body["required"]?.boolValue ?? false)), ("content", .object(content))])))
        } else {
            let form = parameters.filter { $0["in"]?.stringValue == "formData" }
            if !form.isEmpty {
                let properties = JSONValue.object(form.map { ($0["name"]?.stringValue ?? "", schema(of: $0)) })
                let required = JSONValue.array(form.filter { $0["required"]?.boolValue == true }.compactMap { $0["name"] })
                let type = consumes.first { $0.contains("form") } ?? "application/x-www-form-urlencoded"
                // A required field makes the body required: without one, an empty body would pass.
                let bodyRequired = JSONValue.bool(!(required.arrayValue ?? []).isEmpty)
                members.append(
                    (
                        "requestBody",
                        .object([
                            ("required", bodyRequired),
                            (
                                "content",
                                .object([
                                    (
                                        type,
                                        .object([
                                            (
                                                "schema",
                                                .object([
                                                    ("type", "object"), ("properties", properties), ("required", required),
                                                ])
                                            ),
                                            // `allowEmptyValue` has no place in an OpenAPI 3 form: it goes
                                            // in the field's encoding, where the validator reads it.
                                            (
                                                "encoding",
                                                .object(
                                                    form.filter { $0["allowEmptyValue"]?.boolValue == true }.map {
                                                        ($0["name"]?.stringValue ?? "", .object([("allowEmptyValue", .bool(true))]))
                                                    })
                                            ),
                                        ])
                                    )
                                ])
                            ),
                        ])
                    ))
            }
        }
        return .object(members)
    }

    /// Type keywords move into `schema`.
    static let schemaKeywords: Set<String> = [
        "type", "format", "items", "enum", "default", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "multipleOf",
    ]

    private static func schema(of parameter: JSONValue) -> JSONValue {
        let members = (parameter.objectValue ?? []).filter { schemaKeywords.contains($0.key) }
        return .object(members.map { $0.key == "type" && $0.value.stringValue == "file" ? ($0.key, "string") : $0 })
    }

    private static func parameter(_ value: JSONValue) -> JSONValue {
        guard value["$ref"] == nil else { return value }
        var members = (value.objectValue ?? []).filter { !schemaKeywords.contains($0.key) && $0.key != "collectionFormat" }
        members.append(("schema", schema(of: value)))
        // `collectionFormat` (csv by default) as the OpenAPI 3 style that spells arrays the same way.
        if value["type"]?.stringValue == "array" {
            switch value["collectionFormat"]?.stringValue {
            case "multi"?: members.append(("explode", true))
            case "ssv"?: members += [("style", "spaceDelimited"), ("explode", false)]
            case "tsv"?: members += [("style", "tabDelimited"), ("explode", false)]
            case "pipes"?: members += [("style", "pipeDelimited"), ("explode", false)]
            default: members.append(("explode", false))
            }
        }
        return .object(members)
    }

    private static func response(_ value: JSONValue, produces: [String]) -> JSONValue {
        guard value["$ref"] == nil else { return value }
        var members: [(key: String, value: JSONValue)] = [("description", value["description"] ?? "")]
        if let headers = value["headers"]?.objectValue {
            members.append(("headers", .object(headers.map { ($0.key, .object([("schema", schema(of: $0.value))])) })))
        }
        members.append(("content", .object(content(value, produces: produces))))
        return .object(members)
    }

    /// A response's media types: those with an example first (in `produces` order, then the
    /// example keys `produces` does not list), then the other produced types when there is a
    /// schema. An example keyed `*/*` is the example of every produced type. Without schema or
    /// examples, still the first produced type (2.0's `produces` applies to every answer).
    static func content(_ response: JSONValue, produces: [String]) -> [(key: String, value: JSONValue)] {
        let schema = response["schema"]
        let examples = (response["examples"]?.objectValue ?? []).filter { $0.key != "*/*" }
        let anyType = response["examples"]?["*/*"]
        func media(_ example: JSONValue?) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = []
            if let schema { members.append(("schema", schema)) }
            if let example { members.append(("example", example)) }
            return .object(members)
        }
        var withExample: [(key: String, value: JSONValue)] = []
        var without: [(key: String, value: JSONValue)] = []
        for type in produces {
            if let example = examples.first(where: { $0.key == type })?.value ?? anyType {
                withExample.append((type, media(example)))
            } else if schema != nil {
                without.append((type, media(nil)))
            }
        }
        for example in examples where !produces.contains(example.key) { withExample.append((example.key, media(example.value))) }
        let all = withExample + without
        if all.isEmpty { return produces.prefix(1).map { ($0, JSONValue.object([])) } }
        return all
    }

    private static func securityScheme(_ value: JSONValue) -> JSONValue {
        switch value["type"]?.stringValue {
        case "basic"?: .object([("type", "http"), ("scheme", "basic")])
        case "apiKey"?: .object([("type", "apiKey"), ("name", value["name"] ?? ""), ("in", value["in"] ?? "header")])
        default: .object([("type", "oauth2")])
        }
    }

    private static func rewriteReferences(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.map { member in
                    if member.key == "$ref", case .string(let reference) = member.value {
                        return (
                            member.key,
                            .string(
                                reference.replacing("#/definitions/", with: "#/components/schemas/")
                                    .replacing("#/parameters/", with: "#/components/parameters/").replacing(
                                        "#/responses/", with: "#/components/responses/"))
                        )
                    }
                    return (member.key, rewriteReferences(member.value))
                })
        case .array(let items): return .array(items.map(rewriteReferences))
        default: return value
        }
    }
}
