#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - inotify

#if os(Linux)
    enum Inotify {
        enum OpenError: Error {
            /// A given path cannot be watched: `start()` throws.
            case root(FileWatcher.WatchError)
            /// inotify itself is unusable (no instance, watch limit reached): poll instead.
            case unavailable(String)
        }

        static let mask = UInt32(
            IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

        static func open(roots: [String], mayBeMissing: Set<String>, ignore: (String) -> Bool) -> Result<(Int32, Table), OpenError> {
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else {
                return .failure(.unavailable("inotify_init1 failed: \(FileWatcher.describe(errno))"))
            }
            var table = Table()
            do throws(OpenError) {
                try table.build(fd: fd, roots: roots, ignore: ignore, strict: true, mayBeMissing: mayBeMissing)
            } catch {
                close(fd)
                return .failure(error)
            }
            return .success((fd, table))
        }

        struct Entry: Sendable {
            /// The folder as reached from a watched path (the first spelling seen, if several).
            var path: String
            /// A folder of the watched trees (not only the parent of a watched symbolic link).
            var inTree: Bool
            /// Names in this folder that are watched paths which are symbolic links.
            var linkNames: Set<String> = []
        }

        /// The watch descriptors and what they stand for. Owned by the watcher thread once running.
        struct Table: Sendable {
            var entries: [Int32: Entry] = [:]
            /// Roots that could not be watched, with what stood at the path then (nil: nothing).
            private(set) var missing: [String: FileID?] = [:]
            var missingRootCount: Int { missing.count }
            var missingRoots: Bool { !missing.isEmpty }

            /// Whether something other than before now stands at a missing root's path. Only a few
            /// `stat` calls: the idle watcher asks this every poll interval, and only a yes is worth
            /// `rebuild`, which lists every folder of every tree (10,000 files: ~5 ms a time).
            func missingRootMayBeBack() -> Bool {
                missing.contains { root, before in Self.identity(of: root) != before }
            }

            private static func identity(of path: String) -> FileID? {
                var info = stat()
                return stat(path, &info) == 0 ? FileID(info) : nil
            }

            /// Watches every folder under `roots`. `strict`: a root that cannot be watched is an error
            /// (at start); otherwise it is counted as missing and looked for again later.
            mutating func build(fd: Int32, roots: [String], ignore: (String) -> Bool, strict: Bool, mayBeMissing: Set<String> = [])
                throws(OpenError)
            {
                var visited = Set<FileID>()
                missing = [:]
                for root in roots {
                    let wd = inotify_add_watch(fd, root, Inotify.mask)
                    if wd < 0 {
                        let code = errno
                        if code == ENOSPC || code == ENOMEM { throw .unavailable(limitMessage(code)) }
                        if strict && !(mayBeMissing.contains(root) && code == ENOENT) {
                            throw .root(FileWatcher.WatchError(path: root, reason: FileWatcher.describe(code)))
                        }
                        missing[root] = Self.identity(of: root)
                        continue
                    }
                    mark(wd, path: root)
                    var info = stat()
                    if stat(root, &info) == 0 { visited.insert(FileID(info)) }
                    try addTree(root, fd: fd, visited: &visited, ignore: ignore)
                    // A root that is a symbolic link: watch its parent for that name being swapped.
                    var linkInfo = stat()
                    if lstat(root, &linkInfo) == 0, (linkInfo.st_mode & S_IFMT) == S_IFLNK {
                        let (parent, name) = split(root)
                        let parentWD = inotify_add_watch(fd, parent, Inotify.mask)
                        if parentWD >= 0 {
                            entries[parentWD, default: Entry(path: parent, inTree: false)].linkNames.insert(name)
                        }
                    }
                }
            }

            /// Rebuilds the table from a fresh walk and drops watches on folders no longer reached.
            mutating func rebuild(fd: Int32, roots: [String], ignore: (String) -> Bool) {
                let old = entries
                entries = [:]
                do throws(OpenError) {
                    try build(fd: fd, roots: roots, ignore: ignore, strict: false)
                } catch {
                    // Watch limit reached: keep what could be added and carry on.
                }
                for wd in old.keys where entries[wd] == nil {
                    inotify_rm_watch(fd, wd)  // its IN_IGNORED then finds no entry and is skipped
                }
            }

            private mutating func mark(_ wd: Int32, path: String) {
                if var entry = entries[wd] {
                    if !entry.inTree { entry.path = path; entry.inTree = true }
                    entries[wd] = entry
                } else {
                    entries[wd] = Entry(path: path, inTree: true)
                }
            }

            /// Watches the folders below `folder` (not `folder` itself).
            mutating func addTree(_ folder: String, fd: Int32, visited: inout Set<FileID>, ignore: (String) -> Bool) throws(OpenError) {
                var failure: OpenError?
                DirectoryWalker.walk(folder, options: DirectoryWalker.Options(foldersOnly: true), visited: &visited) { entry in
                    guard entry.kind == .folder, !entry.isRevisit, !ignore(entry.path) else { return .skip }
                    let wd = inotify_add_watch(fd, entry.path, Inotify.mask)
                    if wd < 0 {
                        let code = errno
                        if code == ENOSPC || code == ENOMEM {
                            failure = .unavailable(limitMessage(code))
                            return .stop
                        }
                        return .skip  // gone meanwhile, or unreadable (then the loader cannot read it either)
                    }
                    mark(wd, path: entry.path)
                    return .descend
                }
                if let failure { throw failure }
            }

            /// Reads a batch of events; returns whether any of them counts as a change.
            mutating func handle(events: UnsafeRawBufferPointer, fd: Int32, ignore: (String) -> Bool) -> Bool {
                var changed = false
                var offset = 0
                let header = 16  // wd, mask, cookie, len: four 32-bit fields, then the name
                while offset + header <= events.count {
                    let wd = events.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = events.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(events.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = events[(offset + header)..<min(offset + header + length, events.count)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    offset += header + length
                    if counts(wd: wd, mask: mask, name: name, fd: fd, ignore: ignore) { changed = true }
                }
                return changed
            }

            private mutating func counts(wd: Int32, mask: UInt32, name: String, fd: Int32, ignore: (String) -> Bool) -> Bool {
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { return true }  // events were lost: reload to be sure
                guard let entry = entries[wd] else { return false }
                if name.isEmpty {
                    // The watched folder itself was deleted, moved, or its watch ended.
                    if mask & UInt32(IN_IGNORED) != 0 {
                        entries[wd] = nil
                        return entry.inTree
                    }
                    return entry.inTree && mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0
                }
                if entry.linkNames.contains(name) { return true }
                guard entry.inTree else { return false }
                let path = entry.path + "/" + name
                if name.hasPrefix(".") {
                    return mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 && DirectoryWalker.isLinkToFolder(path)
                }
                if ignore(path) { return false }
                if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                    // Watch the new folder now, so files written into it next are seen.
                    var visited = Set<FileID>()
                    let wd = inotify_add_watch(fd, path, Inotify.mask)
                    if wd >= 0 {
                        mark(wd, path: path)
                        try? addTree(path, fd: fd, visited: &visited, ignore: ignore)
                    }
                }
                return true
            }

            private func limitMessage(_ code: Int32) -> String {
                let detail =
                    code == ENOSPC ? "the inotify watch limit is reached (raise fs.inotify.max_user_watches)" : FileWatcher.describe(code)
                return "inotify_add_watch failed: \(detail)"
            }

            private func split(_ path: String) -> (parent: String, name: String) {
                guard let slash = path.lastIndex(of: "/") else { return (".", path) }
                let parent = String(path[..<slash])
                return (parent.isEmpty ? "/" : parent, String(path[path.index(after: slash)...]))
            }
        }
    }
#endif
