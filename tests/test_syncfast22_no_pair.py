"""`races_within` skips a group of one access whose every pair its naming loop would skip
(`_names_no_pair`, NO_PAIR_TO_NAME): one store of a uniform value (`*total = 0` by every thread, where
two threads do share a word), an atomic's instances, or an access whose pair with itself is recorded
already (a racing store in a loop, met again in every trip and block). These compare the findings with
and without the skip on kernels where the groups are built alike and differ only in whether a pair is
named, and check that the skip is taken (the tables are not built) and can tell a race that must be
named (a non-uniform store to one word, several accesses in one group) from one it may skip."""

from __future__ import annotations

import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file

SOURCE = r"""
__global__ void uniform_total(float *total, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    *total = 0.0f;
    out[i] = 1.0f;
}
__global__ void racing_total(float *total, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    *total = (float)threadIdx.x;
    out[i] = 1.0f;
}
__global__ void racing_in_a_loop(float *out, int n) {
    __shared__ float s[64];
    for (int k = 0; k < 6; ++k) {
        s[0] = (float)(threadIdx.x + k);
        __syncthreads();
        out[threadIdx.x] = s[0];
        __syncthreads();
    }
}
__global__ void two_stores_one_word(float *total, int n) {
    *total = 0.0f;
    total[0] = (float)threadIdx.x;
}
__global__ void counted(int *counter, float *out) {
    atomicAdd(counter, 1);
    atomicAdd(&counter[1], 2);
    out[threadIdx.x] = 0.0f;
}
__global__ void shared_uniform(float *out) {
    __shared__ float flag;
    flag = 1.0f;
    __syncthreads();
    out[threadIdx.x] = flag;
}
"""

LAUNCHES = ({"grid": None, "block_assumed": True}, {"grid": None, "block_assumed": False},
            {"grid": (3, 1, 1), "block_assumed": False})


def _kernels():
    return parse_file(SOURCE, "no_pair.cu").kernels


def _findings(kernels) -> list:
    return [sync.analyze(kernel, (128, 1, 1), {"n": 1000}, **launch).to_json()
            for kernel in kernels for launch in LAUNCHES]


@pytest.fixture
def touched(monkeypatch) -> list:
    """The groups `_touches` builds tables for (their accesses' lines and arrays)."""
    built: list = []
    real = sync._touches

    def touches(group, space):
        built.append({(i.access.array, i.access.line) for i in group})
        return real(group, space)

    monkeypatch.setattr(sync, "_touches", touches)
    return built


def test_the_findings_are_those_of_the_naming_loop(monkeypatch):
    kernels = _kernels()
    fast = _findings(kernels)
    monkeypatch.setattr(sync, "NO_PAIR_TO_NAME", False)
    assert fast == _findings(kernels)


def test_the_races_are_still_named():
    # (the skip must not swallow these: a store of differing values, and two accesses meeting)
    by_name = {kernel.name: sync.analyze(kernel, (128, 1, 1), {"n": 1000}, grid=None, block_assumed=True)
               for kernel in _kernels()}
    assert by_name["racing_total"].global_races
    assert by_name["two_stores_one_word"].global_races
    assert by_name["racing_in_a_loop"].shared_races
    assert not by_name["uniform_total"].global_races
    assert not by_name["shared_uniform"].shared_races


def test_uniform_stores_build_no_tables(touched):
    kernels = {kernel.name: kernel for kernel in _kernels()}
    sync.analyze(kernels["uniform_total"], (128, 1, 1), {"n": 1000}, grid=None, block_assumed=True)
    sync.analyze(kernels["shared_uniform"], (128, 1, 1), {}, grid=None, block_assumed=True)
    assert touched == []


def test_the_general_path_builds_them(touched, monkeypatch):
    # (the test above can fail: without the skip the same kernels build their tables)
    monkeypatch.setattr(sync, "NO_PAIR_TO_NAME", False)
    kernels = {kernel.name: kernel for kernel in _kernels()}
    sync.analyze(kernels["uniform_total"], (128, 1, 1), {"n": 1000}, grid=None, block_assumed=True)
    sync.analyze(kernels["shared_uniform"], (128, 1, 1), {}, grid=None, block_assumed=True)
    assert len(touched) == 2


def test_a_recorded_race_is_not_looked_for_again(touched, monkeypatch):
    kernel = next(k for k in _kernels() if k.name == "racing_in_a_loop")
    sync.analyze(kernel, (128, 1, 1), {}, grid=None, block_assumed=True)
    skipped = len(touched)
    touched.clear()
    monkeypatch.setattr(sync, "NO_PAIR_TO_NAME", False)
    sync.analyze(kernel, (128, 1, 1), {}, grid=None, block_assumed=True)
    assert skipped < len(touched)


def test_names_no_pair_leaves_mixed_groups_to_the_loop():
    kernels = {kernel.name: kernel for kernel in _kernels()}
    stores = [a for a in kernels["two_stores_one_word"].accesses if a.op == "store"]
    assert len(stores) == 2 and all(sync._stores_uniform_value(a) is not None for a in stores)

    class Alone:
        def __init__(self, access):
            self.access = access

    uniform = next(a for a in stores if sync._stores_uniform_value(a))
    assert sync._names_no_pair([Alone(uniform)], {})
    assert not sync._names_no_pair([Alone(uniform), Alone(uniform)], {})    # two instances: two threads' pairs
    assert not sync._names_no_pair([Alone(s) for s in stores], {})
    assert sync._names_no_pair([Alone(uniform), Alone(uniform)], {(uniform.array, uniform.line, uniform.line): 1})
