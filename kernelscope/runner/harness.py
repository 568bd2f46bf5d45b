"""The GPU side of an evaluation, run inside a worker process that owns the CUDA context.

For each size, the candidate is verified on fresh random inputs per trial and then timed, and every
one of those launches, verified or timed, goes through the same steps:

1. fresh inputs are drawn on the GPU into guarded buffers (a new set for every launch, so no timed
   repeat ever sees inputs it has seen before), with a pristine copy kept aside;
2. outputs are poisoned, declared scratch is reset and the candidate's device globals are restored
   to their load-time values, so that nothing can carry over from the previous launch;
3. the candidate is launched (timed ones between two events, after an L2 flush);
4. afterwards, outside any timed interval: guard regions, inputs (against their pristine copy) and
   device globals (against their snapshot) are compared on the GPU, and the reference computes the
   expected outputs from the pristine inputs, only now, so the candidate never runs while they
   exist; the outputs are compared with them.

Verified launches synchronise and report in detail (verify.py); timed ones add their findings to
device counters read once per size, so checking every timed launch costs no synchronisation. A CUDA
error escapes as `Fault`: the context may be unusable after it, so the worker reports it and exits.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import sys
from collections import OrderedDict

import numpy
import nvtx

from kernelscope.runner import verify
from kernelscope.runner.buffers import GuardedArray, ScratchBuffers
from kernelscope.runner.plan import default_plan
from kernelscope.runner.plan_run import PlanExecution
from kernelscope.runner.results import SizeVerdict
from kernelscope.runner.spec import load_spec
from kernelscope.runner.timing import L2Flusher, dram_floor_ms, summarize, time_launches

_CU_FUNC_ATTRIBUTE_NUM_REGS = 4
_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
_STATIC_SMEM_LIMIT = 48 * 1024
_BUFFER_CACHE_BYTES = 16 << 30      # guarded buffers kept for reuse across candidates of a worker

# Counter slots of one size's checks (device uint64s): each maps to the flag it raises.
GUARDS, INPUTS, GLOBALS, OUTPUTS = range(4)
_SLOT_FLAGS = {GUARDS: "out_of_bounds_write", INPUTS: "input_mutated", GLOBALS: "state_carried",
               OUTPUTS: "timing_divergence"}


class Fault(Exception):
    """A CUDA error: the context may be poisoned, the worker must be replaced."""


class Harness:
    """Per-worker state: the L2 flusher, the check kernels, loaded references, reference timings
    and guarded buffers (by spec and size, reused across candidates)."""

    def __init__(self):
        import cupy

        from kernelscope.runner.device_checks import DeviceKernels

        self.cupy = cupy
        self.flusher = L2Flusher()
        self.kernels = DeviceKernels()
        self._specs = {}
        self._references = {}
        self._reference_times = {}
        self._buffers = OrderedDict()
        self._peak_bandwidth = _peak_dram_bandwidth(cupy)
        self._peak_flops = _peak_flops_table(cupy)

    def run(self, job: dict) -> dict:
        try:
            return self._run(job)
        except self.cupy.cuda.driver.CUDADriverError as exc:
            raise Fault(str(exc)) from None
        except self.cupy.cuda.runtime.CUDARuntimeError as exc:
            raise Fault(str(exc)) from None

    def _run(self, job: dict) -> dict:
        from kernelscope.runner.state import ModuleState

        spec = self._spec(job["spec_path"])
        if "plan" in job:      # a launch plan: one module per distinct cubin, each kernel from its own
            cubins, symbols, plan = job["cubins"], job["symbols"], job["plan"]
        else:                  # one kernel with the problem's launch (or an override of it): a one-launch plan
            cubins, symbols = [job["cubin"]], {"candidate": (0, job["lowered_name"])}
            plan = default_plan(spec, "candidate", job.get("launch"))
        modules = [ModuleState(self.cupy, cubin, self.kernels) for cubin in cubins]
        functions = {kernel: modules[index].get_function(lowered) for kernel, (index, lowered) in symbols.items()}
        registers = max(self.cupy.cuda.driver.funcGetAttribute(_CU_FUNC_ATTRIBUTE_NUM_REGS, f.ptr)
                        for f in functions.values())
        verdicts = [self._size(spec, modules, functions, plan, size, job) for size in job["sizes"]]
        return {"sizes": verdicts, "registers": registers}

    def _size(self, spec, modules, functions, plan, size, job) -> SizeVerdict:
        bound = plan.concrete(spec, size)
        verdict = SizeVerdict(size=size, correct=True, trials=job["trials"])
        rng = numpy.random.default_rng([job["seed"], len(size), sum(map(ord, size))])
        buffers = self._buffers_for(spec, size, canary=int(rng.integers(1, 255)))
        session = LaunchSession(self, spec, size, buffers, PlanExecution(
            functions, bound, _scalar_values(spec, spec.variables(size)), buffers.arrays(), canary=buffers.canary),
            modules)
        with nvtx.annotate(f"kernelscope:verify:{size}", color="green"):
            for trial in range(job["trials"]):
                session.verify(trial, int(rng.integers(0, 2**63 - 1)), verdict)
        if verdict.correct and job.get("time", True):
            with nvtx.annotate(f"kernelscope:time:{size}", color="red"):
                seeds = [int(s) for s in rng.integers(0, 2**63 - 1, size=job.get("warmup", 3) + job["repeats"])]
                samples = session.time(seeds, job.get("warmup", 3), verdict)
            self._timing_verdict(spec, size, buffers, samples, job, verdict)
        return verdict

    def _timing_verdict(self, spec, size, buffers, samples, job, verdict) -> None:
        stats = summarize(samples)
        verdict.time_ms, verdict.time_spread, verdict.timing = stats.median_ms, stats.cv, stats.to_json()
        moved = sum(g.nbytes for g in buffers.inputs.values()) + sum(g.nbytes for g in buffers.outputs.values())
        verdict.dram_floor_ms = dram_floor_ms(moved, self._peak_bandwidth)
        verdict.compute_floor_ms = compute_floor_ms(spec, size, self._peak_flops)
        floors = [f for f in (verdict.dram_floor_ms, verdict.compute_floor_ms) if f is not None]
        if floors and stats.median_ms < max(floors):
            _flag(verdict, "implausible_speedup")
        if job.get("reference_timing", True):
            verdict.reference_time_ms = self._reference_time(spec, size, job)
            if verdict.reference_time_ms:
                verdict.speedup = verdict.reference_time_ms / stats.median_ms

    def _buffers_for(self, spec, size, canary: int) -> "SizeBuffers":
        key = (str(spec.path), os.stat(spec.path).st_mtime_ns, size)
        buffers = self._buffers.pop(key, None)
        if buffers is None:
            buffers = SizeBuffers(spec, size, canary)
            self._evict(buffers.nbytes)
        else:
            buffers.arm(canary)
        self._buffers[key] = buffers
        return buffers

    def _evict(self, wanted: int) -> None:
        total = sum(b.nbytes for b in self._buffers.values())
        while self._buffers and total + wanted > _BUFFER_CACHE_BYTES:
            self.cupy.cuda.Device().synchronize()
            _, oldest = self._buffers.popitem(last=False)
            total -= oldest.nbytes

    # --- inputs and the reference -------------------------------------------------------------
    def reference_outputs(self, spec, inputs, size) -> dict:
        """The reference's outputs for `inputs` (device arrays), as device arrays by output name."""
        variables = spec.variables(size)
        if spec.reference.python:
            return self._python_reference(spec, inputs, variables, size)
        return self._kernel_reference(spec, inputs, variables, size)

    def _python_reference(self, spec, inputs, variables, size) -> dict:
        cupy = self.cupy
        function = self._reference_function(spec)
        on_host = spec.reference.arrays == "numpy"
        xp = numpy if on_host else cupy
        available = dict(spec.sizes[size])
        available.update({s.name: variables[s.name] for s in spec.scalars})
        available.update({n: (cupy.asnumpy(a) if on_host else a) for n, a in inputs.items()})
        available["xp"] = xp
        kwargs = _keyword_arguments(function, available, spec)
        returned = function(**kwargs)
        return _outputs_by_name(spec, returned, cupy)

    def _kernel_reference(self, spec, inputs, variables, size, outputs=None) -> dict:
        cupy = self.cupy
        function = self._reference_kernel(spec)
        launch = spec.concrete_launch(size, spec.reference.launch)
        if outputs is None:
            outputs = {a.name: cupy.zeros(spec.shape(a, size), dtype=a.dtype) for a in spec.outputs}
        scratch = ScratchBuffers(launch.scratch, 0, use_vmm=False)   # the reference's own, fresh
        scratch.reset()
        args = []
        for name in launch.args:
            if name in inputs:
                args.append(inputs[name])
            elif name in outputs:
                args.append(outputs[name])
            elif name in scratch.buffers:
                args.append(scratch.buffers[name].array)
            else:
                args.append(_scalar(spec, name, variables))
        _launch(function, launch, args)
        return outputs

    def _reference_time(self, spec, size, job):
        """The reference's median on inputs of its own (a candidate never touched them)."""
        key = (str(spec.path), size)
        if key not in self._reference_times:
            cupy = self.cupy
            variables = spec.variables(size)
            arrays = {}
            for index, array in enumerate(spec.inputs):
                arrays[array.name] = cupy.empty(spec.shape(array, size), dtype=array.dtype)
                self.kernels.fill(arrays[array.name], 0x5EED + index, array.distribution, array.dtype)
            if spec.reference.python:
                def call():
                    self._python_reference(spec, arrays, variables, size)
            else:
                # a reference kernel writes into buffers allocated here, so that allocation is not timed
                outputs = {a.name: cupy.empty(spec.shape(a, size), dtype=a.dtype) for a in spec.outputs}

                def call():
                    self._kernel_reference(spec, arrays, variables, size, outputs)
            samples = time_launches(call, repeats=job["repeats"], warmup=job.get("warmup", 3), flusher=self.flusher)
            self._reference_times[key] = summarize(samples).median_ms
        return self._reference_times[key]

    def _reference_function(self, spec):
        key = spec.reference.python
        file, _, name = key.partition(":")
        path = spec.resolve(file)
        cache_key = (str(path), name, path.stat().st_mtime_ns)
        if cache_key not in self._references:
            module_spec = importlib.util.spec_from_file_location(f"kernelscope_reference_{abs(hash(cache_key))}", path)
            module = importlib.util.module_from_spec(module_spec)
            sys.path.insert(0, str(path.parent))      # references may import helpers next to them
            try:
                module_spec.loader.exec_module(module)
            finally:
                sys.path.remove(str(path.parent))
            if not callable(getattr(module, name, None)):
                raise ValueError(f"{file} defines no function {name!r}")
            self._references[cache_key] = getattr(module, name)
        return self._references[cache_key]

    def _reference_kernel(self, spec):
        from kernelscope.runner.compile import compile_kernel

        file, _, name = spec.reference.kernel.partition(":")
        path = spec.resolve(file)
        cache_key = (str(path), name, path.stat().st_mtime_ns)
        if cache_key not in self._references:
            compiled = compile_kernel(path.read_text(), name or None)
            module = self.cupy.cuda.function.Module()
            module.load(compiled.cubin)
            self._references[cache_key] = (module, module.get_function(compiled.lowered_name))
        return self._references[cache_key][1]

    def _spec(self, path):
        mtime = os.stat(path).st_mtime_ns
        if (path, mtime) not in self._specs:
            self._specs[(path, mtime)] = load_spec(path)
        return self._specs[(path, mtime)]


class SizeBuffers:
    """The problem's arrays at one size: guarded inputs with pristine copies and guarded outputs.
    Reused across trials, repeats and candidates; the values are redrawn and the outputs re-poisoned
    before every launch. (Scratch belongs to the candidate's plan: plan_run.PlanExecution.)"""

    def __init__(self, spec, size, canary: int):
        import cupy

        self.inputs = {a.name: GuardedArray(spec.shape(a, size), a.dtype, canary) for a in spec.inputs}
        self.pristine = {name: cupy.empty_like(g.array) for name, g in self.inputs.items()}
        self.outputs = {a.name: GuardedArray(spec.shape(a, size), a.dtype, canary) for a in spec.outputs}
        self.canary = canary
        self.nbytes = sum(2 * g.nbytes for g in self.inputs.values()) + sum(g.nbytes for g in self.outputs.values())

    def guarded(self) -> list:
        return list(self.inputs.values()) + list(self.outputs.values())

    def arm(self, canary: int) -> None:
        self.canary = canary
        for guarded in self.guarded():
            guarded.arm(canary)

    def arrays(self) -> dict:
        arrays = {n: g.array for n, g in self.inputs.items()}
        arrays.update({n: g.array for n, g in self.outputs.items()})
        return arrays


class LaunchSession:
    """One candidate at one size: the steps of the module docstring for verified trials and timed
    repeats, around one execution of the candidate's launch plan (one launch or several, the
    measured unit either way). `prepare(seed, poison)` before an execution, `run()` the execution,
    `check(counters)` after it."""

    def __init__(self, harness, spec, size, buffers, execution, modules):
        self.harness, self.spec, self.size = harness, spec, size
        self.buffers, self.execution, self.modules = buffers, execution, modules
        self.cupy, self.kernels = harness.cupy, harness.kernels

    def guarded(self) -> list:
        return self.buffers.guarded() + self.execution.scratch.guarded()

    def prepare(self, seed: int, poison: int) -> None:
        """Fresh inputs (and their pristine copies), poisoned outputs, reset scratch and globals."""
        for index, array in enumerate(self.spec.inputs):
            guarded = self.buffers.inputs[array.name]
            self.kernels.fill(guarded.array, seed + 7919 * index, array.distribution, array.dtype)
            self.buffers.pristine[array.name][...] = guarded.array
        for guarded in self.buffers.outputs.values():
            guarded.fill_bytes(poison)
        self.execution.reset()          # the plan's scratch
        for module in self.modules:
            module.restore()

    def run(self) -> None:
        self.execution.launch()

    def check(self, counters) -> None:
        """Enqueue the guard, input and globals comparisons, adding to counters[GUARDS|INPUTS|GLOBALS]."""
        for guarded in self.guarded():
            for pointer, nbytes in guarded.guard_regions():
                self.kernels.count_mismatch(pointer, nbytes, counters[GUARDS:GUARDS + 1], value=guarded.canary)
        for name, guarded in self.buffers.inputs.items():
            self.kernels.count_mismatch(guarded.array.data.ptr, guarded.nbytes, counters[INPUTS:INPUTS + 1],
                                        other=self.buffers.pristine[name].data.ptr)
        for module in self.modules:
            module.count_changes(counters[GLOBALS:GLOBALS + 1])

    def expected(self) -> dict:
        return self.harness.reference_outputs(self.spec, self.buffers.pristine, self.size)

    def verify(self, trial: int, seed: int, verdict) -> None:
        """One verified launch, synchronised and compared in detail."""
        cupy = self.cupy
        poison = verify.POISON_BYTES[trial % len(verify.POISON_BYTES)]
        self.prepare(seed, poison)
        self.run()
        cupy.cuda.Device().synchronize()
        counters = cupy.zeros(4, dtype=cupy.uint64)
        self.check(counters)
        found = counters.get().tolist()
        for slot, count in enumerate(found):
            if count:
                _flag(verdict, _SLOT_FLAGS[slot])
        if found[GUARDS]:                              # so the next launch is judged on its own
            for guarded in self.guarded():
                guarded.arm()
        expected = self.expected()
        for array in self.spec.outputs:
            check = verify.check_output(array.name, self.buffers.outputs[array.name].array, expected[array.name],
                                        rtol=_pick(array.rtol, self.spec.rtol), atol=_pick(array.atol, self.spec.atol),
                                        poison_byte=poison, inputs=dict(self.buffers.pristine))
            verdict.max_abs_error = max(verdict.max_abs_error, check.max_abs_error)
            verdict.max_rel_error = max(verdict.max_rel_error, check.max_rel_error)
            verdict.mismatched_elements += check.mismatched
            if check.first_mismatch is not None and verdict.first_mismatch is None:
                verdict.first_mismatch = {"output": array.name, "trial": trial, "index": check.first_mismatch}
            for flag in check.flags:
                _flag(verdict, flag)
        if verdict.flags:
            verdict.correct = False

    def time(self, seeds, warmup: int, verdict) -> list:
        """Timed repeats, each on inputs never seen before, each checked and compared with the
        reference for its own inputs; returns the samples (ms) of the repeats after `warmup`."""
        cupy = self.cupy
        counters = cupy.zeros(4, dtype=cupy.uint64)
        poison = verify.POISON_BYTES[len(seeds) % len(verify.POISON_BYTES)]
        bad = []

        def before(index):
            self.prepare(seeds[index], poison)

        def after(index):
            self.check(counters)
            expected = self.expected()
            for array in self.spec.outputs:
                bad.append(self.kernels.count_bad(self.buffers.outputs[array.name].array, expected[array.name],
                                                  rtol=_pick(array.rtol, self.spec.rtol),
                                                  atol=_pick(array.atol, self.spec.atol)))

        samples = time_launches(self.run, repeats=len(seeds) - warmup, warmup=warmup,
                                flusher=self.harness.flusher, between=before, after=after)
        if bad:
            counters[OUTPUTS] += cupy.stack([b.astype(cupy.uint64) for b in bad]).sum()
        for slot, count in enumerate(counters.get().tolist()):
            if count:
                _flag(verdict, _SLOT_FLAGS[slot])
                verdict.correct = False
        return samples


def _scalar_values(spec, variables) -> dict:
    return {s.name: _scalar(spec, s.name, variables) for s in spec.scalars}


def _scalar(spec, name, variables):
    dtype = next(s.dtype for s in spec.scalars if s.name == name)
    return numpy.dtype(dtype).type(variables[name])


def _launch(function, launch, args) -> None:
    import cupy

    if launch.dynamic_smem > _STATIC_SMEM_LIMIT:
        cupy.cuda.driver.funcSetAttribute(function.ptr, _CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                          launch.dynamic_smem)
    function(launch.grid, launch.block, tuple(args), shared_mem=launch.dynamic_smem)


def _keyword_arguments(function, available: dict, spec) -> dict:
    kwargs = {}
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if parameter.name in available:
            kwargs[parameter.name] = available[parameter.name]
        elif parameter.default is parameter.empty:
            raise ValueError(f"reference parameter {parameter.name!r} is not an input, scalar or size "
                             f"variable of {spec.name}")
    return kwargs


def _outputs_by_name(spec, returned, cupy) -> dict:
    names = [a.name for a in spec.outputs]
    if isinstance(returned, dict):
        missing = [n for n in names if n not in returned]
        if missing:
            raise ValueError(f"reference returned no {', '.join(missing)}")
        values = [returned[n] for n in names]
    elif isinstance(returned, (tuple, list)):
        if len(returned) != len(names):
            raise ValueError(f"reference returned {len(returned)} arrays for {len(names)} outputs")
        values = list(returned)
    else:
        if len(names) != 1:
            raise ValueError(f"reference returned one array for {len(names)} outputs")
        values = [returned]
    outputs = {}
    for array, value in zip(spec.outputs, values):
        value = cupy.asarray(value)
        outputs[array.name] = value
    return outputs


def _flag(verdict, flag) -> None:
    if flag not in verdict.flags:
        verdict.flags.append(flag)


def _pick(value, default):
    return default if value is None else value


def _peak_flops_table(cupy) -> dict:
    """Peak rates (FLOP/s by profiles/gpus.json key: fp32, tf32_tensor, ...) of this GPU, or {} when
    the GPU has no profile: no compute floor then, rather than a guessed one."""
    from kernelscope.errors import KernelscopeError
    from kernelscope.profiles_db import gpu

    try:
        name = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["name"]
        profile = gpu(name.decode() if isinstance(name, bytes) else str(name))
    except (KernelscopeError, KeyError, ValueError):
        return {}
    return {key: value * 1e12 for key, value in (profile.peak_tflops or {}).items() if value}


def compute_floor_ms(spec, size: str, peak_flops: dict) -> float | None:
    """The shortest time in which the spec's FLOP count can run at this GPU's peak for its precision."""
    flops = spec.flop_count(size)
    rate = peak_flops.get(spec.flops_peak)
    if flops is None or not rate:
        return None
    return flops / rate * 1e3


def _peak_dram_bandwidth(cupy) -> float | None:
    """Bytes per second from the memory clock and bus width (double data rate)."""
    try:
        attributes = cupy.cuda.Device().attributes
        clock_khz, bus_bits = attributes["MemoryClockRate"], attributes["GlobalMemoryBusWidth"]
    except Exception:
        return None
    return 2.0 * clock_khz * 1e3 * bus_bits / 8 if clock_khz and bus_bits else None
