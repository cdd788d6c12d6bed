#if canImport(FoundationEssentials)
import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
import Foundation
#endif
import Logging
import MockdCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `Recorder.record` did with one proxied answer.
public enum RecordOutcome: Sendable, Equatable {
    /// A 200 JSON answer, saved as `mock_<path>_<method>.json` at this path.
    case wroteMock(String)
    /// Any other answer, saved as the route at this index of `recorded.json` (appended, or replaced with overwrite).
    case wroteRoute(Int)
    /// A mock for this method and path already exists (this file, or `<routes>/recorded.json#<index>`); nothing written.
    case keptExisting(String)
    /// The nth answer (2, 3…) for this method and path during this run; only the first is recorded.
    case duplicate(Int)
    /// Nothing worth recording (a HEAD, a 304, a partial 206, mockd's own error answer); says why.
    case skipped(String)
    /// A write failed, or `recorded.json` is not a route table mockd can add to; says what and where.
    case failed(String)
}

/// Saves proxied answers as mocks (`--record`): a 200 JSON answer becomes
/// `mock_<path>_<method>.json` in the root, anything else a route in `<routes>/recorded.json`
/// with its body in `<root>/recorded/`.
///
/// Never overwrites an existing mock unless `overwrite`; every write is atomic (a temp file in
/// the same folder, fsync, rename), so a reload or a reader never sees half a file; file names
/// are built so no request path can make it write outside the root or the routes folder.
/// Thread-safe: writes are serialized.
public final class Recorder: Sendable {
    public let root: String
    public let routesDirectory: String
    public let overwrite: Bool
    let logger: Logger
    /// Answers seen per `METHOD path` during this run (bounded: past `maxTracked` keys, new ones
    /// are not tracked, and the existing-file check alone keeps them from being written twice).
    private let seen = Mutex<[String: Int]>([:])
    static let maxTracked = 100_000
    /// Every file this recorder wrote, absolute, for the watcher to tell its own writes from the user's.
    private let written = Mutex<Set<String>>([])
    /// The working folder, which relative roots are under: the watcher names files by absolute path.
    private let workingDirectory: String

    /// The route table the recorder writes, in the routes folder.
    public static let routesFileName = "recorded.json"
    /// The folder under the root that holds recorded route bodies.
    public static let bodiesFolder = "recorded"

    public init(root: String, routesDirectory: String, overwrite: Bool, logger: Logger) {
        self.root = Self.trimmed(root)
        self.routesDirectory = Self.trimmed(routesDirectory)
        self.overwrite = overwrite
        self.logger = logger
        workingDirectory = FileManager.default.currentDirectoryPath
    }

    /// `<routes>/recorded.json`.
    public var routesFile: String { routesDirectory + "/" + Self.routesFileName }

    /// Records one upstream answer (pass `ProxyOutcome.response` when `fromUpstream`). Does
    /// blocking file I/O: call it off the server's network threads.
    public func record(_ request: MockRequest, _ response: BuiltResponse) -> RecordOutcome {
        if let why = Self.notRecordable(request, response) { return .skipped(why) }
        let path = Self.normalized(request.path)
        let key = request.method + " " + path
        // The lock also serializes the writes: two answers never race on recorded.json.
        return seen.withLock { seen -> RecordOutcome in
            let count = seen[key, default: 0] + 1
            if count > 1 || seen.count < Self.maxTracked { seen[key] = count }
            if count > 1 { return .duplicate(count) }
            let outcome = save(request, path: path, response)
            switch outcome {
            case .wroteMock(let file): logger.info("recorded \(key) as \(file)")
            case .wroteRoute(let index): logger.info("recorded \(key) as \(routesFile)#\(index)")
            case .keptExisting(let existing): logger.info("not recording \(key): \(existing) exists (--record-overwrite replaces it)")
            case .failed(let why): logger.error("could not record \(key): \(why)")
            case .duplicate, .skipped: break
            }
            return outcome
        }
    }

    /// True for a file this recorder wrote (a mock, a body, `recorded.json`) and for the hidden
    /// temp files of its atomic writes (`.dat.nosync…`, renamed away at once): a file watcher
    /// ignores these so recording does not trigger reloads.
    public func isOwnWrite(_ path: String) -> Bool {
        if PathText.lastComponent(path).hasPrefix(Self.temporaryFilePrefix) { return true }
        let key = writtenKey(path)
        return written.withLock { $0.contains(key) }
    }

    /// How `Data.write(options: .atomic)` names its temp file in the target's folder
    /// (`.dat.nosync<pid>.<random>`): `isOwnWrite` and the watcher rely on it.
    static let temporaryFilePrefix = ".dat.nosync"

    /// The files written so far, absolute and standardized, sorted.
    public var writtenFiles: [String] { written.withLock { $0.sorted() } }

    /// One spelling per file: absolute (the default root, `MockData`, is relative, and the
    /// watcher asks with absolute paths) and standardized.
    private func writtenKey(_ path: String) -> String {
        PathText.standardized(path.hasPrefix("/") ? path : workingDirectory + "/" + path)
    }

    // MARK: - Deciding

    static func notRecordable(_ request: MockRequest, _ response: BuiltResponse) -> String? {
        if response.source == "proxy error" { return "not an upstream answer (\(response.status) from mockd)" }
        if request.method == "HEAD" { return "HEAD is answered from the GET mock" }
        if response.status < 200 { return "an informational \(response.status) is not an answer" }
        if response.status == 304 { return "304 Not Modified only makes sense for a conditional request" }
        if response.status == 206 { return "206 Partial Content answers one range, not the resource" }
        return nil
    }

    /// Headers that make a 200 JSON answer more than its body: kept in a route, not a mock file.
    static let meaningfulHeaders: Set<String> = ["location", "set-cookie", "www-authenticate", "content-disposition", "retry-after", "link"]
    /// Headers a recorded route does not repeat: about that one transfer, not the resource.
    static let transferHeaders: Set<String> = [
        "date", "server", "content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive",
        "x-mockd-source", "age", "via", "alt-svc", "proxy-connection", "trailer", "upgrade", "te",
    ]

    static func isJSONMediaType(_ contentType: String) -> Bool {
        let media = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmed(of: " \t").lowercased() } ?? ""
        return media == "application/json" || media == "text/json" || (media.hasPrefix("application/") && media.hasSuffix("+json"))
    }

    /// The pretty-printed body when the answer belongs in a `mock_…json` file, else nil.
    func mockFileBody(_ request: MockRequest, path: String, _ response: BuiltResponse) -> (name: String, bytes: Data)? {
        guard response.status == 200, !response.body.isEmpty else { return nil }
        if response.headers.contains(where: { Self.meaningfulHeaders.contains($0.name.lowercased()) }) { return nil }
        let contentType = response.headers.first(named: "Content-Type")
        if let contentType, !Self.isJSONMediaType(contentType) { return nil }
        // Not valid UTF-8 (the parser would replace the bad bytes): not rewritten, kept as a route with its bytes.
        guard String(validating: response.body, as: UTF8.self) != nil,
              let value = try? JSONParser.parse(response.body) else { return nil }
        // Without a Content-Type, only an object or an array counts as JSON ("42" may be text).
        if contentType == nil, !value.isContainer { return nil }
        let name = MockFileName.forRequest(method: request.method, path: path)
        guard Self.isSafeFileName(name),
              case .mock(let method, _) = MockFileName.parse(name), method == request.method.uppercased() else { return nil }
        let bytes = Data((value.prettyPrinted + "\n").utf8)
        // The loader checks mock files with JSONParser.validate: write only what it accepts.
        guard bytes.withUnsafeBytes({ JSONParser.validate($0) }) == nil else { return nil }
        return (name, bytes)
    }

    // MARK: - Saving

    private func save(_ request: MockRequest, path: String, _ response: BuiltResponse) -> RecordOutcome {
        let table: RouteTable
        switch RouteTable.read(routesFile) {
        case .success(let read): table = read
        case .failure(let problem): return .failed(problem.message)
        }
        let existingRoutes = table.indices(method: request.method, path: path)
        if let mock = mockFileBody(request, path: path, response) {
            let existingFile = findMockFile(named: mock.name)
            if !overwrite {
                if let existingFile { return .keptExisting(root + "/" + existingFile) }
                if let index = existingRoutes.first { return .keptExisting("\(routesFile)#\(index)") }
            }
            let target = root + "/" + (existingFile ?? mock.name)
            do {
                try writeAtomically(mock.bytes, to: target)
                // A recorded route for the same request would shadow the new file (routes win): drop it.
                if !existingRoutes.isEmpty {
                    var updated = table
                    updated.remove(existingRoutes)
                    try writeAtomically(updated.bytes(), to: routesFile)
                }
            } catch {
                return .failed("\(target): \(Self.describe(error))")
            }
            return .wroteMock(target)
        }

        if !overwrite {
            if let index = existingRoutes.first { return .keptExisting("\(routesFile)#\(index)") }
            let name = MockFileName.forRequest(method: request.method, path: path)
            if Self.isSafeFileName(name), let existingFile = findMockFile(named: name) { return .keptExisting(root + "/" + existingFile) }
        }
        var routeResponse: [(key: String, value: JSONValue)] = [("status", .number(response.status))]
        let headers = routeHeaders(response.headers)
        if !headers.isEmpty { routeResponse.append(("headers", .object(headers.map { ($0.name, .string($0.value)) }))) }
        var bodyFile: String? = nil
        if !response.body.isEmpty {
            let relative = Self.bodiesFolder + "/" + Self.bodyFileName(method: request.method, path: path)
            routeResponse.append(("file", .string(relative)))
            bodyFile = root + "/" + relative
        }
        var route: [(key: String, value: JSONValue)] = [
            ("name", .string("recorded \(request.method) \(path)")),
            ("method", .string(request.method)),
        ]
        if Self.needsPattern(path) {
            route.append(("pathPattern", .string(Self.pattern(for: path))))
        } else {
            route.append(("path", .string(path)))
        }
        route.append(("response", .object(routeResponse)))

        var updated = table
        let index = updated.put(.object(route), replacing: existingRoutes)
        do {
            if let bodyFile {
                try FileManager.default.createDirectory(atPath: root + "/" + Self.bodiesFolder, withIntermediateDirectories: true)
                try writeAtomically(Data(response.body), to: bodyFile)
            }
            try FileManager.default.createDirectory(atPath: routesDirectory, withIntermediateDirectories: true)
            try writeAtomically(updated.bytes(), to: routesFile)
        } catch {
            return .failed("\(routesFile): \(Self.describe(error))")
        }
        return .wroteRoute(index)
    }

    /// Headers for a recorded route: the answer's, less those about the transfer; same names joined.
    func routeHeaders(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        var result: [HTTPHeader] = []
        for header in headers where !Self.transferHeaders.contains(header.name.lowercased()) {
            if let at = result.firstIndex(where: { $0.name.lowercased() == header.name.lowercased() }) {
                result[at].value += ", " + header.value
            } else {
                result.append(header)
            }
        }
        return result
    }

    /// Where a mock file with this name already is, relative to the root (any folder but `scenarios/`, which holds overlays).
    func findMockFile(named name: String) -> String? {
        if FileManager.default.fileExists(atPath: root + "/" + name) { return name }
        return Self.find(name, in: root, prefix: "", depth: 0)
    }

    /// Depth first, in directory order; hidden folders are skipped. Links to folders are
    /// followed, as the loader follows them: a mock it serves from a linked folder must be
    /// found here, or recording would write a second file with its name (a load error).
    /// The depth limit ends link cycles.
    private static func find(_ name: String, in folder: String, prefix: String, depth: Int) -> String? {
        guard depth < 64, let handle = opendir(folder) else { return nil }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let component = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if component == "." || component == ".." { continue }
            let relative = prefix + component
            var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) || entry.pointee.d_type == UInt8(DT_LNK) {
                var info = stat()
                isDirectory = stat(folder + "/" + component, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            if isDirectory {
                if component.hasPrefix(".") || relative == MockDataLoader.scenariosFolder { continue }
                if let found = find(name, in: folder + "/" + component, prefix: relative + "/", depth: depth + 1) { return found }
                continue
            }
            if component == name { return relative }
        }
        return nil
    }

    // MARK: - Names

    /// One trailing slash ignored, as the file naming rule does.
    static func normalized(_ path: String) -> String {
        var path = path.isEmpty ? "/" : path
        if path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// A single path component that cannot climb out of its folder.
    static func isSafeFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0") && name.utf8.count <= 255
    }

    /// `<method>_<path words>_<hash>.body`: ASCII letters, digits, `-`, `.` and `_` only, at most
    /// ~100 bytes, never starting with `mock` (the loader would take it for a mock name) or a dot.
    /// The hash of the exact method and path keeps two paths that read alike apart.
    static func bodyFileName(method: String, path: String) -> String {
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x2E
        }
        let methodPart = String(decoding: method.lowercased().utf8.filter { isWordByte($0) && $0 != 0x2E && $0 != 0x2D }, as: UTF8.self)
        var words: [UInt8] = []
        for byte in path.utf8 {
            if isWordByte(byte) {
                words.append(byte)
            } else if words.last != UInt8(ascii: "_") {
                words.append(UInt8(ascii: "_"))
            }
        }
        var pathPart = String(decoding: words.prefix(80), as: UTF8.self)
        while let first = pathPart.first, first == "_" || first == "." { pathPart.removeFirst() }
        while let last = pathPart.last, last == "_" || last == "." { pathPart.removeLast() }
        var hash: UInt32 = 2_166_136_261
        for byte in (method + " " + path).utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        var name = (methodPart.isEmpty ? "request" : methodPart) + (pathPart.isEmpty ? "" : "_" + pathPart)
            + "_" + String(repeating: "0", count: 8 - hex.count) + hex + ".body"
        if name.lowercased().hasPrefix("mock") { name = "r_" + name }
        return name
    }

    /// A path a route's `path` would read as a pattern (`:name`, `*`, `**` segments) needs `pathPattern`.
    static func needsPattern(_ path: String) -> Bool {
        path.split(separator: "/").contains { $0.hasPrefix(":") || $0 == "*" || $0 == "**" }
    }

    /// An anchored regular expression matching exactly `path`.
    static func pattern(for path: String) -> String {
        var out = "^"
        for character in path {
            if "\\^$.|?*+()[]{}".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out + "$"
    }

    // MARK: - Files

    /// `Data.write(options: .atomic)` writes a temp file in the same folder (`.dat.nosync…`),
    /// fsyncs it and renames it over `path`; the folder is then fsynced so the rename is durable.
    func writeAtomically(_ bytes: Data, to path: String) throws {
        let key = writtenKey(path)
        written.withLock { _ = $0.insert(key) }
        try Self.writeAtomically(bytes, to: path)
    }

    static func writeAtomically(_ bytes: Data, to path: String) throws {
        try bytes.write(to: URL(fileURLWithPath: path), options: .atomic)
        let descriptor = open(PathText.folder(of: path), O_RDONLY | O_DIRECTORY)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            close(descriptor)
        }
    }

    /// The system's reason (`strerror`) for a failed file operation; FoundationEssentials
    /// reports those as a CocoaError around the POSIX error.
    static func describe(_ error: any Error) -> String {
        if let posix = (error as? CocoaError)?.underlying as? POSIXError ?? error as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        // Rare (an invalid file name, no free temp name): Foundation's generic wording.
        if let cocoa = error as? CocoaError {
            return "The operation could not be completed. (NSCocoaErrorDomain error \(cocoa.code.rawValue).)"
        }
        return "\(error)"
    }

    static func trimmed(_ folder: String) -> String {
        var folder = folder.isEmpty ? "." : folder
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        return folder
    }
}

/// `recorded.json` as read from disk: the whole document, kept in its order, and its routes.
/// Written back as `JSONValue.prettyPrinted`: members, order and numbers as written are kept;
/// white space and string escapes are normalised.
struct RouteTable {
    struct Problem: Error { var message: String }

    /// The top-level object's members; "routes" among them.
    var members: [(key: String, value: JSONValue)]
    var routes: [JSONValue]

    static func read(_ file: String) -> Result<RouteTable, Problem> {
        guard FileManager.default.fileExists(atPath: file) else {
            return .success(RouteTable(members: [], routes: []))
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            return .failure(Problem(message: "\(file): cannot read it; not recording until it can be read"))
        }
        // The parser would replace bytes that are not UTF-8, and the rewrite would lose them.
        guard String(validating: data, as: UTF8.self) != nil else {
            return .failure(Problem(message: "\(file): not valid UTF-8; fix or remove it to go on recording"))
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(Array(data))
        } catch {
            return .failure(Problem(message: "\(file): invalid JSON (\(error)); fix or remove it to go on recording"))
        }
        guard case .object(let members) = document else {
            return .failure(Problem(message: "\(file): expected an object {\"routes\": [...]}; fix or remove it to go on recording"))
        }
        // The last "routes" if repeated, as mockd reads it (`JSONValue` subscript).
        switch document["routes"] {
        case nil:
            return .success(RouteTable(members: members, routes: []))
        case .array(let routes)?:
            return .success(RouteTable(members: members, routes: routes))
        default:
            return .failure(Problem(message: "\(file): \"routes\" must be an array; fix or remove it to go on recording"))
        }
    }

    /// Routes for exactly this method and path (by `path`, or the `pathPattern` the recorder writes).
    func indices(method: String, path: String) -> [Int] {
        routes.indices.filter { index in
            let route = routes[index]
            let methodMatches: Bool
            switch route["method"] {
            case .string(let text)?: methodMatches = text.uppercased() == method.uppercased()
            case .array(let list)?: methodMatches = list.contains { $0.stringValue?.uppercased() == method.uppercased() }
            default: methodMatches = false
            }
            guard methodMatches else { return false }
            if let routePath = route["path"]?.stringValue, Recorder.normalized(routePath) == path { return true }
            if let pattern = route["pathPattern"]?.stringValue, pattern == Recorder.pattern(for: path) { return true }
            return false
        }
    }

    /// Puts `route` in place of the first of `replacing` (dropping the others), or appends it. Returns its index.
    mutating func put(_ route: JSONValue, replacing: [Int]) -> Int {
        guard let first = replacing.first else {
            routes.append(route)
            return routes.count - 1
        }
        routes[first] = route
        remove(Array(replacing.dropFirst()))
        return first
    }

    mutating func remove(_ indices: [Int]) {
        for index in indices.sorted(by: >) { routes.remove(at: index) }
    }

    func bytes() -> Data {
        var members = self.members
        if let at = members.lastIndex(where: { $0.key == "routes" }) {
            members[at].value = .array(routes)
        } else {
            members.append((key: "routes", value: .array(routes)))
        }
        return Data((JSONValue.object(members).prettyPrinted + "\n").utf8)
    }
}

extension JSONValue {
    fileprivate var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    fileprivate var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}

/// The few NSString path methods the recorder needs, on plain text (FoundationEssentials has
/// none of them).
enum PathText {
    /// The name after the last `/` (trailing slashes ignored), as `lastPathComponent`.
    static func lastComponent(_ path: String) -> Substring {
        path.split(separator: "/").last ?? Substring(path)
    }

    /// The folder holding `path`, as `deletingLastPathComponent`, but "." for a bare name.
    static func folder(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        var folder = path[..<slash]
        while folder.hasSuffix("/") { folder.removeLast() }
        return folder.isEmpty ? "/" : String(folder)
    }

    /// One spelling per path, so two spellings of the same file compare equal: `//` and `.`
    /// segments and a trailing `/` dropped, `..` taken back lexically (`/..` is `/`), as
    /// `standardizingPath` does. Symbolic links are not resolved: the recorder and the
    /// watcher spell a file from the same root, through the same links.
    static func standardized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".":
                continue
            case "..":
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !absolute {
                    parts.append(part)
                }
            default:
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
