package import MockdCore
import MockdSystem

/// The files on disk, in the core's terms (`ResponseBody`, errors that read as a message); the
/// system calls themselves are the system layer's (`FileReading`, `DirectoryWalker`). The core
/// reads only through a `FileSource` it is given, so this is the one place its reads touch a disk.
package struct DiskFiles: FileSource {
    package init() {}

    /// Asked at each use: relative paths in messages are taken from where mockd runs now.
    package var workingDirectory: String? { FileReading.workingDirectory() }

    package func isFolder(_ path: String) -> Bool { DirectoryWalker.isFolder(path) }

    package func exists(_ path: String) -> Bool { FileReading.exists(path) }

    /// Symbolic links are followed (to a depth of 64, which ends cycles).
    package func regularFiles(under root: String) -> [String] {
        var result: [String] = []
        DirectoryWalker.walk(root) { entry in
            if entry.kind == .regularFile { result.append(entry.relativePath) }
            return .descend
        }
        // Byte order: stable across platforms, and much cheaper than String's Unicode ordering.
        return result.sorted(by: FileReading.bytesPrecede)
    }

    /// Opened once, so the kernel resolves one name per file instead of walking the root's
    /// whole path again for each of 10,000 files.
    package func withFolder<T>(_ path: String, _ body: (FileFolder) throws -> T) rethrows -> T {
        try FileReading.withFolder(path) { descriptor in try body(FileFolder(path: path, descriptor: descriptor)) }
    }

    package func read(_ relativePath: String, in folder: FileFolder) throws(FileReadError) -> ResponseBody {
        folder.descriptor >= 0 ? try read(relativePath, relativeTo: folder.descriptor) : try read(folder.path + "/" + relativePath)
    }

    package func read(_ path: String) throws(FileReadError) -> ResponseBody {
        try read(path, relativeTo: -1)
    }

    package func realPath(_ path: String) -> String? { FileReading.realPath(path) }

    /// The whole file, read straight into response memory.
    private func read(_ path: String, relativeTo folder: Int32) throws(FileReadError) -> ResponseBody {
        do {
            let (memory, count) = try FileReading.read(path, in: folder)
            return ResponseBody(adopting: memory, count: count)
        } catch {
            throw FileReadError(path: path, reason: error.reason)
        }
    }
}
