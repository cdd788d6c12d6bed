/// `--graphql-schema`: the app's schema answers every operation no file, route or stub answers,
/// with data shaped by the operation's selection set. The core holds no GraphQL schema, as it
/// holds no parser: the source it is given (`MockdGraphQL`'s, on GraphQLSwift/GraphQL) reads the
/// schema file at load and answers from it.
package protocol GraphQLSchemaSource: Sendable {
    /// The schema file, as given (`schema.graphqls`): read at load, watched for changes.
    var path: String { get }
    /// Every file read at load (the schema, `--graphql-scalars`' values): their folders are watched.
    var paths: [String] { get }
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
    /// What is wrong with a written answer to `operation` (`graphql/GetFeed.json`'s body, a
    /// route's or a stub's `json`): each finding with its JSON path. Called at load, for every
    /// operation file and route, and for each stub added. `template`: strings holding `{{` are
    /// rendered per request, and their types are not checked.
    func check(answer: JSONValue, operation: String, template: Bool) -> [GraphQLAnswerFinding]
}

/// A fault of a written answer: `data.feed[0].author`, `null in a non-null field (User!)`.
package struct GraphQLAnswerFinding: Sendable, Equatable {
    package var path: String
    package var message: String

    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}

extension GraphQLTable {
    /// Every operation file checked against the schema, a warning per finding (files are served
    /// as written: the check says what Apollo iOS would refuse in the simulator).
    func schemaWarnings(rootDisplay: String) -> [Diagnostic] {
        guard let schema else { return [] }
        let all = files.values.map { $0 } + overlays.values.flatMap(\.values)
        return all.sorted { $0.relativePath < $1.relativePath }.flatMap { file -> [Diagnostic] in
            let shown = rootDisplay + "/" + file.relativePath
            // A subscription's `.ws` file: each event is an answer of its own.
            if let events = file.response.conversation {
                return Self.events(of: events.script).enumerated().flatMap { index, event in
                    schema.check(answer: event.answer, operation: file.operation, template: event.template).map {
                        Diagnostic(
                            .warning, file: shown, location: "send \(index + 1)" + ($0.path.isEmpty ? "" : "." + $0.path), $0.message)
                    }
                }
            }
            guard let answer = try? JSONParser.parse(file.response.body.array) else { return [] }
            return schema.check(answer: answer, operation: file.operation, template: false).map {
                Diagnostic(.warning, file: shown, location: $0.path.isEmpty ? nil : $0.path, $0.message)
            }
        }
    }
}

extension GraphQLTable {
    /// A `.ws` file's sends as answers (a template's text as written, `{{…}}` and all).
    static func events(of script: WebSocketScript) -> [(answer: JSONValue, template: Bool)] {
        script.steps.compactMap { step in
            guard case .send(let message) = step else { return nil }
            switch message.payload {
            case .text(let text): return (try? JSONParser.parse(text)).map { ($0, false) }
            case .template(let template): return (try? JSONParser.parse(template.text)).map { ($0, true) }
            case .binary: return nil
            }
        }
    }
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
