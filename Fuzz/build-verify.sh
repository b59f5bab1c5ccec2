#!/usr/bin/env bash
# Builds the libFuzzer target of the verifier (EntitlementsVerification): the libraries
# instrumented by SwiftPM, the target linked by swiftc (SwiftPM renames an executable's main,
# which libFuzzer provides), and a seed corpus: the generated JWS and root. The target trusts
# Apple's root and the generated root (Tests/EntitlementsVerificationTests/Generated), so the
# seeds pass the chain; nothing but a seed may verify.
# Usage:
#   Fuzz/build-verify.sh && .build-fuzz/entitlements-fuzz-verify \
#     -max_total_time=600 .build-fuzz/corpus-verify
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-fuzz
swift build -c release --scratch-path "$scratch" --target EntitlementsVerification \
  -Xswiftc -sanitize=fuzzer,address
# The target calls the verifier's package-level fuzzing hook: compile it in the same package.
package=$(grep -o -- '-package-name","[^"]*' "$scratch/release.yaml" | head -n 1 | cut -d'"' -f3)
swiftc -O -sanitize=fuzzer,address -parse-as-library -D FUZZING -package-name "$package" \
  -I "$scratch/release/Modules" \
  "$PWD"/Sources/entitlements-fuzz-verify/*.swift \
  "$scratch"/release/Entitlements.build/*.o "$scratch"/release/EntitlementsVerification.build/*.o \
  -o "$scratch/entitlements-fuzz-verify"
generated=Tests/EntitlementsVerificationTests/Generated
mkdir -p "$scratch/corpus-verify"
# The generated JWS are base64url and dots: one seed file each, read without a JSON parser.
index=0
grep -o '"jws": "[^"]*"' "$generated/jws-cases.json" | sed 's/^"jws": "//; s/"$//' |
  while IFS= read -r jws; do
    printf '%s' "$jws" > "$scratch/corpus-verify/jws-$index"
    index=$((index + 1))
  done
cp "$generated/root.der" "$scratch/corpus-verify/root.der"
echo "built $scratch/entitlements-fuzz-verify (seeds in $scratch/corpus-verify)"
