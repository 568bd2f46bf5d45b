"""Compilation with the nvcc backend (works without a GPU) and the cubin cache (CPU only)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kernelscope.runner import compile as compile_module
from kernelscope.runner.compile import CompileError, compile_kernel, compile_many

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "problems" / "vector_add"


@pytest.fixture(autouse=True)
def fresh_memory_cache():
    compile_module._MEMORY_CACHE.clear()
    yield
    compile_module._MEMORY_CACHE.clear()


def test_extern_c_kernel_keeps_its_name(tmp_path):
    result = compile_kernel((EXAMPLE / "naive.cu").read_text(), backend="nvcc", arch="sm_90", cache_dir=tmp_path)
    assert result.kernel == result.lowered_name == "vector_add"
    assert result.cubin[:4] == b"\x7fELF" and not result.cached


def test_cpp_kernel_is_found_under_its_mangled_name(tmp_path):
    result = compile_kernel((EXAMPLE / "vectorized.cu").read_text(), backend="nvcc", arch="sm_90",
                            cache_dir=tmp_path)
    assert result.kernel == "vector_add_float4"
    assert result.lowered_name.startswith("_Z17vector_add_float4")


def test_second_compile_is_served_from_the_disk_cache(tmp_path):
    source = (EXAMPLE / "naive.cu").read_text()
    first = compile_kernel(source, backend="nvcc", arch="sm_90", cache_dir=tmp_path)
    compile_module._MEMORY_CACHE.clear()
    second = compile_kernel(source, backend="nvcc", arch="sm_90", cache_dir=tmp_path)
    assert second.cached and second.cubin == first.cubin and second.key == first.key
    assert len(list(tmp_path.glob("*.cubin"))) == 1


def test_cache_key_changes_with_source_and_arch(tmp_path):
    source = (EXAMPLE / "naive.cu").read_text()
    a = compile_kernel(source, backend="nvcc", arch="sm_90", cache_dir=tmp_path)
    b = compile_kernel(source + "\n// changed\n", backend="nvcc", arch="sm_90", cache_dir=tmp_path)
    c = compile_kernel(source, backend="nvcc", arch="sm_80", cache_dir=tmp_path)
    assert len({a.key, b.key, c.key}) == 3 and not b.cached and not c.cached


def test_compile_error_carries_the_compiler_log(tmp_path):
    with pytest.raises(CompileError) as error:
        compile_kernel("__global__ void k(float *a) { a[0] = undefined_name; }", backend="nvcc",
                       arch="sm_90", cache_dir=tmp_path)
    assert "undefined_name" in error.value.log and "compilation failed" in str(error.value)


def test_kernel_name_is_required_when_the_source_has_several(tmp_path):
    source = "__global__ void a(float *x) {}\n__global__ void b(float *x) {}\n"
    with pytest.raises(CompileError, match="defines 2 __global__ functions"):
        compile_kernel(source, backend="nvcc", cache_dir=tmp_path)
    assert compile_kernel(source, "b", backend="nvcc", arch="sm_90", cache_dir=tmp_path).lowered_name.startswith("_Z1b")


def test_missing_kernel_is_a_compile_error(tmp_path):
    with pytest.raises(CompileError, match="'nope' is not defined"):
        compile_kernel((EXAMPLE / "naive.cu").read_text(), "nope", backend="nvcc", arch="sm_90",
                       cache_dir=tmp_path)


def test_compile_many_returns_errors_in_place(tmp_path):
    good = (EXAMPLE / "naive.cu").read_text()
    results = compile_many([(good, None), ("__global__ void k( {", "k")], backend="nvcc", arch="sm_90",
                           cache_dir=tmp_path)
    assert results[0].lowered_name == "vector_add" and isinstance(results[1], CompileError)


def test_unknown_backend_is_refused():
    with pytest.raises(Exception, match="unknown compile backend"):
        compile_kernel("__global__ void k() {}", backend="clang")
