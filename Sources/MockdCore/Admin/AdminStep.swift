/// An admin answer, one step at a time: ready, or waiting on one effect that the core names and
/// an adapter carries out, because the core does no I/O. Each effect's case carries what to do
/// with its result, which gives the next step; the adapter runs effects off its request threads
/// and sends the answer the last step gives.
package enum AdminStep: Sendable {
    /// The answer.
    case answer(BuiltResponse)
    /// Read the files, routes and documents again and serve them if they are valid
    /// (`POST /__mockd/reload`, and after a new mock file).
    case reload(trigger: String, then: @Sendable (ReloadReport) -> AdminStep)
    /// Write a new file under the mock root: its folders made, atomically, never over a file
    /// that exists. The core has checked the path (relative, no `..`).
    case writeMockFile(relativePath: String, bytes: [UInt8], then: @Sendable (MockFileWriteResult) -> AdminStep)
    /// Write a new route table at `path` (absolute, in the routes folder), as a mock file is written.
    case writeRouteTable(path: String, bytes: [UInt8], then: @Sendable (MockFileWriteResult) -> AdminStep)
    /// Open a port of the session's own (`id` nil: the adapter chooses one); a failure is the
    /// refusal the admin API answers with.
    case openSessionPort(id: String?, then: @Sendable (Result<SessionPort, ErrorAnswer>) -> AdminStep)
    /// Close the session's port once its requests in flight are done; the result says whether
    /// there was one.
    case closeSessionPort(id: String, then: @Sendable (Bool) -> AdminStep)
    /// Read files below the mock root (a stub's body `"file"`), through the source the result gives.
    case readFiles(then: @Sendable (any FileSource) -> AdminStep)
    /// Push to, list or close the open WebSocket connections, which the adapter holds.
    case webSockets(WebSocketCommand, then: @Sendable (WebSocketReport) -> AdminStep)
    /// Send a push to a simulator (the push command, `simctl push DEVICE BUNDLE -`) now, or
    /// after the order's delay without holding the answer; the adapter writes its journal entry.
    case push(PushOrder, then: @Sendable (PushDelivery) -> AdminStep)
    /// Write a warning line to mockd's log (a stub whose GraphQL answer does not fit the
    /// schema), then go on: the core writes no log of its own.
    case logWarning(String, then: @Sendable () -> AdminStep)

    /// The answer, when no effect is left to carry out.
    package var answer: BuiltResponse? {
        if case .answer(let response) = self { response } else { nil }
    }
}

extension ReloadReport {
    /// What a server that cannot reload (it was started without a reloader) reports.
    package static func unavailable(trigger: String) -> ReloadReport {
        ReloadReport(
            time: 0, ok: false, files: 0, routes: 0, errors: ["reload is not available"], durationMilliseconds: 0, trigger: trigger)
    }
}
