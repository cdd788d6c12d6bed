/// What the core needs to know of a GraphQL document: its operations, each with its kind and
/// name. The core holds no GraphQL parser: the one it is given (`MockdGraphQL`'s, on
/// GraphQLSwift/GraphQL) reads documents for it, as `MockdOpenAPI` validates bodies for
/// operations. It is asked only when a request does not name its operation (no `operationName`,
/// no `X-APOLLO-OPERATION-NAME`), and for the 404 of a miss.
package protocol GraphQLDocumentReader: Sendable {
    /// The operations of `document`, in order; a `GraphQLSyntaxError` when it does not parse.
    func operations(in document: String) throws(GraphQLSyntaxError) -> [GraphQLOperationHeading]
}

/// An operation of a document as far as answering it goes: `query GetFeed` → (query, GetFeed).
package struct GraphQLOperationHeading: Sendable, Equatable {
    /// `query`, `mutation` or `subscription`.
    package let kind: String
    /// nil for an anonymous operation (`{ viewer { id } }`).
    package let name: String?

    package init(kind: String, name: String?) {
        self.kind = kind
        self.name = name
    }
}

/// A document that does not parse, with the parser's words (`Syntax Error: Expected Name, found <EOF>.`).
package struct GraphQLSyntaxError: Error, Sendable, Equatable {
    package let message: String

    package init(_ message: String) {
        self.message = message
    }
}
