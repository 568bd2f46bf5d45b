"""The occupancy sweeps spliced into the JSON report as _Spliced texts that the encoder's string table
answers unquoted (render24): the text must be json.dumps' of the document, byte for byte, including
where a string of the document equals a spliced text, holds non-ASCII characters, or looks like
the markers the splice once used."""

import json

from kernelscope.analyze import analyze_source, document
from kernelscope.report import analysis_json

SOURCE = """
__global__ void a(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] = 2.0f * x[i]; }
__global__ void b(float *y, int n) { int i = threadIdx.x; if (i < n) y[i] = y[i] + 1.0f; }
__global__ void c(double *z) { __shared__ double s[256]; s[threadIdx.x] = z[threadIdx.x]; __syncthreads();
                               z[threadIdx.x] = s[255 - threadIdx.x]; }
"""


def expected(doc: dict) -> str:
    return json.dumps(doc, separators=(",", ":"), allow_nan=False) + "\n"


def test_report_of_kernels_sharing_occupancy_is_json_dumps():
    doc = document([analyze_source(SOURCE, "k.cu", registers="estimate")])
    kernels = doc["files"][0]["kernels"]
    assert kernels[0]["occupancy"] is kernels[1]["occupancy"]      # shared: spliced once, used twice
    assert analysis_json.render(doc) == expected(doc)


def test_a_string_equal_to_a_spliced_text_is_still_quoted():
    doc = document([analyze_source(SOURCE, "k.cu", registers="estimate")])
    occupancy_text = analysis_json._compact(doc["files"][0]["kernels"][0]["occupancy"])
    doc["files"][0]["notes"] = [occupancy_text, '"\\u0000kernelscope-occupancy-0\\u0000"', "\x00"]
    doc["files"][0]["kernels"][0]["name"] = occupancy_text
    assert analysis_json.render(doc) == expected(doc)


def test_non_ascii_strings_beside_spliced_texts_are_escaped():
    doc = document([analyze_source(SOURCE, "k.cu", registers="estimate")])
    doc["files"][0]["notes"] = ["größe \x7f ✓"]
    assert analysis_json.render(doc) == expected(doc)


def test_the_shared_string_table_is_left_as_it_was():
    size = len(analysis_json._ENCODED_STRINGS)
    doc = document([analyze_source(SOURCE, "k.cu", registers="estimate")])
    analysis_json.render(doc)
    assert len(analysis_json._ENCODED_STRINGS) == size
    assert not any(isinstance(key, analysis_json._Spliced) for key in analysis_json._ENCODED_STRINGS)


def test_nan_falls_back_to_null():
    doc = document([analyze_source(SOURCE, "k.cu", registers="estimate")])
    doc["files"][0]["kernels"][0]["line"] = float("nan")
    doc2 = json.loads(analysis_json.render(doc))
    assert doc2["files"][0]["kernels"][0]["line"] is None
