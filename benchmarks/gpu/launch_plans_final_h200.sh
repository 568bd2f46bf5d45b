#!/bin/bash
# The launch-plan issue's second H200 call (from the repository root): bash benchmarks/gpu/launch_plans_final_h200.sh "$OUT"
# The one-GPU batch throughput with the runner's current timing (first, so that it surely finishes), plan
# GPU tests (profile included), then re-launched warp-per-row kernels and the attention plan against the
# previous best.
out=${1:?output folder}
log() { echo "[$(date +%H:%M:%S)] $*"; }
log "batch throughput on one GPU"
timeout 70 python3 benchmarks/gpu/batch_throughput.py --candidates 64 --one-by-one 4 --budget 45 --out "$out"
log "GPU tests of launch plans"
timeout 50 python3 -m pytest -m gpu -q -p no:cacheprovider tests/gpu/test_plans_gpu.py 2>&1 | tail -25
log "re-launches and the attention plan"
timeout 60 python3 benchmarks/gpu/launch_plans.py --out "$out" --repeats 15 --budget 45 \
    --plans-csv launch_plans_relaunch_h200.csv --problems attention_scores row_sum row_argmax logsumexp \
    cross_entropy rms_norm embedding global_avgpool stream_compact spmv_ell matvec layer_norm softmax
log "done"
