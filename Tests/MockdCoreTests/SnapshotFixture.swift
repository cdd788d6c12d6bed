import Foundation
import MockdCore
import Testing
import TestSupport

/// Loads `files` from a temporary folder into a snapshot (the loader must accept them) and runs `body`.
func withSnapshot<T>(_ files: [String: String], _ body: (Snapshot, TemporaryFolder) throws -> T) throws -> T {
    try withTemporaryFolder(files) { folder in
        let result = MockDataLoader(root: folder.path).load()
        let snapshot = try #require(result.snapshot, "fixture did not load: \(result.diagnostics)")
        return try body(snapshot, folder)
    }
}

extension Answer {
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
