import Foundation
import Testing
import TestSupport

/// Routes' and stubs' GraphQL `json` answers checked against the schema, as operation files
/// are: warnings at load and in `mockd check` placed as a route's errors, template strings not
/// type-checked; a stub is added all the same, with its warnings in the answer and the log.
@Suite("GraphQL routes and stubs checked against the schema")
struct GraphQLRouteCheckTests {
    static let routes = """
        {"routes": [
          {"path": "/graphql", "graphql": {"operation": "GetUser"},
           "response": {"json": {"data": {"user": {"id": "1", "name": null, "role": "OWNER"}}}}},
          {"path": "/graphql", "graphql": {"operation": "GetUser", "variables": {"id": "2"}},
           "responses": [{"json": {"data": {"user": null}}}, {"json": {"data": {"user": {"id": "2", "colour": "red"}}}}]},
          {"path": "/graphql", "graphql": {"operation": "GetUser", "variables": {"id": "3"}}, "response": {"template": true,
           "json": {"data": {"user": {"id": "{{variables.id}}", "name": "{{variables.name}}", "role": 7, "age": "{{variables.age}}"}}}}},
          {"path": "/api/users", "response": {"json": {"data": {"user": 7}}}}
        ]}
        """

    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("MockData/mock_x_get.json", "{}")
        try folder.write("routes/api.json", routes)
        try folder.write("schema.graphqls", GraphQLSchemaHTTPTests.schema)
        return folder
    }

    static let arguments = ["--root", "MockData", "--routes", "routes", "--graphql", "/graphql", "--graphql-schema", "schema.graphqls"]

    @Test func mockdCheck_WarnsOfEachRoutesAnswer_AtItsPlace() async throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let result = try await runProcess(CLITests.executable, ["check"] + Self.arguments, currentDirectory: folder.path)
        #expect(result.status == 1, "\(result)")
        let warnings = result.stdout.split(separator: "\n").filter { $0.hasPrefix("warning: routes/") }
        #expect(
            warnings == [
                "warning: routes/api.json: routes[0].response.json: data.user.name: null in a non-null field (String!): Apollo iOS fails the whole operation",
                "warning: routes/api.json: routes[0].response.json: data.user.role: expected one of Role's values (ADMIN, MEMBER, GUEST), found \"OWNER\"",
                "warning: routes/api.json: routes[1].responses[1].json: data.user.colour: User has no field colour (an alias? give --graphql-operations)",
                // A template: `{{…}}` strings unchecked, the rest is.
                "warning: routes/api.json: routes[2].response.json: data.user.role: expected one of Role's values (ADMIN, MEMBER, GUEST), found 7",
                "warning: routes/api.json: routes[2].response.json: data.user.age: User has no field age (an alias? give --graphql-operations)",
            ], "\(result.stdout)")
    }

    @Test func aStub_IsAdded_WithItsWarningsInTheAnswerAndTheLog() async throws {
        let folder = try Self.folder()
        try folder.write("routes/api.json", #"{"routes": []}"#)
        defer { folder.remove() }
        try await withMockdProcess(Self.arguments + ["--port", "0"], in: folder) { mockd, startup in
            let stub =
                #"{"path": "/graphql", "graphql": {"operation": "GetUser"}, "response": {"json": {"data": {"user": {"id": "5", "role": "OWNER"}}}}}"#
            let added = try await blocking {
                try RawConnection.exchange(port: startup.port, "POST", "/__mockd/stubs", body: Array(stub.utf8))
            }
            #expect(added.status == 201, "\(added)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(added.body)) as? [String: Any], "\(added)")
            let warnings = try #require(object["warnings"] as? [String], "\(added)")
            #expect(
                warnings == [#"stub.response.json: data.user.role: expected one of Role's values (ADMIN, MEMBER, GUEST), found "OWNER""#],
                "\(warnings)")
            #expect(
                try await mockd.stderrEventually(
                    contains: "stub#1 answers what its contract does not allow: stub.response.json: data.user.role"),
                "\(mockd.stderrText())")
            // Served as sent.
            let answer = try await GraphQLIntrospectionFileTests.post(port: startup.port, "query GetUser { user(id: \"5\") { id role } }")
            #expect(answer.text == #"{"data":{"user":{"id":"5","role":"OWNER"}}}"#, "\(answer)")
            // A stub that fits: no warnings member.
            let fine = #"{"path": "/graphql", "graphql": {"operation": "GetUser"}, "response": {"json": {"data": {"user": {"id": "5"}}}}}"#
            let clean = try await blocking {
                try RawConnection.exchange(port: startup.port, "POST", "/__mockd/stubs", body: Array(fine.utf8))
            }
            #expect(clean.status == 201)
            #expect(!clean.text.contains("warnings"), "\(clean)")
        }
    }

    /// A subscription's `graphql/<Operation>.ws` file: each event is checked as an answer of the
    /// subscription type, placed by its send.
    @Test func aSubscriptionsEventsFile_IsCheckedEventByEvent() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(
            "schema.graphqls",
            "type Query { me: User }\ntype Subscription { userChanged: User! }\ntype User { id: ID! name: String! }\n")
        try folder.write(
            "MockData/graphql/OnUserChanged.ws",
            #"{"send": {"json": {"data": {"userChanged": {"id": "1", "name": "Ann"}}}}}"# + "\n"
                + #"{"send": {"json": {"data": {"userChanged": {"id": "{{variables.id}}", "name": null}}}}, "afterMs": 10}"# + "\n")
        let result = try await runProcess(
            CLITests.executable,
            ["check", "--root", "MockData", "--no-routes", "--graphql", "/graphql", "--graphql-schema", "schema.graphqls"],
            currentDirectory: folder.path)
        #expect(result.status == 1, "\(result)")
        let warnings = result.stdout.split(separator: "\n").filter { $0.contains("OnUserChanged.ws") }
        #expect(
            warnings == [
                "warning: MockData/graphql/OnUserChanged.ws: send 2.data.userChanged.name: null in a non-null field (String!): Apollo iOS fails the whole operation"
            ], "\(result.stdout)")
    }
}
