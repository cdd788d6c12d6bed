import GraphQL
import MockdCore
import OrderedCollections

/// `--graphql-scalars scalars.json`: the value answered for every field of a scalar, by the
/// scalar's name (`{"DateTime": "2026-05-01T09:30:00Z", "Money": {"amount": 1, "currency": "EUR"}}`).
/// The names `SampleScalars` guesses from cover common scalars; an app whose decoder wants its
/// own format (a `Money` object, a cursor it parses) says it here instead of getting a string.
/// Read with the schema, at load and on every reload.
struct ScalarOverrides: Sendable {
    var values: [String: JSONValue] = [:]

    /// The file's values, with a warning for each name that is no scalar of `schema` (a typo
    /// would otherwise leave the sample value in place without a word). Not a JSON object: an
    /// error with its line and column.
    static func read(_ path: String, files: any FileSource, schema: GraphQLSchema) -> Result<
        (overrides: ScalarOverrides, warnings: [Diagnostic]), GraphQLSchemaErrors
    > {
        let bytes: [UInt8]
        do {
            bytes = try files.read(path).array
        } catch {
            return .failure(GraphQLSchemaErrors([Diagnostic(file: path, "cannot read the scalars' values: \(error.reason)")]))
        }
        let object: JSONValue
        do {
            object = try JSONParser.parse(bytes)
        } catch {
            return .failure(GraphQLSchemaErrors([Diagnostic(file: path, location: error.location, "not JSON: \(error.message)")]))
        }
        guard case .object(let members) = object else {
            return .failure(
                GraphQLSchemaErrors([
                    Diagnostic(
                        file: path, location: Self.start(of: bytes),
                        "expected an object of values by scalar name ({\"DateTime\": \"2026-05-01T09:30:00Z\"}), found \(Self.kind(object))"
                    )
                ]))
        }
        let scalars = schema.typeMap.values.compactMap { ($0 as? GraphQLScalarType)?.name }
        var overrides = ScalarOverrides()
        var warnings: [Diagnostic] = []
        for (name, value) in members {
            overrides.values[name] = value
            guard !scalars.contains(name) else { continue }
            let near = nearest(to: name, in: scalars).map { "; did you mean \($0)?" } ?? ""
            let what = schema.typeMap[name] == nil ? "no type" : "a type but not a scalar"
            warnings.append(Diagnostic(.warning, file: path, location: name, "\(what) of the schema is named \(name)\(near)"))
        }
        return .success((overrides, warnings))
    }

    /// The scalar `name` was most likely meant to be: the same but for case, else one within two
    /// edits.
    private static func nearest(to name: String, in scalars: [String]) -> String? {
        scalars.first { $0.lowercased() == name.lowercased() }
            ?? scalars.compactMap { scalar in EditDistance.bounded(Array(scalar.utf8), name.utf8, bound: 2).map { (scalar, $0) } }
            .min { $0.1 < $1.1 }?.0
    }

    /// `line 2, column 3`: where the JSON value starts, after any spacing.
    private static func start(of bytes: [UInt8]) -> String {
        var (line, column) = (1, 1)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n"): (line, column) = (line + 1, 1)
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): column += 1
            default: return "line \(line), column \(column)"
            }
        }
        return "line \(line), column \(column)"
    }

    private static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
