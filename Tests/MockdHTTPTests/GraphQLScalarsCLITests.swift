import Foundation
import Testing
import TestSupport

/// `--graphql-scalars FILE` on the real binary: the values given answer every field of their
/// scalar, built-in ones too; a name that is no scalar is a warning (in `mockd check` too); a file
/// that is not a JSON object stops the start; an edit is read on the watcher's reload.
@Suite("GraphQL scalars' values from a file")
struct GraphQLScalarsCLITests {
    static let schema = """
        scalar DateTime
        scalar Money
        type Order { id: ID! placedAt: DateTime! total: Money! note: String count: Int! }
        type Query { orders: [Order!]! }
        """
    static let query = "query Orders { orders { placedAt total note count } }"

    static func folder(scalars: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("MockData/mock_x_get.json", "{}")
        try folder.write("gql/schema.graphqls", schema)
        // In a folder of its own: watched apart from the schema's.
        try folder.write("values/scalars.json", scalars)
        return folder
    }

    static let arguments = [
        "--root", "MockData", "--graphql", "/graphql", "--graphql-schema", "gql/schema.graphqls",
        "--graphql-scalars", "values/scalars.json",
    ]

    static func orders(port: Int) async throws -> [[String: Any]] {
        let response = try await GraphQLIntrospectionFileTests.post(port: port, query)
        let data = try #require(try GraphQLIntrospectionFileTests.json(response)["data"] as? [String: Any], "\(response)")
        return try #require(data["orders"] as? [[String: Any]], "\(response)")
    }

    @Test func theValuesGiven_AnswerEveryFieldOfTheirScalar_AndAnEditIsRead() async throws {
        let folder = try Self.folder(
            scalars: #"{"DateTime": "2026-05-01T09:30:00Z", "Money": {"amount": 1, "currency": "EUR"}, "String": "text", "Datetime": 1}"#)
        defer { folder.remove() }
        try await withMockdProcess(Self.arguments + ["--port", "0"], in: folder) { mockd, startup in
            let orders = try await Self.orders(port: startup.port)
            #expect(orders.count == 2)
            for order in orders {
                #expect(order["placedAt"] as? String == "2026-05-01T09:30:00Z")
                #expect(order["total"] as? NSDictionary == ["amount": 1, "currency": "EUR"] as NSDictionary)
                #expect(order["note"] as? String == "text", "a built-in scalar overridden")
                #expect(order["count"] is Int, "a scalar not given keeps its sample")
            }
            #expect(
                try await mockd.stderrEventually(
                    contains: "mockd.location=Datetime mockd.problem=no type of the schema is named Datetime; did you mean DateTime?"),
                "\(mockd.stderrText())")

            try folder.write("values/scalars.json", #"{"DateTime": "2027-01-01T00:00:00Z"}"#)
            #expect(try await mockd.stderrEventually(contains: "reloaded"), "\(mockd.stderrText())")
            let edited = try await Self.orders(port: startup.port)
            #expect(edited.first?["placedAt"] as? String == "2027-01-01T00:00:00Z")
            #expect(edited.first?["total"] is String, "no longer given: a sample again")
        }
    }

    @Test func mockdCheck_WarnsOfANameThatIsNoScalar() async throws {
        let folder = try Self.folder(scalars: #"{"DateTime": "2026-05-01T09:30:00Z", "Order": {}}"#)
        defer { folder.remove() }
        let result = try await runProcess(CLITests.executable, ["check"] + Self.arguments, currentDirectory: folder.path)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdout.contains("warning: values/scalars.json: Order: a type but not a scalar of the schema is named Order"), "\(result)"
        )
    }

    @Test func aFileThatIsNotAJSONObject_StopsTheStart_WithItsLineAndColumn() async throws {
        for (text, expected) in [
            ("\n  [\"DateTime\"]", "values/scalars.json: line 2, column 3: expected an object of values by scalar name"),
            ("{\"DateTime\": }", "values/scalars.json: line 1, column 14: not JSON"),
        ] {
            let folder = try Self.folder(scalars: text)
            defer { folder.remove() }
            let result = try await runProcess(CLITests.executable, Self.arguments + ["--port", "0"], currentDirectory: folder.path)
            #expect(result.status != 0)
            #expect(result.stderr.contains(expected), "\(result)")
        }
    }
}
