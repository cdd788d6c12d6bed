import MockdCore

/// A schema given as the JSON an introspection query returns (`{"data": {"__schema": …}}` or
/// `{"__schema": …}`, what Apollo's `schema.json` and `apollo client:download-schema` save),
/// written out as SDL. GraphQLSwift 4.3 builds a schema from SDL only (it has no
/// `buildClientSchema`), so the SDL path stays the one way in and everything after it is the same.
///
/// Each line of the SDL comes from one place of the JSON (`data.__schema.types[3].fields[0]`),
/// kept in `places`, so an error the parser or the builder finds on a line is said at the JSON
/// place a user can open, not in text they never saw.
struct IntrospectionSDL: Equatable {
    /// The schema as SDL, one definition or member a line.
    var text: String
    /// For each line of `text` (line 1 at index 0), the JSON place it was written from.
    var places: [String]

    /// Why the JSON is not a schema: where in it (`data.__schema.types[3].kind`, or `line 2,
    /// column 5` for bad JSON), and what was expected.
    struct Failure: Error, Equatable {
        var location: String?
        var message: String
    }

    /// Introspection JSON, not SDL: the name says `.json`, or the text starts with `{` (an SDL
    /// document never does: it starts with a definition, a description or a comment).
    static func isIntrospection(path: String, bytes: [UInt8]) -> Bool {
        if path.lowercased().hasSuffix(".json") { return true }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return first == UInt8(ascii: "{")
    }

    /// Scalars every schema has: SDL may not define them again.
    private static let builtInScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
    /// Directives every schema has.
    private static let builtInDirectives: Set<String> = ["skip", "include", "deprecated", "specifiedBy", "oneOf"]
    /// A type reference nests a NON_NULL and a LIST a level each; real schemas stay under 8
    /// (`[[Int!]!]!` is 5), and the standard introspection query asks for 8. The bound keeps a
    /// hand-made or hostile file from recursing far.
    static let maximumTypeDepth = 32

    /// The SDL of `bytes`, or the first thing that keeps it from being a schema.
    static func convert(_ bytes: [UInt8]) -> Result<IntrospectionSDL, Failure> {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            return .failure(Failure(location: error.location, message: "not JSON: \(error.message)"))
        }
        var writer = Writer()
        do {
            try writer.document(document)
        } catch {
            return .failure(error)
        }
        return .success(IntrospectionSDL(text: writer.text, places: writer.places))
    }

    /// Walks the JSON and writes the SDL; throws at the first place that is not as introspection
    /// says.
    private struct Writer {
        var text = ""
        var places: [String] = []
        /// The types named by fields, arguments, interfaces and unions, with their places: each
        /// must be one of the schema's, or the builder's error would have no place to name.
        var references: [(name: String, place: String)] = []

        mutating func line(_ sdl: String, at place: String) {
            text += sdl
            text += "\n"
            places.append(place)
        }

        mutating func document(_ document: JSONValue) throws(Failure) {
            guard case .object = document else {
                throw Failure(location: nil, message: Self.expected("an object with \"__schema\"", document))
            }
            var place = ""
            var schema = document["__schema"]
            if schema == nil, let data = document["data"], data != .null {
                guard case .object = data else {
                    throw Failure(location: "data", message: Self.expected("an object with \"__schema\"", data))
                }
                place = "data."
                schema = data["__schema"]
            }
            guard let schema else {
                if case .array(let errors)? = document["errors"], let first = errors.first,
                    case .string(let message)? = first["message"]
                {
                    throw Failure(location: "errors[0]", message: "the introspection query failed: \(message)")
                }
                throw Failure(
                    location: nil,
                    message: "expected {\"data\": {\"__schema\": …}} or {\"__schema\": …}, the answer to an introspection query")
            }
            try self.schema(schema, at: place + "__schema")
        }

        mutating func schema(_ schema: JSONValue, at place: String) throws(Failure) {
            guard case .object = schema else { throw Failure(location: place, message: Self.expected("an object", schema)) }
            guard case .array(let types)? = schema["types"] else {
                throw Failure(location: place + ".types", message: Self.expected("an array of types", schema["types"]))
            }
            var roots: [(operation: String, type: String)] = []
            for (operation, key) in [("query", "queryType"), ("mutation", "mutationType"), ("subscription", "subscriptionType")] {
                let root = schema[key] ?? .null
                if root == .null {
                    if operation == "query" { throw Failure(location: place + ".queryType", message: "missing: a schema has a query type") }
                    continue
                }
                roots.append((operation, try Self.name(root["name"], at: "\(place).\(key).name")))
            }
            var names: Set<String> = []
            for (index, type) in types.enumerated() {
                try self.type(type, at: "\(place).types[\(index)]", names: &names)
            }
            // The roots are said when their names are not the defaults, or when a type has a
            // default's name without being that root (`type Mutation` that is not the mutation
            // type): the builder would otherwise take it as one.
            let defaults = ["query": "Query", "mutation": "Mutation", "subscription": "Subscription"]
            let named =
                roots.allSatisfy { defaults[$0.operation] == $0.type }
                && defaults.allSatisfy { operation, type in roots.contains { $0.operation == operation } || !names.contains(type) }
            if !named {
                line("schema { " + roots.map { "\($0.operation): \($0.type)" }.joined(separator: " ") + " }", at: place)
            }
            if case .array(let directives)? = schema["directives"] {
                for (index, directive) in directives.enumerated() {
                    try self.directive(directive, at: "\(place).directives[\(index)]")
                }
            }
            for (name, at) in references where !names.contains(name) && !IntrospectionSDL.builtInScalars.contains(name) {
                throw Failure(location: at, message: "no type of \(place).types is named \(name)")
            }
            for (root, key) in roots.map({ ($0.type, "\($0.operation)Type") }) where !names.contains(root) {
                throw Failure(location: "\(place).\(key).name", message: "no type of \(place).types is named \(root)")
            }
        }

        mutating func type(_ type: JSONValue, at place: String, names: inout Set<String>) throws(Failure) {
            guard case .object = type else { throw Failure(location: place, message: Self.expected("a type object", type)) }
            let name = try Self.name(type["name"], at: place + ".name")
            guard case .string(let kind)? = type["kind"] else {
                throw Failure(location: place + ".kind", message: Self.expected("a type kind (OBJECT, INTERFACE, …)", type["kind"]))
            }
            names.insert(name)
            if name.hasPrefix("__") || (kind == "SCALAR" && IntrospectionSDL.builtInScalars.contains(name)) { return }
            let description = Self.description(type)
            switch kind {
            case "SCALAR":
                line("\(description)scalar \(name)", at: place)
            case "OBJECT", "INTERFACE":
                let interfaces = try Self.names(type["interfaces"], at: place + ".interfaces", optional: true)
                references += interfaces.enumerated().map { ($1, "\(place).interfaces[\($0)].name") }
                let implements = interfaces.isEmpty ? "" : " implements " + interfaces.joined(separator: " & ")
                line("\(description)\(kind == "OBJECT" ? "type" : "interface") \(name)\(implements) {", at: place)
                try members(type["fields"], at: place + ".fields", arguments: true)
                line("}", at: place)
            case "UNION":
                let members = try Self.names(type["possibleTypes"], at: place + ".possibleTypes", optional: false)
                references += members.enumerated().map { ($1, "\(place).possibleTypes[\($0)].name") }
                line("\(description)union \(name) = " + members.joined(separator: " | "), at: place)
            case "ENUM":
                guard case .array(let values)? = type["enumValues"], !values.isEmpty else {
                    throw Failure(
                        location: place + ".enumValues", message: Self.expected("an array of the enum's values", type["enumValues"]))
                }
                line("\(description)enum \(name) {", at: place)
                for (index, value) in values.enumerated() {
                    let at = "\(place).enumValues[\(index)]"
                    guard case .object = value else { throw Failure(location: at, message: Self.expected("an enum value object", value)) }
                    line("  \(Self.description(value))\(try Self.name(value["name"], at: at + ".name"))\(Self.deprecation(value))", at: at)
                }
                line("}", at: place)
            case "INPUT_OBJECT":
                line("\(description)input \(name) {", at: place)
                try members(type["inputFields"], at: place + ".inputFields", arguments: false)
                line("}", at: place)
            default:
                throw Failure(
                    location: place + ".kind",
                    message: "expected SCALAR, OBJECT, INTERFACE, UNION, ENUM or INPUT_OBJECT, found \(JSONText.quoted(kind))")
            }
        }

        /// An object's or an interface's fields (with their arguments), or an input object's fields.
        mutating func members(_ members: JSONValue?, at place: String, arguments: Bool) throws(Failure) {
            guard case .array(let members)? = members, !members.isEmpty else {
                throw Failure(location: place, message: Self.expected("a non-empty array of fields", members))
            }
            for (index, member) in members.enumerated() {
                let at = "\(place)[\(index)]"
                let sdl = arguments ? try field(member, at: at) : try inputValue(member, at: at)
                line("  " + sdl, at: at)
            }
        }

        mutating func directive(_ directive: JSONValue, at place: String) throws(Failure) {
            guard case .object = directive else { throw Failure(location: place, message: Self.expected("a directive object", directive)) }
            let name = try Self.name(directive["name"], at: place + ".name")
            if IntrospectionSDL.builtInDirectives.contains(name) { return }
            let arguments = try arguments(directive["args"], at: place + ".args")
            let locations = try Self.names(directive["locations"], at: place + ".locations", optional: false)
            let repeatable = directive["isRepeatable"] == .bool(true) ? " repeatable" : ""
            line(
                "\(Self.description(directive))directive @\(name)\(arguments)\(repeatable) on " + locations.joined(separator: " | "),
                at: place)
        }

        /// `name(args): Type @deprecated(…)`, a field of an object or an interface.
        mutating func field(_ field: JSONValue, at place: String) throws(Failure) -> String {
            guard case .object = field else { throw Failure(location: place, message: Self.expected("a field object", field)) }
            let name = try Self.name(field["name"], at: place + ".name")
            let arguments = try arguments(field["args"], at: place + ".args")
            let type = try typeReference(field["type"], at: place + ".type", depth: 0)
            return "\(Self.description(field))\(name)\(arguments): \(type)\(Self.deprecation(field))"
        }

        /// `(a: Int = 1, b: String)`, or nothing for no arguments.
        mutating func arguments(_ arguments: JSONValue?, at place: String) throws(Failure) -> String {
            guard let arguments, arguments != .null else { return "" }
            guard case .array(let items) = arguments else {
                throw Failure(location: place, message: Self.expected("an array of arguments", arguments))
            }
            if items.isEmpty { return "" }
            var written: [String] = []
            for (index, item) in items.enumerated() {
                written.append(try inputValue(item, at: "\(place)[\(index)]"))
            }
            return "(" + written.joined(separator: ", ") + ")"
        }

        /// An argument or an input field: `name: Type = default`. The default is GraphQL literal
        /// text already (introspection prints it so), written as it is.
        mutating func inputValue(_ value: JSONValue, at place: String) throws(Failure) -> String {
            guard case .object = value else { throw Failure(location: place, message: Self.expected("an input value object", value)) }
            let name = try Self.name(value["name"], at: place + ".name")
            let type = try typeReference(value["type"], at: place + ".type", depth: 0)
            var sdl = "\(Self.description(value))\(name): \(type)"
            switch value["defaultValue"] {
            case nil, .null?: break
            case .string(let literal)?:
                // A line break is only spacing between a literal's tokens (introspection prints
                // none, and a quoted string cannot hold one): made a space, the SDL keeps one
                // line per place. A literal that does not parse is said at this place.
                sdl += " = " + String(literal.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
            case let other?:
                throw Failure(
                    location: place + ".defaultValue",
                    message: Self.expected("a GraphQL literal as a string (\"10\", \"\\\"a\\\"\")", other))
            }
            return sdl + Self.deprecation(value)
        }

        /// `[Post!]!`: a type reference, NON_NULL and LIST wrapping the named type by `ofType`.
        mutating func typeReference(_ reference: JSONValue?, at place: String, depth: Int) throws(Failure) -> String {
            guard let reference, case .object = reference else {
                throw Failure(
                    location: place, message: Self.expected("a type reference {\"kind\": …, \"name\": …, \"ofType\": …}", reference))
            }
            guard depth < IntrospectionSDL.maximumTypeDepth else {
                throw Failure(location: place, message: "type reference nested deeper than \(IntrospectionSDL.maximumTypeDepth) levels")
            }
            guard case .string(let kind)? = reference["kind"] else {
                throw Failure(
                    location: place + ".kind", message: Self.expected("a type kind (NON_NULL, LIST, OBJECT, …)", reference["kind"]))
            }
            switch kind {
            case "NON_NULL":
                if case .string("NON_NULL")? = reference["ofType"]?["kind"] {
                    throw Failure(location: place + ".ofType", message: "a NON_NULL of a NON_NULL: expected a LIST or a named type")
                }
                return try typeReference(reference["ofType"], at: place + ".ofType", depth: depth + 1) + "!"
            case "LIST":
                return "[" + (try typeReference(reference["ofType"], at: place + ".ofType", depth: depth + 1)) + "]"
            case "SCALAR", "OBJECT", "INTERFACE", "UNION", "ENUM", "INPUT_OBJECT":
                let named = try Self.name(reference["name"], at: place + ".name")
                references.append((named, place + ".name"))
                return named
            default:
                throw Failure(
                    location: place + ".kind", message: "expected NON_NULL, LIST or a named type's kind, found \(JSONText.quoted(kind))")
            }
        }

        /// A GraphQL name (`[_A-Za-z][_0-9A-Za-z]*`): anything else would be SDL syntax.
        static func name(_ value: JSONValue?, at place: String) throws(Failure) -> String {
            guard case .string(let name)? = value else { throw Failure(location: place, message: expected("a name", value)) }
            let bytes = Array(name.utf8)
            let isLetter = { (byte: UInt8) in
                byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            }
            let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            guard let first = bytes.first, isLetter(first), bytes.allSatisfy({ isLetter($0) || isDigit($0) }) else {
                throw Failure(location: place, message: "expected a GraphQL name ([_A-Za-z][_0-9A-Za-z]*), found \(JSONText.quoted(name))")
            }
            return name
        }

        /// The names of `[{"name": …}, …]` (interfaces, a union's members) or `["QUERY", …]`
        /// (a directive's locations).
        static func names(_ value: JSONValue?, at place: String, optional: Bool) throws(Failure) -> [String] {
            if optional, value == nil || value == .null { return [] }
            guard case .array(let items)? = value else { throw Failure(location: place, message: expected("an array", value)) }
            var names: [String] = []
            for (index, item) in items.enumerated() {
                let at = "\(place)[\(index)]"
                names.append(try name(item.isContainer ? item["name"] : item, at: item.isContainer ? at + ".name" : at))
            }
            if names.isEmpty, !optional { throw Failure(location: place, message: "expected at least one") }
            return names
        }

        /// `"…" `, the description as a string on the definition's own line.
        static func description(_ value: JSONValue) -> String {
            guard case .string(let description)? = value["description"], !description.isEmpty else { return "" }
            return JSONText.quoted(description) + " "
        }

        /// ` @deprecated(reason: "…")` when introspection says so.
        static func deprecation(_ value: JSONValue) -> String {
            guard value["isDeprecated"] == .bool(true) else { return "" }
            guard case .string(let reason)? = value["deprecationReason"] else { return " @deprecated" }
            return " @deprecated(reason: \(JSONText.quoted(reason)))"
        }

        /// `expected X, found Y`: Y the JSON found, shortened, or `nothing` when missing.
        static func expected(_ what: String, _ found: JSONValue?) -> String {
            guard let found else { return "expected \(what), found nothing" }
            let text = found.serialized
            return "expected \(what), found " + (text.count > 40 ? String(text.prefix(37)) + "…" : text)
        }
    }
}
