/// Paths as text, the one way mockd splits them (FoundationEssentials has no NSString path
/// methods, and these are the few the atomic writer, the recorder and the OpenAPI reader need).
package enum FilePath {
    /// The folder holding `path`, as `deletingLastPathComponent`, but "." for a bare name and
    /// "/" for a file at the root; trailing slashes ignored.
    package static func folder(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        var folder = path[..<slash]
        while folder.hasSuffix("/") { folder.removeLast() }
        return folder.isEmpty ? "/" : String(folder)
    }
}
