import GraphQL
package import MockdCore

/// The core's `GraphQLDocumentReader` on GraphQLSwift/GraphQL's parser: a document's operations
/// with their kinds and names, or the parser's syntax error. No location is kept (`noLocation`):
/// nothing here reports one, and the parse allocates less without.
package struct GraphQLParserReader: GraphQLDocumentReader {
    package init() {}

    package func operations(in document: String) throws(GraphQLSyntaxError) -> [GraphQLOperationHeading] {
        let parsed: Document
        do {
            parsed = try parse(source: document, noLocation: true)
        } catch let error as GraphQLError {
            throw GraphQLSyntaxError(error.message)
        } catch {
            throw GraphQLSyntaxError("\(error)")
        }
        return parsed.definitions.compactMap { definition in
            guard let operation = definition as? OperationDefinition else { return nil }
            return GraphQLOperationHeading(kind: operation.operation.rawValue, name: operation.name?.value)
        }
    }
}
