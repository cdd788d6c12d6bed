import GraphQL
import MockdCore

/// The app's operations and fragments, read from its `.graphql` documents (the ones Apollo iOS
/// generates its code from) under `--graphql-operations`, each checked against the schema. A
/// document that does not parse or validate is a warning with its place: the check of the
/// answers then goes without that operation.
struct AppOperations: @unchecked Sendable {
    // Unchecked: GraphQLSwift's AST is not marked Sendable, and nothing changes it once parsed.
    var operations: [String: OperationDefinition] = [:]
    var fragments: [String: FragmentDefinition] = [:]
    var warnings: [Diagnostic] = []

    static func read(_ folder: String, files: any FileSource, schema: GraphQLSchema) -> AppOperations {
        var app = AppOperations()
        guard files.isFolder(folder) else {
            app.warnings.append(Diagnostic(.warning, file: folder, "not a folder: expected the app's .graphql documents"))
            return app
        }
        let base = PathText.withoutTrailingSlashes(folder)
        func shown(_ relativePath: String) -> String { base + "/" + relativePath }
        var documents: [(path: String, document: Document)] = []
        for relativePath in files.regularFiles(under: folder) where relativePath.hasSuffix(".graphql") {
            do {
                let bytes: [UInt8] = try files.read(shown(relativePath)).array
                let document = try parse(source: Source(body: String(decoding: bytes, as: UTF8.self), name: relativePath))
                documents.append((path: relativePath, document: document))
            } catch let error as GraphQLError {
                app.warnings += error.diagnostics(.warning, file: shown(relativePath))
            } catch let error as FileReadError {
                app.warnings.append(Diagnostic(.warning, file: shown(relativePath), error.reason))
            } catch {
                app.warnings.append(Diagnostic(.warning, file: shown(relativePath), "\(error)"))
            }
        }
        // Fragments first, from every document: an operation may spread one defined elsewhere.
        for (_, document) in documents {
            for case let fragment as FragmentDefinition in document.definitions { app.fragments[fragment.name.value] = fragment }
        }
        for (path, document) in documents {
            for case let operation as OperationDefinition in document.definitions {
                guard let name = operation.name?.value else { continue }
                if app.operations[name] != nil {
                    app.warnings.append(
                        Diagnostic(.warning, file: shown(path), "operation \(name) is defined twice; the first is checked against"))
                    continue
                }
                app.operations[name] = operation
            }
            // A document may spread fragments another defines, and define ones others spread:
            // validated alone, those two findings are not faults.
            for error in validate(schema: schema, ast: document) where !acrossDocuments(error.message, app.fragments) {
                app.warnings += error.diagnostics(.warning, file: shown(path))
            }
        }
        return app
    }

    /// `Unknown fragment "X".` for a fragment another document defines; `Fragment "X" is never used.`
    private static func acrossDocuments(_ message: String, _ fragments: [String: FragmentDefinition]) -> Bool {
        if message.hasPrefix("Fragment ") && message.hasSuffix(" is never used.") { return true }
        let prefix = "Unknown fragment \""
        guard message.hasPrefix(prefix), message.hasSuffix("\".") else { return false }
        return fragments[String(message.dropFirst(prefix.count).dropLast(2))] != nil
    }
}
