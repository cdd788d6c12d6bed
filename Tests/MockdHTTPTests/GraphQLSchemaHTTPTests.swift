import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdDisk
import MockdGraphQL
import Testing
import TestSupport

/// `--graphql-schema` on a real server: operations no file, route or stub answers get data shaped
/// by their selection set from the schema, documents that do not validate get the errors a server
/// gives, and introspection reads the schema back.
@Suite("GraphQL answered from the schema")
struct GraphQLSchemaHTTPTests {
    static let schema = """
        interface Node { id: ID! }
        type User implements Node { id: ID! name: String! avatarURL: URL createdAt: DateTime! role: Role! }
        type Post implements Node { id: ID! title: String! author: User! tags: [String!]! }
        union SearchResult = User | Post
        enum Role { ADMIN MEMBER GUEST }
        scalar URL
        scalar DateTime
        type Query { feed(first: Int = null): [Post!]! user(id: ID!): User node(id: ID!): Node search(text: String!): [SearchResult!]! }
        type Mutation { like(postID: ID!): Post! }
        """
    static let feedFile = #"{"data": {"feed": []}}"#

    static func withServer<T>(_ body: (RouteServer) async throws -> T) async throws -> T {
        try await withRouteServer(files: ["graphql/GetFeed.json": feedFile], graphQL: ["/graphql"], graphQLSchema: schema, body)
    }

    static func post(_ server: RouteServer, _ query: String, variables: String = "{}") async throws -> HTTPResult {
        let body = #"{"query": \#(String(decoding: try JSONEncoder().encode(query), as: UTF8.self)), "variables": \#(variables)}"#
        return try await server.request("POST", "/graphql", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    static func data(_ result: HTTPResult) throws -> [String: Any] {
        try #require(try result.jsonObject()["data"] as? [String: Any], "\(result.status) \(result.text)")
    }

    @Test func anOperationNothingAnswers_GetsDataShapedByItsSelection() async throws {
        try await Self.withServer { server in
            let query = """
                query Profile($id: ID!) {
                  person: user(id: $id) { __typename id ...Face createdAt role }
                  feed(first: 5) { title tags author { name } }
                }
                fragment Face on User { name avatarURL }
                """
            let result = try await Self.post(server, query, variables: #"{"id": "42"}"#)
            #expect(result.status == 200)
            #expect(result.header("X-Mockd-Source")?.hasSuffix("schema.graphqls query Profile") == true, "\(result.headers)")
            let data = try Self.data(result)
            #expect(Array(data.keys).sorted() == ["feed", "person"])
            let person = try #require(data["person"] as? [String: Any])
            #expect(Set(person.keys) == ["__typename", "id", "name", "avatarURL", "createdAt", "role"])
            #expect(person["__typename"] as? String == "User")
            #expect(person["id"] as? String == "42", "an object fetched by its id has that id")
            #expect(["ADMIN", "MEMBER", "GUEST"].contains(person["role"] as? String ?? ""))
            #expect((person["createdAt"] as? String)?.wholeMatch(of: /2026-01-\d\dT12:00:00Z/) != nil)
            #expect((person["avatarURL"] as? String)?.hasPrefix("https://") == true)
            let feed = try #require(data["feed"] as? [[String: Any]])
            #expect(feed.count == 2)
            for post in feed {
                #expect(Set(post.keys) == ["title", "tags", "author"])
                #expect(post["title"] is String)
                #expect((post["tags"] as? [String])?.count == 2)
                #expect(Set((post["author"] as? [String: Any] ?? [:]).keys) == ["name"])
            }
            // The same operation with the same variables: the same data, byte for byte.
            #expect(try await Self.post(server, query, variables: #"{"id": "42"}"#).text == result.text)
            let other = try await Self.post(server, query, variables: #"{"id": "7"}"#)
            #expect((try Self.data(other)["person"] as? [String: Any])?["id"] as? String == "7")
        }
    }

    @Test func interfacesAndUnions_AnswerAConcreteTypeWithItsFragmentsOnly() async throws {
        try await Self.withServer { server in
            let query = """
                query Find { search(text: "a") { __typename ... on User { name } ... on Post { title } }
                  node(id: "9") { __typename id ... on Post { tags } } }
                """
            let data = try Self.data(try await Self.post(server, query))
            let results = try #require(data["search"] as? [[String: Any]])
            #expect(results.count == 2)
            for item in results {
                switch item["__typename"] as? String {
                case "User": #expect(Set(item.keys) == ["__typename", "name"])
                case "Post": #expect(Set(item.keys) == ["__typename", "title"])
                default: Issue.record("not a member of the union: \(item)")
                }
            }
            let node = try #require(data["node"] as? [String: Any])
            #expect(node["id"] as? String == "9")
            let type = try #require(node["__typename"] as? String)
            #expect(Set(node.keys) == (type == "Post" ? ["__typename", "id", "tags"] : ["__typename", "id"]))
        }
    }

    @Test func aFileOrAMutation_AndTheFileStillWins() async throws {
        try await Self.withServer { server in
            let file = try await Self.post(server, "query GetFeed { feed { title } }")
            #expect(file.text == Self.feedFile)
            #expect(file.header("X-Mockd-Source") == "file graphql/GetFeed.json")
            let like = try await Self.post(server, #"mutation Like { like(postID: "3") { id title } }"#)
            #expect(like.status == 200)
            #expect(Set(((try Self.data(like))["like"] as? [String: Any] ?? [:]).keys) == ["id", "title"])
        }
    }

    @Test(
        "a document that does not validate gets a server's errors, with the place",
        arguments: [
            ("query Bad { feed { colour } }", #"Cannot query field "colour" on type "Post"."#),
            ("query NeedsID($id: ID!) { user(id: $id) { id } }", #"Variable "$id" of required type "ID!" was not provided."#),
        ])
    func invalidDocuments(_ query: String, _ message: String) async throws {
        try await Self.withServer { server in
            let result = try await Self.post(server, query)
            #expect(result.status == 400)
            let errors = try #require(try result.jsonObject()["errors"] as? [[String: Any]], "\(result.text)")
            #expect(errors.first?["message"] as? String == message, "\(errors)")
            #expect((errors.first?["extensions"] as? [String: Any])?["code"] as? String == "GRAPHQL_VALIDATION_FAILED")
            // mockd keeps serving.
            #expect(try await Self.post(server, "query Ok { feed { title } }").status == 200)
        }
    }

    @Test func introspection_ReadsTheSchemaBack() async throws {
        try await Self.withServer { server in
            let result = try await Self.post(
                server,
                #"query Introspect { __schema { queryType { name } types { name fields { args { defaultValue } } } } __type(name: "Role") { enumValues { name } } }"#
            )
            #expect(result.status == 200, "\(result.text)")
            // `first: Int = null`, which GraphQLSwift's introspection cannot print: no error for it.
            #expect(try result.jsonObject()["errors"] == nil, "\(result.text)")
            let data = try Self.data(result)
            let schema = try #require(data["__schema"] as? [String: Any])
            #expect((schema["queryType"] as? [String: Any])?["name"] as? String == "Query")
            let names = (schema["types"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names.contains("User") && names.contains("SearchResult") && names.contains("__Schema"))
            let values = ((data["__type"] as? [String: Any])?["enumValues"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(values == ["ADMIN", "MEMBER", "GUEST"])
        }
    }

    @Test func aSchemaThatDoesNotParse_IsAConfigurationErrorWithItsPlace() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("MockData/mock_x_get.json", "{}")
        try folder.write("schema.graphqls", "type Query {\n  feed: [Post!\n}\n")
        var loader = MockDataLoader(files: DiskFiles(), root: folder.child("MockData"), routes: nil)
        loader.graphQL = GraphQLConfiguration(
            endpoints: ["/graphql"], reader: GraphQLParserReader(), schema: GraphQLSchemaFile(path: folder.child("schema.graphqls")))
        let loaded = loader.load()
        #expect(loaded.snapshot == nil)
        let error = try #require(loaded.diagnostics.first)
        #expect(error.severity == .error)
        #expect(error.file == folder.child("schema.graphqls"))
        #expect(error.location == "line 3, column 1", "\(error)")
        #expect(error.message.hasPrefix("Syntax Error"), "\(error)")
    }

    @Test func aSchemaBreakingSDLRules_IsServed_AndACheckWarnsOfEach() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("MockData/mock_x_get.json", "{}")
        // Published schemas do this (GitHub's defines two fields twice): answered, and warned about.
        try folder.write("schema.graphqls", "type Query { feed: String feed: String me: String }\n")
        for checked in [true, false] {
            var loader = MockDataLoader(files: DiskFiles(), root: folder.child("MockData"), routes: nil)
            loader.graphQL = GraphQLConfiguration(
                endpoints: ["/graphql"], reader: GraphQLParserReader(),
                schema: GraphQLSchemaFile(path: folder.child("schema.graphqls"), checksRules: checked))
            let loaded = loader.load()
            let snapshot = try #require(loaded.snapshot, "\(loaded.diagnostics)")
            #expect(snapshot.graphQL.schema != nil)
            // Served either way; only a check (`mockd check`) spends the time to say so.
            #expect(loaded.diagnostics.map(\.severity) == (checked ? [.warning] : []))
            #expect(loaded.diagnostics.first?.message == (checked ? #"Field "Query.feed" can only be defined once."# : nil))
        }
    }

    /// The files of `files` loaded with the test schema (and the app's documents, when given): the warnings.
    static func checkWarnings(_ files: [String: String], operations: [String: String]? = nil) throws -> [String] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (path, text) in files { try folder.write("MockData/" + path, text) }
        for (path, text) in operations ?? [:] { try folder.write("App/" + path, text) }
        try folder.write("schema.graphqls", schema)
        var loader = MockDataLoader(files: DiskFiles(), root: folder.child("MockData"), routes: nil)
        loader.graphQL = GraphQLConfiguration(
            endpoints: ["/graphql"], reader: GraphQLParserReader(),
            schema: GraphQLSchemaFile(path: folder.child("schema.graphqls"), operationsFolder: operations.map { _ in folder.child("App") }))
        let loaded = loader.load()
        #expect(loaded.snapshot != nil, "warnings only: \(loaded.diagnostics)")
        let prefix = folder.path + "/"
        return loaded.diagnostics.map { String($0.description.replacing(prefix, with: "")) }
    }

    @Test func anAnswerByFile_IsCheckedAgainstTheSchema() throws {
        let warnings = try Self.checkWarnings([
            "graphql/GetFeed.json": #"{"data": {"feed": [{"title": null, "colour": "red", "author": {"name": 7}}]}}"#,
            "graphql/Find.json": #"{"data": {"search": [{"name": "Ada"}]}}"#,
            "graphql/Like.json": #"{"data": {"like": {"id": "3", "title": "ok"}}}"#,
            "graphql/Fine.json": #"{"data": {"user": {"__typename": "User", "id": "1", "role": "ADMIN"}}}"#,
        ])
        #expect(
            warnings == [
                "warning: MockData/graphql/Find.json: data.search[0]: no __typename: SearchResult is one of User, Post, and Apollo iOS reads which",
                "warning: MockData/graphql/GetFeed.json: data.feed[0].title: null in a non-null field (String!): Apollo iOS fails the whole operation",
                "warning: MockData/graphql/GetFeed.json: data.feed[0].colour: Post has no field colour (an alias? give --graphql-operations)",
                "warning: MockData/graphql/GetFeed.json: data.feed[0].author.name: expected String, found 7",
            ], "\(warnings)")
    }

    @Test func anAnswerByFile_IsCheckedAgainstTheAppsOperation() throws {
        let operations = [
            "Feed.graphql": "query GetFeed($full: Boolean!) { feed { ...Card headline: title tags @include(if: $full) } }",
            "Fragments.graphql": "fragment Card on Post { id author { name } }",
            "Broken.graphql": "query Broken { feed { colour } }",
        ]
        let warnings = try Self.checkWarnings(
            ["graphql/GetFeed.json": #"{"data": {"feed": [{"__typename": "Post", "id": "1", "author": {"name": "Ada"}, "title": "x"}]}}"#],
            operations: operations)
        #expect(
            warnings == [
                #"warning: App/Broken.graphql: line 1, column 23: Cannot query field "colour" on type "Post"."#,
                "warning: MockData/graphql/GetFeed.json: data.feed[0].author.__typename: missing: Apollo iOS reads __typename on every object",
                "warning: MockData/graphql/GetFeed.json: data.feed[0].headline: missing: the operation selects it",
                "warning: MockData/graphql/GetFeed.json: data.feed[0].title: not selected by the operation: the app never reads it",
            ], "\(warnings)")
    }
}
