/// Files held in memory, by absolute path: a snapshot built from them needs no disk, so a core
/// test says its mock folder in a dictionary literal. Folders are implied by the files' paths;
/// paths are compared as written, with `.` and `..` taken out by name (there are no links).
package struct MemoryFiles: FileSource {
    private let files: [String: [UInt8]]
    /// Folders that hold no file (`mkdir routes`).
    private let emptyFolders: Set<String>

    /// `files`: absolute path → contents (`"/MockData/mock_api_users_get.json": "[]"`);
    /// `folders`: absolute paths of folders that exist even with no file in them.
    package init(_ files: [String: String], folders: [String] = []) {
        self.files = Dictionary(uniqueKeysWithValues: files.map { (Self.normalized($0.key), Array($0.value.utf8)) })
        emptyFolders = Set(folders.map(Self.normalized))
    }

    package func isFolder(_ path: String) -> Bool {
        let path = Self.normalized(path), prefix = path + "/"
        return emptyFolders.contains(path) || emptyFolders.contains { $0.hasPrefix(prefix) } || files.keys.contains { $0.hasPrefix(prefix) }
    }

    package func exists(_ path: String) -> Bool { files[Self.normalized(path)] != nil || isFolder(path) }

    package func regularFiles(under root: String) -> [String] {
        let prefix = Self.normalized(root) + "/"
        return files.keys.filter { $0.hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count)) }
            .filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    package func withFolder<T>(_ path: String, _ body: (FileFolder) throws -> T) rethrows -> T {
        try body(FileFolder(path: path))
    }

    package func read(_ relativePath: String, in folder: FileFolder) throws(FileReadError) -> ResponseBody {
        try read(folder.path + "/" + relativePath)
    }

    package func read(_ path: String) throws(FileReadError) -> ResponseBody {
        guard let bytes = files[Self.normalized(path)] else {
            throw FileReadError(path: path, reason: "cannot read the file: No such file or directory")
        }
        return ResponseBody(bytes)
    }

    package func realPath(_ path: String) -> String? { exists(path) ? Self.normalized(path) : nil }

    /// Absolute paths only: a relative one would be taken against the working directory.
    private static func normalized(_ path: String) -> String { WorkingDirectory.normalized(path, in: "/") }

    /// Memory has no working directory: a relative path is taken from `/`.
    package var workingDirectory: String? { "/" }
}
