import Synchronization

/// A file source with no files that notes whether anything asked for one: an answer decoded with
/// it learns, without reading, whether it needs the real files (`AdminStep.readFiles`).
package final class UnreadFiles: FileSource {
    private let asked = Atomic<Bool>(false)

    package init() {}

    /// Something was looked up or read.
    package var wereAsked: Bool { asked.load(ordering: .relaxed) }

    package var workingDirectory: String? { nil }

    package func isFolder(_ path: String) -> Bool { note(false) }

    package func exists(_ path: String) -> Bool { note(false) }

    package func regularFiles(under root: String) -> [String] { note([]) }

    package func withFolder<T>(_ path: String, _ body: (FileFolder) throws -> T) rethrows -> T {
        try body(note(FileFolder(path: path)))
    }

    package func read(_ relativePath: String, in folder: FileFolder) throws(FileReadError) -> ResponseBody {
        try read(folder.path + "/" + relativePath)
    }

    package func read(_ path: String) throws(FileReadError) -> ResponseBody {
        note(())
        throw FileReadError(path: path, reason: "not read yet")
    }

    package func realPath(_ path: String) -> String? { note(nil) }

    private func note<T>(_ result: T) -> T {
        asked.store(true, ordering: .relaxed)
        return result
    }
}
