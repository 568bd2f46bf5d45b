"""Resource usage from ptxas: parsing real reports, naming kernels, caching, and running nvcc."""

import shutil
from pathlib import Path

import pytest

from kernelscope import resources
from kernelscope.errors import InputError, ToolMissingError
from kernelscope.resources import (CompileError, group_by_kernel, parse_ptxas_log, ptxas_usage,
                                   split_demangled)

FIXTURES = Path(__file__).parent / "fixtures" / "ptxas"
CORPUS = Path(__file__).parent / "kernels" / "occupancy"
needs_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")


def _log(name):
    return (FIXTURES / name).read_text()


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


# --- parsing captured reports ------------------------------------------------------------------------


def test_registers_shared_memory_and_barriers_are_read_per_entry():
    usages = parse_ptxas_log(_log("shared_sm80.log"))
    transpose = usages["_Z14transpose_tilePKfPfi"]
    assert (transpose.registers, transpose.static_shared_bytes, transpose.barriers) == (14, 4224, 1)
    assert transpose.constant_bytes == 372
    assert usages["_Z10odd_staticPKcPc"].static_shared_bytes == 1000
    assert len(usages) == 4


def test_spills_and_stack_are_read_from_the_properties_line():
    spilling = parse_ptxas_log(_log("bounds_sm90.log"))["_Z8spillingPKfPfi"]
    assert (spilling.registers, spilling.spill_stores, spilling.spill_loads) == (32, 912, 1032)
    assert spilling.stack_bytes == 552
    assert spilling.spills


def test_named_barriers_count_up_to_the_highest_id():
    usages = parse_ptxas_log(_log("barriers_sm75.log"))
    assert usages["_Z16named_barrier_16Pf"].barriers == 16
    assert usages["_Z15named_barrier_4Pf"].barriers == 4
    assert usages["_Z10no_barrierPf"].barriers == 0


def test_a_called_device_function_does_not_become_a_kernel():
    usages = parse_ptxas_log(_log("noinline_call_sm90.log"))
    assert list(usages) == ["_Z12calls_helperPKfPf"]
    assert usages["_Z12calls_helperPKfPf"].stack_bytes == 64


def test_maxrregcount_report_shows_capped_registers_and_spills():
    usages = group_by_kernel(parse_ptxas_log(_log("pressure_sm90_maxrreg40.log")))
    dot = dict(usages["unrolled_dot"].instantiations)
    assert all(u.registers <= 40 for u in dot.values())
    assert dot["unrolled_dot<100>"].spill_stores > 0
    assert dot["unrolled_dot<4>"].spill_stores == 0


# --- names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("demangled, expected", [
    ("void ns::reduce<256>(float const*, float*)", ("ns::reduce<256>", "reduce")),
    ("saxpy(float, float const*, float*, int)", ("saxpy", "saxpy")),
    ("void block_reduce<128, float>(float const*, float*, int)", ("block_reduce<128, float>", "block_reduce")),
    ("void k<(int)5, foo<int> >(bar<(char)1>*)", ("k<5, foo<int> >", "k")),
    ("scale_c", ("scale_c", "scale_c")),
])
def test_demangled_names_split_into_instantiation_and_source_name(demangled, expected):
    assert split_demangled(demangled) == expected


def test_templates_are_keyed_by_template_name_with_every_instantiation_kept():
    usages = group_by_kernel(parse_ptxas_log(_log("templates_sm90.log")))
    assert set(usages) == {"block_reduce", "smooth"}
    reduce = usages["block_reduce"]
    instantiations = dict(reduce.instantiations)
    assert set(instantiations) == {"block_reduce<128, float>", "block_reduce<256, float>",
                                   "block_reduce<1024, double>"}
    assert instantiations["block_reduce<1024, double>"].static_shared_bytes == 8192
    # The entry under the template name is the instantiation with the most registers.
    assert reduce.registers == max(u.registers for u in instantiations.values())
    assert set(dict(usages["smooth"].instantiations)) == {"stencil::smooth<3>", "stencil::smooth<16>"}


def test_the_fallback_demangler_agrees_with_cxxfilt():
    symbol = "_ZN7stencil6smoothILi16EEEvPKfPfi"
    assert split_demangled(resources._cxa_demangle(symbol))[0] == "stencil::smooth<16>"


def test_json_of_a_template_lists_its_instantiations():
    usages = group_by_kernel(parse_ptxas_log(_log("templates_sm90.log")))
    document = usages["smooth"].to_json()
    assert document["source"] == "ptxas"
    assert set(document["instantiations"]) == {"stencil::smooth<3>", "stencil::smooth<16>"}


# --- running nvcc --------------------------------------------------------------------------------


def test_missing_nvcc_raises_tool_missing(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(ToolMissingError):
        ptxas_usage("__global__ void k() {}")


@needs_nvcc
def test_usage_of_the_corpus_matches_its_captured_report():
    live = ptxas_usage((CORPUS / "bounds.cu").read_text(), "sm_90")
    captured = group_by_kernel(parse_ptxas_log(_log("bounds_sm90.log")))
    assert {k: (u.registers, u.spill_stores) for k, u in live.items()} == \
           {k: (u.registers, u.spill_stores) for k, u in captured.items()}


@needs_nvcc
def test_launch_bounds_and_maxrregcount_cap_registers():
    source = (CORPUS / "pressure.cu").read_text()
    free = dict(ptxas_usage(source, "sm_90")["unrolled_dot"].instantiations)
    capped = dict(ptxas_usage(source, "sm_90", maxrregcount=32)["unrolled_dot"].instantiations)
    assert free["unrolled_dot<100>"].registers > 32
    assert all(u.registers <= 32 for u in capped.values())
    bounded = ptxas_usage((CORPUS / "bounds.cu").read_text(), "90")["bounded_heavy"]
    assert bounded.registers <= 64          # __launch_bounds__(256, 4): 65536 / (256 x 4)


@needs_nvcc
def test_defines_reach_the_compiler():
    source = "__global__ void k(float* a) { __shared__ float s[N]; s[threadIdx.x] = a[0]; " \
             "__syncthreads(); a[threadIdx.x] = s[N - 1 - threadIdx.x]; }"
    assert ptxas_usage(source, "sm_90", defines={"N": 64})["k"].static_shared_bytes == 256
    assert ptxas_usage(source, "sm_90", defines=["N=512"])["k"].static_shared_bytes == 2048


@needs_nvcc
def test_results_are_cached_by_source_and_options(private_cache, monkeypatch):
    source = (CORPUS / "basic.cu").read_text()
    first = ptxas_usage(source, "sm_90")
    assert len(list(private_cache.rglob("*.json"))) == 1

    def no_compiler(*args, **kwargs):
        raise AssertionError("nvcc ran although the result was cached")

    monkeypatch.setattr(resources, "run_limited", no_compiler)
    assert ptxas_usage(source, "9.0") == first
    with pytest.raises(AssertionError):
        ptxas_usage(source, "sm_80")


@needs_nvcc
def test_compile_errors_name_the_file_and_the_error():
    with pytest.raises(CompileError) as caught:
        ptxas_usage("__global__ void k() { undefined_name = 1; }", filename="broken.cu")
    message = str(caught.value)
    assert "broken.cu" in message and "undefined_name" in message
    assert "kernelscope-ptxas-" not in message
    assert isinstance(caught.value, InputError)


# --- the estimator -------------------------------------------------------------------------------


def _kernels(name):
    from kernelscope.frontend import parse_file

    return {k.name: k for k in parse_file((CORPUS / name).read_text(), name).kernels}


def test_estimate_takes_static_shared_memory_and_barriers_from_the_source():
    captured = group_by_kernel(parse_ptxas_log(_log("shared_sm80.log")))
    for name, kernel in _kernels("shared.cu").items():
        estimate = resources.estimate_usage(kernel)
        assert estimate.source == "estimate"
        assert estimate.static_shared_bytes == captured[name].static_shared_bytes
        assert estimate.barriers == captured[name].barriers


def test_estimate_respects_the_register_cap_of_launch_bounds():
    # __launch_bounds__(1024, 2): 65536 / 2048 = 32 registers at most, as ptxas reports for `spilling`.
    spilling = _kernels("bounds.cu")["spilling"]
    captured = group_by_kernel(parse_ptxas_log(_log("bounds_sm90.log")))["spilling"]
    assert resources.estimate_usage(spilling).registers <= captured.registers == 32


def test_estimate_ranks_a_loop_heavy_kernel_above_a_copy():
    heavy = resources.estimate_usage(_kernels("shared.cu")["matmul_tiled"]).registers
    light = resources.estimate_usage(_kernels("basic.cu")["copy"]).registers
    assert heavy > light


def test_measured_estimator_error_beats_guessing_the_median():
    import csv
    import statistics

    from kernelscope.paths import profile_file

    with profile_file("measured/estimator_error.csv").open() as stream:
        rows = list(csv.DictReader(stream))
    assert len(rows) >= 300
    truth = [int(r["ptxas_registers"]) for r in rows]
    guess = statistics.median(truth)
    estimate_error = statistics.median(abs(int(r["estimated_registers"]) - t) for r, t in zip(rows, truth))
    baseline_error = statistics.median(abs(guess - t) for t in truth)
    assert estimate_error < baseline_error


def test_an_instantiation_is_found_from_the_template_arguments_of_a_launch():
    reduce = group_by_kernel(parse_ptxas_log(_log("templates_sm90.log")))["block_reduce"]
    assert reduce.for_template_args(("256", "float")).static_shared_bytes == 1024
    assert reduce.for_template_args(["1024", " double"]).static_shared_bytes == 8192
    assert reduce.for_template_args(("64", "float")) is None
