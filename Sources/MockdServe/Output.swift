#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum FileHandleOutput {
    /// A line on stderr, written at once.
    static func standardError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// A line on stdout, flushed at once (the startup line is read by scripts and tests).
    static func standardOutput(_ line: String) {
        print(line)
        fflush(nil)
    }
}
