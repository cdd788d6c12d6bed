import MockdCore
import MockdLock
import Synchronization

/// A folder of files in memory with a temporary folder's API (`path`, `child`, `write`), so a
/// core test lays out a mock root as users do and loads it with no disk: `files` is what the
/// loader reads, as the folder is at that moment.
final class MemoryFolder: Sendable {
    let path: String
    private let contents: Lock<[String: String]>
    private let folders: [String]

    init(path: String = "/memory", _ files: [String: String] = [:], folders: [String] = []) {
        self.path = path
        contents = Lock(files)
        self.folders = folders
    }

    func child(_ relativePath: String) -> String { path + "/" + relativePath }

    /// Writes `contents` at `relativePath` (its folders are implied).
    func write(_ relativePath: String, _ text: String) {
        contents.withLock { $0[relativePath] = text }
    }

    /// The files as they are now, for a loader.
    var files: MemoryFiles {
        let now = contents.withLock { $0 }
        return MemoryFiles(
            Dictionary(uniqueKeysWithValues: now.map { (child($0.key), $0.value) }), folders: [path] + folders.map(child))
    }
}

/// Runs `body` with a memory folder holding `files` (relative path → contents).
func withMemoryFolder<T>(_ files: [String: String] = [:], folders: [String] = [], _ body: (MemoryFolder) throws -> T) rethrows -> T {
    try body(MemoryFolder(files, folders: folders))
}
