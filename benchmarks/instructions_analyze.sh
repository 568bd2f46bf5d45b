#!/usr/bin/env bash
# Instructions (valgrind callgrind's Ir) of one warm analysis pass, a figure that does not change
# with the machine's load, unlike CPU seconds on a shared machine. Compares trees:
#
#   bash benchmarks/instructions_analyze.sh TREE [TREE...]         # realistic 800-kernel file
#   WORKLOAD=real bash benchmarks/instructions_analyze.sh TREE...  # the 40 real programs
#   VIA=cli WORKLOAD=real bash benchmarks/instructions_analyze.sh TREE...
#       # through the analyze command (click's CliRunner, JSON output), as bench_analyze's
#       # in-process figures run it: adds option parsing, the configuration lookup and the JSON
#
# Each TREE is a kernelscope checkout (put first on PYTHONPATH). One process compiles the capture
# query and analyses the workload once to warm up (imports, first-use caches), then once more inside
# itertools.starmap, and callgrind counts only while starmap runs (--toggle-collect; kernelscope
# itself never calls starmap). Repeated counts of one tree agree to well under 0.1%; subtracting a
# one-pass process from a two-pass one, as this script did first, swung by about 3%. Fixed hash
# seed. Needs valgrind; takes a few minutes per tree for the realistic file.
set -u
[ $# -ge 1 ] || { echo "usage: instructions_analyze.sh TREE [TREE...]" >&2; exit 2; }
workload=${WORKLOAD:-realistic}
via=${VIA:-api}
bench=$(cd "$(dirname "$0")" && pwd)
driver=$(mktemp /tmp/kernelscope-instructions.XXXXXX.py)
trap 'rm -f "$driver"' EXIT
cat > "$driver" <<PY
import itertools
import sys
sys.path.insert(0, "$bench")
import bench_analyze
import kernelscope.analyze as analyze
from kernelscope.frontend.parse import _query
from kernelscope.gc_tuning import tuned_for_analysis

# As bench_analyze's in-process runs do: a long-running process has the capture query compiled.
# Without it, a process walks the trees of its first 256 KB in Python instead (parse.py), which
# the two passes over the 84 KB of real programs would stay within.
_query()
if "$workload" == "real":
    files = [(str(p), p.read_text()) for p in bench_analyze.real_programs()]
else:
    files = [("realistic.cu", bench_analyze.realistic_source(800)[0])]


def analyse_all():
    for path, text in files:
        with tuned_for_analysis():
            analyze.analyze_source(text, path, registers="estimate")


if "$via" == "cli":
    import tempfile
    from click.testing import CliRunner
    from kernelscope.cli import cli

    runner = CliRunner()
    scratch = tempfile.mkdtemp()
    paths = []
    for number, (path, text) in enumerate(files):
        if not path.endswith(".cu") or "/" not in path:      # the generated realistic file
            path = f"{scratch}/{number}.cu"
            with open(path, "w") as handle:
                handle.write(text)
        paths.append(path)

    def analyse_all():
        for path in paths:
            result = runner.invoke(cli, [*bench_analyze.ANALYZE, path])
            assert result.exit_code in (0, 1), result.output


analyse_all()
list(itertools.starmap(analyse_all, [()]))   # the counted pass
PY
instructions() {
    PYTHONHASHSEED=0 PYTHONPATH="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        --collect-atstart=no --toggle-collect=starmap_next python3 "$driver" 2>&1 |
        awk '/refs:/ {gsub(",", "", $4); print $4}'
}
for tree in "$@"; do
    count=$(instructions "$tree")
    echo "$workload ($via) $(cd "$tree" && git rev-parse --short HEAD 2>/dev/null || echo "$tree"): $(( count / 1000000 )) M instructions per warm run"
done
