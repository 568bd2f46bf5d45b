#!/bin/bash
# The corpus before and after its launch overrides moved from spec.toml into the implementations'
# files (launch-plan comments), on the H200 in one device call, from the migrated tree's root:
#   bash benchmarks/gpu/corpus_migration_h200.sh "$OUT" OLD_TREE
# OLD_TREE: a checkout from before the move. Both trees verify and time every [[implementations]]
# entry (measure_corpus.py, no ncu) in the same call; compare_corpus_runs.py sets them side by side;
# then `kernelscope eval` of the migrated corpus's implementations as completions (the table of
# profiles/measured/eval_corpus_h200.txt). Each step has a time limit; a failing step does not stop the rest.
out=${1:?output folder}
old=${2:?tree from before the move}
new=$PWD
log() { echo "[$(date +%H:%M:%S)] $*"; }
log "GPU tests of plans and of the runner on the example problem"
timeout 75 python3 -m pytest -m gpu -q -p no:cacheprovider tests/gpu/test_plans_gpu.py tests/gpu/test_runner_gpu.py 2>&1 | tail -6
log "migrated corpus: every implementation verified and timed"
timeout 150 python3 benchmarks/gpu/measure_corpus.py --skip-ncu --repeats 10 --budget-s 120 --out /tmp/after > /tmp/after.log 2>&1
grep -E "compiled|WRONG|runs,|error" /tmp/after.log | tail -8
cp /tmp/after/corpus_h200.csv "$out/corpus_migrated_h200.csv"
log "kernelscope eval on the migrated corpus's implementations"
python3 benchmarks/corpus_completions.py -o /tmp/corpus_completions.jsonl
timeout 80 python3 -m kernelscope eval /tmp/corpus_completions.jsonl --repeats 5 --format json -o "$out/eval_corpus.json"
python3 -c "import json,sys; from kernelscope.report.eval_table import eval_table; print(eval_table(json.load(open(sys.argv[1]))), end='')" \
    "$out/eval_corpus.json" > "$out/eval_corpus.txt"
tail -3 "$out/eval_corpus.txt"
log "corpus from before the move, same machine, same settings"
(cd "$old" && PYTHONPATH="/tmp/site:$old" timeout 150 python3 benchmarks/gpu/measure_corpus.py --skip-ncu --repeats 10 \
    --budget-s 120 --out /tmp/before > /tmp/before.log 2>&1)
grep -E "compiled|WRONG|runs,|error" /tmp/before.log | tail -8
cp /tmp/before/corpus_h200.csv "$out/corpus_premigration_h200.csv"
python3 benchmarks/gpu/compare_corpus_runs.py "$out/corpus_premigration_h200.csv" "$out/corpus_migrated_h200.csv" \
    | tee "$out/corpus_migration_compare.txt"
log "done"
