"""occupancy._sweep (the fast sweep over block sizes) against the general path: _limits and _pick_limiter
at each block size (FAST_SWEEP off)."""
import itertools
import random

import pytest

from kernelscope.analyses import occupancy
from kernelscope.profiles_db import arch as lookup_arch

ARCHES = ("sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_100", "sm_120")


def _general_sweep(monkeypatch, *args, **kwargs):
    monkeypatch.setattr(occupancy, "FAST_SWEEP", False)
    try:
        return occupancy.compute(*args, **kwargs)
    finally:
        monkeypatch.setattr(occupancy, "FAST_SWEEP", True)


def _cases():
    rng = random.Random(14)
    fixed = list(itertools.product(ARCHES, (32, 100, 256, 1024), (0, 16, 32, 64, 65, 128, 200, 255, 256),
                                   (0, 48 * 1024, 100 * 1024), (0, 1, 3, 16)))
    for arch, block, registers, smem, barriers in fixed:
        yield arch, block, registers, smem, 0, barriers, None, None, None
    for _ in range(400):
        yield (rng.choice(ARCHES), rng.randrange(1, 1025), rng.randrange(0, 300), rng.randrange(0, 240 * 1024),
               rng.choice((0, rng.randrange(0, 64 * 1024))), rng.randrange(0, 20),
               rng.choice((None, 0, 25, 50, 100)), rng.choice((None, 64, 96, 128, 320, 2048)),
               rng.choice((None, True, False)))


@pytest.mark.parametrize("case", list(_cases()))
def test_fast_sweep_equals_the_general_sweep(monkeypatch, case):
    arch, block, registers, static, dynamic, barriers, carveout, max_threads, opt_in = case
    kwargs = dict(barriers=barriers, carveout=carveout, max_threads_per_block=max_threads,
                  shared_memory_opt_in=opt_in)
    fast = occupancy.compute(arch, block, registers, static, dynamic, **kwargs)
    general = _general_sweep(monkeypatch, arch, block, registers, static, dynamic, **kwargs)
    assert fast.sweep == general.sweep
    assert fast == general
    assert fast.to_json() == general.to_json()


def test_the_cases_reach_every_limit_and_a_capped_block_size():
    """The cases above mean something only if the sweep's smallest limit varies among them."""
    limiters = set()
    for arch, block, registers, static, dynamic, barriers, carveout, max_threads, opt_in in _cases():
        profile = lookup_arch(arch)
        for size in (32, 256, 1024):
            limits, _ = occupancy._limits(profile, size, registers, static, dynamic, barriers,
                                          occupancy._max_threads(profile, max_threads), carveout,
                                          occupancy._opt_in(profile, static, dynamic, opt_in))
            limiters.add(occupancy._pick_limiter(limits)[1])
    assert limiters >= {"block_size", "warps", "blocks", "registers", "shared_memory", "barriers"}


def test_a_wrong_fixed_limit_is_caught(monkeypatch):
    """The comparison fails when the sweep leaves out a block-size-independent limit."""
    fast = occupancy._sweep.__wrapped__
    broken = lambda profile, registers, static, dynamic, *rest: fast(profile, registers, 0, 0, *rest)
    monkeypatch.setattr(occupancy, "_sweep", broken)
    result = occupancy.compute("sm_80", 256, registers=16, static_shared_bytes=100 * 1024)
    general = _general_sweep(monkeypatch, "sm_80", 256, registers=16, static_shared_bytes=100 * 1024)
    assert result.sweep != general.sweep


@pytest.mark.parametrize("arch", ARCHES)
def test_register_limit_by_warps_equals_register_limit_at_every_block_size(arch):
    profile = lookup_arch(arch)
    for registers in range(0, 300):
        by_warps = occupancy._register_limit_by_warps(profile, registers)
        for size in range(1, profile.max_threads_per_block + 1):
            assert by_warps[occupancy._warps_per_block(profile, size)] == \
                occupancy._register_limit(profile, size, registers), (registers, size)
