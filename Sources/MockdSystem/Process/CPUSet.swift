#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if os(Linux)
    import CMockdSystem
#endif

/// How many CPUs mockd may use, for its default thread count.
package enum CPUSet {
    /// Number of CPUs in this process's affinity mask (Linux: taskset, container cpusets); the
    /// online count elsewhere (Darwin has no affinity masks).
    package static var usableCount: Int {
        #if os(Linux)
            let count = Int(msys_usable_cpu_count())
            if count > 0 { return count }
        #endif
        return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}
