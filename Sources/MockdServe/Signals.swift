#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MockdSystem

/// The signals mockd acts on, received in one place with `sigwait`.
///
/// They are blocked before any other thread starts (libmicrohttpd's threads inherit the mask),
/// so no worker thread can be picked to take a SIGTERM and the main thread sees every one.
package enum Signals {
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    package static func block() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // A write to a socket the peer closed must be an error, not a process kill (libmicrohttpd
        // suppresses SIGPIPE for its own sends; the proxy's libcurl sends too).
        signal(SIGPIPE, SIG_IGN)
    }

    /// For commands that do not wait for signals: Ctrl-C ends them as usual.
    package static func unblock() {
        var set = signalSet()
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Waits for the next of `handled` (package-wide for `mockd mcp`, which ends its stdio server on one).
    package static func wait() -> Int32 {
        var set = signalSet()
        var signal: Int32 = 0
        while sigwait(&set, &signal) != 0 {}
        return signal
    }

    /// While the first SIGTERM or SIGINT drains requests (up to its deadline), a second one ends
    /// the process at once, with 128 + the signal, after `last` (a log line, a flush).
    static func exitOnSecondSignal(_ last: @escaping @Sendable (Int32) -> Void) {
        let started = JoinableThread.spawn {
            var signal = wait()
            while signal == SIGHUP { signal = wait() }  // no reload while stopping
            last(signal)
            _exit(128 + signal)
        }
        // Without the thread, a second signal stays pending until the drain ends: as before.
        if case .success(let thread) = started { thread.detach() }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        return set
    }

    /// More connections need more descriptors than the usual soft limit of 1024.
    static func raiseOpenFileLimit() {
        OpenFileLimit.raise(to: 1 << 16)
    }
}
