#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import Dispatch
import GraphQL
import MockdCore
import MockdLock
import OrderedCollections
import Synchronization

/// A loaded schema answering operations: a document is parsed and validated once and kept by its
/// text; each answer is then sample data shaped by the operation (`SampleData`), or the errors a
/// server gives (400, `GRAPHQL_VALIDATION_FAILED`, with each error's line and column).
/// Introspection (`__schema`, `__type`) is answered by GraphQLSwift's executor, so codegen and
/// GraphiQL can read the schema from mockd.
final class SchemaAnswers: GraphQLSchemaAnswering {
    private let schema: GraphQLSchema
    private let fields: SchemaFields
    /// Documents seen, by their text; emptied when it reaches `documentLimit`, so a client
    /// sending ever-new documents cannot grow it without bound.
    private let documents = Lock<[String: Checked]>([:])
    /// Introspection answers, by document, operation and variables: they depend on nothing else.
    private let introspections = Lock<[String: JSONValue]>([:])
    private static let documentLimit = 1_000
    /// The app's own operations (`--graphql-operations`), which answers by file are checked against.
    private let app: AppOperations
    /// `--graphql-scalars`: values answered for these scalars.
    private let scalars: ScalarOverrides

    init(schema: GraphQLSchema, app: AppOperations = AppOperations(), scalars: ScalarOverrides = ScalarOverrides()) {
        self.schema = schema
        self.fields = SchemaFields(schema: schema)
        self.app = app
        self.scalars = scalars
    }

    func check(answer: JSONValue, operation: String, template: Bool) -> [GraphQLAnswerFinding] {
        let known = app.operations[operation]
        // Without the app's document, the kind follows from the answer's first field: the first
        // root type that has it (a subscription's events are answers too).
        var kind = known?.operation ?? .query
        if known == nil, case .object(let members)? = answer["data"], let first = members.first?.key,
            let query = schema.queryType, fields.type(of: first, on: query.name) == nil
        {
            let roots: [(OperationType, GraphQLObjectType?)] = [(.mutation, schema.mutationType), (.subscription, schema.subscriptionType)]
            kind = roots.first { $0.1.map { fields.type(of: first, on: $0.name) != nil } ?? false }?.0 ?? .query
        }
        var check = AnswerCheck(schema: schema, fields: fields, operation: known, fragments: app.fragments)
        check.template = template
        return check.check(answer, kind: kind).map { GraphQLAnswerFinding(path: $0.path, message: $0.message) }
    }

    func answer(query: String, operationName: String?, variables: JSONValue) -> GraphQLSchemaAnswer {
        let described = "\(operationName ?? "(anonymous)")"
        let checked = check(query)
        guard case .valid(let document) = checked else {
            if case .invalid(let errors) = checked { return Self.errors(errors, operation: "operation " + described) }
            return Self.errors([], operation: described)
        }
        let operations = document.value.definitions.compactMap { $0 as? OperationDefinition }
        let operation: OperationDefinition
        if let operationName {
            guard let named = operations.first(where: { $0.name?.value == operationName }) else {
                return Self.errors([Self.error("Unknown operation named \"\(operationName)\".")], operation: "operation " + described)
            }
            operation = named
        } else {
            guard operations.count == 1 else {
                return Self.errors(
                    [Self.error("Must provide operation name if query contains multiple operations.")], operation: "operation " + described)
            }
            operation = operations[0]
        }
        let heading = operation.operation.rawValue + " " + (operation.name?.value ?? "(anonymous)")
        if let missing = Self.missingVariables(operation, variables) { return Self.errors(missing, operation: heading) }
        let root: GraphQLObjectType?
        switch operation.operation {
        case .query: root = schema.queryType
        case .mutation: root = schema.mutationType
        case .subscription:
            return Self.errors([Self.error("subscriptions are not answered from the schema over HTTP")], operation: heading)
        }
        guard let root else {
            return Self.errors([Self.error("the schema has no \(operation.operation.rawValue) type")], operation: heading)
        }
        if Self.isIntrospection(operation) {
            return GraphQLSchemaAnswer(status: 200, body: introspect(document, query: query, operation, variables), operation: heading)
        }
        var fragments: [String: FragmentDefinition] = [:]
        for case let fragment as FragmentDefinition in document.value.definitions { fragments[fragment.name.value] = fragment }
        let sample = SampleData(
            schema: schema, fields: fields, fragments: fragments, variables: variables,
            seed: SampleScalars.fnv1a(heading + " " + variables.serialized, seed: 0), scalars: scalars.values)
        let data = sample.object(operation.selectionSet, on: root, path: "", echoedID: nil)
        return GraphQLSchemaAnswer(status: 200, body: .object([("data", data)]), operation: heading)
    }

    /// A document parsed and validated against the schema, or its errors.
    private enum Checked {
        case valid(ParsedDocument)
        case invalid([JSONValue])
    }

    private func check(_ query: String) -> Checked {
        if let known = documents.withLock({ $0[query] }) { return known }
        let checked: Checked
        do {
            let document = try parse(source: Source(body: query, name: "GraphQL request"))
            let errors = validate(schema: schema, ast: document)
            checked = errors.isEmpty ? .valid(ParsedDocument(value: document)) : .invalid(errors.map(Self.error))
        } catch let error as GraphQLError {
            checked = .invalid([Self.error(error)])
        } catch {
            checked = .invalid([Self.error("\(error)")])
        }
        documents.withLock { documents in
            if documents.count >= Self.documentLimit { documents.removeAll(keepingCapacity: true) }
            documents[query] = checked
        }
        return checked
    }

    /// GraphQLSwift's executor answers introspection from the schema's own types. Its API is
    /// async, but nothing it runs here waits on anything (the introspection resolvers compute from
    /// the schema): the request's thread waits only for that computation, as it would for a
    /// synchronous call, and the answer is kept, so a client asking again costs a lookup.
    private func introspect(_ document: ParsedDocument, query: String, _ operation: OperationDefinition, _ variables: JSONValue)
        -> JSONValue
    {
        let key = (operation.name?.value ?? "") + "\n" + variables.serialized + "\n" + query
        if let known = introspections.withLock({ $0[key] }) { return known }
        let outcome = IntrospectionOutcome()
        let done = DispatchSemaphore(value: 0)
        let schema = self.schema
        let operationName = operation.name?.value
        let variableValues = Self.map(variables)
        Task {
            let result = try? await execute(
                schema: schema, documentAST: document.value, rootValue: (), context: (), variableValues: variableValues,
                operationName: operationName)
            outcome.set(result)
            done.signal()
        }
        done.wait()
        var answer = JSONValue.object([("errors", .array([Self.error("introspection failed")]))])
        if let result = outcome.result, let data = try? JSONEncoder().encode(result),
            let parsed = try? JSONParser.parse(Array(data))
        {
            answer = Self.withoutDefaultValueErrors(parsed)
        }
        introspections.withLock { answers in
            if answers.count >= Self.documentLimit { answers.removeAll(keepingCapacity: true) }
            answers[key] = answer
        }
        return answer
    }

    /// GraphQLSwift's introspection cannot print some default values (`= null`, GitHub's schema
    /// has 19) and reports an error for each beside complete data, where that `defaultValue` is
    /// null ("no default"). Codegen tools stop at any error, so with data present those errors go.
    private static func withoutDefaultValueErrors(_ answer: JSONValue) -> JSONValue {
        guard case .object(let members) = answer, let data = answer["data"], data != .null,
            case .array(let errors)? = answer["errors"]
        else { return answer }
        // Only the printing failures (`String cannot represent a non string value: null`,
        // `Enum "X" cannot represent value: undefined.`): any other error stays for the client.
        let kept = errors.filter { error in
            guard case .string(let message)? = error["message"] else { return true }
            return !message.contains(" cannot represent ")
        }
        return .object(
            members.compactMap { member in
                guard member.key == "errors" else { return member }
                return kept.isEmpty ? nil : (member.key, .array(kept))
            })
    }

    /// An operation whose root fields are all introspection (`__schema`, `__type`, `__typename`),
    /// with at least one of the first two.
    private static func isIntrospection(_ operation: OperationDefinition) -> Bool {
        let names = operation.selectionSet.selections.compactMap { ($0 as? Field)?.name.value }
        return names.contains { $0 == "__schema" || $0 == "__type" } && names.allSatisfy { $0.hasPrefix("__") }
    }

    /// The variables the operation requires (`$id: ID!` with no default) and the request lacks,
    /// in graphql-js's words.
    private static func missingVariables(_ operation: OperationDefinition, _ variables: JSONValue) -> [JSONValue]? {
        let missing = operation.variableDefinitions.filter { definition in
            guard definition.type is NonNullType, definition.defaultValue == nil else { return false }
            let value = variables[definition.variable.name.value]
            return value == nil || value == .null
        }
        guard !missing.isEmpty else { return nil }
        return missing.map { definition in
            error("Variable \"$\(definition.variable.name.value)\" of required type \"\(print(ast: definition.type))\" was not provided.")
        }
    }

    private static func errors(_ errors: [JSONValue], operation: String) -> GraphQLSchemaAnswer {
        GraphQLSchemaAnswer(status: 400, body: .object([("errors", .array(errors))]), operation: operation)
    }

    private static func error(_ message: String) -> JSONValue {
        .object([("message", .string(message)), ("extensions", .object([("code", .string("GRAPHQL_VALIDATION_FAILED"))]))])
    }

    private static func error(_ error: GraphQLError) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("message", .string(error.headline))]
        if !error.locations.isEmpty {
            members.append(
                (
                    "locations",
                    .array(error.locations.map { .object([("line", .number(String($0.line))), ("column", .number(String($0.column)))]) })
                ))
        }
        members.append(("extensions", .object([("code", .string("GRAPHQL_VALIDATION_FAILED"))])))
        return .object(members)
    }

    /// The request's variables as GraphQLSwift's values, for the executor.
    private static func map(_ variables: JSONValue) -> [String: Map] {
        guard case .object(let members) = variables else { return [:] }
        var values: [String: Map] = [:]
        for member in members { values[member.key] = map(value: member.value) }
        return values
    }

    private static func map(value: JSONValue) -> Map {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let text): Double(text).map { .number(Number($0)) } ?? .string(text)
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(map(value:)))
        case .object(let members): .dictionary(OrderedDictionary(uniqueKeysWithValues: members.map { ($0.key, map(value: $0.value)) }))
        }
    }
}

/// A parsed document, shared between requests: GraphQLSwift's AST is not marked `Sendable`, but
/// nothing changes it once parsed.
struct ParsedDocument: @unchecked Sendable {
    let value: Document
}

/// Where the executor's task leaves its result for the waiting request thread.
private final class IntrospectionOutcome: Sendable {
    private let stored = Lock<GraphQLResult?>(nil)
    var result: GraphQLResult? { stored.withLock { $0 } }
    func set(_ result: GraphQLResult?) { stored.withLock { $0 = result } }
}
