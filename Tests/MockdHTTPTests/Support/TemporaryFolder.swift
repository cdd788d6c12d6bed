import Foundation

/// A fresh folder under the system temporary directory; `remove()` deletes it.
struct TemporaryFolder: Sendable {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("mockd-http-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// Writes `contents` at `relativePath`, creating the folders on the way.
    func write(_ relativePath: String, _ contents: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    func write(_ files: [String: String]) throws {
        for (relativePath, contents) in files { try write(relativePath, contents) }
    }

    func child(_ relativePath: String) -> String { path + "/" + relativePath }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Runs `body` with a temporary folder holding `files`, then removes it.
func withTemporaryFolder<T>(_ files: [String: String] = [:], _ body: (TemporaryFolder) async throws -> T) async throws -> T {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try folder.write(files)
    return try await body(folder)
}
