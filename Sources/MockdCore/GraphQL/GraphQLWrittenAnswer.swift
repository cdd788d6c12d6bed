/// A route's or a stub's `json` answer to a GraphQL operation (`"graphql": {"operation": …}`),
/// kept as the decoder read it, to be checked against the schema as operation files are: the
/// route tables are read before the schema, and a stub after it.
package struct GraphQLWrittenAnswer: Sendable {
    package var operation: String
    package var answer: JSONValue
    /// `routes/api.json`, or `stub`.
    package var file: String
    /// `routes[1].response.json`, `stub.responses[0].json`.
    package var place: String
    /// A template's strings holding `{{` are rendered per request: their types are not checked.
    package var template: Bool
}

extension GraphQLTable {
    /// Each finding of `answers` against the schema, a warning placed as a route's errors are
    /// (`routes/api.json: routes[1].response.json: data.user.__typename: missing …`). Routes are
    /// served as written, as files are.
    package func warnings(_ answers: [GraphQLWrittenAnswer]) -> [Diagnostic] {
        guard let schema else { return [] }
        return answers.flatMap { written in
            schema.check(answer: written.answer, operation: written.operation, template: written.template).map {
                Diagnostic(.warning, file: written.file, location: written.place + ($0.path.isEmpty ? "" : ": " + $0.path), $0.message)
            }
        }
    }
}
