// The few C declarations the system layer (MockdSystem) cannot get from Swift's Glibc module.
// Header only: nothing to link.
#ifndef CMOCKDSYSTEM_SHIM_H
#define CMOCKDSYSTEM_SHIM_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __linux__
/// glibc's sched_getaffinity under another name: the real prototype needs _GNU_SOURCE, which a
/// system module cannot set. Counts the CPUs this process may run on (taskset, container cpusets).
extern int msys_sched_getaffinity(pid_t pid, size_t size, void *mask) __asm__("sched_getaffinity");
static inline int msys_usable_cpu_count(void) {
    unsigned long mask[16] = {0};
    if (msys_sched_getaffinity(0, sizeof mask, mask) != 0) return -1;
    int count = 0;
    for (int i = 0; i < 16; i++) count += __builtin_popcountl(mask[i]);
    return count;
}
#endif

#ifdef __APPLE__
#include <libproc.h>       // proc_name, for `mockd stop`'s check that a pid is a mockd
#include <crt_externs.h>   // _NSGetEnviron, the environment `serve --background` passes on
#endif

#endif
