#!/usr/bin/env bash
# The runner's defences on the merged tree, in one device call (one H200, about 3 minutes after the
# machine has started):
#   1. benchmarks/gpu/adversarial_suite.py: every adversarial and honest kernel, the launch plans with
#      scratch (honest two-pass and fresh-counter plans pass, a plan carrying state across executions
#      in device globals is flagged, a memo kept in scratch never replays, stale and overrun scratch
#      are caught), the evaluator's health after each, device printf through run --batch, and a mixed
#      run --batch with a compile bomb (stopped at its compile limit by the batch's compile processes);
#   2. every gpu-marked test, over the files that hold them (a plain `pytest -m gpu` over tests/ would
#      stop at collecting modules whose imports the GPU machine lacks, such as jsonschema);
#   3. afterwards, on the idle machine: benchmarks/gpu/batch_compile_overhead.py (NVRTC in the batch's
#      compile processes against in-process threads, same run; about 10 s).
# Both run at once (one GPU, 16 cores) to fit the call: verdicts do not depend on timings, and the
# one timing check (a kernel faster than peak for inflated FLOPs) only gets harder to miss when slower.
# SERIAL=1 runs them one after the other; PART_TIMEOUT_S (default 240) bounds each part.
#
#   source .whl/install.sh && bash benchmarks/gpu/final_check.sh "$OUT"
#
# Writes to OUT (flat, 6 files): merged_summary.txt, merged_adversarial_h200.csv,
# merged_adversarial_log.txt, merged_gpu_tests_log.txt, merged_gpu_tests_junit.xml,
# merged_compile_overhead.txt.
# Exit status 0 when both parts pass.
set -u
out=${1:?usage: final_check.sh OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
export PYTHONPATH=/tmp/site:$root${PYTHONPATH:+:$PYTHONPATH}
export PYTHONUNBUFFERED=1
# compiled kernels cached per run, so the check compiles what it checks
export KERNELSCOPE_CACHE_DIR=$(mktemp -d /tmp/kernelscope-final-cache.XXXXXX)
started=$(date +%s)
part_timeout=${PART_TIMEOUT_S:-240}
gpu_test_files=$(grep -rl --include='*.py' -e 'mark\.gpu' tests | sort | tr '\n' ' ')

suite() {
    timeout "$part_timeout" python3 benchmarks/gpu/adversarial_suite.py --out "$out/suite" > "$out/merged_adversarial_log.txt" 2>&1
    echo $? > "$out/.suite_rc"
}
gpu_tests() {
    # shellcheck disable=SC2086  # the file list is meant to split
    timeout "$part_timeout" python3 -m pytest -m gpu -q -p no:cacheprovider -rfEs --durations=8 \
        --junitxml="$out/merged_gpu_tests_junit.xml" $gpu_test_files > "$out/merged_gpu_tests_log.txt" 2>&1
    echo $? > "$out/.tests_rc"
}

if [ "${SERIAL:-0}" = 1 ]; then
    suite
    gpu_tests
else
    suite &
    gpu_tests &
    wait
fi
timeout 60 python3 benchmarks/gpu/batch_compile_overhead.py --kernels 16 --threads 4 --repeats 3 \
    > "$out/merged_compile_overhead.txt" 2>&1
mv -f "$out/suite/adversarial_h200.csv" "$out/merged_adversarial_h200.csv" 2>/dev/null
rmdir "$out/suite" 2>/dev/null
suite_rc=$(cat "$out/.suite_rc" 2>/dev/null || echo missing)
tests_rc=$(cat "$out/.tests_rc" 2>/dev/null || echo missing)
rm -f "$out/.suite_rc" "$out/.tests_rc"
rm -rf "$KERNELSCOPE_CACHE_DIR"
{
    echo "final_check.sh on $(hostname), $(date -u '+%Y-%m-%d %H:%M UTC'), $(( $(date +%s) - started )) s"
    echo "tree: ${FINAL_CHECK_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
    echo "adversarial suite: exit $suite_rc; $(grep -E '^[0-9]+/[0-9]+ as expected' "$out/merged_adversarial_log.txt" | tail -1)"
    grep -E 'expected=False|healthy_after=False|FORGED|HUNG|Traceback' "$out/merged_adversarial_log.txt" | sed 's/^/  NOT AS EXPECTED: /'
    echo "gpu tests (${gpu_test_files% }): exit $tests_rc; $(grep -E '(passed|failed|error)' "$out/merged_gpu_tests_log.txt" | tail -1)"
    grep -E '^(FAILED|ERROR) ' "$out/merged_gpu_tests_log.txt" | sed 's/^/  /'
    sed 's/^/compile overhead: /' "$out/merged_compile_overhead.txt" | tail -3
    [ "$suite_rc" = 0 ] && [ "$tests_rc" = 0 ] && echo "RESULT: PASS" || echo "RESULT: FAIL"
} > "$out/merged_summary.txt"
cat "$out/merged_summary.txt"
[ "$suite_rc" = 0 ] && [ "$tests_rc" = 0 ]
