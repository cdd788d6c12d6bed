#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MockdSystem

/// The pid file of `mockd serve --background` and `mockd stop`: the process id in decimal and
/// a newline, written atomically once the mockd it names answers its health check.
struct PidFile {
    let path: String

    enum State: Equatable {
        /// No file at the path.
        case absent
        /// The file names a mockd that is running.
        case running(pid_t)
        /// The file names no running process of this program (it exited, or the id now belongs
        /// to another program), or holds no process id: left by a mockd that did not stop cleanly.
        case stale(String)
    }

    func state() -> State {
        guard FileReading.exists(path) else { return .absent }
        guard let (memory, count) = try? FileReading.read(path) else { return .stale("it cannot be read") }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: memory[..<count]), as: UTF8.self)
        memory.deallocate()
        let trimmed = text.split(whereSeparator: { $0 == "\n" || $0 == " " }).first.map(String.init) ?? ""
        guard let pid = pid_t(trimmed), pid > 0 else { return .stale("it holds no process id (\(trimmed.prefix(20).debugDescription))") }
        guard let name = DetachedProcess.runningName(pid) else { return .stale("process \(pid) is not running") }
        // Another program's now, when mockd exited and the id was reused: not ours to signal.
        guard name == DetachedProcess.runningName(getpid()) else { return .stale("process \(pid) is \(name), not a mockd") }
        return .running(pid)
    }

    /// Writes `pid`; replaces a file only when `replacing` (a stale one), else fails if one appeared.
    func write(_ pid: pid_t, replacing: Bool) throws(AtomicFile.WriteError) {
        try AtomicFile.write(Array("\(pid)\n".utf8), to: path, replace: replacing)
    }

    func remove() {
        try? AtomicFile.remove(path)
    }
}
