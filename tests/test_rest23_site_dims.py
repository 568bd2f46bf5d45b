"""analyze._site_dims resolves a kernel's launch sites once for _launch_shape, _rejected_launches and
_launch_results, and without bindings takes each site's own sizes (what the front end found constant)
instead of evaluating its expressions again: compared here with the resolution on every launch site
of the project's files, and through whole reports."""

from __future__ import annotations

import pytest

from kernelscope import analyze
from kernelscope.analyze import _site_dims, analyze_source, document
from tests.project_sources import PROJECT_CUDA_FILES, project_kernels


def resolved(kernel, bindings):
    """_site_dims' general path: every site's sizes evaluated with the bindings."""
    return [(site, analyze._resolve_dims(site.block_exprs, bindings) or site.block,
             analyze._resolve_dims(site.grid_exprs, bindings) or site.grid) for site in kernel.launches]


def test_sites_without_bindings_keep_the_sizes_the_front_end_resolved():
    sites = 0
    for kernel in project_kernels():
        assert _site_dims(kernel, {}) == resolved(kernel, {}), kernel.name
        sites += len(kernel.launches)
    assert sites > 20       # the comparison saw launches, constant and not


def test_bindings_resolve_sizes_the_front_end_could_not():
    source = """
__global__ void scale(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void host(float* x, int n, int threads) { scale<<<(n + threads - 1) / threads, threads>>>(x, n); }
"""
    result = analyze_source(source, registers="estimate")
    kernel = result.kernels[0].kernel
    assert _site_dims(kernel, {})[0][1:] == (None, None)
    bound = {"n": 4096, "threads": 128}
    assert _site_dims(kernel, bound) == resolved(kernel, bound)
    assert _site_dims(kernel, bound)[0][1:] == ((128, 1, 1), (32, 1, 1))
    shaped = analyze_source(source, registers="estimate", bindings=bound).kernels[0]
    assert (shaped.block.as_list(), shaped.grid, shaped.block_source) == ([128, 1, 1], (32, 1, 1), "launch")


@pytest.mark.parametrize("path", [p for p in PROJECT_CUDA_FILES if "<<<" in p.read_text()][:40],
                         ids=lambda p: p.name)
def test_reports_are_those_of_resolving_every_site(path, monkeypatch):
    text = path.read_text()
    fast = document([analyze_source(text, str(path), registers="estimate", plan=True)])
    monkeypatch.setattr(analyze, "SITE_DIMS_WITHOUT_BINDINGS", False)
    general = document([analyze_source(text, str(path), registers="estimate", plan=True)])
    assert fast == general
