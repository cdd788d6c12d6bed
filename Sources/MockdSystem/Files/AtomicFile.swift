#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a whole file so that a reader (or a reload) sees the old file or the new one, never
/// half of one: the bytes go to a hidden temp file in the same folder, which is fsynced, then
/// put in place with one call; the folder is fsynced so that rename survives a crash.
///
/// Replacing uses `rename(2)`. Creating (`replace: false`) uses `link(2)`, which fails with
/// EEXIST when the name is taken: a file that appeared meanwhile is never overwritten silently.
/// On any failure the temp file is removed. The calls block (fsync): keep them off the Swift
/// concurrency pool.
package enum AtomicFile {
    /// The temp file's name starts with this (then the process id and a random part), as
    /// Foundation's `Data.write(options: .atomic)` names it: file watchers skip hidden names.
    package static let temporaryPrefix = ".dat.nosync"

    package struct WriteError: Error, Equatable, Sendable {
        /// The `errno` of the call that failed.
        package let code: Int32
        /// The system's wording of `code` (`strerror`).
        package var reason: String { String(cString: strerror(code)) }
        /// True when `replace: false` found the name taken.
        package var alreadyExists: Bool { code == EEXIST }
    }

    /// Writes `bytes` to `path` (mode 0666 less the umask, as any new file). With `replace: false`, throws an
    /// error with `alreadyExists` when `path` exists, and leaves it alone.
    /// Removes `path`; a file already gone is no error.
    package static func remove(_ path: String) throws(WriteError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw WriteError(code: errno) }
    }

    package static func write(_ bytes: [UInt8], to path: String, replace: Bool) throws(WriteError) {
        let folder = FilePath.folder(of: path)
        var random = SystemRandomNumberGenerator()
        let suffix = String(random.next() & 0xFFFF_FFFF, radix: 36)
        let temporary = folder + "/" + temporaryPrefix + String(getpid()) + "." + suffix
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw WriteError(code: errno) }
        do throws(WriteError) {
            if let failure = SystemCalls.writeAll(bytes, to: fd) { throw WriteError(code: failure) }
            guard fsync(fd) == 0 else { throw WriteError(code: errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        if replace {
            guard rename(temporary, path) == 0 else {
                let code = errno
                unlink(temporary)
                throw WriteError(code: code)
            }
        } else {
            // link(2) never replaces: the name is the new file's, or EEXIST.
            let linked = link(temporary, path) == 0
            let code = errno
            unlink(temporary)
            guard linked else { throw WriteError(code: code) }
        }
        syncFolder(folder)
    }

    /// fsync of the folder, so the new name is durable; best effort (some file systems refuse).
    private static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            close(descriptor)
        }
    }
}
