import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum CPUSet {
    /// Number of CPUs in this process's affinity mask (Linux); the online count elsewhere.
    static var usableCount: Int {
        #if os(Linux)
        let count = Int(cmhd_usable_cpu_count())
        if count > 0 { return count }
        #endif
        return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}
