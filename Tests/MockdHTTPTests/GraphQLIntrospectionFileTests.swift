import Foundation
import Testing
import TestSupport

/// `--graphql-schema schema.json`, the schema as the JSON an introspection query returns, on the
/// real binary: the JSON is the one mockd itself gave for an SDL schema, and a mockd started
/// with it answers from the schema and introspects to the same JSON (but for the order of an
/// interface's possible types).
@Suite("GraphQL schema as introspection JSON")
struct GraphQLIntrospectionFileTests {
    /// graphql-js's `getIntrospectionQuery()` (descriptions, deprecated members, repeatable
    /// directives), what Apollo's and GraphiQL's tools send.
    static let introspectionQuery = """
        query IntrospectionQuery {
          __schema {
            queryType { name } mutationType { name } subscriptionType { name }
            types { ...FullType }
            directives { name description isRepeatable locations args { ...InputValue } }
          }
        }
        fragment FullType on __Type {
          kind name description
          fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
          inputFields { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
          possibleTypes { ...TypeRef }
        }
        fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
        fragment TypeRef on __Type {
          kind name
          ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
        }
        """

    static let schema = """
        "Something with an id"
        interface Node { id: ID! }
        type User implements Node { id: ID! name: String! createdAt: DateTime! role: Role! nick: String @deprecated(reason: "use name") }
        type Post implements Node { id: ID! title: String! author: User! tags: [String!]! }
        union SearchResult = User | Post
        enum Role { ADMIN MEMBER GUEST }
        input PostFilter { text: String = "a" limit: Int! = 3 }
        scalar DateTime
        type Root { feed(first: Int = 5, filter: PostFilter): [Post!]! user(id: ID!): User search(text: String!): [SearchResult!]! }
        type Changes { like(postID: ID!): Post! }
        schema { query: Root mutation: Changes }
        """

    static func post(port: Int, _ query: String) async throws -> RawResponse {
        let body = try JSONSerialization.data(withJSONObject: ["query": query])
        return try await blocking {
            try RawConnection.exchange(
                port: port, "POST", "/graphql", headers: [("Content-Type", "application/json")], body: Array(body))
        }
    }

    static func json(_ response: RawResponse) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(response.body))
        return try #require(object as? [String: Any], "\(response.status) \(String(decoding: response.body, as: UTF8.self))")
    }

    /// An interface's possible types come in the order their objects are defined, which
    /// introspection's type list (sorted by name) does not keep: compared as sets.
    static func possibleTypesSorted(_ value: Any?) -> Any? {
        switch value {
        case let object as [String: Any]:
            var sorted = object.mapValues { possibleTypesSorted($0) as Any }
            if object["kind"] as? String == "INTERFACE", let types = object["possibleTypes"] as? [[String: Any]] {
                sorted["possibleTypes"] = types.sorted { ($0["name"] as? String ?? "") < ($1["name"] as? String ?? "") }
            }
            return sorted
        case let array as [Any]: return array.map { possibleTypesSorted($0) as Any }
        default: return value
        }
    }

    @Test func mockdsOwnIntrospection_ServedAsTheSchema_AnswersAndIntrospectsTheSame() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("MockData/mock_x_get.json", "{}")
        try folder.write("schema.graphqls", Self.schema)
        let serve = { (schema: String) in
            ["--root", folder.child("MockData"), "--port", "0", "--graphql", "/graphql", "--graphql-schema", folder.child(schema)]
        }
        let fromSDL = try await CLITests.withMockd(serve("schema.graphqls"), in: folder) { _, startup in
            try await Self.post(port: startup.port, Self.introspectionQuery)
        }
        #expect(fromSDL.status == 200)
        try folder.write("schema.json", String(decoding: fromSDL.body, as: UTF8.self))

        try await CLITests.withMockd(serve("schema.json"), in: folder) { _, startup in
            let answer = try await Self.post(port: startup.port, #"mutation Like { like(postID: "3") { author { id role } } }"#)
            #expect(answer.status == 200)
            #expect(answer.header("X-Mockd-Source")?.hasSuffix("schema.json mutation Like") == true, "\(answer.headers)")
            let like = try #require((try Self.json(answer)["data"] as? [String: Any])?["like"] as? [String: Any])
            #expect(["ADMIN", "MEMBER", "GUEST"].contains((like["author"] as? [String: Any])?["role"] as? String ?? ""))
            let user = try await Self.post(port: startup.port, #"query U { user(id: "42") { id } }"#)
            #expect(((try Self.json(user)["data"] as? [String: Any])?["user"] as? [String: Any])?["id"] as? String == "42")
            // A field the schema lacks is refused as from SDL.
            #expect(try await Self.post(port: startup.port, "query Bad { feed { colour } }").status == 400)

            let again = try await Self.post(port: startup.port, Self.introspectionQuery)
            let first = try #require(Self.possibleTypesSorted(try Self.json(fromSDL)["data"]) as? NSDictionary)
            let second = try #require(Self.possibleTypesSorted(try Self.json(again)["data"]) as? NSDictionary)
            #expect(first == second, "introspection round-trips: \(String(decoding: again.body, as: UTF8.self))")
        }
    }

    @Test func aJSONThatIsNotASchema_StopsTheStart_WithItsPlace() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("MockData/mock_x_get.json", "{}")
        try folder.write(
            "schema.json",
            #"{"data": {"__schema": {"queryType": {"name": "Q"}, "types": [{"kind": "OBJECT", "name": "Q", "fields": [{"name": "a", "type": {"kind": "LIST"}}]}]}}}"#
        )
        let result = try await runProcess(
            CLITests.executable,
            ["--root", "MockData", "--port", "0", "--graphql", "/graphql", "--graphql-schema", "schema.json"],
            currentDirectory: folder.path)
        #expect(result.status != 0)
        #expect(
            result.stderr.contains(
                "schema.json: data.__schema.types[0].fields[0].type.ofType: expected a type reference {\"kind\": …, \"name\": …, \"ofType\": …}, found nothing"
            ), "\(result)")
    }
}
