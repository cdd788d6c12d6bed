import Dispatch
package import MockdCore

/// A WebSocket conversation as `mock_<path>_get.ws`, beside the mock files: relayed ones
/// (`--record`) and Chrome's captured ones (`mockd import`), under the rules answers follow.
extension Recorder {
    /// Records `transcript`, the conversation relayed on `path`, on the recorder's own thread
    /// (the write fsyncs); the outcome is logged there.
    package func recordConversationOffThePool(path: String, _ transcript: WebSocketTranscript) {
        writer.async { _ = self.recordConversation(path: path, transcript) }
    }

    /// The first conversation of a path in a run. Does blocking file I/O: call it off the
    /// server's network threads.
    package func recordConversation(path: String, _ transcript: WebSocketTranscript) -> RecordOutcome {
        guard !transcript.entries.isEmpty else { return .skipped("no message went either way") }
        let path = Self.normalized(path)
        return once("WEBSOCKET " + path) {
            switch RouteTable.read(routesFile) {
            case .success(let table):
                return apply(planConversation(path: path, text: transcript.fileText, table: table, existingMockFile: findMockFile(named:)))
            case .failure(let problem):
                return .failed(problem.message)
            }
        }
    }

    /// The plan for a conversation on `path` (normalized): `mock_<path>_get.ws` in the root (or
    /// the scenario's folder), kept when a mock already answers the upgrade's GET unless
    /// overwriting. A `.json` or `.sse` file answering it is never replaced by a `.ws` beside it
    /// (both would answer the same request): the conversation is skipped, saying which file to remove.
    func planConversation(path: String, text: String, table: RouteTable, existingMockFile: (String) -> String?) -> RecordPlan {
        let name = MockFileName.forRequest(method: "GET", path: path)
        guard Self.isSafeFileName(name), case .mock(let method, _) = MockFileName.parse(name), method == "GET" else {
            return RecordPlan(outcome: .skipped("the path cannot be a mock file's name, and a conversation is only written as a .ws file"))
        }
        let stem = String(name.dropLast(".json".count))
        let fileName = stem + ".ws"
        let existing = existingMockFile(name) ?? existingMockFile(fileName) ?? existingMockFile(stem + ".sse")
        let existingRoutes = table.indices(method: "GET", path: path, scenario: scenario)
        if !overwrite {
            if let existing { return RecordPlan(outcome: .keptExisting(root + "/" + existing)) }
            if let index = existingRoutes.first { return RecordPlan(outcome: .keptExisting("\(routesFile)#\(index)")) }
        }
        if let existing, !existing.hasSuffix(".ws") {
            return RecordPlan(
                outcome: .skipped("\(root)/\(existing) answers GET \(path) too; remove it to import the conversation as \(fileName)"))
        }
        return .mockFile(
            root + "/" + (existing ?? mockFolder + fileName), Array(text.utf8), replace: overwrite, shadowing: existingRoutes, in: table)
    }
}
