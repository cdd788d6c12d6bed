#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`).
package enum OpenFileLimit {
    /// Raises the soft limit toward `wanted`, never past the hard limit; more connections need
    /// more descriptors than the usual soft limit of 1024. Never lowers it.
    package static func raise(to wanted: UInt64 = 1 << 16) {
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
        if setrlimit(resource, &limit) != 0 {
            #if canImport(Darwin)
                // macOS refuses a soft limit above OPEN_MAX (or kern.maxfilesperproc) even when
                // the hard limit is unlimited; its man page says to ask for min(OPEN_MAX, hard).
                limit.rlim_cur = min(limit.rlim_max, rlim_t(OPEN_MAX))
                setrlimit(resource, &limit)
            #endif
        }
    }
}
