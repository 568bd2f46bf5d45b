#!/usr/bin/env bash
# Interleaved rounds of bench_analyze over two checkouts, base then new, so that both see the same
# machine load: bash benchmarks/compare_trees.sh BASE_TREE NEW_TREE ROUNDS OUT_FILE [bench_analyze args]
set -u
base=$1; new=$2; rounds=$3; out=$4; shift 4
unset PYTHONDONTWRITEBYTECODE; cd /tmp
: > "$out"
for r in $(seq 1 "$rounds"); do
  for tree in "$base" "$new"; do
    echo "## $(git -C "$tree" rev-parse --short HEAD) run $r" >> "$out"
    uptime >> "$out"
    PYTHONPATH="$tree" python "$tree/benchmarks/bench_analyze.py" "$@" >> "$out" 2>&1
  done
done
