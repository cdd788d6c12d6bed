import MockdSystem

/// Paths as the user can find them in a message: a relative path is relative to where mockd
/// was started, which is not always where the user thinks.
package enum WorkingDirectory {
    /// `path` made absolute against the working directory (unchanged when it already is).
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let directory = FileReading.workingDirectory() else { return path }
        return directory + "/" + path
    }

    /// `path` made absolute, with `.`, `..` and repeated slashes taken out by name (symbolic
    /// links are kept as the user named them): `./MockData` → `/home/me/app/MockData`.
    package static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in absolute(path).split(separator: "/") {
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
        let absolute = absolute(path)
        let place = absolute == path ? "" : ": looked for \(absolute)"
        return "\(what) folder does not exist\(place) (give it with \(option) DIR)"
    }
}
