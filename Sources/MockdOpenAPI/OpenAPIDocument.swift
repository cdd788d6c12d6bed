package import MockdCore
import MockdLock
import MockdSystem
import Synchronization
import Foundation

/// One `--openapi` document as an operation source: read, converted (Swagger 2.0), its
/// operations built with every answer prepared. Reading again on reload is this same call.
package struct OpenAPIDocument: OperationSource {
    package let path: String
    package let validation: OperationTable.Validation
    /// `mockd check`: also report examples that violate their own schema (warnings).
    package var checkExamples: Bool
    /// `--openapi-query-overrides`: `__code`, `__example`, `__dynamic` query parameters act as `Prefer`.
    package var queryOverrides = false

    /// `--openapi-validate`'s default: a request the document does not allow gets its 4xx.
    package static let defaultValidation = OperationTable.Validation.enforce

    package init(path: String, validation: OperationTable.Validation = OpenAPIDocument.defaultValidation, checkExamples: Bool = false) {
        self.path = path
        self.validation = validation
        self.checkExamples = checkExamples
    }

    /// The files the last load read: the document and every file its `$ref`s name.
    private let readFiles = ReadFiles()

    /// The document's folder (watched with everything under it), then the folder of each file
    /// its `$ref`s named at the last load that lies outside it (`../common/pet.yaml`).
    package var watchedPaths: [String] {
        let home = FilePath.folder(of: path)
        var folders = [home]
        for file in readFiles.paths {
            let folder = FilePath.folder(of: file)
            if !folders.contains(folder), !Self.folder(folder, isInside: home) { folders.append(folder) }
        }
        return [home] + folders.dropFirst().sorted()
    }

    /// Spelt as `$ref`s are resolved against the document's path (`..` folded where it can be).
    static func folder(_ folder: String, isInside home: String) -> Bool {
        if folder == home { return true }
        if home == "." { return !folder.hasPrefix("/") && folder != ".." && !folder.hasPrefix("../") }
        return folder.hasPrefix(home == "/" ? "/" : home + "/")
    }

    /// `api.yaml` in listings and sources.
    var displayName: String { String(path.split(separator: "/").last ?? Substring(path)) }

    package func load(files: any FileSource, into builder: inout ResponseBuilder) -> OperationSources.Loaded {
        var diagnostics: [Diagnostic] = []
        var kind = "openapi"
        let operations = build(files: files, into: &builder, diagnostics: &diagnostics, kind: &kind, checkExamples: checkExamples)
        if !diagnostics.isEmpty { diagnostics = LineFinder.addLines(to: diagnostics, files: files) }
        var loaded = OperationSources.Loaded(
            operations: operations, diagnostics: diagnostics, document: "\(kind) \(displayName)", validation: validation)
        loaded.queryOverrides = queryOverrides
        return loaded
    }

    /// `kind` becomes `postman` when the file is a Postman collection.
    func build(
        files: any FileSource, into builder: inout ResponseBuilder, diagnostics: inout [Diagnostic], kind: inout String,
        checkExamples: Bool = false
    ) -> [APIOperation] {
        var root: JSONValue
        do {
            root = try DocumentReader.read(path: path, files: files)
        } catch {
            diagnostics.append(Diagnostic(file: path, location: error.location, error.message))
            return []
        }
        if PostmanCollection.isCollection(root) {
            kind = "postman"
            var collection = PostmanCollection(file: path, document: displayName)
            let operations = collection.operations(root, into: &builder)
            diagnostics += collection.diagnostics
            readFiles.paths = [path]
            return operations
        }
        let openAPI30: Bool
        let isSwagger2 = root["swagger"]?.stringValue == "2.0"
        if isSwagger2 {
            root = Swagger2Converter.convert(root)
            openAPI30 = true
        } else if let version = root["openapi"]?.stringValue,
            version.hasPrefix("3.0") || version.hasPrefix("3.1") || version.hasPrefix("3.2")
        {
            openAPI30 = version.hasPrefix("3.0")
        } else {
            let found = root["openapi"].map(\.serialized) ?? root["swagger"].map(\.serialized) ?? "neither `openapi` nor `swagger`"
            diagnostics.append(
                Diagnostic(
                    file: path, location: "#/openapi",
                    "expected openapi 3.0.x or 3.1.x, swagger 2.0, or a Postman collection (info.schema), found \(found)"))
            return []
        }
        // OpenAPIKit reads 3.x only; a Swagger 2.0 document is checked as converted, by mockd.
        if checkExamples, !isSwagger2 {
            diagnostics += StructureCheck.problems(root, file: path, openAPI30: openAPI30)
        }
        let documents = Documents(root: path, value: root, files: files)
        var context = OperationBuilder(
            documents: documents, compiler: SchemaCompiler(documents: documents, openAPI30: openAPI30),
            document: displayName, file: path, basePath: Self.basePath(root), root: root, checkExamples: checkExamples)
        let operations = context.operations(into: &builder)
        diagnostics += context.diagnostics
        for problem in context.compiler.problems {
            diagnostics.append(
                Diagnostic(
                    problem.isError ? .error : .warning, file: problem.location.file, location: problem.location.description,
                    problem.message))
        }
        readFiles.paths = documents.paths
        for (file, reason) in documents.failures.sorted(by: { $0.key < $1.key }) {
            diagnostics.append(Diagnostic(file: file, "a $ref names this file: \(reason)"))
        }
        if operations.isEmpty, root["paths"]?.objectValue?.isEmpty ?? true {
            diagnostics.append(
                Diagnostic(.warning, file: path, location: "#/paths", "no paths: nothing to serve (webhooks and components are not served)")
            )
        }
        return operations
    }

    /// The path of the first `servers` URL, variables at their defaults: `https://api.example.com/v2` → `/v2`.
    static func basePath(_ root: JSONValue) -> String {
        guard let server = root["servers"]?.arrayValue?.first, var url = server["url"]?.stringValue else { return "" }
        for variable in server["variables"]?.objectValue ?? [] {
            url = url.replacing("{\(variable.key)}", with: variable.value["default"]?.stringValue ?? "")
        }
        if let scheme = url.range(of: "://") {
            let rest = url[scheme.upperBound...]
            url = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        } else if url.hasPrefix("//") {
            let rest = url.dropFirst(2)
            url = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        }
        if !url.isEmpty, !url.hasPrefix("/") { url = "/" + url }
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

/// The files a document's last load read, kept for the watcher (loads run on the reloader's
/// thread, the watcher is set up on the main one).
final class ReadFiles: Sendable {
    private let lock = Lock<[String]>([])

    var paths: [String] {
        get { lock.withLock { $0 } }
        set { lock.withLock { $0 = newValue } }
    }
}
