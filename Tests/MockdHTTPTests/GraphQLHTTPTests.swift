import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import Testing

/// `--graphql /graphql` on a real server: GraphQL over HTTP (POST JSON, GET query items, Apollo's
/// header), documents read by GraphQLSwift/GraphQL's parser, answers per operation by file,
/// route and stub, and GraphQL's `errors` for what cannot be read or answered.
@Suite("GraphQL over HTTP")
struct GraphQLHTTPTests {
    static let feed = #"{"data": {"feed": [{"__typename": "Post", "id": "1", "title": "Hello"}]}}"#
    static let files = [
        "graphql/GetFeed.json": feed,
        "scenarios/empty/graphql/GetFeed.json": #"{"data": {"feed": []}}"#,
        "mock_api_users_get.json": "[]",
    ]
    static let table = #"""
        {"routes": [
          {"path": "/graphql", "graphql": {"operation": "GetUser", "variables": {"id": "0"}},
           "response": {"json": {"errors": [{"message": "no such user"}], "data": {"user": null}}}},
          {"path": "/graphql", "graphql": {"operation": "GetUser"},
           "response": {"json": {"data": {"user": {"__typename": "User", "id": "{{variables.id}}"}}}, "template": true}}
        ]}
        """#

    static func withServer<T>(_ body: (RouteServer) async throws -> T) async throws -> T {
        try await withRouteServer(files: files, tables: ["graphql.json": table], graphQL: ["/graphql"], body)
    }

    static func post(_ server: RouteServer, _ json: String, headers: [String: String] = [:]) async throws -> HTTPResult {
        try await server.request(
            "POST", "/graphql", headers: ["Content-Type": "application/json"].merging(headers) { _, given in given }, body: Data(json.utf8))
    }

    @Test func eachWayOfNamingTheOperation_IsAnsweredByItsFile() async throws {
        try await Self.withServer { server in
            let named = try await Self.post(server, #"{"query": "query GetFeed { feed { id } }", "operationName": "GetFeed"}"#)
            #expect(named.status == 200)
            #expect(named.text == Self.feed)
            #expect(named.header("X-Mockd-Source") == "file graphql/GetFeed.json")
            #expect(named.header("Content-Type")?.hasPrefix("application/json") == true)
            // Parsed by GraphQLSwift/GraphQL: the one operation of the document, with a fragment beside it.
            let parsed = try await Self.post(
                server, #"{"query": "fragment P on Post { id }\nquery GetFeed { feed { ...P } }", "variables": {}}"#)
            #expect(parsed.text == Self.feed)
            let header = try await Self.post(server, #"{"query": "{ feed { id } }"}"#, headers: ["X-APOLLO-OPERATION-NAME": "GetFeed"])
            #expect(header.text == Self.feed)
            let query = "query GetFeed { feed { id } }".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let get = try await server.request("GET", "/graphql?query=\(query)")
            #expect(get.status == 200)
            #expect(get.text == Self.feed)
            // A scenario's overlay, for that scenario only.
            let empty = try await Self.post(server, #"{"query": "query GetFeed { feed { id } }"}"#, headers: ["X-Mock-Scenario": "empty"])
            #expect(empty.text == #"{"data": {"feed": []}}"#)
            #expect(empty.header("X-Mockd-Source") == "file scenarios/empty/graphql/GetFeed.json")
            // Other paths are served as before.
            #expect(try await server.request("GET", "/api/users").text == "[]")
        }
    }

    @Test func routesMatchTheOperationAndItsVariables_AndTheJournalNamesIt() async throws {
        try await Self.withServer { server in
            let user = try await Self.post(
                server, #"{"query": "query GetUser($id: ID!) { user(id: $id) { id } }", "variables": {"id": "42"}}"#,
                headers: ["X-Mock-Session": "gql"])
            #expect(user.status == 200)
            #expect(user.text == #"{"data":{"user":{"__typename":"User","id":"42"}}}"#)
            #expect(user.header("X-Mockd-Source")?.hasSuffix("graphql.json#1 graphql GetUser") == true, "\(user.headers)")
            let none = try await Self.post(
                server, #"{"query": "query GetUser($id: ID!) { user(id: $id) { id } }", "variables": {"id": "0"}}"#,
                headers: ["X-Mock-Session": "gql"])
            #expect(none.text.contains("no such user"))
            let journal = try await server.admin("GET", "/__mockd/requests?session=gql&count=2&wait=10").object
            let sources = RequestWaitTests.entries(journal).map { $0["source"] as? String ?? "" }
            #expect(sources.count == 2)
            #expect(sources.allSatisfy { $0.hasSuffix(" graphql GetUser") }, "\(sources)")
        }
    }

    @Test func aStubForAnOperation_AnswersItsSessionOnly() async throws {
        try await Self.withServer { server in
            let added = try await server.admin(
                "POST", "/__mockd/stubs",
                body:
                    #"{"path": "/graphql", "graphql": {"operation": "GetFeed"}, "response": {"status": 503, "json": {"errors": [{"message": "down"}]}}, "session": "sim-1"}"#
            )
            #expect(added.status == 201, "\(added.object)")
            let id = try #require(added.object["id"] as? String)
            let stubbed = try await Self.post(server, #"{"query": "query GetFeed { feed { id } }"}"#, headers: ["X-Mock-Session": "sim-1"])
            #expect(stubbed.status == 503)
            #expect(stubbed.header("X-Mockd-Source") == "stub#\(id) graphql GetFeed")
            let other = try await Self.post(server, #"{"query": "query GetFeed { feed { id } }"}"#, headers: ["X-Mock-Session": "sim-2"])
            #expect(other.status == 200)
        }
    }

    @Test func aMiss_Is404WithGraphQLsErrors_NamingTheNearOperations() async throws {
        try await Self.withServer { server in
            let miss = try await Self.post(server, #"{"query": "query GetFeeds { feed { id } }"}"#, headers: ["X-Mock-Session": "miss"])
            #expect(miss.status == 404)
            #expect(miss.header("X-Mockd-Source") == "404 graphql query GetFeeds")
            let errors = try #require(try miss.jsonObject()["errors"] as? [[String: Any]])
            #expect(errors.first?["message"] as? String == "no mock for query GetFeeds; near: GetFeed")
            let journal = try await server.admin("GET", "/__mockd/requests?session=miss&count=1&wait=10").object
            let entry = try #require(RequestWaitTests.entries(journal).first)
            #expect(entry["source"] as? String == "404 graphql query GetFeeds")
            #expect(entry["kind"] as? String == "notFound")
        }
    }

    @Test(
        "bad GraphQL requests get 400 with errors, and the server goes on",
        arguments: [
            ("{not json", "the body is not JSON"),
            (#"{"query": "query GetFeed { feed { id }"}"#, "Syntax Error"),
            (#"{"query": "query A { a } query B { b }"}"#, "the document has 2 operations (A, B)"),
            (#"{"variables": {}}"#, "no query"),
        ])
    func badRequests(_ body: String, _ message: String) async throws {
        try await Self.withServer { server in
            let refused = try await Self.post(server, body)
            #expect(refused.status == 400)
            #expect(refused.header("Content-Type")?.hasPrefix("application/json") == true)
            let errors = try #require(try refused.jsonObject()["errors"] as? [[String: Any]])
            let said = errors.first?["message"] as? String ?? ""
            #expect(said.contains(message), "\(said)")
            #expect(try await Self.post(server, #"{"query": "query GetFeed { feed { id } }"}"#).status == 200)
        }
    }
}
