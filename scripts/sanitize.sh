#!/bin/sh
# The test suite under ASan, then under TSan; fails on any sanitizer report.
# Each build has its own build folder, so the ordinary .build/debug stays as it is.
#
# TSan: Synchronization.Mutex is built on futexes TSan cannot see, so every lock would look
# like a race. The TSan build compiles with MOCKD_PTHREAD_LOCK, which makes mockd's `Lock`
# (Sources/MockdLock/Lock.swift) a pthread mutex that TSan understands.
set -eu
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
HERE=$(pwd)

echo "== AddressSanitizer"
$SWIFT build --build-tests --sanitize=address --build-path .build/asan
ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:suppressions=$HERE/scripts/asan.supp" $SWIFT test --skip-build --sanitize=address --build-path .build/asan

echo "== ThreadSanitizer"
$SWIFT build --build-tests --sanitize=thread --build-path .build/tsan -Xswiftc -DMOCKD_PTHREAD_LOCK
TSAN_OPTIONS="halt_on_error=1 suppressions=$HERE/scripts/tsan.supp" \
    $SWIFT test --skip-build --sanitize=thread --build-path .build/tsan -Xswiftc -DMOCKD_PTHREAD_LOCK
echo "sanitize: no reports"
