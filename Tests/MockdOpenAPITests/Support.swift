import Foundation
import MockdCore
import MockdDisk
import MockdOpenAPI
import Testing
import TestSupport

/// Loads `document` (written as `api.yaml` with `files` beside it) into a snapshot, runs `body`
/// with a resolver over it, and removes the folder.
func withDocument<T>(
    _ document: String, name: String = "api.yaml", files: [String: String] = [:],
    validation: OperationTable.Validation = .enforce, body: (OpenAPIFixture) throws -> T
) throws -> T {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try folder.write(name, document)
    try folder.write(files)
    let loader = MockDataLoader(
        files: DiskFiles(), root: folder.child("MockData"),
        operationSources: [OpenAPIDocument(path: folder.child(name), validation: validation)])
    let result = loader.load()
    let snapshot = try #require(result.snapshot, "did not load: \(result.diagnostics)")
    return try body(OpenAPIFixture(snapshot: snapshot, diagnostics: result.diagnostics, folder: folder))
}

struct OpenAPIFixture {
    let snapshot: Snapshot
    let diagnostics: [Diagnostic]
    let folder: TemporaryFolder
    let state = RuntimeState()

    func answer(_ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: String = "") -> Resolution {
        let parts = target.split(separator: "?", maxSplits: 1)
        let query: [(name: String, value: String?)] =
            parts.count > 1
            ? parts[1].split(separator: "&").map { pair in
                let pieces = pair.split(separator: "=", maxSplits: 1)
                return (String(pieces[0]), pieces.count > 1 ? String(pieces[1]) : nil)
            } : []
        let request = MockRequest(
            method: method, path: String(parts[0]), query: query, rawQuery: parts.count > 1 ? String(parts[1]) : "",
            headers: headers.map { HTTPHeader($0.0, $0.1) }, body: Array(body.utf8))
        return Resolver(snapshot: snapshot, state: state).resolve(request)
    }
}

/// The parts of a resolution the assertions look at.
extension Resolution {
    var reply: Reply? {
        switch self {
        case .respond(let reply), .respondAfter(_, let reply), .fault(_, let reply, _): reply
        case .thenPush(let answer, _): answer.reply
        case .forward, .admin, .upgrade, .relay: nil
        }
    }

    var response: Reply.Response { reply!.response }
    var status: Int { reply?.status ?? 0 }
    var source: String { reply?.source ?? "" }

    /// Nothing matched: the 404 report, the 501 for an unknown method, or the upstream.
    var isMiss: Bool {
        if case .forward = self { return true }
        return reply?.origin.isMiss ?? false
    }

    var bodyText: String {
        switch response {
        case .prepared(let prepared): String(decoding: prepared.body.array, as: UTF8.self)
        case .built(let built): String(decoding: built.body, as: UTF8.self)
        case .streamed(let streamed): String(decoding: streamed.stream.pieces.flatMap(\.bytes), as: UTF8.self)
        }
    }

    var allHeaders: [HTTPHeader] {
        switch response {
        case .prepared(let prepared): prepared.headers
        case .built(let built): built.headers
        case .streamed(let streamed): streamed.head.headers
        }
    }

    func header(_ name: String) -> String? { allHeaders.first(named: name) }

    func json() throws -> JSONValue { try JSONParser.parse(Array(bodyText.utf8)) }
}

/// The documents in ../shared/openapi (copied unchanged from the OpenAPI Initiative's examples).
enum SharedDocuments {
    static let folder: String = {
        let here = URL(fileURLWithPath: #filePath)
        let repository = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [repository.appendingPathComponent("Tests/Fixtures/openapi").path]
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates[0]
    }()

    static func path(_ name: String) -> String { folder + "/" + name }
}
