package import Foundation

/// A fresh folder under the system temporary directory, for the test suites of every target;
/// `remove()` deletes it (or use `withTemporaryFolder`).
package struct TemporaryFolder: Sendable {
    package let path: String

    package init() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("mockd-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// Writes `contents` at `relativePath`, creating the folders on the way.
    package func write(_ relativePath: String, _ contents: String) throws {
        try write(relativePath, Data(contents.utf8))
    }

    package func write(_ relativePath: String, _ data: Data) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// Relative path → contents.
    package func write(_ files: [String: String]) throws {
        for (relativePath, contents) in files { try write(relativePath, contents) }
    }

    package func child(_ relativePath: String) -> String { path + "/" + relativePath }

    package func read(_ relativePath: String) -> String? {
        FileManager.default.contents(atPath: child(relativePath)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every regular file below, relative, sorted.
    package func files() -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return [] }
        var result: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if (enumerator.fileAttributes?[.type] as? FileAttributeType) != .typeDirectory { result.append(relative) }
        }
        return result.sorted()
    }

    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Runs `body` with a temporary folder holding `files` (relative path → contents), then removes it.
package func withTemporaryFolder<T>(_ files: [String: String] = [:], _ body: (TemporaryFolder) throws -> T) throws -> T {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try folder.write(files)
    return try body(folder)
}

package func withTemporaryFolder<T>(_ files: [String: String] = [:], _ body: (TemporaryFolder) async throws -> T) async throws -> T {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try folder.write(files)
    return try await body(folder)
}
