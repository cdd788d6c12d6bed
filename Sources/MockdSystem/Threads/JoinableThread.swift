#if canImport(Glibc)
    package import Glibc
#elseif canImport(Darwin)
    package import Darwin
#endif

/// A joinable pthread running a Swift closure: the file watcher and the proxy's libcurl loop
/// each own one and wait for it when they stop; the log sink's flusher detaches its own.
/// Foundation's `Thread` cannot be joined, and Dispatch would lend them a shared thread they
/// then block for good.
package struct JoinableThread: @unchecked Sendable {
    // @unchecked: `pthread_t` is a pointer on Darwin; it is only compared, joined or detached.
    package let id: pthread_t

    package struct StartError: Error {
        /// The `pthread_create` error number.
        package let code: Int32
    }

    /// Starts a thread that runs `body` once.
    package static func spawn(_ body: @escaping @Sendable () -> Void) -> Result<JoinableThread, StartError> {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if os(Linux)
            var thread = pthread_t()
            let result = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, context)
            guard result == 0 else {
                Unmanaged<Body>.fromOpaque(context).release()
                return .failure(StartError(code: result))
            }
            return .success(JoinableThread(id: thread))
        #else
            var thread: pthread_t?
            let result = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                    return nil
                }, context)
            guard result == 0, let thread else {
                Unmanaged<Body>.fromOpaque(context).release()
                return .failure(StartError(code: result))
            }
            return .success(JoinableThread(id: thread))
        #endif
    }

    /// True on the thread itself (it cannot join itself).
    package var isCurrent: Bool { pthread_equal(id, pthread_self()) != 0 }

    /// Waits for the thread to end.
    package func join() { pthread_join(id, nil) }

    /// Lets the thread end on its own; for when it is the one stopping itself.
    package func detach() { pthread_detach(id) }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
