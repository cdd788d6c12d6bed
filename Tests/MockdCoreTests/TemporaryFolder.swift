import Foundation

/// A fresh folder under the system temporary directory, filled with the files a test names.
/// `withTemporaryFolder` removes it when the test body returns or throws.
struct TemporaryFolder: Sendable {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("mockd-core-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// Writes `contents` at `relativePath`, creating the folders on the way.
    func write(_ relativePath: String, _ contents: String) throws {
        try write(relativePath, Data(contents.utf8))
    }

    func write(_ relativePath: String, _ data: Data) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Runs `body` with a temporary folder holding `files` (relative path → contents), then removes it.
func withTemporaryFolder<T>(_ files: [String: String] = [:], _ body: (TemporaryFolder) throws -> T) throws -> T {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    for (relativePath, contents) in files {
        try folder.write(relativePath, contents)
    }
    return try body(folder)
}
