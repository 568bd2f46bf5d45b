#!/usr/bin/env bash
# Where the `analyze` command's instructions go beyond the analysis itself: one warm pass of
# `kernelscope analyze --format json --registers estimate FILE` over the 40 real programs through
# click's CliRunner (as `VIA=cli WORKLOAD=real instructions_analyze.sh` runs it), with each piece
# called from inside a C function of its own that nothing else in the command calls, so that
# callgrind's inclusive count of that C function is the piece's cost:
#
#   analysis        analyze_source                 (itertools.takewhile)
#   report          analysis_json.report_pieces: records -> dicts -> text, one kernel at a time
#                   (itertools.filterfalse; before report25 analyze.document and analysis_json.render
#                   were two pieces, 23 and 61 M on 89fc208)
#   config          SettingsResolver.for_path      (functools.reduce)

#
# A second run puts read_source, write_output, expand_paths and analysis_settings in those slots.
# The rest (click, CliRunner's stream isolation, the command's own lines) is the total less these.
#
#   bash benchmarks/command_pieces.sh TREE
#
# Needs valgrind; two runs of a few minutes each. First measured on 89fc208 (2026-12-04): total
# 847 M; analysis 703, render 61 (57 of it the C encoder), document 23, config lookup 9.7,
# read_source 5.4, write_output 4.6, expand_paths and analysis_settings 3.2, the rest about 37.
set -u
[ $# -eq 1 ] || { echo "usage: command_pieces.sh TREE" >&2; exit 2; }
tree=$1
bench=$(cd "$(dirname "$0")" && pwd)
driver=$(mktemp /tmp/kernelscope-pieces.XXXXXX.py)
out=$(mktemp /tmp/kernelscope-pieces.XXXXXX.cg)
trap 'rm -f "$driver" "$out"' EXIT
cat > "$driver" <<PY
import functools
import itertools
import os
import sys
sys.path.insert(0, "$bench")
import bench_analyze
from click.testing import CliRunner
from kernelscope.cli import cli
from kernelscope.frontend.parse import _query
import kernelscope.analyze as analyze
import kernelscope.commands._common as common
import kernelscope.commands.analyze as command
import kernelscope.frontend.discover as discover
import kernelscope.lint.config as config
import kernelscope.report.analysis_json as analysis_json

_query()


def inside(slot, function):
    """function, called from inside the C function named by slot."""
    def call(*args, **kwargs):
        out = []
        def run(*_):
            out.append(function(*args, **kwargs))
        if slot == "reduce":
            functools.reduce(run, [None, None])
        else:
            list(getattr(itertools, slot)(run, [None]))
        return out[0]
    return call


if os.environ["PIECES"] == "first":
    analyze.analyze_source = inside("takewhile", analyze.analyze_source)
    analysis_json.report_pieces = inside("filterfalse", analysis_json.report_pieces)
    config.SettingsResolver.for_path = inside("reduce", config.SettingsResolver.for_path)
else:
    analyze.read_source = inside("takewhile", analyze.read_source)
    common.write_output = command.write_output = inside("dropwhile", common.write_output)
    discover.expand_paths = inside("filterfalse", discover.expand_paths)
    command.analysis_settings = inside("reduce", common.analysis_settings)

runner = CliRunner()
paths = [str(p) for p in bench_analyze.real_programs()]


def analyse_all():
    for path in paths:
        result = runner.invoke(cli, [*bench_analyze.ANALYZE, path])
        assert result.exit_code in (0, 1), result.output


analyse_all()
list(itertools.starmap(analyse_all, [()]))   # the counted pass
PY
count() {   # the inclusive count (millions) of C function $1 in the last run
    callgrind_annotate --threshold=100 --inclusive=yes "$out" 2>/dev/null |
        awk -v name="$1" '$0 ~ ":" name " \\[" {gsub(",", "", $1); printf "%.1f", $1 / 1e6; exit}'
}
for pieces in first second; do
    PIECES=$pieces PYTHONHASHSEED=0 PYTHONPATH="$tree" valgrind --tool=callgrind --callgrind-out-file="$out" \
        --collect-atstart=no --toggle-collect=starmap_next python3 "$driver" >/dev/null 2>&1
    if [ $pieces = first ]; then
        echo "total $(count starmap_next) M: analysis $(count takewhile_next)," \
             "report $(count filterfalse_next) (C encoder $(count encoder_call)), config lookup $(count functools_reduce)"
    else
        echo "read_source $(count takewhile_next), write_output $(count dropwhile_next)," \
             "expand_paths $(count filterfalse_next), analysis_settings $(count functools_reduce)"
    fi
done
