#!/bin/sh
# Builds every libFuzzer target in Fuzz/ (ASan + libFuzzer) and runs each for FUZZ_SECONDS
# (default 60) from its committed seed corpus. Exits non-zero on the first crash, or on an input
# that takes more than FUZZ_TIMEOUT seconds (default 10: a slow input is a hang to fix, and
# libFuzzer's own 20 minutes would outlast the run); the input is left in .build/fuzz/artifacts/.
set -eu
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SECONDS_EACH=${FUZZ_SECONDS:-60}
TIMEOUT=${FUZZ_TIMEOUT:-10}
TARGETS="FuzzJSON:json FuzzMockFileName:mock-file-name FuzzRouteTable:route-table FuzzRequestTarget:request-target
FuzzSchemaExamples:schema-examples"
BUILD=.build/fuzz
for entry in $TARGETS; do
    MOCKD_FUZZ=1 $SWIFT build -c release --build-path "$BUILD" --product "${entry%%:*}" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing
done
mkdir -p "$BUILD/artifacts"
for entry in $TARGETS; do
    target=${entry%%:*}
    corpus=Fuzz/corpus/${entry#*:}
    work="$BUILD/corpus/${entry#*:}"
    mkdir -p "$work"
    echo "== $target for ${SECONDS_EACH}s (seeds: $corpus)"
    # New inputs go to the scratch corpus, not the committed seeds.
    "$BUILD/release/$target" "$work" "$corpus" -max_total_time="$SECONDS_EACH" -timeout="$TIMEOUT" -max_len=4096 \
        -artifact_prefix="$BUILD/artifacts/$target-" -print_final_stats=1
done
echo "fuzz: no crash in any target"
