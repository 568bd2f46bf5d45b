"""The occupancy calculation on cases worked out by hand from the CUDA occupancy rules.

Rules used (CUDA Programming Guide, occupancy calculator): registers are granted per warp in units of
256, the register file is split over 4 sub-partitions, shared memory is granted in 128-byte units
(256 on cc 7.x) and each block also holds 1 KB reserved by the driver on cc >= 8.0.
"""

import json
import re
from types import SimpleNamespace

import pytest

from kernelscope import rules
from kernelscope.analyses.occupancy import active_blocks, compute
from kernelscope.errors import UsageError
from kernelscope.paths import profile_file
from kernelscope.profiles_db import arch, gpu, list_archs, list_gpus
from kernelscope.resources import ResourceUsage


def test_full_occupancy_with_32_registers_is_limited_by_warp_slots():
    # 256 threads = 8 warps. 32 regs x 32 threads = 1024 regs per warp; 16384 regs per sub-partition
    # hold 16 warps, x 4 = 64 warps = 8 blocks. The warp slots (64 / 8) also allow 8, so warps name it.
    result = compute("sm_90", 256, registers=32, static_shared_bytes=0)
    assert result.active_blocks_per_sm == 8
    assert result.theoretical_occupancy == 1.0
    assert result.limiter == "warps"


def test_register_count_is_rounded_up_to_the_allocation_unit_per_warp():
    # 37 regs x 32 = 1184 -> 1280 (5 x 256). 16384 // 1280 = 12 warps per sub-partition, 48 per SM,
    # 6 blocks of 8 warps = 48 / 64 warps.
    result = compute("sm_90", 256, registers=37, static_shared_bytes=0)
    assert result.active_blocks_per_sm == 6
    assert result.theoretical_occupancy == 0.75
    assert result.limiter == "registers"
    assert result.allocated_registers_per_block == 1280 * 8


def test_warps_cannot_straddle_register_sub_partitions():
    # 200 regs x 32 = 6400 per warp. Per sub-partition 16384 // 6400 = 2 warps, 8 per SM, so 4 blocks of
    # 2 warps. Dividing the whole file instead (65536 // 6400 = 10 warps) would wrongly give 5.
    assert active_blocks("sm_90", 64, registers=200, static_shared_bytes=0) == 4


def test_a_block_needing_more_than_the_register_file_does_not_fit():
    # 255 regs -> 8192 per warp; 9 warps need 73728 > 65536 registers per block.
    result = compute("sm_90", 288, registers=255, static_shared_bytes=0)
    assert result.active_blocks_per_sm == 0
    assert result.limiter == "registers"
    # One warp fits: 16384 // 8192 = 2 warps per sub-partition, 8 per SM.
    assert active_blocks("sm_90", 32, registers=255, static_shared_bytes=0) == 8


def test_more_registers_than_a_thread_may_have_gives_no_blocks():
    assert active_blocks("sm_90", 32, registers=256, static_shared_bytes=0) == 0


def test_shared_memory_includes_the_reserved_kilobyte_per_block_on_ampere():
    # 48 KB + 1 KB reserved = 50176 bytes per block; 164 KB (167936) // 50176 = 3 blocks of 8 warps.
    result = compute("sm_80", 256, registers=16, static_shared_bytes=48 * 1024)
    assert result.active_blocks_per_sm == 3
    assert result.theoretical_occupancy == 24 / 64
    assert result.limiter == "shared_memory"
    assert result.allocated_shared_bytes_per_block == 50176


def test_shared_memory_is_rounded_to_256_bytes_without_reservation_on_turing():
    # 20000 bytes -> 79 x 256 = 20224; 64 KB // 20224 = 3 blocks.
    result = compute("sm_75", 64, registers=16, static_shared_bytes=20000)
    assert result.allocated_shared_bytes_per_block == 20224
    assert result.active_blocks_per_sm == 3


def test_a_carveout_preference_rounds_up_to_the_next_hardware_configuration():
    # 25 % of 228 KB = 58368 bytes -> the 64 KB configuration. 8 KB + 1 KB = 9216 per block: 7 blocks.
    result = compute("sm_90", 128, registers=16, static_shared_bytes=0, dynamic_shared_bytes=8192, carveout=25)
    assert result.shared_memory_config_bytes == 64 * 1024
    assert result.active_blocks_per_sm == 7
    assert result.limiter == "shared_memory"


def test_a_carveout_too_small_for_one_block_grows_to_the_smallest_that_holds_it():
    # 0 % prefers no shared memory; 9216 bytes need the 16 KB configuration, which holds 1 block.
    result = compute("sm_90", 128, registers=16, static_shared_bytes=0, dynamic_shared_bytes=8192, carveout=0)
    assert result.shared_memory_config_bytes == 16 * 1024
    assert result.active_blocks_per_sm == 1


def test_more_than_48_kb_needs_the_opt_in():
    # 100 KB + 1 KB = 103424 bytes per block; 233472 // 103424 = 2 once the kernel opted in.
    assert active_blocks("sm_90", 256, 16, 0, dynamic_shared_bytes=100 * 1024) == 2
    assert active_blocks("sm_90", 256, 16, 0, dynamic_shared_bytes=100 * 1024, shared_memory_opt_in=False) == 0
    # Beyond the opt-in maximum (227 KB per block) nothing fits.
    assert active_blocks("sm_90", 32, 16, 0, dynamic_shared_bytes=228 * 1024) == 0


def test_small_blocks_hit_the_resident_block_cap():
    # 1 warp per block: 16 blocks on Turing = 16 of 32 warps.
    result = compute("sm_75", 32, registers=16, static_shared_bytes=0)
    assert result.active_blocks_per_sm == 16
    assert result.theoretical_occupancy == 0.5
    assert result.limiter == "blocks"


def test_a_1024_thread_block_leaves_a_third_of_an_ada_sm_idle():
    # 48 warp slots hold one block of 32 warps.
    result = compute("sm_89", 1024, registers=16, static_shared_bytes=0)
    assert result.active_blocks_per_sm == 1
    assert result.theoretical_occupancy == pytest.approx(32 / 48)
    assert result.limiter == "warps"


def test_named_barriers_limit_blocks_from_hopper_on():
    # Hopper has 2 x 32 = 64 barrier resources per SM: 16 barriers per block leave room for 4 blocks.
    result = compute("sm_90", 32, registers=10, static_shared_bytes=0, barriers=16)
    assert result.active_blocks_per_sm == 4
    assert result.limiter == "barriers"
    # Before cc 9.0 the calculation does not count barriers; on cc 12.0 there is 1 x 24 of them.
    assert active_blocks("sm_80", 32, 10, 0, barriers=16) == 32
    assert active_blocks("sm_120", 32, 10, 0, barriers=16) == 1


def test_block_above_1024_or_the_launch_bounds_gives_no_blocks():
    assert compute("sm_90", 1056, 16, 0).limiter == "block_size"
    bounded = compute("sm_90", 512, 16, 0, max_threads_per_block=256)
    assert (bounded.active_blocks_per_sm, bounded.limiter) == (0, "block_size")
    assert [p.active_blocks_per_sm for p in bounded.sweep if p.block_size > 256] == [0] * 24


def test_json_has_the_contract_keys_and_a_full_sweep():
    document = compute("9.0", 256, 64, 4096, dynamic_shared_bytes=1024, registers_source="estimate").to_json()
    for key in ("arch", "block_size", "registers", "registers_source", "static_shared_bytes",
                "dynamic_shared_bytes", "active_blocks_per_sm", "theoretical_occupancy", "limiter", "sweep"):
        assert key in document
    assert document["arch"] == "sm_90"
    assert document["registers_source"] == "estimate"
    assert [p["block_size"] for p in document["sweep"]] == list(range(32, 1025, 32))
    assert set(document["sweep"][0]) == {"block_size", "active_blocks_per_sm", "theoretical_occupancy"}
    json.dumps(document)


def test_best_block_size_is_the_largest_reaching_the_highest_occupancy():
    # 64 regs: 2048 per warp, 8 warps per sub-partition, 32 per SM -> 50 % at every block size that
    # divides 32 warps; the largest of those is 1024 threads.
    result = compute("sm_90", 128, registers=64, static_shared_bytes=0)
    assert max(p.theoretical_occupancy for p in result.sweep) == 0.5
    assert result.best_block_size == 1024


def test_bad_input_is_a_usage_error():
    with pytest.raises(UsageError):
        compute("sm_90", 0, 16, 0)
    with pytest.raises(UsageError):
        compute("sm_90", 128, 16, 0, carveout=150)
    with pytest.raises(UsageError):
        compute("sm_90", 128, 16, 0, registers_source="guess")


# --- profiles -----------------------------------------------------------------------------------


def test_architecture_names_in_every_spelling_give_the_same_profile():
    assert arch("sm_90") is arch("90") is arch("9.0") is arch("compute_90")
    assert arch("sm_100").cc == "10.0"
    with pytest.raises(UsageError):
        arch("sm_61")


def test_all_architectures_and_named_gpus_of_the_issue_are_there():
    assert list_archs() == ["sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_100", "sm_120"]
    assert {"A100", "H100", "H200", "L4", "RTX 4090", "B200"} <= set(list_gpus())
    assert gpu("rtx-4090") is gpu("RTX 4090")
    assert gpu("h200").arch is arch("9.0")


def test_each_architecture_has_its_reference_gpu_of_the_same_compute_capability():
    from kernelscope.profiles_db import reference_gpu

    assert reference_gpu("sm_90").name == "H200"
    assert reference_gpu("sm_80").name == "A100"
    for sm in list_archs():
        reference = reference_gpu(sm)
        assert reference is None or reference.cc == arch(sm).cc, sm
    assert reference_gpu("sm_86") is None        # no part of that capability is listed
    assert reference_gpu("sm_61") is None        # an architecture without a profile


def test_rl_intensity_score_reaches_1_at_the_ridge_point_of_the_analysed_gpu():
    from kernelscope.rl.structure import _intensity_score, default_ridge_point

    h200 = gpu("H200")
    assert default_ridge_point() == pytest.approx(h200.peak_flops("fp32") / h200.memory_bandwidth_bytes)
    assert _intensity_score(default_ridge_point()) == pytest.approx(1.0)
    assert _intensity_score(default_ridge_point() / 2) < 1.0
    a100 = gpu("A100").peak_flops("fp32") / gpu("A100").memory_bandwidth_bytes
    assert _intensity_score(a100, ridge_point=a100) == pytest.approx(1.0)
    assert _intensity_score(a100) < 1.0          # below the H200's ridge


def test_named_gpu_fp32_peak_matches_lanes_times_clock():
    for name in list_gpus():
        profile = gpu(name)
        derived = profile.sm_count * profile.fp32_lanes_per_sm * 2 * profile.boost_clock_mhz * 1e6
        assert derived == pytest.approx(profile.peak_flops("fp32"), rel=0.01), name


def test_hopper_profile_equals_the_properties_the_h200_reported():
    device = json.loads(profile_file("measured/h200_device.json").read_text())
    hopper = arch("sm_90")
    assert (device["major"], device["minor"]) == (hopper.major, hopper.minor)
    assert device["sharedMemPerMultiprocessor"] == hopper.shared_memory_per_sm
    assert device["sharedMemPerBlock"] == hopper.max_shared_memory_per_block
    assert device["sharedMemPerBlockOptin"] == hopper.max_shared_memory_per_block_optin
    assert device["reservedSharedMemPerBlock"] == hopper.reserved_shared_memory_per_block
    assert device["maxThreadsPerMultiProcessor"] == hopper.max_threads_per_sm
    assert device["maxBlocksPerMultiProcessor"] == hopper.max_blocks_per_sm
    assert device["regsPerMultiprocessor"] == hopper.registers_per_sm
    assert device["regsPerBlock"] == hopper.max_registers_per_block
    h200 = gpu("H200")
    assert device["multiProcessorCount"] == h200.sm_count
    assert device["clockRate"] // 1000 == h200.boost_clock_mhz


# --- diagnostics ----------------------------------------------------------------------------------


def _rules(found):
    return [d.rule for d in found]


def diagnostics(result, kernel: str, path: str, line: int, usage=None) -> list:
    """The findings of the resource rules (KS3xx) for one kernel's occupancy, in code order."""
    facts = SimpleNamespace(kernel=SimpleNamespace(name=kernel, line=line, column=1), occupancy=result,
                            resources=usage, path=path, rejected_launches=[])
    return [d for rule in rules.matching("KS3") for d in rule.check(facts)]


def test_low_occupancy_names_the_register_limit_and_a_change_that_lifts_it():
    result = compute("sm_90", 256, registers=128, static_shared_bytes=0)   # 2 blocks = 25 %
    found = diagnostics(result, "k", "k.cu", 7)
    assert _rules(found) == ["KS301"]
    message = found[0].message
    assert "registers" in message and "25%" in message
    suggested = int(re.search(r"use <= (\d+) registers", message).group(1))
    min_blocks = int(re.search(r"__launch_bounds__\(256, (\d+)\)", message).group(1))
    lifted = compute("sm_90", 256, registers=suggested, static_shared_bytes=0)
    assert lifted.theoretical_occupancy >= 0.5
    assert lifted.active_blocks_per_sm >= min_blocks


def test_register_advice_is_the_largest_count_that_reaches_the_target():
    # the advice counts down from the kernel's registers and stops at the first that reaches the target
    # blocks: one register more must miss it, or the advice asked for more than was needed
    for registers in (72, 96, 128, 168, 255):
        result = compute("sm_90", 256, registers=registers, static_shared_bytes=0)
        found = diagnostics(result, "k", "k.cu", 1)
        assert _rules(found) == ["KS301"]
        suggested = int(re.search(r"use <= (\d+) registers", found[0].message).group(1))
        target = int(re.search(r"__launch_bounds__\(256, (\d+)\)", found[0].message).group(1))
        assert suggested < registers
        assert compute("sm_90", 256, registers=suggested, static_shared_bytes=0).active_blocks_per_sm >= target
        assert compute("sm_90", 256, registers=suggested + 1, static_shared_bytes=0).active_blocks_per_sm < target


def test_low_occupancy_from_shared_memory_suggests_a_size_that_fits():
    result = compute("sm_90", 64, registers=16, static_shared_bytes=100 * 1024)
    found = diagnostics(result, "k", "k.cu", 1)
    assert _rules(found) == ["KS301"]
    allowed = int(re.search(r"use <= (\d+) bytes of shared memory", found[0].message).group(1))
    assert compute("sm_90", 64, 16, allowed).active_blocks_per_sm > result.active_blocks_per_sm


def test_no_low_occupancy_warning_at_half_occupancy_or_more():
    assert diagnostics(compute("sm_90", 256, 64, 0), "k", "k.cu", 1) == []


def test_spills_and_oversized_blocks_are_reported():
    spilled = ResourceUsage(registers=32, spill_stores=88, spill_loads=88)
    found = diagnostics(compute("sm_90", 1024, 32, 0, max_threads_per_block=512), "k", "k.cu", 3,
                        usage=spilled)
    assert _rules(found) == ["KS302", "KS303"]
    assert found[1].severity == "error" and found[0].severity == "warning"
    assert "88 bytes" in found[0].message
