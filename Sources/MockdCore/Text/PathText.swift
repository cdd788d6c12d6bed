/// The few path methods mockd needs, on plain text (FoundationEssentials has none of NSString's).
package enum PathText {
    /// How `lastComponent(_:_:)` reads a path. Each caller names the reading it has always had.
    package enum Reading: Sendable {
        /// The file system's: every `/` byte separates, so `a/` ends in an empty name, and a name
        /// may begin with a combining mark. The loader's, on the relative paths of files it walked.
        case bytes
        /// NSString's `lastPathComponent`: trailing slashes ignored, a path of slashes alone is
        /// itself, and the separators found among Characters (a `/` with a combining mark after it
        /// is one Character, not a separator). The recorder's, on the paths it writes and watches.
        case lastPathComponent
    }

    /// The name after the last `/`, as `reading` has it.
    package static func lastComponent(_ path: String, _ reading: Reading) -> Substring {
        switch reading {
        case .lastPathComponent:
            return path.split(separator: "/").last ?? path[...]
        case .bytes:
            // On the contiguous bytes, not with the UTF-8 view's generic `lastIndex(of:)`: this
            // runs for every file at load.
            let slash =
                path.utf8.withContiguousStorageIfAvailable { bytes in
                    bytes.lastIndex(of: UInt8(ascii: "/"))
                } ?? path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path.utf8.distance(from: path.utf8.startIndex, to: $0) }
            guard let slash else { return path[...] }
            let utf8 = path.utf8
            return path[utf8.index(utf8.startIndex, offsetBy: slash + 1)...]
        }
    }

    /// Without trailing slashes (`/` alone stays): a folder as the user gave it, for messages and
    /// for joining names to.
    package static func withoutTrailingSlashes(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// One spelling per path, so two spellings of the same file compare equal: `//` and `.`
    /// segments and a trailing `/` dropped, `..` taken back lexically (`/..` is `/`), as
    /// `standardizingPath` does. Symbolic links are not resolved: the recorder and the
    /// watcher spell a file from the same root, through the same links.
    package static func standardized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".":
                continue
            case "..":
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !absolute {
                    parts.append(part)
                }
            default:
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
