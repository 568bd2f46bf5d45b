"""The text report of `kernelscope analyze`: what a CUDA programmer reads must be true to the JSON
document and free of the analyses' internal notation. Each test checks the text against numbers
the analysis itself gives when the missing sizes are bound, not against numbers written here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kernelscope.cli import cli

ROOT = Path(__file__).parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.cu"))
TEMPLATES = Path(__file__).parent / "kernels" / "occupancy" / "templates.cu"
ONE_LANE = Path(__file__).parent / "kernels" / "report" / "one_lane.cu"


def run(*args, env=None):
    result = CliRunner().invoke(cli, ["analyze", "--registers", "estimate", *map(str, args)], env=env)
    assert result.exit_code in (0, 1), result.output
    return result.output


def document(*args):
    return json.loads(run("--format", "json", *args))


def access_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"\s+\d+:\d+\s+(global|shared|local|constant)\s", line)]


def test_no_internal_symbols_in_the_report_of_the_examples():
    text = run(*EXAMPLES)
    assert "trip(" not in text and "xtrip" not in text
    assert "[[" not in text and "['" not in text   # no Python lists


def test_a_loop_count_is_written_as_an_expression_of_the_parameter_to_bind():
    matmul = ROOT / "examples" / "matmul_tiled.cu"
    text = run(matmul)
    assert "--arg n=" in text
    unbound = document(matmul)["files"][0]["kernels"]
    for size in (1024, 4096):
        bound = document("--arg", f"n={size}", matmul)["files"][0]["kernels"]
        lines = access_lines(text)
        for kernel_unbound, kernel_bound in zip(unbound, bound):
            for access, exact in zip(kernel_unbound["accesses"], kernel_bound["accesses"]):
                if isinstance(access["exec_weight"], (int, float)):
                    continue
                line = next(l for l in lines if re.match(rf"\s+{access['line']}:{access['column']}\s", l)
                            and l.rstrip().endswith(access["expr"]))
                expression = re.search(r" x\(([^)]*(?:\([^)]*\)[^)]*)*)\)\s", line).group(1)
                assert eval(expression, {"n": size}) == pytest.approx(exact["exec_weight"]), line


def test_intensity_for_large_sizes_is_the_limit_of_the_bound_analysis():
    matmul = ROOT / "examples" / "matmul_tiled.cu"
    text = run(matmul)
    limits = [float(m) for m in re.findall(r"-> ([\d.]+) FLOP/B for large sizes", text)]
    assert len(limits) == 2
    large = document("--arg", f"n={2**22}", matmul)["files"][0]["kernels"]
    for limit, kernel in zip(limits, large):
        assert kernel["intensity"]["arithmetic_intensity"] == pytest.approx(limit, rel=1e-3)


def test_ideal_is_shown_only_when_the_access_costs_more():
    for line in access_lines(run(*EXAMPLES)):
        match = re.search(r"([\d.]+) sectors?/request \(ideal ([\d.]+)\)", line)
        if match:
            assert float(match.group(1)) > float(match.group(2)), line


def test_unit_stride_is_never_called_strided():
    documents = document(*EXAMPLES)
    text = run(*EXAMPLES)
    lines = access_lines(text)
    checked = 0
    for file in documents["files"]:
        for kernel in file["kernels"]:
            for access in kernel["accesses"]:
                if access["stride_bytes"] == access["elem_bytes"]:
                    matching = [l for l in lines if re.match(rf"\s+{access['line']}:{access['column']}\s", l)]
                    assert matching and all(" strided " not in l for l in matching), matching
                    checked += 1
    assert checked


def test_a_store_by_one_lane_is_not_called_broadcast():
    lines = access_lines(run(ONE_LANE))
    assert lines and all("one lane" in line and "broadcast" not in line for line in lines)


def test_template_instantiations_are_written_as_cpp():
    text = run(TEMPLATES)
    line = next(l for l in text.splitlines() if "instantiations" in l)
    assert "<128, float>" in line and "[" not in line


def test_best_block_size_is_the_smallest_reaching_the_best_occupancy():
    for path in EXAMPLES + [TEMPLATES]:
        text = run(path)
        advised = [int(m) for m in re.findall(r"best block size: (\d+) ", text)]
        kernels = document(path)["files"][0]["kernels"]
        assert len(advised) == len(kernels)
        for size, kernel in zip(advised, kernels):
            sweep = kernel["occupancy"]["sweep"]
            best = max(p["theoretical_occupancy"] for p in sweep)
            assert size == min(p["block_size"] for p in sweep if p["theoretical_occupancy"] == best)


def test_explain_prints_a_legend_of_the_notation():
    text = run("--explain", EXAMPLES[0])
    legend = " ".join(text.split("\n\n")[0].split())
    for word in ("[launch]", "[default]", "xN", "ideal", "bank ways", "one lane"):
        assert word in legend
    assert "legend" not in run(EXAMPLES[0])


def test_colour_follows_the_color_option_and_no_color():
    transpose = ROOT / "examples" / "transpose.cu"
    assert "\033[" in CliRunner().invoke(cli, ["--color", "always", "analyze", str(transpose)]).output
    assert "\033[" in CliRunner().invoke(cli, ["analyze", "--color=always", str(transpose)]).output
    assert "\033[" not in CliRunner().invoke(cli, ["analyze", str(transpose)]).output  # not a terminal
    assert "\033[" not in CliRunner().invoke(cli, ["--color", "auto", "analyze", str(transpose)],
                                             env={"NO_COLOR": "1"}).output


def test_a_chunk_loop_bounded_by_min_counts_its_chunk():
    chunked = Path(__file__).parent / "kernels" / "report" / "chunked.cu"
    (line,) = [l for l in access_lines(run(chunked)) if "in[i]" in l]
    written = float(re.search(r" x\(~([\d.]+)\)", line).group(1))
    (kernel,) = document("--arg", f"n={2**24}", chunked)["files"][0]["kernels"]
    (load,) = [a for a in kernel["accesses"] if a["expr"] == "in[i]"]
    assert written == pytest.approx(load["exec_weight"])
