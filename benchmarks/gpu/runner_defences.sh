#!/usr/bin/env bash
# The runner's defences on the GPU machine, in one command (one machine start):
#   1. benchmarks/gpu/adversarial_suite.py: every adversarial and honest kernel, with the evaluator's
#      health after each (adversarial_h200.csv);
#   2. bench_runner.py of the runner before these defences (a checkout of OLD) and of this one, back to
#      back on the same GPU, same method as profiles/measured/runner_bench.csv (load_inline skipped);
#   3. what the old runner said about the caching matmul and the far write;
#   4. the GPU-marked runner tests.
#
#   source .whl/install.sh && bash benchmarks/gpu/runner_defences.sh OLD_CHECKOUT OUT_DIR
#   (SKIP_BENCH=1 leaves out steps 2 and 3)
set -u
old=$(cd "$1" && pwd)
out=$2
here=$(pwd)
mkdir -p "$out/old" "$out/new"
export PYTHONUNBUFFERED=1
python3 benchmarks/gpu/adversarial_suite.py --out "$out" 2>&1 | tee "$out/adversarial_log.txt"

[ "${SKIP_BENCH:-0}" = 1 ] || {
  echo "== bench_runner.py, runner before the defences ($old)"
  (cd "$old" && PYTHONPATH=/tmp/site:$old python3 benchmarks/bench_runner.py --candidates 16 --baseline 0 --out "$out/old")
  echo "== bench_runner.py, this runner"
  python3 benchmarks/bench_runner.py --candidates 16 --baseline 0 --out "$out/new"
  echo "== the runner before the defences, on two of the new adversarial kernels"
  spec_dir=$(mktemp -d)
  grep -v '^flops' "$here/tests/kernels/adversarial/matmul/spec.toml" > "$spec_dir/spec.toml"
  cp "$here/tests/kernels/adversarial/matmul/reference.py" "$spec_dir/"
  (cd "$old" && PYTHONPATH=/tmp/site:$old python3 - "$spec_dir" "$here/tests/kernels/adversarial" <<'PY'
import sys
from pathlib import Path
from kernelscope.runner import evaluate, load_spec
matmul, adversarial = Path(sys.argv[1]), Path(sys.argv[2])
for spec, source, kernel in [(matmul, adversarial / "matmul" / "honest.cu", "matmul"),
                             (matmul, adversarial / "matmul" / "cached.cu", "matmul"),
                             (adversarial / "spec.toml", adversarial / "far_write.cu", "vector_add")]:
    result = evaluate(load_spec(spec), source.read_text(), kernel, repeats=10)
    print(f"old runner: {source.name:<14} correct={result.correct} speedup={result.speedup} flags={result.flags}")
PY
  )
} 2>&1 | tee "$out/bench_log.txt"

timeout 400 python3 -m pytest -m gpu -q -p no:cacheprovider tests/gpu/test_runner_gpu.py tests/test_batch_items.py \
    2>&1 | tail -40 | tee "$out/gpu_tests_log.txt"
