import MockdCore

/// How a parameter is spelt in the request (OpenAPI 3 `style`, with `explode`; Swagger 2.0's
/// `collectionFormat` converted to one of these), decided at load.
enum ParameterStyle: String, Sendable {
    case form, spaceDelimited, pipeDelimited, deepObject, simple, label, matrix
    /// Swagger 2.0 `collectionFormat: tsv` (OpenAPI 3 has no such style).
    case tabDelimited

    /// The documented style, else the default for the place (`form` in query and cookie, `simple` in path and header).
    static func of(_ parameter: JSONValue, place: OperationValidator.Parameter.Place) -> ParameterStyle {
        if let name = parameter["style"]?.stringValue, let style = ParameterStyle(rawValue: name) { return style }
        return place == .query || place == .cookie ? .form : .simple
    }
}

/// Reads a parameter's value from the request as its style spells it: the text split and
/// paired as the style says, each piece read as the type its schema asks for (so `limit=abc`
/// is reported as `expected integer, found "abc"`).
struct ParameterReader {
    let set: SchemaSet

    /// The query value; nil when the request does not carry the parameter.
    func query(_ parameter: OperationValidator.Parameter, _ query: [(name: String, value: String?)]) -> JSONValue? {
        let name = parameter.name
        switch (parameter.style, parameter.shape) {
        case (.deepObject, _):
            // `filter[min]=3&filter[name]=x`
            let members = query.compactMap { item -> (String, String)? in
                guard item.name.hasPrefix(name + "["), item.name.hasSuffix("]") else { return nil }
                return (String(item.name.dropFirst(name.count + 1).dropLast()), item.value ?? "")
            }
            // Not `members.isEmpty ? nil : …`: JSONValue is ExpressibleByNilLiteral, and that nil
            // would be `.null`, an absent parameter reported as "expected object, found null".
            guard !members.isEmpty else { return nil }
            return object(members, parameter.schema)
        case (.form, .object) where parameter.explode:
            // `?offset=1&limit=123`: each property is a query parameter of its own.
            let members = query.compactMap { item -> (String, String)? in
                parameter.properties.contains(item.name) ? (item.name, item.value ?? "") : nil
            }
            guard !members.isEmpty else { return nil }
            return object(members, parameter.schema)
        default:
            let values = query.filter { $0.name == name }.map { $0.value ?? "" }
            guard !values.isEmpty else { return nil }
            switch parameter.shape {
            case .object:
                return object(pairs(values[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)), parameter.schema)
            case .array:
                // `?tags=` is the empty array (the specification's table of style examples).
                if values == [""] { return .array([]) }
                if parameter.explode, values.count > 1 { return array(values, parameter.schema) }
                switch parameter.style {
                case .spaceDelimited: return array(split(values[0], " "), parameter.schema)
                case .pipeDelimited: return array(split(values[0], "|"), parameter.schema)
                case .tabDelimited: return array(split(values[0], "\t"), parameter.schema)
                default: return array(values.flatMap { split($0, ",") }, parameter.schema)
                }
            case .scalar: return scalar(values[0], parameter.schema)
            }
        }
    }

    /// The path segment's value: `simple` (`1,2`), `label` (`.1,2` / `.1.2`), `matrix` (`;id=1,2` / `;id=1;id=2`).
    func path(_ parameter: OperationValidator.Parameter, _ text: String) -> JSONValue {
        var text = Substring(text)
        var separator: Character = ","
        switch parameter.style {
        case .label:
            if text.first == "." { text = text.dropFirst() }
            if parameter.explode { separator = "." }
        case .matrix:
            if text.first == ";" { text = text.dropFirst() }
            if parameter.explode, parameter.shape != .scalar {
                // `;id=1;id=2` (array) or `;x=1;y=2` (object)
                let pieces = text.split(separator: ";").map { piece -> (String, String) in
                    let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
                }
                return parameter.shape == .array ? array(pieces.map { $0.1 }, parameter.schema) : object(pieces, parameter.schema)
            }
            // `;id=1,2`: the value after the name.
            if let equals = text.firstIndex(of: "=") { text = text[text.index(after: equals)...] }
        default:
            break
        }
        switch parameter.shape {
        case .scalar:
            return scalar(String(text), parameter.schema)
        case .array:
            return array(text.split(separator: separator, omittingEmptySubsequences: false).map(String.init), parameter.schema)
        case .object:
            let pieces = text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
            if parameter.explode {
                // `x=1,y=2`
                return object(
                    pieces.map { piece in
                        let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                        return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
                    }, parameter.schema)
            }
            return object(pairs(pieces), parameter.schema)
        }
    }

    private func split(_ text: String, _ separator: Character) -> [String] {
        text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
    }

    /// `[k1, v1, k2, v2]` → `[(k1, v1), (k2, v2)]`; an odd last key gets an empty value.
    private func pairs(_ pieces: [String]) -> [(String, String)] {
        stride(from: 0, to: pieces.count, by: 2).map { (pieces[$0], $0 + 1 < pieces.count ? pieces[$0 + 1] : "") }
    }

    private func object(_ members: [(String, String)], _ schema: Int?) -> JSONValue {
        let properties = schema.map { Self.properties($0, in: set) } ?? []
        return .object(
            members.map { key, value in
                guard let property = properties.first(where: { $0.name == key }) else { return (key, .string(value)) }
                return (key, ParameterCoercion.value([value], schema: property.schema, in: set, explode: false))
            })
    }

    private func array(_ items: [String], _ schema: Int?) -> JSONValue {
        let itemKinds = schema.flatMap { set.resolved($0).items }.map { Self.kinds($0, in: set) } ?? [.string]
        return .array(items.map { ParameterCoercion.scalar($0, kinds: itemKinds) })
    }

    private func scalar(_ text: String, _ schema: Int?) -> JSONValue {
        guard let schema else { return .string(text) }
        return ParameterCoercion.value([text], schema: schema, in: set, explode: false)
    }

    /// The shape a schema gives its parameter, decided at load.
    static func shape(_ schema: Int?, in set: SchemaSet) -> OperationValidator.Parameter.Shape {
        guard let schema else { return .scalar }
        let kinds = kinds(schema, in: set)
        if kinds.contains(.array) { return .array }
        if kinds == [.object] { return .object }
        return .scalar
    }

    static func kinds(_ index: Int, in set: SchemaSet) -> [Schema.Kind] {
        guard let at = typed(index, in: set) else { return ExampleGenerator.inferredKinds(SchemaSet.anything) }
        return set.schemas[at].types ?? ExampleGenerator.inferredKinds(set.schemas[at])
    }

    /// The kinds a parameter's text may be read as: `kinds`, and `null` when a branch of the
    /// schema's `anyOf`/`oneOf` is `{type: "null"}` (`anyOf: [{type: integer}, {type: "null"}]`
    /// takes an empty form field or `null`, which `kinds`, from the first branch, would not).
    static func valueKinds(_ index: Int, in set: SchemaSet) -> [Schema.Kind] {
        let kinds = kinds(index, in: set)
        guard !kinds.contains(.null), let at = set.resolvedIndex(index), set.schemas[at].types == nil else { return kinds }
        let branches = set.schemas[at].anyOf + set.schemas[at].oneOf
        let nullable = branches.contains { branch in
            set.resolvedIndex(branch).flatMap { set.schemas[$0].types }?.contains(.null) == true
        }
        return nullable ? kinds + [.null] : kinds
    }

    /// Where the schema that types a parameter lies: `index` resolved, or the first of its
    /// `allOf`, `oneOf`, `anyOf` when it has no type itself; nil for a cycle of references.
    /// Read in place (no copy of a whole schema): on every request with parameters.
    static func typed(_ index: Int, in set: SchemaSet) -> Int? {
        guard let at = set.resolvedIndex(index) else { return nil }
        guard set.schemas[at].types == nil,
            let first = set.schemas[at].allOf.first ?? set.schemas[at].oneOf.first ?? set.schemas[at].anyOf.first
        else { return at }
        return set.resolvedIndex(first)
    }

    /// The schema's properties, those of its `allOf` parts included.
    static func properties(_ index: Int, in set: SchemaSet, depth: Int = 0) -> [(name: String, schema: Int)] {
        let schema = set.resolved(index)
        guard depth < 8 else { return schema.properties }
        return schema.properties + schema.allOf.flatMap { properties($0, in: set, depth: depth + 1) }
    }
}
