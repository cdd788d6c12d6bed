#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// systemd's readiness protocol (`Type=notify`): datagrams such as `READY=1` sent to the Unix
/// socket named by `NOTIFY_SOCKET`. Does nothing when that variable is not set (always so on a
/// Mac, where it compiles but nothing sets it).
package struct SystemdNotifier: Sendable {
    package let socketPath: String?

    package init(socketPath: String? = SystemdNotifier.environmentSocket) {
        self.socketPath = socketPath
    }

    private static var environmentSocket: String? {
        guard let value = getenv("NOTIFY_SOCKET") else { return nil }
        let path = String(cString: value)
        return path.isEmpty ? nil : path
    }

    package var isEnabled: Bool { socketPath != nil }

    /// Sends `message` (e.g. `"READY=1\nSTATUS=serving 41 files"`). Returns false when it could not.
    @discardableResult
    package func notify(_ message: String) -> Bool {
        guard let socketPath else { return false }
        #if os(Linux)
            let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_DGRAM, 0)  // Darwin has no SOCK_CLOEXEC flag; set it after
            if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        // An abstract socket is written with a leading '@' and sent with a leading NUL.
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count)
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, 0, socketAddress, length) }
            }
        }
        return sent == bytes.count
    }

    /// CLOCK_MONOTONIC in microseconds, which systemd wants with RELOADING=1 (Type=notify-reload).
    package static func monotonicMicroseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1000
    }
}
