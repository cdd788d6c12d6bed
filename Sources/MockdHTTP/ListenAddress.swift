#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MockdSystem

/// One address to bind, as the sockaddr libmicrohttpd wants.
struct ListenAddress: Sendable {
    var storage: sockaddr_storage
    var isIPv6: Bool

    /// Text for the startup line: `127.0.0.1` or `[::1]`.
    var hostText: String {
        var storage = self.storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout<sockaddr_storage>.size) { raw in
                if isIPv6 {
                    raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                        var value = address.pointee.sin6_addr
                        _ = inet_ntop(AF_INET6, &value, &buffer, socklen_t(buffer.count))
                    }
                } else {
                    raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                        var value = address.pointee.sin_addr
                        _ = inet_ntop(AF_INET, &value, &buffer, socklen_t(buffer.count))
                    }
                }
            }
        }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return isIPv6 ? "[\(text)]" : text
    }

    /// Every address for `host` on `port`. `localhost` means both loopbacks, so a simulator
    /// that tries `::1` first is answered too.
    static func resolve(host: String, port: Int) throws(ServerError) -> [ListenAddress] {
        if host == "localhost" {
            return try resolve(host: "127.0.0.1", port: port) + resolve(host: "::1", port: port)
        }
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SystemCalls.streamSocketType
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else {
            throw .cannotResolve(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var addresses: [ListenAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            let family = info.pointee.ai_family
            if family == AF_INET || family == AF_INET6, let address = info.pointee.ai_addr {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen)))
                }
                let candidate = ListenAddress(storage: storage, isIPv6: family == AF_INET6)
                if !addresses.contains(where: { $0.hostText == candidate.hostText }) { addresses.append(candidate) }
            }
            cursor = info.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw .cannotResolve(host: host, reason: "no IPv4 or IPv6 address") }
        return addresses
    }

    /// True when `host` names only loopback addresses: 127.0.0.0/8, ::1, localhost. Textual
    /// (no resolver call): it is read when a request is journaled.
    static func isLoopback(host: String) -> Bool {
        if host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.dropFirst().allSatisfy { UInt8($0) != nil }
    }

    /// Why binding this address fails, as an `errno`; nil when it can be bound now. Asked after
    /// libmicrohttpd could not start: 1.0 closes its socket before returning, which leaves
    /// `errno` at EBADF instead of the bind's reason. Bound with SO_REUSEADDR, as libmicrohttpd binds.
    func bindError() -> Int32? {
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, SystemCalls.streamSocketType, 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if isIPv6 { setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size)) }
        var storage = self.storage
        let length = socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        return bound == 0 ? nil : errno
    }

    /// The same address with another port (the second family of `localhost` takes the port the first got).
    func with(port: Int) -> ListenAddress {
        var copy = self
        withUnsafeMutableBytes(of: &copy.storage) { raw in
            if isIPv6 {
                raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self).pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
            } else {
                raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self).pointee.sin_port = in_port_t(UInt16(port).bigEndian)
            }
        }
        return copy
    }
}

/// Why the server could not start, with what the user can do about it, and the system's code
/// (`errno`) behind it: a program tests the code, a person reads the words. The message's wording
/// may change; the code does not.
package enum ServerError: Error, CustomStringConvertible {
    case cannotResolve(host: String, reason: String)
    /// `errno`: why the address could not be bound (`EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`…).
    case cannotListen(address: String, port: Int, errno: Int32)

    /// The `errno` behind the failure; nil when none (a name that did not resolve).
    package var errno: Int32? {
        switch self {
        case .cannotResolve: nil
        case .cannotListen(_, _, let code): code
        }
    }

    package var description: String {
        switch self {
        case .cannotResolve(let host, let reason):
            "cannot listen on host '\(host)': \(reason)"
        case .cannotListen(let address, let port, let code):
            "cannot listen on \(address):\(port): \(Self.advice(code))(errno \(code): \(String(cString: strerror(code))))"
        }
    }

    /// What to do, for the failures a user meets; empty for the rest, which the system's words say.
    private static func advice(_ code: Int32) -> String {
        switch code {
        case EADDRINUSE: "the port is in use (another mockd? try --port 0) "
        case EACCES: "not allowed to listen on this port (ports below 1024 need privileges; try a higher --port) "
        case EADDRNOTAVAIL: "no interface of this machine has this address (check --host) "
        default: ""
        }
    }
}
