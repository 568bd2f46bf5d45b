#!/bin/bash
# Everything the launch-plan issue measures on the H200, in one device call (from the repository root):
#   bash benchmarks/gpu/launch_plans_h200.sh "$OUT"
# GPU tests of plans and scratch, plan implementations vs the previous best and per-problem baselines,
# `kernelscope eval` of the corpus's own implementations, the train reward path in full mode, and
# (last) the one-GPU batch throughput. Each step has a time limit; a failing step does not stop the rest.
out=${1:?output folder}
log() { echo "[$(date +%H:%M:%S)] $*"; }
log "GPU tests of launch plans"
timeout 60 python3 -m pytest -m gpu -q -p no:cacheprovider tests/gpu/test_plans_gpu.py 2>&1 | tail -25
log "plans, re-launches and baselines"
timeout 130 python3 benchmarks/gpu/launch_plans.py --out "$out" --repeats 15 --budget 70
cp "$out/baselines_h200.csv" profiles/measured/baselines_h200.csv && log "baselines installed for eval"
python3 benchmarks/corpus_completions.py -o /tmp/corpus_completions.jsonl
log "kernelscope eval on the corpus's implementations"
timeout 70 python3 -m kernelscope eval /tmp/corpus_completions.jsonl --repeats 5 --format json -o "$out/eval_corpus.json"
python3 -c "import json,sys; from kernelscope.report.eval_table import eval_table; print(eval_table(json.load(open(sys.argv[1]))), end='')" \
    "$out/eval_corpus.json" | tee "$out/eval_corpus.txt"
log "train reward path, full mode"
timeout 40 python3 benchmarks/gpu/plan_reward_path.py --mode full --out "$out" | tail -40
log "batch throughput on one GPU"
timeout 80 python3 benchmarks/gpu/batch_throughput.py --candidates 64 --one-by-one 4 --budget 50 --out "$out"
log "done"
