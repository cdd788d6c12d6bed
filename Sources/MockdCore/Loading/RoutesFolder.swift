/// Which folder of route tables goes with a mock root.
///
/// Given (`--routes`, `MOCKD_ROUTES`): that folder, which must exist. Otherwise the `routes/`
/// folder beside the root (`<root>/../routes`, where an app keeps both), then `./routes` of
/// the working directory. A default that does not exist is not an error: there are no routes
/// until one is created, and every load looks again, so a reload picks up a folder made later.
package struct RoutesFolder: Sendable, Equatable {
    /// The folder the user named, if any.
    package let given: String?
    /// Where to look without one, in order.
    package let candidates: [String]

    package init(given: String?, root: String) {
        self.given = given
        if given != nil {
            candidates = []
        } else {
            let beside = Self.besideRoot(root)
            candidates = beside == "routes" ? ["routes"] : [beside, "routes"]
        }
    }

    /// Defaults other than the usual two (tests: the working directory is not theirs to choose).
    init(candidates: [String]) {
        given = nil
        self.candidates = candidates
    }

    /// An explicit folder (tests, embedders).
    package init(_ given: String?) {
        self.given = given
        candidates = []
    }

    /// `--no-routes`: no route tables, wherever a default folder may be.
    package static let none = RoutesFolder(nil)

    /// The folder in use is `./routes` of the working directory, a last resort that is as often
    /// someone else's as the user's.
    private func isWorkingDirectoryFallback(in files: any FileSource) -> Bool {
        guard given == nil, candidates.count > 1, let found = current(in: files) else { return false }
        return found != candidates[0]
    }

    /// Said with the errors of a fallback folder: where it is, why it was used, how to choose.
    func fallbackNote(in files: any FileSource) -> String? {
        guard isWorkingDirectoryFallback(in: files), let found = current(in: files) else { return nil }
        return
            "these route tables are the working directory's routes folder (\(WorkingDirectory.absolute(found, in: files.workingDirectory))), used because "
            + "there is no \(candidates[0]) beside the root; give --routes DIR for the right folder, or --no-routes for none"
    }

    /// The folder to load now: the given one, else the first candidate that exists, else nil.
    package func current(in files: any FileSource) -> String? {
        given ?? candidates.first(where: files.isFolder)
    }

    /// The folders to watch: the given one, or every candidate (missing ones too, so a folder
    /// created after start is seen).
    package var watched: [String] { given.map { [$0] } ?? candidates }

    /// Where recorded routes go: the folder in use, else where a default one would be.
    package func forWriting(in files: any FileSource) -> String {
        current(in: files) ?? candidates.first ?? "routes"
    }

    /// Which folder is in use and why, or where one was looked for: for the startup log.
    package enum Choice: Sendable, Equatable {
        /// `--routes DIR`.
        case given(String)
        /// `--no-routes`.
        case off
        /// The default beside the root.
        case besideRoot(String)
        /// `./routes` of the working directory, none being beside the root.
        case workingDirectory(String)
        /// No default exists (yet): the places looked at, in order.
        case missing(lookedFor: [String])
    }

    package func choice(in files: any FileSource) -> Choice {
        if let given { return .given(given) }
        guard !candidates.isEmpty else { return .off }
        guard let found = current(in: files) else { return .missing(lookedFor: candidates) }
        return found == candidates.first ? .besideRoot(found) : .workingDirectory(found)
    }

    /// `<root>/../routes`, written as simply as the root allows: `~/app/MockData` → `~/app/routes`,
    /// `MockData` → `routes`.
    static func besideRoot(_ root: String) -> String {
        var path = root
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        let last = path.split(separator: "/").last.map(String.init) ?? path
        if path.isEmpty || path == "/" || last == "." || last == ".." { return path + "/../routes" }
        guard let slash = path.lastIndex(of: "/") else { return "routes" }
        let parent = String(path[..<slash])
        return (parent.isEmpty ? "" : parent) + "/routes"
    }
}
