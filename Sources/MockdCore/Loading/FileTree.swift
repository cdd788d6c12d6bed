import MockdSystem

/// The few file operations loading needs, in the core's terms (`ResponseBody`, errors that
/// read as a message); the system calls themselves are the system layer's (`FileReading`,
/// `DirectoryWalker`).
enum FileTree {
    struct ReadError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { reason }
    }

    /// Regular files below `root`, relative to it, sorted. Hidden entries (`.git`, editor swap
    /// files) are skipped; symbolic links are followed (to a depth of 64, which ends cycles).
    static func regularFiles(under root: String) -> [String] {
        var result: [String] = []
        DirectoryWalker.walk(root) { entry in
            if entry.kind == .regularFile { result.append(entry.relativePath) }
            return .descend
        }
        // Byte order: stable across platforms, and much cheaper than String's Unicode ordering.
        return result.sorted(by: FileReading.bytesPrecede)
    }

    /// An open folder: files in it are opened relative to it, so the kernel resolves one name
    /// per file instead of walking the root's whole path again for each of 10,000 files.
    struct Folder {
        let path: String
        /// -1 when the folder could not be opened; files are then opened by full path.
        let descriptor: Int32
    }

    static func withFolder<T>(_ path: String, _ body: (Folder) throws -> T) rethrows -> T {
        try FileReading.withFolder(path) { descriptor in try body(Folder(path: path, descriptor: descriptor)) }
    }

    /// A file below `folder`, by its relative path.
    static func read(_ relativePath: String, in folder: Folder) throws(ReadError) -> ResponseBody {
        folder.descriptor >= 0 ? try read(relativePath, relativeTo: folder.descriptor) : try read(folder.path + "/" + relativePath)
    }

    /// The whole file, read straight into response memory.
    static func read(_ path: String, relativeTo folder: Int32 = -1) throws(ReadError) -> ResponseBody {
        do {
            let (memory, count) = try FileReading.read(path, in: folder)
            return ResponseBody(adopting: memory, count: count)
        } catch {
            throw ReadError(path: path, reason: error.reason)
        }
    }

    static func isDirectory(_ path: String) -> Bool { DirectoryWalker.isFolder(path) }
}
