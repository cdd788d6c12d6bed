package import MockdCore

/// Who reads the configuration again when an admin answer names a reload (the executable's
/// reloader), and what the last reload did, for `GET /__mockd/health`. A class: the server holds
/// it weakly (the reloader holds the server).
package protocol Reloading: AnyObject, Sendable {
    func reload(trigger: String) -> ReloadReport
    /// Read without waiting for a reload in progress (health checks must not stall).
    var lastReload: ReloadReport? { get }
}

/// Who writes the new mock files an admin answer names (`POST /__mockd/mocks`) under the root:
/// atomic (a reload sees the whole file or none), never over an existing file.
package protocol MockFileWriting: Sendable {
    func writeNewFile(relativePath: String, bytes: [UInt8]) -> MockFileWriteResult
}
