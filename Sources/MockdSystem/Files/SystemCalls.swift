#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// System calls and constants spelled differently by Glibc and Darwin, under one name.
package enum SystemCalls {
    /// `SOCK_STREAM` as `socket(2)` and `getaddrinfo` take it (an enum case on Glibc).
    package static var streamSocketType: Int32 {
        #if os(Linux)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    /// `read(2)` for code that has a method of the same name in scope (which hides the C
    /// function; `Glibc.read` does not compile on a Mac).
    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(fd, buffer, count)
        #else
            Darwin.read(fd, buffer, count)
        #endif
    }

    /// `write(2)`, as `read`.
    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, buffer, count)
        #else
            Darwin.write(fd, buffer, count)
        #endif
    }

    /// Writes all of `bytes`, again after an interrupted or partial write; the `errno` of a
    /// failed write, or nil when everything was written.
    package static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        bytes.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                let count = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
    }
}
