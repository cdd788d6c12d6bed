#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CPU time one thread has used, for measurements (the proxy's libcurl loop reports it).
package struct ThreadCPUClock: Sendable {
    private let clock: clockid_t

    /// The calling thread's CPU clock; nil where the system has none per thread (Darwin's
    /// pthreads give no clock id).
    package static func ofCurrentThread() -> ThreadCPUClock? {
        #if os(Linux)
            var clock = clockid_t()
            guard pthread_getcpuclockid(pthread_self(), &clock) == 0 else { return nil }
            return ThreadCPUClock(clock: clock)
        #else
            return nil
        #endif
    }

    /// CPU time used so far; nil once the thread has ended (the clock is gone).
    package func elapsed() -> Duration? {
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return nil }
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
