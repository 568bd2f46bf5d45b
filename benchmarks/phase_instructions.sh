#!/usr/bin/env bash
# Instructions (callgrind Ir) spent inside one phase of the analysis, over one warm pass.
#   PHASE=sync|kernel|parse|memory|intensity|rules|all  WORKLOAD=distinct|realistic|real  bash benchmarks/phase_instructions.sh TREE [TREE...]
# distinct = one copy of each hand-written kernel (50 kernels); realistic = the 800-kernel file;
# real = the 40 real programs. The phase's function is called through itertools.starmap, which
# callgrind toggles collection on (kernelscope never calls starmap itself).
# FIRST_PASS=1 counts the first pass instead (what a fresh process pays: nothing kept from an earlier
# pass), with the byte code of every module, the lazily imported ones too, cached beforehand.
set -u
phase=${PHASE:-all}; workload=${WORKLOAD:-distinct}; first=${FIRST_PASS:-0}
driver=$(mktemp /tmp/phase.XXXXXX.py); trap 'rm -f "$driver"' EXIT
cat > "$driver" <<PY
import itertools, sys
sys.path.insert(0, sys.argv[1] + "/benchmarks")
import bench_analyze
import kernelscope.analyze as analyze
from kernelscope.frontend import parse
from kernelscope.gc_tuning import tuned_for_analysis
parse._query()
if "$workload" == "real":
    files = [(str(p), p.read_text()) for p in bench_analyze.real_programs()]
elif "$workload" == "realistic":
    files = [("realistic.cu", bench_analyze.realistic_source(800)[0])]
else:
    files = [("distinct.cu", bench_analyze.realistic_source(50)[0])]
def counted(module, name):
    inner = getattr(module, name)
    def call(*a, **k):
        return next(itertools.starmap(lambda: inner(*a, **k), [()]))
    setattr(module, name, call)
targets = {"sync": (analyze, "_sync"), "kernel": (parse, "_kernel"), "parse": (analyze, "parse_file"),
           "memory": (analyze.memory_analysis, "analyze"), "intensity": (analyze.intensity_analysis, "analyze"),
           "rules": (analyze.rules, "check_kernel")}
def run():
    for path, text in files:
        with tuned_for_analysis():
            analyze.analyze_source(text, path, registers="estimate")
if "$first" != "1":
    run()
if "$phase" == "all":
    list(itertools.starmap(run, [()]))
else:
    counted(*targets["$phase"])
    run()
PY
cache=$(mktemp -d /tmp/phase_pyc.XXXXXX); trap 'rm -f "$driver"; rm -rf "$cache"' EXIT
for tree in "$@"; do
  if [ "$first" = 1 ]; then
    # one run outside valgrind writes the byte code the counted run then reads
    export PYTHONPYCACHEPREFIX="$cache/$(echo "$tree" | tr / _)"; unset PYTHONDONTWRITEBYTECODE
    PYTHONPATH="$tree" python3 "$driver" "$tree" > /dev/null 2>&1
  fi
  count=$(PYTHONHASHSEED=0 PYTHONPATH="$tree" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      --collect-atstart=no --toggle-collect=starmap_next python3 "$driver" "$tree" 2>&1 | awk '/refs:/ {gsub(",", "", $4); print $4}')
  [ -n "$count" ] || { echo "phase_instructions: no count for $tree (does it import? try the driver by hand)" >&2; exit 1; }
  echo "$phase/$workload$([ "$first" = 1 ] && echo ' first pass') $(cd "$tree" && git rev-parse --short HEAD 2>/dev/null) $(git -C "$tree" diff --quiet || echo '+dirty'): $(awk -v c="$count" 'BEGIN { printf "%.1f", c / 1e6 }') M"
done
