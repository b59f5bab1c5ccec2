#!/usr/bin/env bash
# usage: Benchmarks/compare.sh BASE [ROUNDS]        times, ROUNDS rounds (default 5)
#        Benchmarks/compare.sh --instructions BASE  instructions executed (needs valgrind)
#
# Compares the evaluator rows of the benchmark between an earlier revision, BASE, and the working
# tree (uncommitted changes included), on a machine whose speed varies from run to run. Each
# round runs each part of the benchmark on both sides back to back, the first side alternating
# from round to round. A run is one process, whose figure is already the benchmark's median of
# several timed runs. Per row and side: the fastest and the median run; then the change of the
# fastest runs, and the median over rounds of the change between the runs taken back to back
# (positive: the working tree is slower). A median of an even number of values is the lower of
# the middle two.
#
# Rows: (a) 1 000 entries, sorted and shuffled (time per evaluation, from the entries per
# second, which the benchmark prints with more digits); (b) the 500-entry document read and
# evaluated; (c) the three batch loops. Two release builds come first; a round then takes one to
# two minutes per side.
#
# --instructions counts, with callgrind, what `Evaluator.evaluate(_:)` executes, callees
# included, in each loop of the quick batch rows (`--quick --only batch`: a warm-up and 3 runs of
# 20 000 evaluations): not the building of the histories, nor the freeing of the results, nor
# cache misses. Hashing is made deterministic, so the counts repeat exactly.
#
# BASE is any revision git knows whose benchmark has these rows, `--only`, `BENCH_N` and
# `BENCH_BATCH`; a row or loop BASE does not print stops the comparison, named. BASE is checked
# out and built in a temporary worktree, removed at the end.
set -euo pipefail
unset BENCH_BATCH BENCH_ORDER BENCH_REPEATS BENCH_POOL BENCH_N

usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }
fail() { echo "compare.sh: $*" >&2; exit 2; }

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then usage; exit 0; fi
instructions=false
if [[ "${1:-}" == "--instructions" ]]; then
  instructions=true
  shift
  [[ $# -eq 1 ]] || { usage >&2; exit 2; }
fi
[[ $# -ge 1 && $# -le 2 && "${1:-}" != -* ]] || { usage >&2; exit 2; }
base_revision=$1
rounds=${2:-5}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || fail "ROUNDS must be a number, 1 or more, not '$rounds'"
if $instructions; then
  command -v valgrind >/dev/null || fail "--instructions needs valgrind"
fi

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
base_commit=$(git -C "$root" rev-parse --verify --quiet "$base_revision^{commit}") ||
  fail "git knows no revision '$base_revision'"
# The worktree and the comparison's files go in a folder of their own.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/entitlements-compare.XXXXXX")
worktree=$scratch/base
cleanup() {
  git -C "$root" worktree remove --force "$worktree" 2>/dev/null || true
  git -C "$root" worktree prune
  rm -rf "$scratch"
  # The package manager's locks for the worktree's build, named after its path.
  rm -f "${TMPDIR:-/tmp}/${worktree//\//_}"_.build*.lock
}
trap cleanup EXIT
git -C "$root" worktree add --detach --quiet "$worktree" "$base_commit"

tree_of() { if [[ $1 == base ]]; then echo "$worktree"; else echo "$root"; fi; }
name_of() { if [[ $1 == base ]]; then echo "BASE ($base_revision)"; else echo "the working tree"; fi; }
for side in base head; do
  echo "building $(tree_of $side)" >&2
  (cd "$(tree_of $side)" && swift build -c release --product entitlements-bench) >"$scratch/build.log" 2>&1 ||
    { cat "$scratch/build.log" >&2; fail "$(name_of $side) does not build"; }
done
# The benchmark of a side, with its arguments; a run that fails stops the comparison, named.
bench() {
  local side=$1
  shift
  "$(tree_of "$side")/.build/release/entitlements-bench" "$@" ||
    fail "$(name_of "$side")'s benchmark failed: entitlements-bench $*"
}

if $instructions; then
  # `Evaluator.evaluate(_:)`, as the compiler names it.
  evaluate='$s12Entitlements9EvaluatorV8evaluateyAA10EvaluationVAA15PurchaseHistoryVF'
  printf '%-10s %16s %16s %8s\n' "batch loop" "base" "working tree" "change"
  for loop in pool generated read; do
    counts=()
    for side in base head; do
      BENCH_BATCH=$loop SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind \
        --callgrind-out-file=/dev/null --toggle-collect="$evaluate" --log-file="$scratch/valgrind.log" \
        "$(tree_of $side)/.build/release/entitlements-bench" --quick --only batch >"$scratch/out" ||
        fail "$(name_of $side)'s benchmark failed in the $loop loop"
      # Exactly one loop timed: a BASE without BENCH_BATCH would count all three.
      [[ $(grep -cE '^ +[0-9.]+ s ' "$scratch/out") -eq 1 ]] ||
        fail "$(name_of $side) does not run the $loop loop alone (BENCH_BATCH)"
      count=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$scratch/valgrind.log")
      [[ "$count" =~ ^[1-9][0-9]*$ ]] || fail "$(name_of $side) evaluated nothing in the $loop loop"
      counts+=("$count")
    done
    awk -v l="$loop" -v a="${counts[0]}" -v b="${counts[1]}" \
      'BEGIN { printf "%-10s %16.0f %16.0f %+7.1f%%\n", l, a, b, (b / a - 1) * 100 }'
  done
  exit 0
fi

# Each part prints its rows as lines of: row, figure (tab-separated).
part_core() {
  BENCH_N=1000 bench "$1" --only core >"$scratch/out"
  awk '$1 == 1000 && ($2 == "sorted" || $2 == "shuffled") {
      rate = $5 * ($6 == "M" ? 1e6 : $6 == "k" ? 1e3 : 1)
      printf "1000 entries %s (us)\t%.2f\n", $2, 1000 / rate * 1e6 }' "$scratch/out"
}
part_end() {
  bench "$1" --only end >"$scratch/out"
  awk '/read\+eval/ { printf "500-entry document, read + evaluate (ms)\t%s\n", $3 }' "$scratch/out"
}
part_batch() {
  bench "$1" --only batch >"$scratch/out"
  awk '/^ +[0-9.]+ s +\(/ { printf "batch, pool (s)\t%s\n", $1 }
    /^ +[0-9.]+ s .*built in the loop/ { printf "batch, built in the loop (s)\t%s\n", $1 }
    /^ +[0-9.]+ s .*read from documents/ { printf "batch, read from documents (s)\t%s\n", $1 }' \
    "$scratch/out"
}
declare -A part_rows=(
  [core]="1000 entries sorted (us)|1000 entries shuffled (us)"
  [end]="500-entry document, read + evaluate (ms)"
  [batch]="batch, pool (s)|batch, built in the loop (s)|batch, read from documents (s)"
)
# Appends a part's rows for one side and round to the samples: side, round, row, figure.
run() {
  local side=$1 round=$2 part=$3 row
  "part_$part" "$side" >"$scratch/rows"
  IFS='|' read -ra expected <<<"${part_rows[$part]}"
  for row in "${expected[@]}"; do
    [[ $(grep -cF "$row	" "$scratch/rows") -eq 1 ]] ||
      fail "$(name_of "$side") printed no single figure for '$row'"
  done
  awk -v s="$side" -v r="$round" '{ print s "\t" r "\t" $0 }' "$scratch/rows" >>"$scratch/samples"
}
: >"$scratch/samples"
for round in $(seq 1 "$rounds"); do
  echo "round $round of $rounds" >&2
  for part in core end batch; do
    if ((round % 2)); then run base "$round" $part; run head "$round" $part
    else run head "$round" $part; run base "$round" $part; fi
  done
done

echo
echo "per side: fastest and median of $rounds runs; change: of the fastest runs, and the median"
echo "of the changes between runs taken back to back (+: the working tree is slower)"
printf '%-42s %8s %8s %8s %8s %8s %8s\n' row base median "w. tree" median fastest paired
awk -F '\t' '
  { if (!($3 in seen)) { seen[$3] = 1; order[++rows] = $3 }
    values[$1, $3] = values[$1, $3] " " $4; byRound[$1, $3, $2] = $4; roundCount[$2] = 1 }
  function sorted(list, v,   n, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++)
      for (j = i; j > 1 && v[j] + 0 < v[j - 1] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n
  }
  END {
    for (r = 1; r <= rows; r++) {
      key = order[r]
      nb = sorted(values["base", key], b); nh = sorted(values["head", key], h)
      changes = ""
      for (round in roundCount)
        changes = changes " " (byRound["head", key, round] / byRound["base", key, round] - 1) * 100
      nc = sorted(changes, c)
      printf "%-42s %8s %8s %8s %8s %+7.1f%% %+7.1f%%\n", key, b[1], b[int((nb + 1) / 2)], h[1],
        h[int((nh + 1) / 2)], (h[1] / b[1] - 1) * 100, c[int((nc + 1) / 2)]
    }
  }' "$scratch/samples"
