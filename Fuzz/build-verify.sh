#!/usr/bin/env bash
# Builds the libFuzzer target of the verifier (EntitlementsVerification): the libraries
# instrumented by SwiftPM, the target linked by swiftc (SwiftPM renames an executable's main,
# which libFuzzer provides), and a seed corpus from the generated JWS and certificates
# (python3 extracts them; without it, start from an empty corpus).
# Usage:
#   Fuzz/build-verify.sh && .build-fuzz/entitlements-fuzz-verify \
#     -max_total_time=600 .build-fuzz/corpus-verify
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-fuzz
swift build -c release --scratch-path "$scratch" --target EntitlementsVerification \
  -Xswiftc -sanitize=fuzzer,address
swiftc -O -sanitize=fuzzer,address -parse-as-library -D FUZZING \
  -I "$scratch/release/Modules" \
  Sources/entitlements-fuzz-verify/*.swift \
  "$scratch"/release/Entitlements.build/*.o "$scratch"/release/EntitlementsVerification.build/*.o \
  -o "$scratch/entitlements-fuzz-verify"
mkdir -p "$scratch/corpus-verify"
if command -v python3 > /dev/null; then
  python3 - "$scratch/corpus-verify" <<'PYTHON'
import base64, json, os, sys
cases = json.load(open("Tests/EntitlementsVerificationTests/Generated/jws-cases.json"))
for index, case in enumerate(cases["cases"]):
    open(os.path.join(sys.argv[1], f"jws-{index}"), "w").write(case["jws"])
for name, der in cases["roots"].items():
    open(os.path.join(sys.argv[1], f"root-{name}.der"), "wb").write(base64.b64decode(der))
PYTHON
fi
echo "built $scratch/entitlements-fuzz-verify (seeds in $scratch/corpus-verify)"
