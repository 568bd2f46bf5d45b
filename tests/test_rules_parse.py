"""KS9xx on real sources: parse problems, constructs the analyses skip, unused suppressions."""

from kernelscope.lint.config import Settings
from kernelscope.lint.engine import lint_text


def codes(source, settings=Settings()):
    return [(f.diagnostic.rule, f.diagnostic.line) for f in lint_text(source, "kernel.cu", settings).findings]


CLEAN = """__global__ void k(float* __restrict__ a) {
    a[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
}
"""


def test_ks901_fires_on_a_syntax_error():
    broken = CLEAN.replace("= 0.0f;", "= 0.0f +;")
    assert ("KS901", 2) in codes(broken)


def test_ks901_is_silent_on_valid_source():
    assert [c for c in codes(CLEAN) if c[0] == "KS901"] == []


def test_ks902_fires_on_an_expression_too_deep_to_analyse():
    deep = "(" * 200 + "threadIdx.x" + ")" * 200
    source = f"__global__ void k(float* __restrict__ a) {{\n    a[{deep}] = 0.0f;\n}}\n"
    assert any(code == "KS902" for code, _ in codes(source))


def test_ks902_is_silent_on_ordinary_expressions():
    assert [c for c in codes(CLEAN) if c[0] == "KS902"] == []


STRIDED = """__global__ void k(const float* __restrict__ in, float* __restrict__ out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 32];  // kernelscope: ignore[%s]
}
"""


def memory_and_suppression_codes(source):
    """The findings on the suppressed line's subject; the kernel-level KS401 hint is not."""
    return [c for c in codes(source) if c[0].startswith(("KS1", "KS9"))]


def test_ks903_fires_when_a_suppression_names_a_rule_that_does_not_fire_there():
    assert memory_and_suppression_codes(STRIDED % "KS103") == [("KS101", 3), ("KS903", 3)]


def test_ks903_is_silent_when_the_suppression_is_used():
    assert memory_and_suppression_codes(STRIDED % "KS101") == []
