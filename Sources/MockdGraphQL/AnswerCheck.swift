import GraphQL
import MockdCore

/// A written answer (`graphql/GetFeed.json`) checked against the schema and, when the app's
/// operation document is known (`--graphql-operations`), against that operation's selection set:
/// what Apollo iOS would otherwise find only in the simulator, as `missingValue`. Each finding
/// has the answer's JSON path (`data.feed[0].author`).
struct AnswerCheck {
    let schema: GraphQLSchema
    let fields: SchemaFields
    /// The app's operation, and the fragments its documents define; nil: the answer's keys are
    /// taken as field names (an alias then reads as an unknown field, which the message says).
    let operation: OperationDefinition?
    let fragments: [String: FragmentDefinition]
    /// A route's template: a string holding `{{` becomes its value per request (a number, an
    /// object…), so its type is not checked; the structure around it still is.
    var template = false

    struct Finding: Equatable {
        let path: String
        let message: String
    }

    func check(_ answer: JSONValue, kind: OperationType) -> [Finding] {
        guard case .object = answer else { return [Finding(path: "", message: "expected an object with \"data\" or \"errors\"")] }
        guard let data = answer["data"], data != .null else { return [] }
        let root: GraphQLObjectType?
        switch kind {
        case .query: root = schema.queryType
        case .mutation: root = schema.mutationType
        case .subscription: root = schema.subscriptionType
        }
        guard let root else { return [Finding(path: "data", message: "the schema has no \(kind.rawValue) type")] }
        var findings: [Finding] = []
        object(data, type: root, selections: operation.map { [$0.selectionSet] }, path: "data", into: &findings)
        return findings
    }

    private func value(_ value: JSONValue, type: any GraphQLType, selections: [SelectionSet]?, path: String, into findings: inout [Finding])
    {
        if let nonNull = type as? GraphQLNonNull {
            if value == .null {
                findings.append(
                    Finding(path: path, message: "null in a non-null field (\(Self.name(type))): Apollo iOS fails the whole operation"))
                return
            }
            self.value(value, type: nonNull.ofType, selections: selections, path: path, into: &findings)
            return
        }
        if value == .null { return }
        if template, case .string(let text) = value, text.contains("{{") { return }
        switch type {
        case let list as GraphQLList:
            guard case .array(let items) = value else { return findings.append(Self.wrongType(value, type, path)) }
            for (index, item) in items.enumerated() {
                self.value(item, type: list.ofType, selections: selections, path: "\(path)[\(index)]", into: &findings)
            }
        case let object as GraphQLObjectType:
            self.object(value, type: object, selections: selections, path: path, into: &findings)
        case let abstract as any GraphQLAbstractType:
            let possible = schema.getPossibleTypes(abstractType: abstract)
            guard case .object = value else { return findings.append(Self.wrongType(value, type, path)) }
            guard case .string(let name)? = value["__typename"] else {
                return findings.append(
                    Finding(
                        path: path,
                        message: "no __typename: \(Self.name(type)) is one of \(Self.names(possible)), and Apollo iOS reads which"))
            }
            guard let concrete = possible.first(where: { $0.name == name }) else {
                return findings.append(Finding(path: path + ".__typename", message: "\"\(name)\" is not one of \(Self.names(possible))"))
            }
            self.object(value, type: concrete, selections: selections, path: path, into: &findings)
        case let enumeration as GraphQLEnumType:
            guard case .string(let text) = value, enumeration.values.contains(where: { $0.name == text }) else {
                let known = enumeration.values.map(\.name).joined(separator: ", ")
                return findings.append(
                    Finding(path: path, message: "expected one of \(enumeration.name)'s values (\(known)), found \(value.serialized)"))
            }
        case let scalar as GraphQLScalarType:
            if !Self.fits(value, scalar: scalar.name) { findings.append(Self.wrongType(value, type, path)) }
        default:
            return
        }
    }

    private func object(
        _ value: JSONValue, type: GraphQLObjectType, selections: [SelectionSet]?, path: String, into findings: inout [Finding]
    ) {
        guard case .object(let members) = value else { return findings.append(Self.wrongType(value, type, path)) }
        if case .string(let name)? = value["__typename"], name != type.name {
            findings.append(Finding(path: path + ".__typename", message: "expected \"\(type.name)\", found \"\(name)\""))
        }
        guard let selections else {
            for member in members where member.key != "__typename" {
                guard let fieldType = fields.type(of: member.key, on: type.name) else {
                    findings.append(
                        Finding(
                            path: path + "." + member.key,
                            message: "\(type.name) has no field \(member.key) (an alias? give --graphql-operations)"))
                    continue
                }
                self.value(member.value, type: fieldType, selections: nil, path: path + "." + member.key, into: &findings)
            }
            return
        }
        let selected = selections.flatMap { SelectionFields(schema: schema, fragments: fragments, variables: nil).collect($0, on: type) }
        // Apollo iOS's code generator adds `__typename` to every selection set below the
        // operation's root, so the app's documents do not show it, and its models read it.
        if value["__typename"] == nil, path != "data" {
            findings.append(Finding(path: path + ".__typename", message: "missing: Apollo iOS reads __typename on every object"))
        }
        var seen: Set<String> = ["__typename"]
        for field in selected where field.key == "__typename" || seen.insert(field.key).inserted {
            let name = field.nodes[0].name.value
            let fieldPath = path + "." + field.key
            guard let member = members.first(where: { $0.key == field.key }) else {
                if !field.conditional, name != "__typename" {
                    findings.append(Finding(path: fieldPath, message: "missing: the operation selects it"))
                }
                continue
            }
            guard name != "__typename", let fieldType = fields.type(of: name, on: type.name) else { continue }
            var sub: [SelectionSet] = []
            for other in selected where other.key == field.key {
                for node in other.nodes { if let set = node.selectionSet { sub.append(set) } }
            }
            self.value(member.value, type: fieldType, selections: sub.isEmpty ? nil : sub, path: fieldPath, into: &findings)
        }
        for member in members where !seen.contains(member.key) {
            findings.append(Finding(path: path + "." + member.key, message: "not selected by the operation: the app never reads it"))
        }
    }

    private static func fits(_ value: JSONValue, scalar: String) -> Bool {
        switch scalar {
        case "Int":
            guard case .number(let text) = value else { return false }
            return Int32(text) != nil
        case "Float":
            guard case .number = value else { return false }
            return true
        case "String":
            guard case .string = value else { return false }
            return true
        case "Boolean":
            guard case .bool = value else { return false }
            return true
        case "ID":
            if case .string = value { return true }
            guard case .number(let text) = value else { return false }
            return Int(text) != nil
        default:
            return true  // a custom scalar's form is the app's to say
        }
    }

    private static func wrongType(_ value: JSONValue, _ type: any GraphQLType, _ path: String) -> Finding {
        let found =
            switch value {
            case .object: "an object"
            case .array: "an array"
            case .string(let text): "the string \"\(text)\""
            default: value.serialized
            }
        return Finding(path: path, message: "expected \(name(type)), found \(found)")
    }

    private static func name(_ type: any GraphQLType) -> String {
        switch type {
        case let nonNull as GraphQLNonNull: name(nonNull.ofType) + "!"
        case let list as GraphQLList: "[" + name(list.ofType) + "]"
        case let named as any GraphQLNamedType: named.name
        default: "\(type)"
        }
    }

    private static func names(_ types: [GraphQLObjectType]) -> String {
        types.map(\.name).joined(separator: ", ")
    }
}
