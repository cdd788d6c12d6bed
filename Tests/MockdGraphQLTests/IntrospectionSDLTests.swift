import GraphQL
import MockdCore
import Testing

@testable import MockdGraphQL

/// Introspection JSON written as SDL: every kind of type, roots by other names, and every way a
/// file can be wrong said at its JSON place, never a crash.
@Suite("A schema as introspection JSON")
struct IntrospectionSDLTests {
    /// `{"kind": "NON_NULL", "ofType": …}` and the like, by the SDL they stand for (`[ID!]!`).
    static func ref(_ sdl: String) -> String {
        if sdl.hasSuffix("!") { return #"{"kind": "NON_NULL", "name": null, "ofType": \#(ref(String(sdl.dropLast())))}"# }
        if sdl.hasPrefix("[") { return #"{"kind": "LIST", "name": null, "ofType": \#(ref(String(sdl.dropFirst().dropLast())))}"# }
        return #"{"kind": "OBJECT", "name": "\#(sdl)", "ofType": null}"#
    }

    static func field(_ name: String, _ type: String, args: String = "[]", extra: String = "") -> String {
        #"{"name": "\#(name)", "args": \#(args), "type": \#(ref(type)), "isDeprecated": false, "deprecationReason": null\#(extra)}"#
    }

    static let types = [
        #"{"kind": "SCALAR", "name": "String"}"#,
        #"{"kind": "SCALAR", "name": "DateTime", "description": "An ISO 8601 \"instant\""}"#,
        #"{"kind": "INTERFACE", "name": "Node", "interfaces": [], "fields": [\#(field("id", "ID!"))], "possibleTypes": [{"name": "User"}]}"#,
        #"{"kind": "OBJECT", "name": "User", "interfaces": [{"kind": "INTERFACE", "name": "Node"}], "fields": [\#(field("id", "ID!")), \#(field("posts", "[Post!]!", args: #"[{"name": "first", "type": \#(ref("Int")), "defaultValue": "10"}, {"name": "order", "type": \#(ref("Order")), "defaultValue": "NEWEST"}]"#)), \#(field("nick", "String", extra: #", "isDeprecated": true, "deprecationReason": "use name""#))]}"#,
        #"{"kind": "OBJECT", "name": "Post", "interfaces": [], "fields": [\#(field("title", "String!")), \#(field("at", "DateTime"))]}"#,
        #"{"kind": "UNION", "name": "Result", "possibleTypes": [{"kind": "OBJECT", "name": "User"}, {"kind": "OBJECT", "name": "Post"}]}"#,
        #"{"kind": "ENUM", "name": "Order", "enumValues": [{"name": "NEWEST", "isDeprecated": false}, {"name": "OLDEST", "isDeprecated": false}]}"#,
        #"{"kind": "INPUT_OBJECT", "name": "Filter", "inputFields": [{"name": "text", "type": \#(ref("String!")), "defaultValue": "\"a\""}]}"#,
        #"{"kind": "OBJECT", "name": "Root", "interfaces": [], "fields": [\#(field("me", "User")), \#(field("search", "[Result!]!", args: #"[{"name": "filter", "type": \#(ref("Filter")), "defaultValue": null}]"#))]}"#,
        #"{"kind": "OBJECT", "name": "Mutation", "interfaces": [], "fields": [\#(field("touch", "Boolean"))]}"#,
        #"{"kind": "OBJECT", "name": "__Schema", "fields": []}"#,
    ]

    static func schema(types: [String] = types, roots: String = #""queryType": {"name": "Root"}, "mutationType": null"#) -> String {
        #"{"data": {"__schema": {\#(roots), "types": [\#(types.joined(separator: ", "))], "directives": [{"name": "include", "locations": ["FIELD"], "args": []}, {"name": "cached", "description": null, "locations": ["FIELD_DEFINITION", "OBJECT"], "args": [{"name": "seconds", "type": \#(ref("Int!")), "defaultValue": null}], "isRepeatable": false}]}}}"#
    }

    static func convert(_ json: String) -> Result<IntrospectionSDL, IntrospectionSDL.Failure> {
        IntrospectionSDL.convert(Array(json.utf8))
    }

    @Test func everyKindOfType_IsWrittenAsSDL_WithEachLinesPlace() throws {
        let sdl = try Self.convert(Self.schema()).get()
        #expect(
            sdl.text == """
                "An ISO 8601 \\"instant\\"" scalar DateTime
                interface Node {
                  id: ID!
                }
                type User implements Node {
                  id: ID!
                  posts(first: Int = 10, order: Order = NEWEST): [Post!]!
                  nick: String @deprecated(reason: "use name")
                }
                type Post {
                  title: String!
                  at: DateTime
                }
                union Result = User | Post
                enum Order {
                  NEWEST
                  OLDEST
                }
                input Filter {
                  text: String! = "a"
                }
                type Root {
                  me: User
                  search(filter: Filter): [Result!]!
                }
                type Mutation {
                  touch: Boolean
                }
                schema { query: Root }
                directive @cached(seconds: Int!) on FIELD_DEFINITION | OBJECT

                """, "\(sdl.text)")
        let lines = sdl.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(sdl.places.count == lines.count)
        #expect(sdl.places[6] == "data.__schema.types[3].fields[1]", "the line of posts(…)")
        #expect(sdl.places.last == "data.__schema.directives[1]")
        // The builder takes it: `Mutation` is not the mutation type (the schema says none).
        let schema = try GraphQL.buildSchema(source: sdl.text)
        #expect(schema.queryType?.name == "Root")
        #expect(schema.mutationType == nil)
    }

    @Test func theDefaultRootNames_NeedNoSchemaDefinition_AndTheUnwrappedFormIsRead() throws {
        let types = [#"{"kind": "OBJECT", "name": "Query", "interfaces": [], "fields": [\#(Self.field("a", "Int"))]}"#]
        let json = #"{"__schema": {"queryType": {"name": "Query"}, "types": [\#(types[0])]}}"#
        let sdl = try Self.convert(json).get()
        #expect(sdl.text == "type Query {\n  a: Int\n}\n")
        #expect(sdl.places == ["__schema.types[0]", "__schema.types[0].fields[0]", "__schema.types[0]"])
    }

    @Test(
        "what keeps a file from being a schema is said at its JSON place",
        arguments: [
            ("{\"data\": ", "line 1, column 10", "not JSON: "),
            ("[1]", nil, "expected an object with \"__schema\", found [1]"),
            (
                #"{"data": null, "errors": [{"message": "no introspection"}]}"#, "errors[0]",
                "the introspection query failed: no introspection"
            ),
            (#"{"data": {"schema": {}}}"#, nil, "expected {\"data\": {\"__schema\": …}} or {\"__schema\": …}"),
            (#"{"__schema": {"types": []}}"#, "__schema.queryType", "missing: a schema has a query type"),
            (#"{"__schema": {"queryType": {"name": "Q"}, "types": {}}}"#, "__schema.types", "expected an array of types, found {}"),
            (
                #"{"__schema": {"queryType": {"name": "Q"}, "types": [{"kind": "THING", "name": "Q"}]}}"#, "__schema.types[0].kind",
                "expected SCALAR"
            ),
            (
                #"{"__schema": {"queryType": {"name": "Q"}, "types": [{"kind": "SCALAR", "name": "a b"}]}}"#, "__schema.types[0].name",
                "expected a GraphQL name"
            ),
            (
                #"{"__schema": {"queryType": {"name": "Q"}, "types": [{"kind": "OBJECT", "name": "Q", "fields": [{"name": "a", "type": {"kind": "NON_NULL", "ofType": {"kind": "NON_NULL", "ofType": null}}}]}]}}"#,
                "__schema.types[0].fields[0].type.ofType", "a NON_NULL of a NON_NULL"
            ),
            (
                #"{"__schema": {"queryType": {"name": "Q"}, "types": [{"kind": "OBJECT", "name": "Q", "fields": [{"name": "a", "type": {"kind": "LIST"}}]}]}}"#,
                "__schema.types[0].fields[0].type.ofType", "expected a type reference"
            ),
            (
                #"{"__schema": {"queryType": {"name": "Q"}, "types": [{"kind": "OBJECT", "name": "Q", "fields": []}]}}"#,
                "__schema.types[0].fields", "expected a non-empty array of fields"
            ),
        ] as [(String, String?, String)])
    func failures(_ json: String, _ location: String?, _ message: String) {
        guard case .failure(let failure) = Self.convert(json) else {
            Issue.record("converted: \(json)")
            return
        }
        #expect(failure.location == location, "\(failure)")
        #expect(failure.message.hasPrefix(message), "\(failure)")
    }

    @Test func aTypeReferenceNestedPastTheBound_IsRefused_NotRecursedInto() {
        var reference = #"{"kind": "SCALAR", "name": "Int"}"#
        for _ in 0..<200 { reference = #"{"kind": "LIST", "ofType": \#(reference)}"# }
        let json =
            #"{"__schema": {"queryType": {"name": "Q"}, "types": [{"kind": "OBJECT", "name": "Q", "fields": [{"name": "a", "type": \#(reference)}]}]}}"#
        guard case .failure(let failure) = Self.convert(json) else {
            Issue.record("converted")
            return
        }
        #expect(failure.message == "type reference nested deeper than \(IntrospectionSDL.maximumTypeDepth) levels")
        #expect(failure.location?.hasPrefix("__schema.types[0].fields[0].type.ofType.ofType") == true)
    }

    /// Prefixes of a schema and bytes of it changed: an answer each time, never a crash. Every
    /// fifth place, not each: each conversion reads the whole schema, and all of them took 40 s
    /// of a busy CI machine's CPU, which starved the suite's timed tests (fuzzing is `make fuzz`'s).
    @Test func anyDamage_GivesAFailureOrSDL_NeverACrash() {
        let bytes = Array(Self.schema().utf8)
        for end in stride(from: 0, to: bytes.count, by: 5) {
            _ = IntrospectionSDL.convert(Array(bytes[..<end]))
        }
        for index in stride(from: 0, to: bytes.count, by: 5) {
            for replacement in [UInt8(ascii: "{"), UInt8(ascii: "]"), UInt8(ascii: "\""), 0] {
                var damaged = bytes
                damaged[index] = replacement
                _ = IntrospectionSDL.convert(damaged)
            }
        }
    }

    @Test func aSchemaFileIsReadAsIntrospection_ByItsNameOrItsFirstByte() {
        #expect(IntrospectionSDL.isIntrospection(path: "schema.json", bytes: Array("type Query { a: Int }".utf8)))
        #expect(IntrospectionSDL.isIntrospection(path: "schema.graphqls", bytes: Array(" \n {\"data\": {}}".utf8)))
        #expect(!IntrospectionSDL.isIntrospection(path: "schema.graphqls", bytes: Array("\"\"\"doc\"\"\" type Query { a: Int }".utf8)))
    }

    /// A type named by a field but missing from the types, and a default value the parser
    /// refuses in the written SDL: each said at its JSON place, through the schema file's load.
    @Test func anErrorOfTheBuiltSchema_IsSaidAtItsJSONPlace() throws {
        let missing =
            #"{"__schema": {"queryType": {"name": "Query"}, "types": [{"kind": "OBJECT", "name": "Query", "fields": [\#(Self.field("a", "Missing"))]}]}}"#
        let badDefault =
            #"{"__schema": {"queryType": {"name": "Query"}, "types": [{"kind": "OBJECT", "name": "Query", "fields": [\#(Self.field("a", "Int")), \#(Self.field("b", "Int", args: #"[{"name": "n", "type": \#(Self.ref("Int")), "defaultValue": "{"}]"#))]}]}}"#
        for (json, expected) in [
            (missing, "schema.json: __schema.types[0].fields[0].type.name: no type of __schema.types is named Missing"),
            (badDefault, "schema.json: __schema.types[0].fields[1]: Syntax Error"),
        ] {
            let files = MemoryFiles(["schema.json": json])
            guard case .failure(let errors) = GraphQLSchemaFile(path: "schema.json").load(files: files) else {
                Issue.record("loaded")
                continue
            }
            #expect(errors.diagnostics.count == 1, "\(errors.diagnostics)")
            #expect(errors.diagnostics.first?.description.hasPrefix(expected) == true, "\(errors.diagnostics)")
        }
        let good = MemoryFiles(["schema.json": Self.schema()])
        #expect(throws: Never.self) { try GraphQLSchemaFile(path: "schema.json").load(files: good).get() }
    }
}
