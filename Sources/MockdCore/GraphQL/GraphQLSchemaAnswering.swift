/// `--graphql-schema`: the app's schema answers every operation no file, route or stub answers,
/// with data shaped by the operation's selection set. The core holds no GraphQL schema, as it
/// holds no parser: the source it is given (`MockdGraphQL`'s, on GraphQLSwift/GraphQL) reads the
/// schema file at load and answers from it.
package protocol GraphQLSchemaSource: Sendable {
    /// The schema file, as given (`schema.graphqls`): read at load, watched for changes.
    var path: String { get }
    /// The schema read through `files`, or every error in it (the file, the line and column).
    func load(files: any FileSource) -> Result<LoadedGraphQLSchema, GraphQLSchemaErrors>
}

/// A schema that answers, and the warnings its file gave (rules it breaks that do not stop it).
package struct LoadedGraphQLSchema: Sendable {
    package var answering: any GraphQLSchemaAnswering
    package var warnings: [Diagnostic]

    package init(answering: any GraphQLSchemaAnswering, warnings: [Diagnostic]) {
        self.answering = answering
        self.warnings = warnings
    }
}

/// A loaded schema: answers an operation's document. Called on a request's path: parsing and
/// validating a document is done once per distinct document and kept.
package protocol GraphQLSchemaAnswering: Sendable {
    /// `operationName` nil: the document's one operation. `variables` is an object.
    func answer(query: String, operationName: String?, variables: JSONValue) -> GraphQLSchemaAnswer
}

/// What the schema says to an operation: its `{"data": …}`, or the `{"errors": […]}` a server
/// gives a document that does not validate (status 400, as Apollo's servers answer).
package struct GraphQLSchemaAnswer: Sendable, Equatable {
    package var status: Int
    package var body: JSONValue
    /// After the origin's label: `query GetFeed` (what answered is the schema).
    package var operation: String

    package init(status: Int, body: JSONValue, operation: String) {
        self.status = status
        self.body = body
        self.operation = operation
    }
}

/// Why a schema file could not be used, every error with its place.
package struct GraphQLSchemaErrors: Error, Sendable {
    package var diagnostics: [Diagnostic]

    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }
}
