"""The JSON report encodes each shared occupancy object once and splices it in: the text must be
exactly what json.dumps writes for the whole document."""

import json

from kernelscope.analyze import analyze_source, document
from kernelscope.report.analysis_json import render


def plain(doc) -> str:
    return json.dumps(doc, allow_nan=False, separators=(",", ":")) + "\n"


SOURCE = "".join(f"__global__ void k{i}(float* y, int n) {{ int i = threadIdx.x; if (i < n) y[i] = {i}.0f; }}\n"
                 for i in range(6))


def test_kernels_sharing_an_occupancy_result_render_as_json_dumps_does():
    doc = document([analyze_source(SOURCE, "k.cu", registers="estimate")])
    occupancies = [k["occupancy"] for k in doc["files"][0]["kernels"]]
    assert len(occupancies) == 6 and len({id(o) for o in occupancies}) < 6   # some are shared objects
    assert render(doc) == plain(doc)
    assert json.loads(render(doc)) == doc


def test_a_string_that_looks_like_the_marker_does_not_confuse_the_splice():
    shared = {"sweep": [1, 2, 3]}
    doc = {"schema": "s", "files": [{"path": "\x00kernelscope-occupancy-0\x00", "errors": [],
                                      "kernels": [{"name": "a", "occupancy": shared},
                                                  {"name": "\"\x00kernelscope-occupancy-0\x00", "occupancy": shared}]}],
           "diagnostics": []}
    assert render(doc) == plain(doc)


def test_non_finite_numbers_become_null():
    doc = {"schema": "s", "files": [{"path": "p", "kernels": [{"occupancy": {"x": float("nan")}, "y": 1.0}]}],
           "diagnostics": []}
    assert json.loads(render(doc))["files"][0]["kernels"][0]["occupancy"] == {"x": None}


def test_occupancy_encodings_kept_from_earlier_documents_still_render_each_document_exactly():
    # the same shared occupancy objects in a second document, then documents whose occupancy
    # objects are new (other block sizes, another sweep): each renders as json.dumps writes it
    first = document([analyze_source(SOURCE, "k.cu", registers="estimate")])
    assert render(first) == plain(first)
    again = document([analyze_source(SOURCE, "k.cu", registers="estimate")])
    assert render(again) == plain(again)
    for block in ("64", "128", "512"):
        other = document([analyze_source(SOURCE, "k.cu", registers="estimate", block=(int(block), 1, 1))])
        assert render(other) == plain(other)
    shared = {"sweep": [1, 2, 3]}
    doc = {"schema": "s", "files": [{"path": "p", "kernels": [{"occupancy": shared}]}], "diagnostics": []}
    assert render(doc) == plain(doc)
    shared["sweep"].append(4)      # a dict changed in place is not one analyze.py makes, but a new one is
    doc = {"schema": "s", "files": [{"path": "p", "kernels": [{"occupancy": dict(shared)}]}], "diagnostics": []}
    assert render(doc) == plain(doc)
