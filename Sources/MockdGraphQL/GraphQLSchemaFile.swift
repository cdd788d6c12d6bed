#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import GraphQL
package import MockdCore

/// `--graphql-schema schema.graphqls`: the schema's SDL, read at load (and at each reload) through
/// the snapshot's `FileSource`, built with GraphQLSwift's `buildSchema`, and checked as a schema.
/// A schema as introspection JSON (`schema.json`) is written as SDL first (`IntrospectionSDL`).
package struct GraphQLSchemaFile: GraphQLSchemaSource {
    package let path: String
    /// Check SDL's rules too (`mockd check`): on GitHub's schema they take half of a 1.4 s load,
    /// which a server starting (or reloading) for a test run does not spend. A rule broken
    /// without stopping the schema then goes unsaid, and the last definition wins.
    package let checksRules: Bool
    /// `--graphql-operations`: the folder of the app's `.graphql` documents, whose operations the
    /// answers by file are checked against; nil: checked against the schema alone.
    package let operationsFolder: String?
    /// `--graphql-scalars`: a JSON object of the value answered for each scalar, by name.
    package let scalarsPath: String?

    package init(path: String, checksRules: Bool = false, operationsFolder: String? = nil, scalarsPath: String? = nil) {
        self.path = path
        self.checksRules = checksRules
        self.operationsFolder = operationsFolder
        self.scalarsPath = scalarsPath
    }

    package var paths: [String] { [path] + (scalarsPath.map { [$0] } ?? []) }

    package func load(files: any FileSource) -> Result<LoadedGraphQLSchema, GraphQLSchemaErrors> {
        let bytes: [UInt8]
        do {
            bytes = try files.read(path).array
        } catch {
            return .failure(GraphQLSchemaErrors([Diagnostic(file: path, "cannot read the schema: \(error.reason)")]))
        }
        let text: String
        // Introspection JSON: the SDL's lines are said by their places in the JSON.
        var lines: [String]? = nil
        if IntrospectionSDL.isIntrospection(path: path, bytes: bytes) {
            switch IntrospectionSDL.convert(bytes) {
            case .success(let sdl):
                text = sdl.text
                lines = sdl.places
            case .failure(let failure):
                return .failure(GraphQLSchemaErrors([Diagnostic(file: path, location: failure.location, failure.message)]))
            }
        } else {
            text = String(decoding: bytes, as: UTF8.self)
        }
        let document: Document
        let schema: GraphQLSchema
        do {
            document = try parse(source: Source(body: text, name: path))
            schema = try buildASTSchema(documentAST: document, assumeValidSDL: true)
        } catch {
            return .failure(GraphQLSchemaErrors(diagnostics(error, .error, lines: lines)))
        }
        // Schemas published by real services break SDL's rules now and then (GitHub's defines
        // two fields twice): such a schema is served, last definition winning. Checked (`mockd
        // check`), it is built again with the rules, and each broken one is a warning, as an API
        // description's faults are.
        var warnings: [Diagnostic] = []
        if checksRules {
            do {
                _ = try buildASTSchema(documentAST: document)
            } catch {
                warnings = diagnostics(error, .warning, lines: lines)
            }
        }
        let problems = validateSchema(schema: schema)
        guard problems.isEmpty else {
            return .failure(GraphQLSchemaErrors(problems.flatMap { $0.diagnostics(.error, file: path, lines: lines) }))
        }
        guard schema.queryType != nil else {
            return .failure(GraphQLSchemaErrors([Diagnostic(file: path, "the schema has no Query type: expected type Query { … }")]))
        }
        var scalars = ScalarOverrides()
        if let scalarsPath {
            switch ScalarOverrides.read(scalarsPath, files: files, schema: schema) {
            case .success(let read):
                scalars = read.overrides
                warnings += read.warnings
            case .failure(let errors):
                return .failure(errors)
            }
        }
        let operations = operationsFolder.map { AppOperations.read($0, files: files, schema: schema) } ?? AppOperations()
        return .success(
            LoadedGraphQLSchema(
                answering: SchemaAnswers(schema: schema, app: operations, scalars: scalars), warnings: warnings + operations.warnings))
    }

    /// A parser's or a builder's error as diagnostics of the schema file.
    private func diagnostics(_ error: any Error, _ severity: Diagnostic.Severity, lines: [String]?) -> [Diagnostic] {
        (error as? GraphQLError)?.diagnostics(severity, file: path, lines: lines) ?? [
            Diagnostic(severity, file: path, "not a GraphQL schema: \(error)")
        ]
    }
}
