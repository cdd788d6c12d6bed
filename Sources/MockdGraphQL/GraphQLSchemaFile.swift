#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import GraphQL
package import MockdCore

/// `--graphql-schema schema.graphqls`: the schema's SDL, read at load (and at each reload) through
/// the snapshot's `FileSource`, built with GraphQLSwift's `buildSchema`, and checked as a schema.
package struct GraphQLSchemaFile: GraphQLSchemaSource {
    package let path: String
    /// Check SDL's rules too (`mockd check`): on GitHub's schema they take half of a 1.4 s load,
    /// which a server starting (or reloading) for a test run does not spend. A rule broken
    /// without stopping the schema then goes unsaid, and the last definition wins.
    package let checksRules: Bool
    /// `--graphql-operations`: the folder of the app's `.graphql` documents, whose operations the
    /// answers by file are checked against; nil: checked against the schema alone.
    package let operationsFolder: String?

    package init(path: String, checksRules: Bool = false, operationsFolder: String? = nil) {
        self.path = path
        self.checksRules = checksRules
        self.operationsFolder = operationsFolder
    }

    package func load(files: any FileSource) -> Result<LoadedGraphQLSchema, GraphQLSchemaErrors> {
        let text: String
        do {
            text = String(decoding: try files.read(path).array, as: UTF8.self)
        } catch {
            return .failure(GraphQLSchemaErrors([Diagnostic(file: path, "cannot read the schema: \(error.reason)")]))
        }
        let document: Document
        do {
            document = try parse(source: Source(body: text, name: path))
        } catch let error as GraphQLError {
            return .failure(GraphQLSchemaErrors(error.diagnostics(.error, file: path)))
        } catch {
            return .failure(GraphQLSchemaErrors([Diagnostic(file: path, "not a GraphQL schema: \(error)")]))
        }
        // Schemas published by real services break SDL's rules now and then (GitHub's defines
        // two fields twice): such a schema is served, last definition winning; checked, with a
        // warning for each broken rule (`mockd check` fails on it), as an API description's faults are.
        var warnings: [Diagnostic] = []
        var built: GraphQLSchema?
        if checksRules {
            do {
                built = try buildASTSchema(documentAST: document)
            } catch let error as GraphQLError {
                warnings = error.diagnostics(.warning, file: path)
            } catch {
                warnings = [Diagnostic(.warning, file: path, "\(error)")]
            }
        }
        if built == nil {
            do {
                built = try buildASTSchema(documentAST: document, assumeValidSDL: true)
            } catch let error as GraphQLError {
                return .failure(
                    GraphQLSchemaErrors(
                        warnings.map { Diagnostic(file: $0.file, location: $0.location, $0.message) }
                            + error.diagnostics(.error, file: path)))
            } catch {
                return .failure(GraphQLSchemaErrors([Diagnostic(file: path, "not a GraphQL schema: \(error)")]))
            }
        }
        guard let schema = built else { return .failure(GraphQLSchemaErrors(warnings)) }
        let problems = validateSchema(schema: schema)
        guard problems.isEmpty else { return .failure(GraphQLSchemaErrors(problems.flatMap { $0.diagnostics(.error, file: path) })) }
        guard schema.queryType != nil else {
            return .failure(GraphQLSchemaErrors([Diagnostic(file: path, "the schema has no Query type: expected type Query { … }")]))
        }
        let operations = operationsFolder.map { AppOperations.read($0, files: files, schema: schema) } ?? AppOperations()
        return .success(
            LoadedGraphQLSchema(answering: SchemaAnswers(schema: schema, app: operations), warnings: warnings + operations.warnings))
    }
}
