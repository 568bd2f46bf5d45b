"""The JSON report's string table (report/analysis_json.py, _ENCODED_STRINGS) holds interned keys, so
that the keys the records' to_json write (their code's constants, which Python interns) are found by
identity; a string equal to a key but another object must still get the same text, and a report
must stay what json.dumps writes."""

import json
import sys

from kernelscope.analyze import analyze_source, document
from kernelscope.report import analysis_json
from kernelscope.report.analysis_json import render

SOURCE = """
__global__ void saxpy(float* y, const float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void reduce(const float* x, float* out, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = t < n ? x[t] : 0.0f;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
    if (t == 0) atomicAdd(out, s[0]);
}
"""


def plain(doc) -> str:
    return json.dumps(doc, allow_nan=False, separators=(",", ":")) + "\n"


def test_the_table_keys_are_interned():
    for text in analysis_json._ENCODED_STRINGS:
        assert sys.intern(text) is text


def test_the_documents_keys_in_the_table_are_the_tables_own_objects():
    doc = document([analyze_source(SOURCE, "k.cu", registers="estimate")])
    table = {text: text for text in analysis_json._ENCODED_STRINGS}
    keys = []

    def walk(value):
        if isinstance(value, dict):
            for key, item in value.items():
                keys.append(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(doc)
    known = [key for key in keys if key in table]
    assert len(known) > 100
    assert all(table[key] is key for key in known)


def _copy_with_new_strings(value):
    """value with every string replaced by an equal string that is another object."""
    if isinstance(value, str):
        copy = "".join(list(value))
        return copy if copy is not value or not value else ("" + value + " ")[:-1]
    if isinstance(value, dict):
        return {_copy_with_new_strings(k): _copy_with_new_strings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_with_new_strings(v) for v in value]
    return value


def test_equal_strings_that_are_other_objects_encode_alike():
    doc = document([analyze_source(SOURCE, "k.cu", registers="estimate")])
    copy = _copy_with_new_strings(doc)
    keys = list(copy["files"][0]["kernels"][0])
    assert keys and all(key is not sys.intern(key) for key in keys if len(key) > 1)
    assert render(copy) == plain(doc) == render(doc)
    for text in analysis_json._ENCODED_STRINGS:
        other = "".join(list(text))
        assert analysis_json._unescaped([text, other, {other: text}]) == json.dumps(
            [text, text, {text: text}], ensure_ascii=False, separators=(",", ":"))
