/// The operation files and the schema as `mockd routes`, `GET /__mockd/routes` and the
/// dashboard's sources list them: each answers on every endpoint, by POST or GET, for one
/// operation (the schema: for every operation nothing else answers).
extension GraphQLTable {
    /// The methods an operation comes by, as routes list theirs.
    static let listedMethods = "POST,GET"

    /// A scenario's operation files (nil: those every scenario shares), by path.
    func listedFiles(scenario: String?) -> [GraphQLOperationFile] {
        let files = scenario.map { overlays[$0] ?? [:] } ?? self.files
        return files.values.sorted { $0.relativePath < $1.relativePath }
    }

    /// `graphql operation GetFeed`: the condition a route for that operation lists.
    static func listedCondition(_ file: GraphQLOperationFile) -> String {
        Condition.graphQL(operation: file.operation, variables: nil).description
    }

    /// The file whose path (under the root) is `relativePath`, overlays included.
    func file(at relativePath: String) -> GraphQLOperationFile? {
        (files.values + overlays.values.flatMap(\.values)).first { $0.relativePath == relativePath }
    }
}
