#!/usr/bin/env bash
# Runs the libFuzzer harnesses of a fuzz build (GEOMSIM_BUILD_FUZZERS=ON, tests/fuzz/CMakeLists.txt):
#   bash tests/fuzz/run_fuzzers.sh BUILD_DIR SECONDS
# 1. every regression input through its harness, one at a time: the committed fuzzer findings in
#    tests/fuzz/regressions/HARNESS/ and issue 33's reproducers that make_corpus.sh writes;
# 2. each harness for SECONDS on a copy of its seed corpus, one per CPU at a time.
# Every run has the same limits: 10 s per input, 2048 MB of RSS and 2048 MB in one allocation.
# A crash, a sanitizer report, a leak, a timeout, an allocation over the limit or an exception
# other than the parsers' refusals fails the script (exit 1), after all runs, with the log of
# each failure and, for the fuzzing, the input libFuzzer saved (BUILD_DIR/fuzz-work/HARNESS/).
# It prints per harness the regression inputs passed, the seconds and the executions reached.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run_fuzzers.sh BUILD_DIR SECONDS}" && pwd)
seconds=${2:?usage: run_fuzzers.sh BUILD_DIR SECONDS}
limits=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && command -v llvm-symbolizer-14 >/dev/null; then
  export ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer-14)
fi

# The harnesses write each input to a file in a scratch folder under TMPDIR: in memory (/dev/shm)
# where there is one, and removed at the end, with what a crashed harness left there.
scratch=$(mktemp -d "$( [ -w /dev/shm ] && echo /dev/shm || echo "$build")/geomsim-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export TMPDIR=$scratch

inputs=$build/fuzz-inputs
logs=$build/fuzz-logs
rm -rf "$logs" "$build/fuzz-work"
mkdir -p "$logs"
# The inputs are written again only when a script that writes them changed.
stamp=$inputs/.written
if [ ! -e "$stamp" ] || [ -n "$(find "$here" "$here/../../sims" -newer "$stamp" \( -name '*.py' -o -name '*.sh' -o -name '*.json' \))" ]; then
  bash "$here/make_corpus.sh" "$inputs" || { echo "run_fuzzers: make_corpus.sh failed"; exit 1; }
  touch "$stamp"
fi

harnesses=$(cd "$build/tests/fuzz" && ls fuzz_* 2>/dev/null | grep -v '\.' || true)
[ -n "$harnesses" ] || { echo "run_fuzzers: no harness in $build/tests/fuzz (configure with -DGEOMSIM_BUILD_FUZZERS=ON and build)"; exit 1; }
failures=() failure_logs=()
# Seconds since `start` (from now_ns), to a tenth.
now_ns() { date +%s%N; }
elapsed() { local ms=$(( ($(now_ns) - $1) / 1000000 )); printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)); }
declare -A regressions_passed regressions_total fuzz_seconds fuzz_executions

echo "--- regression inputs (each must pass) ---"
for harness in $harnesses; do
  name=${harness#fuzz_}
  passed=0 total=0
  for input in "$here/regressions/$name"/* "$inputs/regressions/$name"/*; do
    [ -f "$input" ] || continue
    total=$((total + 1))
    log=$logs/$harness-regression-$(basename "$input").log
    start=$(now_ns)
    "$build/tests/fuzz/$harness" "${limits[@]}" "$input" >"$log" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ]; then
      passed=$((passed + 1))
      status=passed
    else
      status="FAILED: $(grep -m1 -oE 'ERROR: [A-Za-z]+: [A-Za-z-]+( [a-z]+)*|runtime error: .{0,60}|fuzz harness: .*' "$log" || echo "exit $rc")"
      failures+=("$harness on regression input $(basename "$input")")
      failure_logs+=("$log")
    fi
    printf '%-20s %-44s %6s s  %s\n' "$harness" "$(basename "$input")" "$(elapsed "$start")" "$status"
  done
  regressions_passed[$harness]=$passed
  regressions_total[$harness]=$total
done

# One harness per CPU at a time (FUZZ_JOBS to choose): each is one process on one core, so the
# executions reached do not depend on the others, and on CI's 2 cores the phase takes half as long.
jobs=${FUZZ_JOBS:-$(nproc)}
echo "--- fuzzing, $seconds s each, $jobs at a time ---"
# Fuzzes one harness; leaves its exit status, seconds and executions in its work folder.
fuzz_one() {
  local harness=$1 name=${1#fuzz_} work=$build/fuzz-work/$1 log=$logs/$1-fuzz.log start
  mkdir -p "$work/corpus"
  cp "$inputs/corpus/$name"/* "$work/corpus/" 2>/dev/null || echo "run_fuzzers: $harness has no seed corpus"
  start=$(now_ns)
  "$build/tests/fuzz/$harness" "${limits[@]}" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$work/" "$work/corpus" >"$log" 2>&1
  echo $? >"$work/rc"
  elapsed "$start" >"$work/seconds"
  { grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$' || echo "?"; } >"$work/executions"
}
for harness in $harnesses; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  fuzz_one "$harness" &
done
wait
for harness in $harnesses; do
  work=$build/fuzz-work/$harness
  fuzz_seconds[$harness]=$(cat "$work/seconds")
  fuzz_executions[$harness]=$(cat "$work/executions")
  rc=$(cat "$work/rc")
  if [ "$rc" -ne 0 ]; then
    artifact=$(ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null | head -1)
    failures+=("$harness while fuzzing (exit $rc)${artifact:+; the input: $artifact}")
    failure_logs+=("$logs/$harness-fuzz.log")
  fi
done

echo "--- summary ---"
printf '%-22s %-12s %8s %12s\n' harness regressions seconds executions
for harness in $harnesses; do
  printf '%-22s %-12s %8s %12s\n' "$harness" "${regressions_passed[$harness]}/${regressions_total[$harness]}" \
    "${fuzz_seconds[$harness]}" "${fuzz_executions[$harness]}"
done
if [ ${#failures[@]} -gt 0 ]; then
  echo "--- ${#failures[@]} failure(s) ---"
  for k in "${!failures[@]}"; do
    echo "FAILED: ${failures[$k]} (log: ${failure_logs[$k]})"
    grep -v '^INFO:\|^#[0-9]' "${failure_logs[$k]}" | head -n 30 | sed 's/^/    /'
  done
  exit 1
fi
echo "run_fuzzers: every regression input passed and no harness found anything in $seconds s"
