#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Polling walk

enum Polling {
    /// What a walk compares. Folders record only that they exist (and their inode), not their
    /// mtime, which also changes when a hidden file is written in them.
    struct Stamp: Equatable, Sendable {
        var isFolder: Bool
        var inode: UInt64
        var size: Int64 = 0
        var mtime: Int = 0
        var mtimeNanoseconds: Int = 0
        var ctime: Int = 0
        var ctimeNanoseconds: Int = 0
    }

    static func snapshot(_ roots: [String], ignore: (String) -> Bool) -> [String: Stamp] {
        var result: [String: Stamp] = [:]
        for root in roots {
            var visited = Set<FileID>()
            var info = stat()
            guard stat(root, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            result[root] = Stamp(isFolder: true, inode: UInt64(info.st_ino))
            visited.insert(FileID(info))
            walk(root, visited: &visited, into: &result, ignore: ignore)
        }
        return result
    }

    private static func walk(_ root: String, visited: inout Set<FileID>, into result: inout [String: Stamp], ignore: (String) -> Bool) {
        let options = DirectoryWalker.Options(includeHidden: true, statEveryEntry: true)
        DirectoryWalker.walk(root, options: options, visited: &visited) { entry in
            if entry.isHidden {
                // Only a hidden link to a folder counts (a Kubernetes `..data` swap).
                var info = stat()
                if DirectoryWalker.isLinkToFolder(entry.path), lstat(entry.path, &info) == 0 {
                    result[entry.path] = stamp(info, isFolder: false)
                }
                return .skip
            }
            guard let info = entry.info, !ignore(entry.path) else { return .skip }
            switch entry.kind {
            case .folder:
                result[entry.path] = Stamp(isFolder: true, inode: UInt64(info.st_ino))
                return .descend
            case .regularFile:
                result[entry.path] = stamp(info, isFolder: false)
                return .skip
            case .other:
                return .skip
            }
        }
    }

    private static func stamp(_ info: stat, isFolder: Bool) -> Stamp {
        #if os(Linux)
            let (mtime, ctime) = (info.st_mtim, info.st_ctim)
        #else
            let (mtime, ctime) = (info.st_mtimespec, info.st_ctimespec)
        #endif
        return Stamp(
            isFolder: isFolder, inode: UInt64(info.st_ino), size: Int64(info.st_size),
            mtime: Int(mtime.tv_sec), mtimeNanoseconds: Int(mtime.tv_nsec),
            ctime: Int(ctime.tv_sec), ctimeNanoseconds: Int(ctime.tv_nsec))
    }
}
