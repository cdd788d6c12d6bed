import GraphQL
import MockdCore
import OrderedCollections

/// Data shaped exactly by an operation's selection set, from the schema's types: every field the
/// operation selects (under its alias), `__typename` where asked, fragments and inline fragments
/// that apply to the object's type (`SelectionFields`), lists of two, enums and scalars by name. Deterministic: each
/// value follows from the operation's seed (its name and variables) and the value's path, so the
/// same operation with the same variables gets the same data, and UI snapshots stay stable.
///
/// Written here rather than run through GraphQLSwift's executor: that one resolves through
/// resolvers the schema's SDL does not have, needs a runtime type for every interface and union,
/// and is async, where a request's answer is decided synchronously on its thread.
struct SampleData {
    let schema: GraphQLSchema
    let fields: SchemaFields
    let fragments: [String: FragmentDefinition]
    let variables: JSONValue
    let seed: UInt64
    /// `--graphql-scalars`: the value of every field of these scalars, instead of a sample.
    var scalars: [String: JSONValue] = [:]

    /// The data for `selectionSet` on `type` (an object type), at `path`.
    func object(_ selectionSet: SelectionSet, on type: GraphQLObjectType, path: String, echoedID: JSONValue?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        for selected in SelectionFields(schema: schema, fragments: fragments, variables: variables).collect(selectionSet, on: type) {
            let (key, nodes) = (selected.key, selected.nodes)
            let field = nodes[0]
            let name = field.name.value
            if name == "__typename" {
                members.append((key, .string(type.name)))
                continue
            }
            guard let fieldType = fields.type(of: name, on: type.name) else { continue }
            if name == "id", let echoedID {
                members.append((key, echoedID))
                continue
            }
            let selections = nodes.compactMap(\.selectionSet)
            members.append((key, value(fieldType, selections, field: field, path: path + "." + key)))
        }
        return .object(members)
    }

    /// A value of `type`, never null: a sample answer has every field it can have.
    private func value(_ type: any GraphQLType, _ selections: [SelectionSet], field: Field, path: String) -> JSONValue {
        switch type {
        case let nonNull as GraphQLNonNull:
            return value(nonNull.ofType, selections, field: field, path: path)
        case let list as GraphQLList:
            return .array((0..<Self.listLength).map { value(list.ofType, selections, field: field, path: path + "[\($0)]") })
        case let object as GraphQLObjectType:
            return composite(object, selections, field: field, path: path)
        case let abstract as any GraphQLAbstractType:
            let possible = schema.getPossibleTypes(abstractType: abstract)
            guard !possible.isEmpty else { return .null }
            return composite(possible[Int(hash(path) % UInt64(possible.count))], selections, field: field, path: path)
        case let enumeration as GraphQLEnumType:
            guard !enumeration.values.isEmpty else { return .null }
            return .string(enumeration.values[Int(hash(path) % UInt64(enumeration.values.count))].name)
        case let scalar as GraphQLScalarType:
            if let given = scalars[scalar.name] { return given }
            return SampleScalars.value(scalar: scalar.name, field: field.name.value, hash: hash(path))
        default:
            return .null
        }
    }

    private func composite(_ object: GraphQLObjectType, _ selections: [SelectionSet], field: Field, path: String) -> JSONValue {
        var merged: [(key: String, value: JSONValue)] = []
        let echoedID = self.echoedID(field)
        for selectionSet in selections {
            guard case .object(let members) = self.object(selectionSet, on: object, path: path, echoedID: echoedID) else { continue }
            for member in members where !merged.contains(where: { $0.key == member.key }) { merged.append(member) }
        }
        return .object(merged)
    }

    /// `user(id: "42") { id }` answers `"id": "42"`: an object fetched by its id has that id.
    private func echoedID(_ field: Field) -> JSONValue? {
        guard let argument = field.arguments.first(where: { $0.name.value == "id" }) else { return nil }
        return literal(argument.value)
    }

    /// A literal argument's value, a variable's from the request.
    private func literal(_ value: any Value) -> JSONValue? {
        switch value {
        case let variable as Variable: variables[variable.name.value]
        case let string as StringValue: .string(string.value)
        case let int as IntValue: .number(int.value)
        case let float as FloatValue: .number(float.value)
        case let boolean as BooleanValue: .bool(boolean.value)
        case let enumeration as EnumValue: .string(enumeration.value)
        default: nil
        }
    }

    private func hash(_ path: String) -> UInt64 {
        SampleScalars.fnv1a(path, seed: seed)
    }

    /// Items in every list: enough for a list screen to show a list, few enough to read.
    static let listLength = 2
}

/// The fields of the schema's object and interface types, read once at load: GraphQLSwift's
/// types build their field maps again on each call.
struct SchemaFields: Sendable {
    private let types: [String: [String: any GraphQLOutputType]]

    init(schema: GraphQLSchema) {
        var types: [String: [String: any GraphQLOutputType]] = [:]
        for (name, type) in schema.typeMap {
            let map: GraphQLFieldMap?
            switch type {
            case let object as GraphQLObjectType: map = try? object.fields()
            case let interface as GraphQLInterfaceType: map = try? interface.fields()
            default: map = nil
            }
            guard let map else { continue }
            types[name] = Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value.type) })
        }
        self.types = types
    }

    func type(of field: String, on typeName: String) -> (any GraphQLOutputType)? {
        types[typeName]?[field]
    }
}
