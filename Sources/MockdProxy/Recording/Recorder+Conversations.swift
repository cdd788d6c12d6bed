#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
package import MockdCore
import MockdSystem
import MockdLock
import Dispatch
import Synchronization

/// Writing a relayed WebSocket conversation as `mock_<path>_get.ws` (`--record`), beside the
/// mock files, under the rules answers follow: the first conversation of a path in a run, never
/// over an existing file unless `overwrite`, atomically.
extension Recorder {
    /// Records `transcript`, the conversation relayed on `path`, on the recorder's own thread
    /// (the write fsyncs); the outcome is logged there.
    package func recordConversationOffThePool(path: String, _ transcript: WebSocketTranscript) {
        writer.async { _ = self.recordConversation(path: path, transcript) }
    }

    /// Does blocking file I/O: call it off the server's network threads.
    package func recordConversation(path: String, _ transcript: WebSocketTranscript) -> RecordOutcome {
        let path = Self.normalized(path)
        let key = "WEBSOCKET " + path
        let json = MockFileName.forRequest(method: "GET", path: path)
        let name = String(json.dropLast(".json".count)) + ".ws"
        guard transcript.entries.count > 0 else { return .skipped("no message went either way") }
        guard Self.isSafeFileName(json) else { return .skipped("the path makes no safe file name") }
        return seen.withLock { seen -> RecordOutcome in
            let count = seen[key, default: 0] + 1
            if count > 1 || seen.count < Self.maxTracked { seen[key] = count }
            if count > 1 { return .duplicate(count) }
            let target = root + "/" + mockFolder + name
            let outcome: RecordOutcome
            do {
                try perform(.init(path: target, bytes: Array(transcript.fileText.utf8), replace: overwrite, isMockFile: true))
                outcome = .wroteMock(target)
            } catch let error as AtomicFile.WriteError where error.alreadyExists {
                outcome = .keptExisting(target)
            } catch {
                outcome = .failed("\(target): \(Self.describe(error))")
            }
            log(outcome, for: key)
            return outcome
        }
    }
}
