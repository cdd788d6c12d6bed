#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
package import MockdCore
import MockdHTTP
import MockdSystem

/// Writes the mock files the dashboard creates (`POST /__mockd/mocks`) under the root, and the
/// route tables an agent creates: folders made as needed, the file written atomically and never
/// over an existing one. The admin API has already checked the path (no `..`).
package struct MockFileWriter: MockFileWriting {
    let root: String

    package init(root: String) {
        self.root = root
    }

    package func writeNewFile(relativePath: String, bytes: [UInt8]) -> MockFileWriteResult {
        writeNewFile(path: root + "/" + relativePath, bytes: bytes)
    }

    package func writeNewFile(path: String, bytes: [UInt8]) -> MockFileWriteResult {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return .failed("cannot make the folder \(folder): \(error)")
        }
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(bytes, to: path, replace: false)
            return .written
        } catch {
            return error.alreadyExists ? .exists : .failed(error.reason)
        }
    }
}
