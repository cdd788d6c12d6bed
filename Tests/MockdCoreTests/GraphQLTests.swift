import MockdCore
import Testing

/// A stand-in for the parser (`MockdGraphQL`'s is GraphQLSwift/GraphQL's, tested over HTTP): reads
/// `query Name`, `mutation Name`, `subscription Name` and a bare `{` as operations, and refuses a
/// document holding `!!`. Enough for the core's decisions, which only ask for kinds and names.
struct HeadingsReader: GraphQLDocumentReader {
    func operations(in document: String) throws(GraphQLSyntaxError) -> [GraphQLOperationHeading] {
        if document.contains("!!") { throw GraphQLSyntaxError("Syntax Error: Unexpected \"!\".") }
        let words = document.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" })
        var found: [GraphQLOperationHeading] = []
        for (index, word) in words.enumerated() where ["query", "mutation", "subscription"].contains(word) {
            let next = index + 1 < words.count && words[index + 1] != "{" ? String(words[index + 1]) : nil
            found.append(GraphQLOperationHeading(kind: String(word), name: next))
        }
        if found.isEmpty, document.hasPrefix("{") { found.append(GraphQLOperationHeading(kind: "query", name: nil)) }
        return found
    }
}

/// `--graphql`: a request to the endpoint is read as GraphQL over HTTP and answered per operation,
/// by `graphql/<Operation>.json` (overlaid per scenario) or a route's `"graphql"`.
@Suite("GraphQL endpoints")
struct GraphQLTests {
    static let feed = #"{"data": {"feed": [{"__typename": "Post", "id": "1"}]}}"#

    /// Files under `MockData/`, tables under `routes/`, with `/graphql` an endpoint.
    static func snapshot(
        files: [String: String] = ["graphql/GetFeed.json": feed], tables: [String: String] = [:], endpoints: [String] = ["/graphql"]
    ) throws -> Snapshot {
        try withRouteFixture(files: files, tables: tables) { fixture in
            var loader = MockDataLoader(files: fixture.folder.files, root: fixture.root, routes: fixture.routes)
            loader.graphQL = GraphQLConfiguration(endpoints: endpoints, reader: HeadingsReader())
            let result = loader.load()
            return try #require(result.snapshot, "fixture did not load: \(result.diagnostics)")
        }
    }

    static func post(_ body: String, path: String = "/graphql", headers: [(String, String)] = []) -> MockRequest {
        request("POST", path, headers: [("Content-Type", "application/json")] + headers, body: body)
    }

    // MARK: - Naming the operation

    @Test func operationName_SelectsTheFile() throws {
        let answer = Resolver(snapshot: try Self.snapshot(), state: RuntimeState())
            .resolve(Self.post(#"{"query": "query GetFeed { feed { id } }", "operationName": "GetFeed"}"#))
        #expect(answer.status == 200)
        #expect(answer.bodyText == Self.feed)
        #expect(answer.source == "file graphql/GetFeed.json")
    }

    @Test func apolloHeader_NamesTheOperationWhenTheBodyDoesNot() throws {
        let answer = Resolver(snapshot: try Self.snapshot(), state: RuntimeState())
            .resolve(Self.post(#"{"query": "{ feed { id } }"}"#, headers: [("X-APOLLO-OPERATION-NAME", "GetFeed")]))
        #expect(answer.bodyText == Self.feed)
    }

    @Test func theDocumentsOneOperation_NamesItWhenNothingElseDoes() throws {
        let answer = Resolver(snapshot: try Self.snapshot(), state: RuntimeState())
            .resolve(Self.post(#"{"query": "query GetFeed { feed { id } }", "variables": null}"#))
        #expect(answer.bodyText == Self.feed)
    }

    @Test func get_ReadsTheQueryItems() throws {
        let answer = Resolver(snapshot: try Self.snapshot(), state: RuntimeState())
            .resolve(
                request(
                    "GET", "/graphql/",
                    query: [("query", "query GetFeed { feed { id } }"), ("operationName", "GetFeed"), ("variables", #"{"first": 2}"#)]))
        #expect(answer.status == 200)
        #expect(answer.bodyText == Self.feed)
    }

    @Test func aStatusInTheFileName_IsTheAnswersStatus() throws {
        let snapshot = try Self.snapshot(files: ["api/graphql/GetFeed.503.json": #"{"errors": [{"message": "down"}]}"#])
        let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(Self.post(#"{"query": "query GetFeed { x }"}"#))
        #expect(answer.status == 503)
        #expect(answer.source == "file api/graphql/GetFeed.503.json")
    }

    // MARK: - Scenarios

    @Test func aScenarioOverlay_ChangesThatOperationAlone() throws {
        let empty = #"{"data": {"feed": []}}"#
        let viewer = #"{"data": {"viewer": {"id": "7"}}}"#
        let snapshot = try Self.snapshot(files: [
            "graphql/GetFeed.json": Self.feed, "graphql/GetViewer.json": viewer, "scenarios/empty/graphql/GetFeed.json": empty,
        ])
        let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
        let feed = #"{"query": "query GetFeed { feed { id } }"}"#
        #expect(resolver.resolve(Self.post(feed, headers: [("X-Mock-Scenario", "empty")])).bodyText == empty)
        #expect(resolver.resolve(Self.post(feed)).bodyText == Self.feed)
        let viewerInEmpty = resolver.resolve(
            Self.post(#"{"query": "query GetViewer { viewer { id } }"}"#, headers: [("X-Mock-Scenario", "empty")]))
        #expect(viewerInEmpty.bodyText == viewer)
        #expect(viewerInEmpty.warning == nil, "empty is a known scenario")
    }

    // MARK: - Bad requests

    @Test(
        "a request that cannot be read gets 400 with GraphQL's errors",
        arguments: [
            ("not JSON", "{query", "the body is not JSON"),
            ("not an object", "[1]", "the body is not a JSON object"),
            ("no query", #"{"operationName": "GetFeed"}"#, "no query"),
            ("query not a string", #"{"query": 3}"#, "query must be a string, found 3"),
            ("variables not an object", #"{"query": "query A { a }", "variables": [1]}"#, "variables must be an object, found an array"),
            ("two operations, none named", #"{"query": "query A { a } query B { b }"}"#, "the document has 2 operations (A, B)"),
            ("a syntax error", #"{"query": "query A { a !! }"}"#, "Syntax Error"),
            ("no body", "", "no body"),
        ])
    func badRequests(_ name: String, _ body: String, _ message: String) throws {
        let answer = Resolver(snapshot: try Self.snapshot(), state: RuntimeState()).resolve(Self.post(body))
        #expect(answer.status == 400)
        let json = try JSONParser.parse(answer.bodyText)
        guard case .string(let said)? = json["errors"]?.firstItem?["message"] else {
            Issue.record("no errors[0].message in \(answer.bodyText)")
            return
        }
        #expect(said.contains(message), "\(said)")
        #expect(answer.source == "refused: graphql")
    }

    // MARK: - Elsewhere, nothing changes

    @Test func otherPaths_AndNoEndpoint_AreNotReadAsGraphQL() throws {
        let snapshot = try Self.snapshot(files: ["graphql/GetFeed.json": Self.feed, "mock_api_post.json": "{}"])
        let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
        #expect(resolver.resolve(Self.post("not json", path: "/api")).status == 200)
        // Without --graphql, graphql/GetFeed.json is a body file like any other.
        let plain = try Self.snapshot(endpoints: [])
        let answer = Resolver(snapshot: plain, state: RuntimeState()).resolve(Self.post(#"{"query": "query GetFeed { a }"}"#))
        #expect(answer.status == 404)
        #expect(answer.source == "404")
        #expect(plain.graphQL.count == 0)
    }

    // MARK: - Routes

    static let userRoutes = routeTable(
        #"{"path": "/graphql", "graphql": {"operation": "GetUser", "variables": {"id": "42"}}, "response": {"status": 200, "json": {"data": {"user": null}}}}"#,
        #"{"path": "/graphql", "graphql": {"operation": "GetUser"}, "response": {"json": {"data": {"user": {"id": "{{variables.id}}"}}}, "template": true}}"#
    )

    @Test func routes_MatchTheOperationAndPartOfItsVariables_AndTemplatesReadThem() throws {
        let resolver = Resolver(snapshot: try Self.snapshot(tables: ["users.json": Self.userRoutes]), state: RuntimeState())
        let missing = resolver.resolve(
            Self.post(#"{"query": "query GetUser($id: ID!) { user(id: $id) { id } }", "variables": {"id": "42", "x": 1}}"#))
        #expect(missing.bodyText == #"{"data":{"user":null}}"#)
        #expect(missing.source.hasSuffix("users.json#0 graphql GetUser"), "\(missing.source)")
        let found = resolver.resolve(Self.post(#"{"query": "query GetUser { user { id } }", "variables": {"id": "7"}}"#))
        #expect(found.bodyText == #"{"data":{"user":{"id":"7"}}}"#)
        let byGet = resolver.resolve(
            request("GET", "/graphql", query: [("query", "query GetUser { user { id } }"), ("variables", #"{"id": "9"}"#)]))
        #expect(byGet.bodyText == #"{"data":{"user":{"id":"9"}}}"#)
    }

    @Test func aRoute_WinsOverTheOperationsFile_AsRoutesWinOverFiles() throws {
        let table = routeTable(#"{"path": "/graphql", "graphql": {"operation": "GetFeed"}, "response": {"status": 500, "json": {}}}"#)
        let answer = Resolver(snapshot: try Self.snapshot(tables: ["feed.json": table]), state: RuntimeState())
            .resolve(Self.post(#"{"query": "query GetFeed { a }"}"#))
        #expect(answer.status == 500)
    }

    @Test func aRoutesGraphQL_IsCheckedAtLoad() throws {
        try withRouteFixture(tables: ["bad.json": routeTable(#"{"path": "/graphql", "graphql": {"operaton": "A"}, "response": {}}"#)]) {
            fixture in
            let messages = fixture.load().diagnostics.map(\.description)
            #expect(
                messages.contains { $0.contains("routes[0].graphql.operaton: unknown key \"operaton\"; did you mean \"operation\"?") },
                "\(messages)")
            #expect(messages.contains { $0.contains("routes[0].graphql.operation: expected an operation name") }, "\(messages)")
        }
    }

    // MARK: - Automatic persisted queries

    @Test func aPersistedQueryHash_IsNotFoundUntilItsQueryCameOnce_PerSession() throws {
        let resolver = Resolver(snapshot: try Self.snapshot(), state: RuntimeState())
        let extensions = #""extensions": {"persistedQuery": {"version": 1, "sha256Hash": "ABC123"}}"#
        let hashOnly = Self.post("{\(extensions)}", headers: [("X-Mock-Session", "a")])
        let first = resolver.resolve(hashOnly)
        #expect(first.status == 200)
        #expect(first.bodyText.contains(#""message":"PersistedQueryNotFound""#), "\(first.bodyText)")
        #expect(first.bodyText.contains("PERSISTED_QUERY_NOT_FOUND"))
        // The full query with the hash: answered, and kept.
        let full = resolver.resolve(
            Self.post(#"{"query": "query GetFeed { feed { id } }", "# + extensions + "}", headers: [("X-Mock-Session", "a")]))
        #expect(full.bodyText == Self.feed)
        // Then the hash alone is enough, named by its kept document; another session has not sent it.
        #expect(resolver.resolve(hashOnly).bodyText == Self.feed)
        let other = resolver.resolve(Self.post("{\(extensions)}", headers: [("X-Mock-Session", "b")]))
        #expect(other.bodyText.contains("PersistedQueryNotFound"))
    }

    // MARK: - Misses

    @Test func aMiss_Gets404InGraphQLsShape_NamingTheOperationAndTheNearOnes() throws {
        let snapshot = try Self.snapshot(files: ["graphql/GetFeedPage.json": Self.feed, "graphql/GetViewer.json": "{}"])
        let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(Self.post(#"{"query": "query GetFeed { feed { id } }"}"#))
        #expect(answer.status == 404)
        #expect(answer.source == "404 graphql query GetFeed")
        #expect(answer.isMiss)
        let json = try JSONParser.parse(answer.bodyText)
        let error = try #require(json["errors"]?.firstItem)
        #expect(error["message"] == .string("no mock for query GetFeed; near: GetFeedPage"))
        #expect(error["extensions"]?["lookedFor"] == .array([.string(snapshot.rootPath + "/graphql/GetFeed.json")]))
    }

    @Test func aMiss_ByName_SaysOperationWhenItsKindIsNotKnown() throws {
        let answer = Resolver(snapshot: try Self.snapshot(), state: RuntimeState())
            .resolve(Self.post(#"{"query": "query X { a }", "operationName": "Other"}"#))
        #expect(answer.bodyText.contains("no mock for operation Other"), "\(answer.bodyText)")
    }
}

extension JSONValue {
    var firstItem: JSONValue? {
        if case .array(let items) = self { items.first } else { nil }
    }
}
