#if canImport(Glibc)
    package import Glibc
#elseif canImport(Darwin)
    package import Darwin
#endif

/// The one directory walk of mockd: the loader lists mock files with it, the file watcher
/// stamps or watches folders with it. POSIX `opendir`/`readdir` directly: Foundation's
/// enumerator and URL types are far slower on 10,000 files.
///
/// Depth first, in directory order. Symbolic links are followed (an entry's `kind` is what it
/// points to). Folders are read to a depth of 64 below the root, which also ends link cycles;
/// pass `visited` to read each folder only once instead. A folder's entries are listed and its
/// handle closed before any of them is visited, so a deep tree holds one descriptor at a time.
package enum DirectoryWalker {
    package enum Kind: Sendable, Equatable {
        case folder, regularFile, other
    }

    /// One entry of a folder being walked.
    package struct Entry {
        /// The entry's own name.
        package let name: String
        /// The folder's path + "/" + `name`, spelled from the root as given.
        package let path: String
        /// The path below the root, e.g. `users/mock_api_users_get.json`.
        package var relativePath: String { prefix + name }
        /// What it is, links followed (`other` for a dangling link or a device).
        package let kind: Kind
        /// Its `stat` (links followed), when the walk made one: with `Options.statEveryEntry`,
        /// and always for links, for entries whose type readdir did not give, and for folders
        /// when a `visited` set is passed.
        package let info: stat?
        /// How many folders down from the root (0: an entry of the root).
        package let depth: Int
        /// A folder already walked through another path (only with a `visited` set): it is
        /// not descended into again.
        package internal(set) var isRevisit = false
        let prefix: String

        var isHidden: Bool { name.hasPrefix(".") }
    }

    package struct Options: Sendable {
        /// Visit entries whose name starts with `.` (never descended into). Off: skipped before
        /// any `stat` (`.git`, editor swap files, atomic-write temporaries).
        package var includeHidden = false
        /// Only entries that may be folders (or links to them) are visited; the rest are skipped
        /// before a String is made (a folder of 10,000 mocks would cost 20,000 strings).
        package var foldersOnly = false
        /// `stat` every entry (for sizes and times), not only those readdir cannot type.
        package var statEveryEntry = false

        package init(includeHidden: Bool = false, foldersOnly: Bool = false, statEveryEntry: Bool = false) {
            self.includeHidden = includeHidden
            self.foldersOnly = foldersOnly
            self.statEveryEntry = statEveryEntry
        }
    }

    /// What the visitor wants next.
    package enum Decision {
        /// Go on; for a folder (not hidden), also walk what is inside it.
        case descend
        /// Go on, but not into this folder.
        case skip
        /// End the whole walk now.
        case stop
    }

    /// The deepest folder level read (0 is the root's own entries).
    package static let maxDepth = 64

    /// Walks the folders below `root` (the root itself is not visited). Returns false when the
    /// visitor stopped the walk.
    @discardableResult
    package static func walk(_ root: String, options: Options = Options(), _ visit: (Entry) -> Decision) -> Bool {
        var visited: Set<FileID>? = nil
        return walk(root, prefix: "", depth: 0, options: options, visited: &visited, visit)
    }

    /// As `walk`, but each folder (by device and inode) is read once: the first spelling that
    /// reaches it wins, and a link to a folder already walked is visited but not descended.
    /// Put the roots' own IDs in `visited` first to keep the walk from coming back to them.
    @discardableResult
    package static func walk(_ root: String, options: Options = Options(), visited: inout Set<FileID>, _ visit: (Entry) -> Decision) -> Bool
    {
        var set: Set<FileID>? = visited
        defer { visited = set ?? [] }
        return walk(root, prefix: "", depth: 0, options: options, visited: &set, visit)
    }

    private static func walk(
        _ folder: String, prefix: String, depth: Int, options: Options, visited: inout Set<FileID>?,
        _ visit: (Entry) -> Decision
    ) -> Bool {
        guard depth < maxDepth else { return true }
        for var entry in entries(of: folder, prefix: prefix, depth: depth, options: options, statFolders: visited != nil) {
            let id = entry.kind == .folder ? entry.info.map(FileID.init) : nil
            if let id, visited?.contains(id) == true { entry.isRevisit = true }
            switch visit(entry) {
            case .stop:
                return false
            case .skip:
                continue
            case .descend:
                guard entry.kind == .folder, !entry.isHidden, !entry.isRevisit else { continue }
                if let id { visited?.insert(id) }
                if !walk(entry.path, prefix: entry.prefix + entry.name + "/", depth: depth + 1, options: options, visited: &visited, visit)
                {
                    return false
                }
            }
        }
        return true
    }

    /// The entries of one folder but `.` and `..`, typed, with the handle closed again.
    private static func entries(of folder: String, prefix: String, depth: Int, options: Options, statFolders: Bool) -> [Entry] {
        guard let handle = opendir(folder) else { return [] }
        defer { closedir(handle) }
        var result: [Entry] = []
        while let raw = readdir(handle) {
            let type = raw.pointee.d_type
            let mayBeFolder = type == UInt8(DT_DIR) || type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN)
            if options.foldersOnly && !mayBeFolder { continue }
            let name = withUnsafeBytes(of: raw.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            if name.hasPrefix(".") && !options.includeHidden { continue }
            let path = folder + "/" + name
            var kind: Kind = type == UInt8(DT_DIR) ? .folder : type == UInt8(DT_REG) ? .regularFile : .other
            var info: stat? = nil
            if options.statEveryEntry || type == UInt8(DT_UNKNOWN) || type == UInt8(DT_LNK) || (statFolders && kind == .folder) {
                var status = stat()
                if stat(path, &status) == 0 {
                    info = status
                    kind = Self.kind(of: status)
                } else {
                    kind = .other  // gone meanwhile, or a dangling link
                }
            }
            result.append(Entry(name: name, path: path, kind: kind, info: info, depth: depth, prefix: prefix))
        }
        return result
    }

    package static func kind(of info: stat) -> Kind {
        switch info.st_mode & S_IFMT {
        case S_IFDIR: .folder
        case S_IFREG: .regularFile
        default: .other
        }
    }

    /// True for a folder, or a symbolic link to one.
    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// True for a symbolic link that points to a folder.
    static func isLinkToFolder(_ path: String) -> Bool {
        var link = stat()
        var target = stat()
        return lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
            && stat(path, &target) == 0 && (target.st_mode & S_IFMT) == S_IFDIR
    }
}

/// A file's identity (device and inode), to walk each folder once when symbolic links loop.
package struct FileID: Hashable, Sendable {
    package let device: UInt64
    package let inode: UInt64

    package init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)  // dev_t is signed on Darwin
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }
}
