import Foundation

/// Reads a MockData folder into a `Snapshot`: every `mock_<path>_<method>.json` file is read,
/// checked to be JSON, and turned into a prepared response. Collects every problem instead of
/// stopping at the first.
public struct MockDataLoader: Sendable {
    public let root: String

    public init(root: String) {
        self.root = root
    }

    /// The folder under the root that holds per-scenario overlays.
    public static let scenariosFolder = "scenarios"

    public struct Result: Sendable {
        /// nil when there were errors.
        public var snapshot: Snapshot?
        /// Errors and warnings, in file order.
        public var diagnostics: [Diagnostic]
    }

    public func load() -> Result {
        var diagnostics: [Diagnostic] = []
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            return Result(snapshot: nil, diagnostics: [Diagnostic(file: root, "the mock root folder does not exist (give it with --root DIR)")])
        }
        var builder = ResponseBuilder()
        var files: [String: MockFile] = [:]
        var overlays: [String: [String: MockFile]] = [:]
        let display = Self.displayPath(root)

        for relativePath in Self.listFiles(under: root) {
            let fileName = (relativePath as NSString).lastPathComponent
            let shown = display + "/" + relativePath
            switch MockFileName.parse(fileName) {
            case .other:
                continue
            case .unreachable(let why):
                diagnostics.append(Diagnostic(.warning, file: shown, "not served: \(why)"))
                continue
            case .mock:
                break
            }
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: root + "/" + relativePath))
            } catch {
                diagnostics.append(Diagnostic(file: shown, "cannot read the file: \(error.localizedDescription)"))
                continue
            }
            if let problem = JSONSyntax.problem(in: data) {
                diagnostics.append(Diagnostic(file: shown, location: problem.location, problem.message))
                continue
            }
            let scenario = Self.scenario(of: relativePath)
            let existing = scenario.map { overlays[$0]?[fileName] } ?? files[fileName]
            if let existing {
                diagnostics.append(Diagnostic(file: shown, "the same file name is also at \(display)/\(existing.relativePath); a name may appear once\(scenario.map { " per scenario (\($0))" } ?? ""), rename or remove one"))
                continue
            }
            let response = builder.prepare(status: 200, contentType: ContentType.json, headers: [], body: data, source: "file \(fileName)")
            let file = MockFile(name: fileName, relativePath: relativePath, response: response)
            if let scenario {
                overlays[scenario, default: [:]][fileName] = file
            } else {
                files[fileName] = file
            }
        }
        let errors = diagnostics.contains { $0.severity == .error }
        let snapshot = errors ? nil : Snapshot(preparedResponses: builder.responses, files: files, overlays: overlays,
                                               warnings: diagnostics, rootDisplayPath: display)
        return Result(snapshot: snapshot, diagnostics: diagnostics)
    }

    /// `scenarios/<name>/…` → name; anything else → nil.
    static func scenario(of relativePath: String) -> String? {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 3, parts[0] == Self.scenariosFolder else { return nil }
        return String(parts[1])
    }

    /// Regular files below `root`, relative, sorted so errors come out in a stable order.
    /// Hidden files and folders (`.git`, editors' swap files) are skipped.
    static func listFiles(under root: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var result: [String] = []
        while let path = enumerator.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if name.hasPrefix(".") {
                if (enumerator.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { enumerator.skipDescendants() }
                continue
            }
            if (enumerator.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { continue }
            result.append(path)
        }
        return result.sorted()
    }

    /// The root as the user gave it, without a trailing slash, for messages.
    static func displayPath(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

/// Hands out prepared responses with dense ids while a snapshot is being built.
struct ResponseBuilder {
    private(set) var responses: [PreparedResponse] = []

    mutating func prepare(status: Int, contentType: String?, headers: [HTTPHeader], body: some Collection<UInt8>, source: String) -> PreparedResponse {
        var all = headers
        if let contentType, all.first(named: "Content-Type") == nil { all.insert(HTTPHeader("Content-Type", contentType), at: 0) }
        all.append(HTTPHeader("X-Mockd-Source", source))
        let response = PreparedResponse(id: responses.count, status: status, headers: all, body: ResponseBody(body), source: source)
        responses.append(response)
        return response
    }
}
