import ArgumentParser
import MockdCore
import MockdDisk
import MockdGraphQL
import MockdOpenAPI

/// Where the mocks are: shared by `serve`, `check` and `routes`.
struct DataOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The MockData folder: mock_<path>_<method>.json files, bodies, scenarios/<name>/ overlays. [env: MOCKD_ROOT]",
            valueName: "dir"))
    var root = DataOptions.defaultRoot

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The folder of JSON route tables. [env: MOCKD_ROUTES; default: the routes folder beside the root (<root>/../routes), else ./routes, when one exists]",
            valueName: "dir"))
    var routes: String?

    @Flag(name: .customLong("no-routes"), help: "No route tables, not even a default routes folder. [env: MOCKD_NO_ROUTES]")
    var noRoutes = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "An OpenAPI document (3.0, 3.1, Swagger 2.0; YAML or JSON) to serve after files and routes; repeatable. [env: MOCKD_OPENAPI, comma-separated]",
            valueName: "file"))
    var openapi: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "An OpenAPI document only to check against, never to answer: mocks are held to it at load, and with --proxy so are the upstream's answers; repeatable. [env: MOCKD_CONTRACT, comma-separated]",
            valueName: "file"))
    var contract: [String] = []

    @Option(
        name: .customLong("openapi-validate"),
        help: ArgumentHelp(
            "Requests that do not match the document: enforce (answer 4xx), warn (answer, log the violations), off. [env: MOCKD_OPENAPI_VALIDATE]",
            valueName: "mode"))
    var openapiValidate = OpenAPIDocument.defaultValidation

    @Flag(
        name: .customLong("openapi-query-overrides"),
        help:
            "Let __code, __example and __dynamic query parameters act as the Prefer header does (Prism's overrides). [env: MOCKD_OPENAPI_QUERY_OVERRIDES=1]"
    )
    var openapiQueryOverrides = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A path read as a GraphQL endpoint: each operation answered by graphql/<Operation>.json or a route's \"graphql\"; repeatable. [env: MOCKD_GRAPHQL, comma-separated]",
            valueName: "path"))
    var graphql: [String] = []

    @Option(
        name: .customLong("graphql-schema"),
        help: ArgumentHelp(
            "The app's GraphQL schema (SDL, or the JSON an introspection query returns): operations no file, route or stub answers get data shaped by their selection set; introspection is answered. Needs --graphql. [env: MOCKD_GRAPHQL_SCHEMA]",
            valueName: "file"))
    var graphqlSchema: String?

    @Option(
        name: .customLong("graphql-operations"),
        help: ArgumentHelp(
            "The app's .graphql documents: graphql/<Operation>.json files are checked against each operation's selection set (warnings). Needs --graphql-schema. [env: MOCKD_GRAPHQL_OPERATIONS]",
            valueName: "dir"))
    var graphqlOperations: String?

    @Option(
        name: .customLong("graphql-scalars"),
        help: ArgumentHelp(
            "A JSON object of the value answered for every field of a scalar, by name ({\"DateTime\": \"2026-05-01T09:30:00Z\"}). Needs --graphql-schema. [env: MOCKD_GRAPHQL_SCALARS]",
            valueName: "file"))
    var graphqlScalars: String?

    @Option(
        name: .customLong("stream-interval"),
        help: ArgumentHelp(
            "Milliseconds between the events of a mock_<path>_<method>.sse file. [env: MOCKD_STREAM_INTERVAL]", valueName: "ms"))
    var streamInterval = ResponseStream.defaultIntervalMilliseconds

    /// The mock folder when none is named: `MockData` of the working directory, as an app's is called.
    static let defaultRoot = "MockData"

    /// What `--root`, `--routes` and `--openapi` say to load.
    var loader: MockDataLoader { loader(checkExamples: false) }

    /// `checkExamples`: `mockd check` also warns about examples that violate their own schema, and
    /// about a GraphQL schema's broken SDL rules.
    func loader(checkExamples: Bool) -> MockDataLoader {
        var loader = MockDataLoader(
            files: DiskFiles(), root: root, routesFolder: routesFolder,
            operationSources: openapi.map {
                var document = OpenAPIDocument(path: $0, validation: openapiValidate, checkExamples: checkExamples)
                document.queryOverrides = openapiQueryOverrides
                return document
            })
        loader.contractSources = contract.map { OpenAPIDocument(path: $0, validation: .off, checkExamples: checkExamples) }
        loader.streamIntervalMilliseconds = streamInterval
        if !graphql.isEmpty {
            loader.graphQL = GraphQLConfiguration(
                endpoints: graphql, reader: GraphQLParserReader(),
                schema: graphqlSchema.map {
                    GraphQLSchemaFile(
                        path: $0, checksRules: checkExamples, operationsFolder: graphqlOperations, scalarsPath: graphqlScalars)
                })
        }
        return loader
    }

    func validate() throws {
        if routes?.isEmpty == true {
            throw ValidationError("--routes '': no folder named; give --routes DIR, or --no-routes for no route tables")
        }
        if let routes, noRoutes {
            throw ValidationError("--routes \(routes) and --no-routes: give one")
        }
        for path in graphql where !path.hasPrefix("/") || path.hasPrefix("/__mockd") {
            throw ValidationError(
                "--graphql \(path): expected the endpoint's path, such as /graphql"
                    + (path.hasPrefix("/__mockd") ? ", outside /__mockd/" : ""))
        }
        if let graphqlSchema, graphql.isEmpty {
            throw ValidationError("--graphql-schema \(graphqlSchema): the schema answers a GraphQL endpoint; give --graphql /graphql too")
        }
        if let graphqlOperations, graphqlSchema == nil {
            throw ValidationError(
                "--graphql-operations \(graphqlOperations): operations are checked against the schema; give --graphql-schema FILE too")
        }
        if let graphqlScalars, graphqlSchema == nil {
            throw ValidationError(
                "--graphql-scalars \(graphqlScalars): the values replace the schema's samples; give --graphql-schema FILE too")
        }
        if !(0...600_000).contains(streamInterval) {
            throw ValidationError("--stream-interval \(streamInterval): expected 0-600000 milliseconds")
        }
    }

    var routesFolder: RoutesFolder {
        noRoutes ? .none : RoutesFolder(given: routes, root: root)
    }
}
