"""kernelscope.malloc_tuning: glibc keeps freed memory for reuse in the quick commands' processes only,
and the setting is skipped (never raising) where there is no glibc or the user chose their own."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from kernelscope import malloc_tuning

GLIBC = malloc_tuning._is_glibc()


def _run(code: str, **env) -> str:
    environment = {k: v for k, v in os.environ.items() if k not in malloc_tuning.USER_SETTINGS}
    environment.pop("GLIBC_TUNABLES", None)
    environment.update(env)
    completed = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                               env=environment, check=True)
    return completed.stdout.strip()


# allocates and frees blocks of growing size, 256 KiB to 10 MiB (numpy arrays, lists, the report's
# text, tree-sitter's arrays): by default glibc maps each block larger than the largest freed so far
# on its own, so every one faults all its pages in anew; kept, the heap's freed pages are reused
_FAULTS_OF_REPEATED_BLOCKS = """
    import resource, sys
    from kernelscope import malloc_tuning
    applied = malloc_tuning.keep_freed_memory() if sys.argv[-1] == "tuned" else None
    def faults():
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    before = faults()
    for size in range(1, 41):
        block = bytearray(size << 18)
        del block
    print(applied, faults() - before)
"""


@pytest.mark.skipif(not GLIBC, reason="glibc only")
def test_freed_blocks_are_reused_instead_of_faulted_in_again():
    def run(mode):
        completed = subprocess.run([sys.executable, "-c", textwrap.dedent(_FAULTS_OF_REPEATED_BLOCKS), mode],
                                   capture_output=True, text=True, check=True,
                                   env={k: v for k, v in os.environ.items() if k not in malloc_tuning.USER_SETTINGS
                                        and k != "GLIBC_TUNABLES"})
        applied, faults = completed.stdout.split()
        return applied, int(faults)

    default_applied, default_faults = run("default")
    tuned_applied, tuned_faults = run("tuned")
    assert default_applied == "None" and tuned_applied == "True"
    assert default_faults > 40_000              # 64 pages per 256 KiB, every block's anew: 52,480
    assert tuned_faults < default_faults / 10   # about the largest block's 2,560


def test_no_glibc_means_nothing_is_called(monkeypatch):
    def unknown_name(name):
        raise ValueError("unrecognized configuration name")

    monkeypatch.setattr(os, "confstr", unknown_name)
    monkeypatch.setattr("ctypes.CDLL", lambda *a: pytest.fail("mallopt looked up without glibc"))
    assert malloc_tuning.keep_freed_memory() is False


def test_no_confstr_at_all(monkeypatch):
    monkeypatch.delattr(os, "confstr")
    assert malloc_tuning.keep_freed_memory() is False


@pytest.mark.parametrize("name", malloc_tuning.USER_SETTINGS)
def test_the_users_own_settings_are_left_alone(monkeypatch, name):
    monkeypatch.setattr(malloc_tuning, "_is_glibc", lambda: True)
    monkeypatch.setenv(name, "65536")
    monkeypatch.setattr("ctypes.CDLL", lambda *a: pytest.fail("mallopt called over the user's setting"))
    assert malloc_tuning.keep_freed_memory() is False


def test_glibc_tunables_for_malloc_are_left_alone(monkeypatch):
    monkeypatch.setattr(malloc_tuning, "_is_glibc", lambda: True)
    for name in malloc_tuning.USER_SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1")
    monkeypatch.setattr("ctypes.CDLL", lambda *a: pytest.fail("mallopt called over the user's tunables"))
    assert malloc_tuning.keep_freed_memory() is False


def test_a_missing_mallopt_does_not_raise(monkeypatch):
    monkeypatch.setattr(malloc_tuning, "_is_glibc", lambda: True)
    monkeypatch.setattr(malloc_tuning, "_user_chose", lambda: False)

    def no_library(*args):
        raise OSError("no such library")

    monkeypatch.setattr("ctypes.CDLL", no_library)
    assert malloc_tuning.keep_freed_memory() is False

    class NoSymbols:
        def __getattr__(self, name):
            raise AttributeError(name)

    monkeypatch.setattr("ctypes.CDLL", lambda *a: NoSymbols())
    assert malloc_tuning.keep_freed_memory() is False


def test_a_refused_setting_is_reported(monkeypatch):
    monkeypatch.setattr(malloc_tuning, "_is_glibc", lambda: True)
    monkeypatch.setattr(malloc_tuning, "_user_chose", lambda: False)
    calls = []

    class Libc:
        class mallopt:   # noqa: N801 (stands for the C function)
            argtypes = restype = None

            def __new__(cls, parameter, value):
                calls.append((parameter, value))
                return 0 if parameter == malloc_tuning.M_MMAP_THRESHOLD else 1

    monkeypatch.setattr("ctypes.CDLL", lambda *a: Libc())
    assert malloc_tuning.keep_freed_memory() is False
    # both are asked for, the trim threshold too when the other is refused
    assert calls == [(malloc_tuning.M_TRIM_THRESHOLD, malloc_tuning.TRIM_THRESHOLD),
                     (malloc_tuning.M_MMAP_THRESHOLD, malloc_tuning.MMAP_THRESHOLD)]


def test_quick_commands_apply_it_and_library_callers_do_not():
    # the start of a quick command's process asks for it
    out = _run("""
        import kernelscope.malloc_tuning as tuning
        calls = []
        tuning.keep_freed_memory = lambda: calls.append(1) or True
        import kernelscope.cli as cli
        cli._start_quick_process()
        print(len(calls))
    """)
    assert out == "1"
    # a library caller's analysis never does
    out = _run("""
        import kernelscope.malloc_tuning as tuning
        def refuse():
            raise AssertionError("malloc tuned in a library caller's process")
        tuning.keep_freed_memory = refuse
        from kernelscope.analyze import analyze_source
        result = analyze_source("__global__ void k(float* y) { y[threadIdx.x] = 1; }\\n")
        print(len(result.kernels))
    """)
    assert out == "1"


@pytest.mark.skipif(not GLIBC, reason="glibc only")
def test_analyze_output_is_the_same_with_and_without_it(tmp_path):
    source = tmp_path / "k.cu"
    source.write_text("__global__ void k(const float* x, float* y, int n) {\n"
                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "    if (i < n) y[i] = 2.0f * x[i];\n}\n")
    command = [sys.executable, "-m", "kernelscope", "analyze", str(source), "--format", "json"]
    base = {k: v for k, v in os.environ.items() if k not in malloc_tuning.USER_SETTINGS and k != "GLIBC_TUNABLES"}
    tuned = subprocess.run(command, capture_output=True, text=True, env=base)
    # a user's own setting turns ours off: the plain glibc defaults
    untuned = subprocess.run(command, capture_output=True, text=True, env={**base, "MALLOC_TOP_PAD_": "131072"})
    assert tuned.returncode == untuned.returncode == 0
    assert tuned.stdout == untuned.stdout and '"kernels"' in tuned.stdout
