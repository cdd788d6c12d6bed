/// Paths as the user can find them in a message: a relative path is relative to where mockd
/// was started, which is not always where the user thinks. The working directory is a fact the
/// file source gives (`FileSource.workingDirectory`); the core never asks the system for it.
enum WorkingDirectory {
    /// `path` made absolute against `directory` (unchanged when it already is, or when nil).
    static func absolute(_ path: String, in directory: String?) -> String {
        if path.hasPrefix("/") { return path }
        guard let directory else { return path }
        return directory + "/" + path
    }

    /// `path` made absolute against `directory`, with `.`, `..` and repeated slashes taken out
    /// by name (symbolic links are kept as the user named them): `./MockData` → `/home/me/app/MockData`.
    static func normalized(_ path: String, in directory: String?) -> String {
        var parts: [Substring] = []
        for part in absolute(path, in: directory).split(separator: "/") {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Why `path` (which is not a folder) cannot be used: a file, or nothing at all (then where it looked).
    static func whyNotAFolder(_ path: String, what: String, option: String, files: any FileSource) -> String {
        if files.exists(path) {
            return "\(what) is a file, not a folder (give the folder with \(option) DIR)"
        }
        let absolute = absolute(path, in: files.workingDirectory)
        let place = absolute == path ? "" : ": looked for \(absolute)"
        return "\(what) folder does not exist\(place) (give it with \(option) DIR)"
    }
}
