/// A request to a GraphQL endpoint (`--graphql /graphql`), read as GraphQL over HTTP: a POST's
/// JSON body `{query, operationName, variables, extensions}`, or a GET's query items of the same
/// names (`variables` and `extensions` as JSON text).
///
/// The operation is named by `operationName`, else by `X-APOLLO-OPERATION-NAME` (Apollo iOS sends
/// both), else by the one operation of the document, which only then is parsed (by the reader the
/// snapshot holds): an operation a client names is found with no parsing of its query.
package struct GraphQLCall: Sendable, Equatable {
    /// The operation answered; nil for the one anonymous operation of a document.
    package var operationName: String?
    /// `query`, `mutation` or `subscription` when known (the document was parsed, or
    /// `X-APOLLO-OPERATION-TYPE` said it); nil otherwise.
    package var kind: String?
    /// The document as sent; nil when only a persisted query's hash came.
    package var query: String?
    /// `variables`, an object (empty when none were sent).
    package var variables: JSONValue
    /// `extensions.persistedQuery.sha256Hash`, lower-cased, when an automatic persisted query is used.
    package var persistedQueryHash: String?

    /// The header Apollo iOS names the operation in, and the one it names the operation's kind in.
    static let operationNameHeader = "X-APOLLO-OPERATION-NAME"
    static let operationTypeHeader = "X-APOLLO-OPERATION-TYPE"

    /// Reads `request`. `json` is its body parsed (nil when it is not JSON), read once per request by
    /// the resolver and shared with the routes' conditions. A request that cannot be read is a
    /// `GraphQLRefusal`: 400 with GraphQL's `{"errors": [{"message": …}]}`.
    package static func read(
        _ request: MockRequest, json: () -> JSONValue?, reader: (any GraphQLDocumentReader)?
    ) -> Result<GraphQLCall, GraphQLRefusal> {
        var fields: (query: JSONValue?, operationName: JSONValue?, variables: JSONValue?, extensions: JSONValue?) = (nil, nil, nil, nil)
        if request.method == "GET" || request.method == "HEAD" {
            func item(_ name: String) -> String? { request.query.first { $0.name == name }.map { $0.value ?? "" } }
            fields.query = item("query").map(JSONValue.string)
            fields.operationName = item("operationName").map(JSONValue.string)
            var parsed: [JSONValue?] = []
            for name in ["variables", "extensions"] {
                guard let text = item(name), !text.isEmpty else {
                    parsed.append(nil)
                    continue
                }
                do {
                    parsed.append(try JSONParser.parse(text))
                } catch {
                    return .failure(GraphQLRefusal("the \(name) query item is not JSON: \(error.description)"))
                }
            }
            fields.variables = parsed[0]
            fields.extensions = parsed[1]
        } else {
            guard !request.body.isEmpty else {
                return .failure(
                    GraphQLRefusal("no body: expected JSON like {\"query\": \"…\", \"operationName\": \"…\", \"variables\": {…}}"))
            }
            guard let body = json() else {
                let why = JSONParser.validate(request.body).map { ": " + $0.description } ?? ""
                return .failure(GraphQLRefusal("the body is not JSON" + why))
            }
            guard case .object = body else {
                return .failure(GraphQLRefusal("the body is not a JSON object: expected {\"query\": \"…\", \"operationName\": \"…\"}"))
            }
            fields = (body["query"], body["operationName"], body["variables"], body["extensions"])
        }
        return read(request, fields, reader: reader)
    }

    private static func read(
        _ request: MockRequest, _ fields: (query: JSONValue?, operationName: JSONValue?, variables: JSONValue?, extensions: JSONValue?),
        reader: (any GraphQLDocumentReader)?
    ) -> Result<GraphQLCall, GraphQLRefusal> {
        var call = GraphQLCall(variables: .object([]))
        switch fields.query {
        case nil, .null?: break
        case .string(let text)?: call.query = text
        case let other?: return .failure(GraphQLRefusal("query must be a string, found \(Self.found(other))"))
        }
        switch fields.operationName {
        case nil, .null?: break
        case .string(let name)?: call.operationName = name.isEmpty ? nil : name
        case let other?: return .failure(GraphQLRefusal("operationName must be a string, found \(Self.found(other))"))
        }
        switch fields.variables {
        case nil, .null?: break
        case .object(let members)?: call.variables = .object(members)
        case let other?: return .failure(GraphQLRefusal("variables must be an object, found \(Self.found(other))"))
        }
        switch fields.extensions {
        case nil, .null?: break
        case let extensions? where extensions.isObject:
            if case .string(let hash)? = extensions["persistedQuery"]?["sha256Hash"] { call.persistedQueryHash = hash.lowercased() }
        case let other?: return .failure(GraphQLRefusal("extensions must be an object, found \(Self.found(other))"))
        }
        if call.query == nil && call.persistedQueryHash == nil {
            return .failure(GraphQLRefusal("no query: expected a GraphQL document in \"query\""))
        }
        if call.operationName == nil, let named = request.headers.first(named: operationNameHeader), !named.isEmpty {
            call.operationName = named
        }
        if let kind = request.headers.first(named: operationTypeHeader), !kind.isEmpty { call.kind = kind.lowercased() }
        if let refusal = call.nameFromDocument(reader: reader) { return .failure(refusal) }
        return .success(call)
    }

    /// When nothing names the operation, the document's one operation does (and says its kind);
    /// a refusal when the document does not parse or holds none or several. Nothing to do
    /// without a document (a persisted query's hash alone).
    package mutating func nameFromDocument(reader: (any GraphQLDocumentReader)?) -> GraphQLRefusal? {
        guard operationName == nil, let query else { return nil }
        guard let reader else {
            return GraphQLRefusal("no operation name: send operationName (or the X-APOLLO-OPERATION-NAME header)")
        }
        let operations: [GraphQLOperationHeading]
        do {
            operations = try reader.operations(in: query)
        } catch {
            return GraphQLRefusal(error.message)
        }
        switch operations.count {
        case 0:
            return GraphQLRefusal("the document has no operation: expected one such as query GetFeed { … }")
        case 1:
            operationName = operations[0].name
            kind = operations[0].kind
            return nil
        default:
            let names = operations.map { $0.name ?? "(anonymous)" }.joined(separator: ", ")
            return GraphQLRefusal("the document has \(operations.count) operations (\(names)); name the one to run with operationName")
        }
    }

    /// The operation as messages name it: `query GetFeed`, `operation GetFeed` when its kind is not known.
    package var described: String {
        (kind ?? "operation") + " " + (operationName ?? "(anonymous)")
    }

    private static func found(_ value: JSONValue) -> String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        default: value.serialized
        }
    }
}

extension JSONValue {
    var isObject: Bool {
        if case .object = self { true } else { false }
    }
}

/// A GraphQL request mockd cannot read: 400, with the body GraphQL clients read errors from,
/// `{"errors": [{"message": …, "extensions": {"code": "BAD_REQUEST"}}]}`.
package struct GraphQLRefusal: Error, Sendable, Equatable {
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    package func response() -> BuiltResponse {
        GraphQLErrors.response(status: 400, message: message, extensions: [("code", .string("BAD_REQUEST"))], origin: .refusal("graphql"))
    }
}

/// The `{"errors": [ … ]}` answers GraphQL clients read, built from values (never by hand).
package enum GraphQLErrors {
    package static func body(message: String, extensions: [(key: String, value: JSONValue)]) -> JSONValue {
        var error: [(key: String, value: JSONValue)] = [("message", .string(message))]
        if !extensions.isEmpty { error.append(("extensions", .object(extensions))) }
        return .object([("errors", .array([.object(error)]))])
    }

    package static func response(
        status: Int, message: String, extensions: [(key: String, value: JSONValue)], origin: Origin
    ) -> BuiltResponse {
        BuiltResponse.json(status: status, body(message: message, extensions: extensions).serialized + "\n", origin: origin)
    }
}
