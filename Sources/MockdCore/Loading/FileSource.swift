/// Where loading reads the mock root, the route tables and their body files from: the disk
/// (`DiskFiles`, in MockdDisk), or memory (`MemoryFiles`), so a core test builds a snapshot
/// without a disk. The core has no other way to a file. Called while a snapshot is built, and
/// by admin work the adapter runs off its request threads (a stub's body file), never on a
/// request's own path.
package protocol FileSource: Sendable {
    /// Where relative paths are taken from (the process's working directory on disk); nil when unknown.
    var workingDirectory: String? { get }
    /// A folder is at `path`.
    func isFolder(_ path: String) -> Bool
    /// Something (a file or a folder) is at `path`.
    func exists(_ path: String) -> Bool
    /// Regular files below `root`, relative to it, in byte order. Hidden entries are skipped.
    func regularFiles(under root: String) -> [String]
    /// Runs `body` with `path` open as a folder that `read(_:in:)` reads files of.
    func withFolder<T>(_ path: String, _ body: (FileFolder) throws -> T) rethrows -> T
    /// A file below `folder`, by its relative path.
    func read(_ relativePath: String, in folder: FileFolder) throws(FileReadError) -> ResponseBody
    /// The whole file at `path`.
    func read(_ path: String) throws(FileReadError) -> ResponseBody
    /// `path` with symbolic links, `.` and `..` resolved; nil when nothing is there.
    func realPath(_ path: String) -> String?
}

/// A folder being read: on disk it is held open, so each file's name is resolved from it
/// instead of from the root's whole path again.
package struct FileFolder {
    package let path: String
    /// The open folder; -1 when there is none (memory, or a folder that could not be opened).
    package let descriptor: Int32

    package init(path: String, descriptor: Int32 = -1) {
        self.path = path
        self.descriptor = descriptor
    }
}

/// Why a file could not be read, as a message's end (`cannot read the file: Permission denied`).
package struct FileReadError: Error, CustomStringConvertible {
    package let path: String
    package let reason: String
    package var description: String { reason }

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
