"""parse_file's model holds no tree-sitter node, so the parsed tree is freed when parse_file returns
(before the analysis, which then reuses its memory), and the report's text is freed before the
occupancy objects are joined into it; what the model and the report say is unchanged."""

from __future__ import annotations

import sys

import tree_sitter

import kernelscope.frontend.parse as parse
from kernelscope.analyze import analyze_source, document
from kernelscope.report import analysis_json

SOURCE = """\
template <typename T>
__device__ T twice(T a) { return a + a; }
__device__ float square(float v, int n) { return v * v; }
__global__ void k(float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = twice(square(y[i], n));
}
"""


def _parsed_trees(monkeypatch) -> list:
    trees = []
    make_parser = parse._parser

    class KeepingParser:
        def __init__(self):
            self.parser = make_parser()

        def parse(self, data):
            tree = self.parser.parse(data)
            trees.append(tree)
            return tree

    monkeypatch.setattr(parse, "_parser", KeepingParser)
    return trees


def _references_beside_the_list(trees) -> int:
    """References to the one parsed tree other than `trees`' (every node holds one)."""
    tree = trees[0]
    return sys.getrefcount(tree) - 3     # trees' item, `tree`, getrefcount's argument


def _nodes_in(value) -> list:
    if isinstance(value, tree_sitter.Node):
        return [value]
    if isinstance(value, (list, tuple)):
        return [n for item in value for n in _nodes_in(item)]
    if isinstance(value, dict):
        return [n for item in value.values() for n in _nodes_in(item)]
    return []


def test_the_model_holds_no_node_and_keeps_the_device_functions():
    model = parse.parse_file(SOURCE)
    assert sorted(model.device_functions) == ["square", "twice"]
    assert _nodes_in(model.device_functions) == []
    params, body, return_type, template_params = model.device_functions["square"]
    assert params == [("v", "float"), ("n", "int")]
    assert body == "{ return v * v; }"
    assert return_type == "float" and template_params == []
    params, body, return_type, template_params = model.device_functions["twice"]
    assert body == "{ return a + a; }" and template_params == ["T"]


def test_the_tree_is_freed_when_parse_file_returns(monkeypatch):
    trees = _parsed_trees(monkeypatch)
    model = parse.parse_file(SOURCE)
    assert len(trees) == 1 and model.kernels
    assert _references_beside_the_list(trees) == 0


def test_nor_does_an_analysis_result(monkeypatch):
    trees = _parsed_trees(monkeypatch)
    result = analyze_source(SOURCE, "k.cu", registers="estimate")
    assert [k.kernel.name for k in result.kernels] == ["k"]
    assert _references_beside_the_list(trees) == 0


def test_the_report_is_the_same_as_json_dumps():
    import json

    results = [analyze_source(SOURCE, "a.cu", registers="estimate"),
               analyze_source(SOURCE.replace("void k(", "void k2("), "b.cu", registers="estimate")]
    doc = document(results)
    text = analysis_json.render(doc)
    assert text == json.dumps(doc, separators=(",", ":")) + "\n"
    assert text.count('"occupancy"') == 2
