/// Something that turns an API description into operations at load (the OpenAPI target does).
/// Its prepared responses go into the snapshot's builder, so the adapter prepares them with the rest.
package protocol OperationSource: Sendable {
    /// The files it read, so a watcher can reload when one of them changes.
    var watchedPaths: [String] { get }
    /// Reads its documents through `files`, as the rest of the snapshot is read.
    func load(files: any FileSource, into builder: inout ResponseBuilder) -> OperationSources.Loaded
}

package enum OperationSources {
    package struct Loaded: Sendable {
        package var operations: [APIOperation]
        package var diagnostics: [Diagnostic]
        /// How the document is named in listings (`openapi api.yaml`).
        package var document: String
        package var validation: OperationTable.Validation
        /// `__code`, `__example`, `__dynamic` in the query act as `Prefer` (Prism's overrides).
        package var queryOverrides = false

        package init(operations: [APIOperation], diagnostics: [Diagnostic], document: String, validation: OperationTable.Validation) {
            self.operations = operations
            self.diagnostics = diagnostics
            self.document = document
            self.validation = validation
        }
    }

    /// Every source, in order: an earlier document's operation wins over a later one's.
    static func load(_ sources: [any OperationSource], files: any FileSource, into builder: inout ResponseBuilder) -> (
        table: OperationTable, diagnostics: [Diagnostic]
    ) {
        guard !sources.isEmpty else { return (OperationTable(), []) }
        var operations: [APIOperation] = []
        var diagnostics: [Diagnostic] = []
        var documents: [(name: String, operations: Int)] = []
        var validation = OperationTable.Validation.enforce
        var seen = Set<String>()
        var queryOverrides = false
        for source in sources {
            let loaded = source.load(files: files, into: &builder)
            diagnostics += loaded.diagnostics
            validation = loaded.validation
            queryOverrides = queryOverrides || loaded.queryOverrides
            let fresh = loaded.operations.filter { seen.insert("\($0.method) \($0.pathTemplate)").inserted }
            operations += fresh
            documents.append((loaded.document, fresh.count))
        }
        return (
            OperationTable(operations: operations, validation: validation, documents: documents, queryOverrides: queryOverrides),
            diagnostics
        )
    }
}
