import Synchronization

/// A file source with no files that notes whether anything asked for one: an answer decoded with
/// it learns, without reading, whether it needs the real files (`AdminStep.readFiles`).
final class UnreadFiles: FileSource {
    private let asked = Atomic<Bool>(false)

    init() {}

    /// Something was looked up or read.
    var wereAsked: Bool { asked.load(ordering: .relaxed) }

    var workingDirectory: String? { nil }

    func isFolder(_ path: String) -> Bool { note(false) }

    func exists(_ path: String) -> Bool { note(false) }

    func regularFiles(under root: String) -> [String] { note([]) }

    func withFolder<T>(_ path: String, _ body: (FileFolder) throws -> T) rethrows -> T {
        try body(note(FileFolder(path: path)))
    }

    func read(_ relativePath: String, in folder: FileFolder) throws(FileReadError) -> ResponseBody {
        try read(folder.path + "/" + relativePath)
    }

    func read(_ path: String) throws(FileReadError) -> ResponseBody {
        note(())
        throw FileReadError(path: path, reason: "not read yet")
    }

    func realPath(_ path: String) -> String? { note(nil) }

    private func note<T>(_ result: T) -> T {
        asked.store(true, ordering: .relaxed)
        return result
    }
}
