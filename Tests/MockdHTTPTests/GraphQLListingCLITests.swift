import Foundation
import Testing
import TestSupport

/// `mockd routes` and the dashboard's sources list the GraphQL operation files (a scenario's
/// with its section) and the schema, each on the endpoint, as routes are listed.
@Suite("GraphQL operation files listed")
struct GraphQLListingCLITests {
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("MockData/mock_api_users_get.json", "[]")
        try folder.write("MockData/graphql/GetFeed.json", #"{"data": {"feed": []}}"#)
        try folder.write("MockData/graphql/Like.503.json", #"{"errors": [{"message": "down"}]}"#)
        try folder.write("MockData/scenarios/empty/graphql/GetFeed.json", #"{"data": {"feed": []}}"#)
        try folder.write("schema.graphqls", "type Query { feed: [String!]! }\ntype Mutation { like: String }\n")
        return folder
    }

    static let arguments = ["--root", "MockData", "--no-routes", "--graphql", "/graphql", "--graphql-schema", "schema.graphqls"]

    @Test func mockdRoutes_ListsEachOperationFileAndTheSchema() async throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let result = try await runProcess(CLITests.executable, ["routes"] + Self.arguments, currentDirectory: folder.path)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map { String($0.replacing(/\ +/, with: " ")) }
        #expect(
            lines == [
                "scenario empty: first",
                " POST,GET /graphql ← file scenarios/empty/graphql/GetFeed.json (graphql operation GetFeed)",
                "every scenario, after its own:",
                " GET /api/users ← file mock_api_users_get.json",
                " POST,GET /graphql ← file graphql/GetFeed.json (graphql operation GetFeed)",
                " POST,GET /graphql ← file graphql/Like.503.json (graphql operation Like)",
                " POST,GET /graphql ← graphql schema.graphqls (any other operation)",
            ], "\(result.stdout)")
    }

    @Test func theDashboardsSources_ListThemToo_AndShowAFile() async throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        try await withMockdProcess(Self.arguments + ["--port", "0"], in: folder) { _, startup in
            let list = try await CLITests.get(port: startup.port, "/__mockd/sources")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(list.body)) as? [String: Any], "\(list)")
            let sources = try #require(object["sources"] as? [[String: Any]])
            let graphQL = sources.filter { $0["kind"] as? String == "graphql" }
            #expect(
                graphQL.map { "\($0["scenario"] as? String ?? "*") \($0["method"]!) \($0["url"]!) \($0["status"]!) \($0["origin"]!)" } == [
                    "empty POST,GET /graphql 200 scenarios/empty/graphql/GetFeed.json",
                    "* POST,GET /graphql 200 graphql/GetFeed.json",
                    "* POST,GET /graphql 503 graphql/Like.503.json",
                    "* POST,GET /graphql 200 graphql schema.graphqls",
                ], "\(graphQL)")
            let detail = try await CLITests.get(port: startup.port, "/__mockd/source?origin=graphql%2FLike.503.json")
            #expect(detail.status == 200, "\(detail)")
            #expect(detail.text.contains("down"), "\(detail)")
        }
    }
}
