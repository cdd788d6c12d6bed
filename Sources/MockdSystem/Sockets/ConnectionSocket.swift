#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few calls the HTTP adapter makes on a connection's socket behind libmicrohttpd's back:
/// to reset it, to end what it sends, to send a last answer itself. Linux and Darwin differ
/// only in the flag that keeps a send to a closed peer from raising SIGPIPE.
package enum ConnectionSocket {
    /// A zero linger: closing the socket then sends RST, which is what a dropped connection
    /// looks like to a client (with TURBO mode libmicrohttpd skips its orderly shutdown).
    package static func resetOnClose(_ fd: Int32) {
        guard fd >= 0 else { return }
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// FIN now: the client sees the end of what was sent while libmicrohttpd still holds the socket.
    package static func shutDownSending(_ fd: Int32) {
        guard fd >= 0 else { return }
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// The peer closed its side (a read would see the end): a client that left. Never waits,
    /// and takes nothing from the socket (a peek).
    package static func peerHasClosed(_ fd: Int32) -> Bool {
        guard fd >= 0 else { return true }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Sends `bytes` without waiting (what does not fit is dropped), then shuts both ways.
    package static func sendLastAndShut(_ fd: Int32, _ bytes: [UInt8]) {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
        #else
            let flags = MSG_DONTWAIT  // Darwin: SO_NOSIGPIPE would be per socket; the send is best effort
        #endif
        if !bytes.isEmpty { _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, flags) } }
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Small writes go out at once (no Nagle): a WebSocket message must not wait for the ACK of
    /// the one before it, which a client's delayed ACK holds back for tens of milliseconds.
    package static func sendAtOnce(_ fd: Int32) {
        guard fd >= 0 else { return }
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// What a read or a write without waiting did.
    package enum Transfer: Equatable {
        /// So many bytes (more than zero).
        case done(Int)
        /// Nothing now; the socket says when (a dispatch source on it).
        case wouldBlock
        /// The peer closed its side (a read of zero).
        case ended
        /// An error (errno).
        case failed(Int32)
    }

    /// Reads up to `count` bytes without waiting (an upgraded WebSocket's socket, which mockd
    /// reads itself).
    package static func readNow(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Transfer {
        while true {
            let result = recv(fd, buffer, count, Int32(MSG_DONTWAIT))
            if result > 0 { return .done(result) }
            if result == 0 { return .ended }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed(errno)
        }
    }

    /// Writes up to `count` bytes without waiting and without SIGPIPE.
    package static func writeNow(_ fd: Int32, from buffer: UnsafeRawPointer, count: Int) -> Transfer {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
        #else
            let flags = MSG_DONTWAIT
            var on: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        while true {
            let result = send(fd, buffer, count, flags)
            if result >= 0 { return .done(result) }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed(errno)
        }
    }
}
