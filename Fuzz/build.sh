#!/usr/bin/env bash
# Builds the libFuzzer target for the reading layer: the library instrumented by SwiftPM, the
# target linked by swiftc (SwiftPM renames an executable's main, which libFuzzer provides).
# Usage (see README, "Testing"): it also writes the seeds (Fuzz/make-seeds.py: one document
# of every kind the reader accepts); folders of real documents make good further seeds.
#   Fuzz/build.sh && mkdir -p .build-fuzz/corpus && .build-fuzz/entitlements-fuzz \
#     -max_total_time=600 .build-fuzz/corpus .build-fuzz/seeds
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-fuzz
swift build -c release --scratch-path "$scratch" --target Entitlements \
  -Xswiftc -sanitize=fuzzer,address
# The target reads the library's package-level checks: compile it in the same package.
package=$(grep -o -- '-package-name","[^"]*' "$scratch/release.yaml" | head -n 1 | cut -d'"' -f3)
swiftc -O -sanitize=fuzzer,address -parse-as-library -D FUZZING -package-name "$package" \
  -I "$scratch/release/Modules" \
  Sources/entitlements-fuzz/*.swift "$scratch"/release/Entitlements.build/*.o \
  -o "$scratch/entitlements-fuzz"
python3 Fuzz/make-seeds.py "$scratch/seeds"
echo "built $scratch/entitlements-fuzz"
