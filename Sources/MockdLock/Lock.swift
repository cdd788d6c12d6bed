#if MOCKD_PTHREAD_LOCK
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// mockd's lock: `Synchronization.Mutex`, except in the ThreadSanitizer build (`make sanitize`
    /// compiles with `-DMOCKD_PTHREAD_LOCK`), where it is this pthread mutex with the same API.
    /// TSan does not model Mutex's futex-based locking and reports every guarded access as a
    /// race; it understands pthread mutexes.
    package struct Lock<Value: ~Copyable>: ~Copyable {
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private let storage: UnsafeMutablePointer<Value>

        package init(_ initialValue: consuming sending Value) {
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
            storage = .allocate(capacity: 1)
            storage.initialize(to: initialValue)
        }

        deinit {
            storage.deinitialize(count: 1)
            storage.deallocate()
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        package borrowing func withLock<Result: ~Copyable, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&storage.pointee)
        }
    }

    // As Mutex: the value is only reached under the lock.
    extension Lock: @unchecked Sendable where Value: ~Copyable {}
#else
    package import Synchronization

    /// mockd's lock: `Synchronization.Mutex` (a pthread mutex in the TSan build; see above).
    package typealias Lock<Value: ~Copyable> = Mutex<Value>
#endif
