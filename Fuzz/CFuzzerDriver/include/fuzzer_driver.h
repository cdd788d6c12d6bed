// libFuzzer's driver entry point (compiler-rt FuzzerInterface.h), declared for Swift: each fuzz
// target's @_cdecl("main") calls it with its one-input function.
#ifndef MOCKD_FUZZER_DRIVER_H
#define MOCKD_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

typedef int (*mockd_fuzz_callback)(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, mockd_fuzz_callback callback);

#endif
