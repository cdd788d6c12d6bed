package import MockdCore
import Dispatch

/// Who reads the configuration again when an admin answer names a reload (the executable's
/// reloader), and what the last reload did, for `GET /__mockd/health`. A class: the server holds
/// it weakly (the reloader holds the server).
package protocol Reloading: AnyObject, Sendable {
    func reload(trigger: String) -> ReloadReport
    /// Read without waiting for a reload in progress (health checks must not stall).
    var lastReload: ReloadReport? { get }
}

/// Who writes the new mock files an admin answer names (`POST /__mockd/mocks`) under the root,
/// and new route tables (`POST /__mockd/route-tables`): atomic (a reload sees the whole file or
/// none), never over an existing file.
package protocol MockFileWriting: Sendable {
    func writeNewFile(relativePath: String, bytes: [UInt8]) -> MockFileWriteResult
    /// `path` is absolute.
    func writeNewFile(path: String, bytes: [UInt8]) -> MockFileWriteResult
}

/// Who sends the pushes the core orders (`POST /__mockd/push`, a route's `then`): runs
/// `xcrun simctl push DEVICE BUNDLE -`, or the command `--push-command` names, with the payload
/// on its standard input, and says what came of it. Called on the admin queue, never on a
/// libmicrohttpd thread; it may take seconds (simctl boots nothing, but it is slow).
package protocol PushSending: Sendable {
    func send(_ order: PushOrder) -> PushOutcome
}

/// What the admin executor (`HTTPServer.carryOut`) carries effects out with: its queue, the
/// executable's reloader and mock-file writer, and the files a stub's body is read from.
final class AdminEffectors: Sendable {
    /// Off libmicrohttpd's threads, concurrent, so a session port waiting for its requests
    /// holds up no reload.
    let queue = DispatchQueue(label: "mockd.admin-work", attributes: .concurrent)
    /// Reads the configuration again for `POST /__mockd/reload` (the executable's reloader); nil: cannot reload.
    /// Weak, because the reloader holds the server: the weak reference sits on the reloader, which
    /// requests never touch. (A weak reference to the server would give it a side table and send
    /// every retain and release of it, several per request, down the runtime's slow path.)
    weak let reloads: (any Reloading)?
    /// Writes the files `POST /__mockd/mocks` creates; nil: the server cannot.
    let mockWriter: (any MockFileWriting)?
    /// What a stub's body `"file"` is read from (`AdminStep.readFiles`).
    let files: any FileSource
    /// Sends pushes; nil: the server sends none (501).
    let pusher: (any PushSending)?

    init(reloads: (any Reloading)?, mockWriter: (any MockFileWriting)?, files: any FileSource, pusher: (any PushSending)?) {
        self.reloads = reloads
        self.mockWriter = mockWriter
        self.files = files
        self.pusher = pusher
    }
}
