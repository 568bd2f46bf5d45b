"""Theoretical occupancy, computed the way the CUDA occupancy API computes it.

Each per-SM resource gives a number of blocks that fit; the smallest wins:
- warps: ceil(block / 32) warps per block against the SM's warp slots;
- blocks: the SM's resident-block cap;
- registers: each warp gets registers x 32 rounded up to the allocation unit (256); the register file
  is split over 4 sub-partitions and a warp cannot straddle two, so the warps that fit are
  4 x floor(registers_per_sm / 4 / registers_per_warp);
- shared memory: static + dynamic + the driver's reserved 1 KB (cc >= 8.0), rounded up to the
  allocation unit, against the carveout the driver picks (the preferred one if a block fits into it,
  otherwise the smallest configuration that holds one block);
- barriers (cc >= 9.0 only): barriers_per_sm_per_block_slot x max_blocks_per_sm barrier resources
  shared by blocks that each use `barriers` of them.
A launch that no SM could run (too many threads, registers or shared memory for one block) gives 0.
"""

from __future__ import annotations

from dataclasses import field
from functools import lru_cache
from typing import Optional

from kernelscope.errors import UsageError
from kernelscope.profiles_db import ArchProfile, arch as lookup_arch
from kernelscope.records import record

SWEEP_BLOCK_SIZES = tuple(range(32, 1025, 32))
LOW_OCCUPANCY = 0.5          # below it KS301 reports the kernel; the advice aims for it
UNLIMITED = 1 << 30

# When several resources allow the same (smallest) number of blocks, name the one that a change to the
# kernel's resources could not lift first: with the warp slots full, fewer registers would not help.
_LIMITER_ORDER = ("block_size", "warps", "blocks", "registers", "shared_memory", "barriers")


@record(frozen=True)
class SweepPoint:
    block_size: int
    active_blocks_per_sm: int
    theoretical_occupancy: float

    def to_json(self) -> dict:
        return {"block_size": self.block_size, "active_blocks_per_sm": self.active_blocks_per_sm,
                "theoretical_occupancy": self.theoretical_occupancy}


@record(frozen=True)
class OccupancyResult:
    arch: str
    block_size: int
    registers: int
    registers_source: str              # ptxas | estimate
    static_shared_bytes: int
    dynamic_shared_bytes: int
    barriers: int
    max_threads_per_block: int         # 1024, or the kernel's __launch_bounds__ maximum
    active_blocks_per_sm: int
    active_warps_per_sm: int
    max_warps_per_sm: int
    theoretical_occupancy: float
    limiter: str
    limits: dict                       # resource -> blocks per SM that resource alone allows
    allocated_registers_per_block: int
    allocated_shared_bytes_per_block: int
    shared_memory_config_bytes: int    # carveout the driver would pick for this launch
    carveout: Optional[int]            # requested carveout in percent, None for the default
    shared_memory_opt_in: bool
    sweep: tuple = field(default=(), repr=False)
    best_block_size: Optional[int] = None

    def to_json(self) -> dict:
        return {
            "arch": self.arch,
            "block_size": self.block_size,
            "registers": self.registers,
            "registers_source": self.registers_source,
            "static_shared_bytes": self.static_shared_bytes,
            "dynamic_shared_bytes": self.dynamic_shared_bytes,
            "active_blocks_per_sm": self.active_blocks_per_sm,
            "theoretical_occupancy": self.theoretical_occupancy,
            "limiter": self.limiter,
            "sweep": [point.to_json() for point in self.sweep],
            "best_block_size": self.best_block_size,
            "active_warps_per_sm": self.active_warps_per_sm,
            "max_warps_per_sm": self.max_warps_per_sm,
            "limits": {name: (None if blocks >= UNLIMITED else blocks) for name, blocks in self.limits.items()},
            "barriers": self.barriers,
            "max_threads_per_block": self.max_threads_per_block,
            "allocated_registers_per_block": self.allocated_registers_per_block,
            "allocated_shared_bytes_per_block": self.allocated_shared_bytes_per_block,
            "shared_memory_config_bytes": self.shared_memory_config_bytes,
            "carveout": self.carveout,
            "shared_memory_opt_in": self.shared_memory_opt_in,
        }


def _round_up(value: int, unit: int) -> int:
    return -(-value // unit) * unit


def _warps_per_block(profile: ArchProfile, block_size: int) -> int:
    return -(-block_size // profile.warp_size)


def _registers_per_warp(profile: ArchProfile, registers: int) -> int:
    return _round_up(registers * profile.warp_size, profile.register_allocation_unit)


def _register_limit(profile: ArchProfile, block_size: int, registers: int) -> int:
    if registers > profile.max_registers_per_thread:
        return 0
    per_warp = _registers_per_warp(profile, registers)
    if per_warp == 0:
        return UNLIMITED
    warps = _warps_per_block(profile, block_size)
    # The launch check assumes a block's warps fill every sub-partition evenly, so it rounds the warp
    # count up to a multiple of the sub-partition count before comparing with the per-block register cap.
    assumed = per_warp * _round_up(warps, profile.sub_partitions)
    if assumed > profile.max_registers_per_block or per_warp * warps > profile.max_registers_per_block:
        return 0
    warps_per_sub_partition = (profile.registers_per_sm // profile.sub_partitions) // per_warp
    return warps_per_sub_partition * profile.sub_partitions // warps


def _carveout_config(profile: ArchProfile, wanted_bytes: int) -> int:
    """The smallest shared-memory configuration of the SM that holds `wanted_bytes`."""
    for size_kb in profile.carveouts_kb:
        if wanted_bytes <= size_kb * 1024:
            return size_kb * 1024
    return 0


def _shared_memory_per_block(profile: ArchProfile, static_bytes: int, dynamic_bytes: int) -> int:
    return _round_up(static_bytes + dynamic_bytes + profile.reserved_shared_memory_per_block,
                     profile.shared_memory_allocation_unit)


def _shared_memory_limit(profile, static_bytes, dynamic_bytes, carveout, opt_in) -> tuple[int, int]:
    """(blocks allowed, shared-memory configuration chosen in bytes)."""
    per_block = _shared_memory_per_block(profile, static_bytes, dynamic_bytes)
    cap = profile.max_shared_memory_per_block_optin if opt_in else profile.max_shared_memory_per_block
    if per_block > cap + profile.reserved_shared_memory_per_block:
        return 0, 0
    preferred_bytes = profile.shared_memory_per_sm if carveout is None else \
        carveout * profile.shared_memory_per_sm // 100
    preferred = _carveout_config(profile, preferred_bytes)
    # A preference is only a hint: the driver grows the carveout when one block would not fit.
    config = preferred if preferred >= per_block else _carveout_config(profile, per_block)
    if per_block == 0:
        return UNLIMITED, config
    return config // per_block, config


def _barrier_limit(profile: ArchProfile, barriers: int) -> int:
    if profile.major < 9 or barriers <= 0:
        return UNLIMITED
    return profile.barriers_per_sm_per_block_slot * profile.max_blocks_per_sm // barriers


def _limits(profile, block_size, registers, static_bytes, dynamic_bytes, barriers, max_threads,
            carveout, opt_in) -> tuple[dict, int]:
    if block_size > max_threads:
        return {"block_size": 0}, 0
    shared_blocks, config = _shared_memory_limit(profile, static_bytes, dynamic_bytes, carveout, opt_in)
    return {
        "warps": profile.max_warps_per_sm // _warps_per_block(profile, block_size),
        "blocks": profile.max_blocks_per_sm,
        "registers": _register_limit(profile, block_size, registers),
        "shared_memory": shared_blocks,
        "barriers": _barrier_limit(profile, barriers),
    }, config


def _pick_limiter(limits: dict) -> tuple[int, str]:
    blocks = min(limits.values())
    for name in _LIMITER_ORDER:
        if limits.get(name) == blocks:
            return blocks, name
    raise AssertionError("unreachable: every limit has a name in _LIMITER_ORDER")


def _occupancy(profile: ArchProfile, block_size: int, blocks: int) -> float:
    return blocks * _warps_per_block(profile, block_size) / profile.max_warps_per_sm


def active_blocks(arch, block_size, registers, static_shared_bytes, dynamic_shared_bytes=0, barriers=1,
                  carveout=None, max_threads_per_block=None, shared_memory_opt_in=None) -> int:
    """Just the number of resident blocks per SM (what cudaOccupancyMaxActiveBlocksPerMultiprocessor returns)."""
    profile = lookup_arch(arch)
    max_threads = _max_threads(profile, max_threads_per_block)
    opt_in = _opt_in(profile, static_shared_bytes, dynamic_shared_bytes, shared_memory_opt_in)
    limits, _ = _limits(profile, block_size, registers, static_shared_bytes, dynamic_shared_bytes,
                        barriers, max_threads, carveout, opt_in)
    return min(limits.values())


def _max_threads(profile: ArchProfile, max_threads_per_block: Optional[int]) -> int:
    if max_threads_per_block is None:
        return profile.max_threads_per_block
    return min(max_threads_per_block, profile.max_threads_per_block)


def _opt_in(profile, static_bytes, dynamic_bytes, requested: Optional[bool]) -> bool:
    """A block that needs more than the default 48 KB can only launch after opting in, so assume it did."""
    if requested is not None:
        return requested
    return static_bytes + dynamic_bytes > profile.max_shared_memory_per_block


def _validate(block_size, registers, static_bytes, dynamic_bytes, barriers, carveout, registers_source):
    if block_size <= 0:
        raise UsageError(f"block size must be positive, got {block_size}")
    if registers < 0 or static_bytes < 0 or dynamic_bytes < 0 or barriers < 0:
        raise UsageError("registers, shared memory sizes and barrier counts must not be negative")
    if carveout is not None and not 0 <= carveout <= 100:
        raise UsageError(f"carveout is a percentage from 0 to 100, got {carveout}")
    if registers_source not in ("ptxas", "estimate"):
        raise UsageError(f"registers_source must be ptxas or estimate, got {registers_source!r}")


def compute(arch, block_size: int, registers: int, static_shared_bytes: int, dynamic_shared_bytes: int = 0,
            barriers: int = 1, carveout: Optional[int] = None, registers_source: str = "ptxas",
            max_threads_per_block: Optional[int] = None,
            shared_memory_opt_in: Optional[bool] = None) -> OccupancyResult:
    """Occupancy of one launch plus the sweep over block sizes 32..1024 with the same resources.

    `arch`: a profile or "sm_90" / "90" / "9.0". `barriers`: barriers the kernel uses (ptxas' "used N
    barriers"). `carveout`: preferred shared-memory carveout in percent (cudaFuncAttributePreferred-
    SharedMemoryCarveout), None for the driver default. `max_threads_per_block`: the kernel's
    __launch_bounds__ maximum. `shared_memory_opt_in`: whether the kernel raised its dynamic shared
    memory limit above 48 KB; None assumes it did exactly when the launch needs it.
    """
    profile = lookup_arch(arch)
    _validate(block_size, registers, static_shared_bytes, dynamic_shared_bytes, barriers, carveout,
              registers_source)
    max_threads = _max_threads(profile, max_threads_per_block)
    opt_in = _opt_in(profile, static_shared_bytes, dynamic_shared_bytes, shared_memory_opt_in)

    def evaluate(size):
        limits, config = _limits(profile, size, registers, static_shared_bytes, dynamic_shared_bytes,
                                 barriers, max_threads, carveout, opt_in)
        blocks, limiter = _pick_limiter(limits)
        return limits, config, blocks, limiter

    if FAST_SWEEP:
        sweep = _sweep(profile, registers, static_shared_bytes, dynamic_shared_bytes, barriers, max_threads,
                       carveout, opt_in)
    else:
        sweep = []
        for size in SWEEP_BLOCK_SIZES:
            _, _, blocks, _ = evaluate(size)
            sweep.append(SweepPoint(size, blocks, _occupancy(profile, size, blocks)))
    limits, config, blocks, limiter = evaluate(block_size)
    if blocks == 0 and limiter == "shared_memory" and not opt_in and \
            static_shared_bytes + dynamic_shared_bytes <= profile.max_shared_memory_per_block_optin:
        limiter = "shared_memory_opt_in"   # fits once the kernel opts in; without it the launch fails
    warps = _warps_per_block(profile, block_size)
    return OccupancyResult(
        arch=profile.sm, block_size=block_size, registers=registers, registers_source=registers_source,
        static_shared_bytes=static_shared_bytes, dynamic_shared_bytes=dynamic_shared_bytes,
        barriers=barriers, max_threads_per_block=max_threads,
        active_blocks_per_sm=blocks, active_warps_per_sm=blocks * warps,
        max_warps_per_sm=profile.max_warps_per_sm,
        theoretical_occupancy=_occupancy(profile, block_size, blocks),
        limiter=limiter, limits=limits,
        allocated_registers_per_block=_registers_per_warp(profile, registers) * warps,
        allocated_shared_bytes_per_block=_shared_memory_per_block(profile, static_shared_bytes,
                                                                   dynamic_shared_bytes),
        shared_memory_config_bytes=config, carveout=carveout, shared_memory_opt_in=opt_in,
        sweep=tuple(sweep), best_block_size=_best_block_size(sweep),
    )


# compute() takes the sweep from _sweep rather than from _limits and _pick_limiter at each block size
# (the switch is for tests that compare with the general path)
FAST_SWEEP = True


@lru_cache(maxsize=1024)
def _sweep(profile, registers, static_bytes, dynamic_bytes, barriers, max_threads, carveout, opt_in) -> tuple:
    """The SweepPoints that compute() gets from _limits at each of SWEEP_BLOCK_SIZES: only the warp and
    register limits (and the block-size cap) depend on the block size, so the others are taken once as
    their smallest; no limiter is named. Launches of one kernel's resources at other block sizes share
    the tuple (frozen points)."""
    fixed = min(profile.max_blocks_per_sm,
                _shared_memory_limit(profile, static_bytes, dynamic_bytes, carveout, opt_in)[0],
                _barrier_limit(profile, barriers))
    by_warps = _register_limit_by_warps(profile, registers)
    max_warps = profile.max_warps_per_sm
    points = []
    for size, warps in _sweep_warps(profile):
        blocks = 0 if size > max_threads else min(max_warps // warps, fixed, by_warps[warps])
        points.append(_sweep_point(size, warps, blocks, max_warps))
    return tuple(points)


@lru_cache(maxsize=64)
def _sweep_warps(profile) -> tuple:
    """(block size, its warps) for each of SWEEP_BLOCK_SIZES."""
    return tuple((size, _warps_per_block(profile, size)) for size in SWEEP_BLOCK_SIZES)


@lru_cache(maxsize=4096)
def _sweep_point(size: int, warps: int, blocks: int, max_warps: int) -> SweepPoint:
    """One SweepPoint, shared by the sweeps that reach it (frozen; sweeps repeat few block counts)."""
    # (_occupancy's expression, written out)
    return SweepPoint(size, blocks, blocks * warps / max_warps)


@lru_cache(maxsize=256)
def _register_limit_by_warps(profile, registers) -> tuple:
    """_register_limit for a block of each warp count up to the profile's largest block (the index; 0
    unused): it reads the block size only through its warp count. Kernels share few register counts."""
    most = _warps_per_block(profile, profile.max_threads_per_block)
    return (None,) + tuple(_register_limit(profile, warps * profile.warp_size, registers)
                           for warps in range(1, most + 1))


def _best_block_size(sweep) -> Optional[int]:
    """The largest block size that reaches the highest occupancy (as cudaOccupancyMaxPotentialBlockSize picks)."""
    best = max(point.theoretical_occupancy for point in sweep)
    if best == 0:
        return None
    return max(point.block_size for point in sweep if point.theoretical_occupancy == best)


# ---------------------------------------------------------------------------------------------------
# What would lift a low occupancy (KS301 in kernelscope/rules/resources.py says it)


def explain_low_occupancy(result: OccupancyResult) -> str:
    """What limits a low occupancy, and the change that lifts it to LOW_OCCUPANCY (KS301's message)."""
    blocks = f"{result.active_blocks_per_sm} block{'' if result.active_blocks_per_sm == 1 else 's'}"
    limiter = result.limiter.replace("_", " ")
    if result.limiter == "registers":
        limiter += f" ({result.registers} per thread, {'estimated' if result.registers_source == 'estimate' else 'from ptxas'})"
    head = (f"theoretical occupancy {result.theoretical_occupancy:.0%} ({result.active_warps_per_sm} of "
            f"{result.max_warps_per_sm} warps per SM, {blocks} of {result.block_size} threads), "
            f"limited by {limiter}")
    if result.active_blocks_per_sm == 0:
        return head + f": one block does not fit on an SM; {_fit_one_block_advice(result)}"
    advice = _lift_advice(result)
    return f"{head}; {advice}" if advice else head


def _fit_one_block_advice(result: OccupancyResult) -> str:
    if result.limiter == "registers":
        return f"use fewer than {result.registers} registers per thread or smaller blocks"
    return (f"use less than {result.allocated_shared_bytes_per_block} bytes of shared memory per block "
            "(or opt in to more with cudaFuncAttributeMaxDynamicSharedMemorySize)")


def _target_blocks(result: OccupancyResult) -> int:
    """Blocks per SM to aim for: enough for 50 % occupancy, or as many as the other resources allow."""
    warps = result.active_warps_per_sm // max(result.active_blocks_per_sm, 1)
    needed = -(-int(result.max_warps_per_sm * LOW_OCCUPANCY) // warps)
    others = min(blocks for name, blocks in result.limits.items() if name != result.limiter)
    return min(needed, others)


def _with(result: OccupancyResult, **changes) -> int:
    values = dict(arch=result.arch, block_size=result.block_size, registers=result.registers,
                  static_shared_bytes=result.static_shared_bytes,
                  dynamic_shared_bytes=result.dynamic_shared_bytes, barriers=result.barriers,
                  carveout=result.carveout, max_threads_per_block=result.max_threads_per_block,
                  shared_memory_opt_in=result.shared_memory_opt_in)
    values.update(changes)
    return active_blocks(**values)


def _occupancy_of(result: OccupancyResult, blocks: int) -> str:
    warps = result.active_warps_per_sm // max(result.active_blocks_per_sm, 1)
    return f"{blocks * warps / result.max_warps_per_sm:.0%}"


def _lift_advice(result: OccupancyResult) -> Optional[str]:
    target = _target_blocks(result)
    if target <= result.active_blocks_per_sm:
        return None
    reach = f"to reach {target} blocks per SM ({_occupancy_of(result, target)})"
    if result.limiter == "registers":
        # counting down, the first count that reaches the target is the largest one that does
        registers = next((r for r in range(result.registers, 0, -1) if _with(result, registers=r) >= target),
                         None)
        if registers is None:
            return None
        return (f"use <= {registers} registers per thread (__launch_bounds__({result.block_size}, {target}))"
                f" {reach}")
    if result.limiter == "shared_memory":
        return _shared_memory_advice(result, target, reach)
    if result.limiter == "blocks":
        profile = lookup_arch(result.arch)
        threads = _round_up(-(-profile.max_threads_per_sm // profile.max_blocks_per_sm), profile.warp_size)
        return f"use blocks of at least {threads} threads; the SM holds at most {profile.max_blocks_per_sm} blocks"
    if result.limiter == "barriers":
        barriers = next((b for b in range(result.barriers, 0, -1) if _with(result, barriers=b) >= target),
                        None)
        if barriers is None:
            return None
        return f"use <= {barriers} named barriers per block (now {result.barriers}) {reach}"
    if result.limiter == "warps":
        return f"pick a block size that divides the SM's {result.max_warps_per_sm * 32} thread slots"
    return None


def _shared_memory_advice(result: OccupancyResult, target: int, reach: str) -> Optional[str]:
    if result.carveout is not None and _with(result, carveout=None) >= target:
        return f"drop the shared-memory carveout preference of {result.carveout}% {reach}"
    profile = lookup_arch(result.arch)
    total = result.static_shared_bytes + result.dynamic_shared_bytes
    config = profile.shared_memory_per_sm if result.carveout is None else result.shared_memory_config_bytes
    unit = profile.shared_memory_allocation_unit
    budget = config // target // unit * unit - profile.reserved_shared_memory_per_block
    if budget <= 0 or _with(result, static_shared_bytes=0, dynamic_shared_bytes=budget) < target:
        return None
    return (f"use <= {budget} bytes of shared memory per block (now {total}: "
            f"{result.static_shared_bytes} static + {result.dynamic_shared_bytes} dynamic) {reach}")
