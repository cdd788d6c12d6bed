import Foundation
import MockdCore
import Testing

/// Loads `files` (relative to the mock root) from memory into a snapshot (the loader must
/// accept them) and runs `body` with it and the root's path. No disk: the loader's reading of
/// real folders is MockDataLoaderTests' subject.
func withSnapshot<T>(_ files: [String: String], _ body: (Snapshot, MemoryRoot) throws -> T) throws -> T {
    let root = MemoryRoot()
    let loader = MockDataLoader(
        files: MemoryFiles(Dictionary(uniqueKeysWithValues: files.map { (root.path + "/" + $0.key, $0.value) })), root: root.path)
    let result = loader.load()
    let snapshot = try #require(result.snapshot, "fixture did not load: \(result.diagnostics)")
    return try body(snapshot, root)
}

/// Where `withSnapshot`'s files are: an absolute path no disk has.
struct MemoryRoot {
    let path = "/memory/MockData"
}

/// The parts of a resolution the assertions look at, whichever kind it is.
extension Resolution {
    /// What would be sent (nil: forwarded upstream, or the admin API answers).
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
    var scenario: String {
        if case .forward(let scenario, _, _) = self { return scenario }
        return reply?.scenario ?? ""
    }

    var delay: Duration {
        switch self {
        case .respondAfter(let delay, _), .fault(_, _, let delay), .forward(_, let delay, _): delay
        default: .zero
        }
    }

    /// What the client is warned of (`X-Mockd-Warning`), nil when nothing.
    var warning: String? {
        if case .forward(_, _, let warning) = self { return warning }
        return reply?.warning
    }

    var fault: Fault? {
        if case .fault(let fault, _, _) = self { return fault }
        return nil
    }

    /// Nothing matched: the 404 report, the 501 for an unknown method, or the upstream.
    var isMiss: Bool {
        if case .forward = self { return true }
        return reply?.origin.isMiss ?? false
    }

    /// The body bytes of a prepared (file) answer, nil for a built one.
    var preparedBody: [UInt8]? {
        if case .prepared(let prepared) = response { return prepared.body.array }
        return nil
    }

    /// The built response (a 404 report…), nil for a prepared one.
    var built: BuiltResponse? {
        if case .built(let built) = response { return built }
        return nil
    }
}
