#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MockdSystem

/// The few file-system calls loading needs, on POSIX directly (the walk is the system layer's
/// `DirectoryWalker`; Foundation's enumerator and URL types took most of a second for 10,000 files).
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
        return result.sorted(by: bytesPrecede)
    }

    /// Byte-wise `a < b` with memcmp.
    static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        // Native strings are contiguous: read them in place (no copy, no reference counting).
        if let order = a.utf8.withContiguousStorageIfAvailable({ x in
            b.utf8.withContiguousStorageIfAvailable { y in precedes(x, y) }
        }), let order { return order }
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in precedes(x, y) } }
    }

    private static func precedes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(x.count, y.count)
        if common > 0, let left = x.baseAddress, let right = y.baseAddress {
            let order = memcmp(left, right, common)
            if order != 0 { return order < 0 }
        }
        return x.count < y.count
    }

    /// An open folder: files in it are opened relative to it, so the kernel resolves one name
    /// per file instead of walking the root's whole path again for each of 10,000 files.
    struct Folder {
        let path: String
        /// -1 when the folder could not be opened; files are then opened by full path.
        let descriptor: Int32
    }

    static func withFolder<T>(_ path: String, _ body: (Folder) throws -> T) rethrows -> T {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if descriptor >= 0 { close(descriptor) } }
        return try body(Folder(path: path, descriptor: descriptor))
    }

    /// A file below `folder`, by its relative path.
    static func read(_ relativePath: String, in folder: Folder) throws(ReadError) -> ResponseBody {
        folder.descriptor >= 0
            ? try read(relativePath, relativeTo: folder.descriptor)
            : try read(folder.path + "/" + relativePath)
    }

    /// The whole file, read straight into response memory.
    static func read(_ path: String, relativeTo folder: Int32 = AT_FDCWD) throws(ReadError) -> ResponseBody {
        let fd = openat(folder, path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(path: path, reason: "cannot read the file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ReadError(path: path, reason: "cannot read the file: \(String(cString: strerror(errno)))") }
        let size = Int(info.st_size)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 1)
        var filled = 0
        while filled < size {
            let count = SystemCalls.read(fd, buffer.baseAddress! + filled, size - filled)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            filled += count
        }
        return ResponseBody(adopting: buffer, count: filled)
    }

    static func isDirectory(_ path: String) -> Bool { DirectoryWalker.isFolder(path) }
}
