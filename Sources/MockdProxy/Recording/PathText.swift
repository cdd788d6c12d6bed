/// The few NSString path methods the recorder needs, on plain text (FoundationEssentials has
/// none of them).
enum PathText {
    /// The name after the last `/` (trailing slashes ignored), as `lastPathComponent`.
    static func lastComponent(_ path: String) -> Substring {
        path.split(separator: "/").last ?? Substring(path)
    }

    /// One spelling per path, so two spellings of the same file compare equal: `//` and `.`
    /// segments and a trailing `/` dropped, `..` taken back lexically (`/..` is `/`), as
    /// `standardizingPath` does. Symbolic links are not resolved: the recorder and the
    /// watcher spell a file from the same root, through the same links.
    static func standardized(_ path: String) -> String {
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
