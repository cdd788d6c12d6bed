import MockdCore

/// One `--openapi` document as an operation source: read, converted (Swagger 2.0), its
/// operations built with every answer prepared. Reading again on reload is this same call.
public struct OpenAPIDocument: OperationSource {
    public let path: String
    public let validation: OperationTable.Validation
    /// `mockd check`: also report examples that violate their own schema (warnings).
    public var checkExamples: Bool

    public init(path: String, validation: OperationTable.Validation = .enforce, checkExamples: Bool = false) {
        self.path = path
        self.validation = validation
        self.checkExamples = checkExamples
    }

    /// The document's folder: files its `$ref`s name sit beside it.
    public var watchedPaths: [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count > 1 ? [parts.dropLast().joined(separator: "/").isEmpty ? "/" : parts.dropLast().joined(separator: "/")] : ["."]
    }

    /// `api.yaml` in listings and sources.
    var displayName: String { String(path.split(separator: "/").last ?? Substring(path)) }

    public func load(into builder: inout ResponseBuilder) -> OperationSources.Loaded {
        var diagnostics: [Diagnostic] = []
        let operations = build(into: &builder, diagnostics: &diagnostics, checkExamples: checkExamples)
        if !diagnostics.isEmpty { diagnostics = LineFinder.addLines(to: diagnostics) }
        return OperationSources.Loaded(operations: operations, diagnostics: diagnostics, document: "openapi \(displayName)", validation: validation)
    }

    func build(into builder: inout ResponseBuilder, diagnostics: inout [Diagnostic], checkExamples: Bool = false) -> [APIOperation] {
        var root: JSONValue
        do {
            root = try DocumentReader.read(path: path)
        } catch {
            diagnostics.append(Diagnostic(file: path, location: error.location, error.message))
            return []
        }
        let openAPI30: Bool
        let isSwagger2 = root["swagger"]?.stringValue == "2.0"
        if isSwagger2 {
            root = Swagger2Converter.convert(root)
            openAPI30 = true
        } else if let version = root["openapi"]?.stringValue, version.hasPrefix("3.0") || version.hasPrefix("3.1") || version.hasPrefix("3.2") {
            openAPI30 = version.hasPrefix("3.0")
        } else {
            let found = root["openapi"].map(\.serialized) ?? root["swagger"].map(\.serialized) ?? "neither `openapi` nor `swagger`"
            diagnostics.append(Diagnostic(file: path, location: "#/openapi", "expected openapi 3.0.x or 3.1.x, or swagger 2.0, found \(found)"))
            return []
        }
        // OpenAPIKit reads 3.x only; a Swagger 2.0 document is checked as converted, by mockd.
        if checkExamples, !isSwagger2 {
            diagnostics += StructureCheck.problems(root, file: path, openAPI30: openAPI30)
        }
        let documents = Documents(root: path, value: root)
        var context = OperationBuilder(documents: documents, compiler: SchemaCompiler(documents: documents, openAPI30: openAPI30),
                                       document: displayName, file: path, basePath: Self.basePath(root), root: root, checkExamples: checkExamples)
        let operations = context.operations(into: &builder)
        diagnostics += context.diagnostics
        for problem in context.compiler.problems {
            diagnostics.append(Diagnostic(problem.isError ? .error : .warning, file: problem.location.file, location: problem.location.description, problem.message))
        }
        for (file, reason) in documents.failures.sorted(by: { $0.key < $1.key }) {
            diagnostics.append(Diagnostic(file: file, "a $ref names this file: \(reason)"))
        }
        if operations.isEmpty, root["paths"]?.objectValue?.isEmpty ?? true {
            diagnostics.append(Diagnostic(.warning, file: path, location: "#/paths", "no paths: nothing to serve (webhooks and components are not served)"))
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
