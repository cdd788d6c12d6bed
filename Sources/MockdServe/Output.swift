#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines mockd writes itself, outside the log: the startup line, errors before logging starts,
/// and the one-shot commands' output.
package enum FileHandleOutput {
    /// A line on stderr, written at once.
    package static func standardError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// A line on stdout, flushed at once (the startup line is read by scripts and tests).
    package static func standardOutput(_ line: String) {
        print(line)
        fflush(nil)
    }
}
