#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file calls loading makes, on POSIX directly (Foundation's file APIs are far slower on
/// 10,000 files): whole files read into memory the caller owns, folders opened so
/// that files in them are opened by one name, paths resolved. The core reads through these and
/// makes no system call itself.
package enum FileReading {
    package struct Failure: Error {
        package let reason: String
    }

    /// `body` with `path` opened as a folder (-1 when it cannot be: then read by full path).
    package static func withFolder<T>(_ path: String, _ body: (Int32) throws -> T) rethrows -> T {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if descriptor >= 0 { close(descriptor) } }
        return try body(descriptor)
    }

    /// The whole file at `path` (relative to the folder `folder`, or to the working directory
    /// when it is -1) in new memory, and how many bytes of it were read.
    package static func read(_ path: String, in folder: Int32 = -1) throws(Failure) -> (memory: UnsafeMutableRawBufferPointer, count: Int) {
        let fd = openat(folder >= 0 ? folder : AT_FDCWD, path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(reason: "cannot read the file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(reason: "cannot read the file: \(String(cString: strerror(errno)))") }
        let size = Int(info.st_size)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 1)
        var filled = 0
        while filled < size {
            let count = SystemCalls.read(fd, buffer.baseAddress! + filled, size - filled)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            filled += count
        }
        return (buffer, filled)
    }

    /// Something (a file or a folder) is at `path`.
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The working directory; nil when it cannot be read (removed meanwhile).
    package static func workingDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` with symbolic links, `.` and `..` resolved; nil when it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Byte-wise `a < b`, with memcmp: sorting 10,000 names by bytes is stable across
    /// platforms, and much cheaper than String's Unicode ordering.
    package static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        // Native strings are contiguous: read them in place (no copy, no reference counting).
        if let order = a.utf8.withContiguousStorageIfAvailable({ x in
            b.utf8.withContiguousStorageIfAvailable { y in precedes(x, y) }
        }), let order {
            return order
        }
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
}
