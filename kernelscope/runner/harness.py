"""The GPU side of an evaluation, run inside a worker process that owns the CUDA context.

For each size: fresh random inputs per trial, the reference's outputs, the candidate launched into
poisoned, guarded outputs, and the checks of verify.py; then, if every trial passed, timing of the
candidate (and, once per worker and size, of the reference) with outputs re-poisoned before every
repeat and the last timed launch verified again. A CUDA error escapes as `Fault`: the context may
be unusable after it, so the worker reports it and exits.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import sys

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


class Fault(Exception):
    """A CUDA error: the context may be poisoned, the worker must be replaced."""


class Harness:
    """Per-worker state: the L2 flusher, loaded references and reference timings (by spec and size)."""

    def __init__(self):
        import cupy

        self.cupy = cupy
        self.flusher = L2Flusher()
        self._specs = {}
        self._references = {}
        self._reference_times = {}
        self._peak_bandwidth = _peak_dram_bandwidth(cupy)

    def run(self, job: dict) -> dict:
        try:
            return self._run(job)
        except self.cupy.cuda.driver.CUDADriverError as exc:
            raise Fault(str(exc)) from None
        except self.cupy.cuda.runtime.CUDARuntimeError as exc:
            raise Fault(str(exc)) from None

    def _run(self, job: dict) -> dict:
        cupy = self.cupy
        spec = self._spec(job["spec_path"])
        modules, functions = [], {}
        if "plan" in job:      # a launch plan: one module per distinct cubin, each kernel from its own
            for cubin in job["cubins"]:
                modules.append(cupy.cuda.function.Module())
                modules[-1].load(cubin)
            for kernel, (index, lowered) in job["symbols"].items():
                functions[kernel] = modules[index].get_function(lowered)
            plan = job["plan"]
        else:                  # one kernel with the problem's launch (or an override of it): a one-launch plan
            modules.append(cupy.cuda.function.Module())
            modules[0].load(job["cubin"])
            functions["candidate"] = modules[0].get_function(job["lowered_name"])
            plan = default_plan(spec, "candidate", job.get("launch"))
        registers = max(cupy.cuda.driver.funcGetAttribute(_CU_FUNC_ATTRIBUTE_NUM_REGS, f.ptr)
                        for f in functions.values())
        verdicts = []
        for size in job["sizes"]:
            verdicts.append(self._size(spec, functions, plan, size, job))
        return {"sizes": verdicts, "registers": registers}

    def _size(self, spec, functions, plan, size, job) -> SizeVerdict:
        launch = plan.concrete(spec, size)
        variables = spec.variables(size)
        verdict = SizeVerdict(size=size, correct=True, trials=job["trials"])
        rng = numpy.random.default_rng([job["seed"], len(size), sum(map(ord, size))])
        trial_state = None
        with nvtx.annotate(f"kernelscope:verify:{size}", color="green"):
            for trial in range(job["trials"]):
                seed = int(rng.integers(0, 2**31 - 1))
                trial_state = self._trial(spec, functions, launch, variables, size, trial, seed, verdict)
        if verdict.correct and job.get("time", True):
            with nvtx.annotate(f"kernelscope:time:{size}", color="red"):
                self._time(spec, launch, variables, size, job, verdict, trial_state)
        return verdict

    def _trial(self, spec, functions, launch, variables, size, trial, seed, verdict):
        cupy = self.cupy
        canary = (0x3C + 37 * trial) & 0xFF
        poison = verify.POISON_BYTES[trial % len(verify.POISON_BYTES)]
        inputs = {a.name: self._input(spec, a, size, cupy.random.RandomState(seed + i), canary)
                  for i, a in enumerate(spec.inputs)}
        expected = self._reference(spec, {n: g.array for n, g in inputs.items()}, variables, size, launch)
        outputs = {a.name: GuardedArray(spec.shape(a, size), a.dtype, canary) for a in spec.outputs}
        for guarded in outputs.values():
            guarded.fill_bytes(poison)
        arrays = {**{n: g.array for n, g in inputs.items()}, **{n: g.array for n, g in outputs.items()}}
        plan = PlanExecution(functions, launch, _scalar_values(spec, variables), arrays, canary=canary)
        plan.run()             # scratch reset, then every launch of the plan in order
        cupy.cuda.Device().synchronize()

        if not all(g.guards_intact() for g in list(outputs.values()) + list(inputs.values())) \
                or not plan.guards_intact():
            _flag(verdict, "out_of_bounds_write")
        input_arrays = {n: g.array for n, g in inputs.items()}
        for array in spec.outputs:
            check = verify.check_output(array.name, outputs[array.name].array, expected[array.name],
                                        rtol=_pick(array.rtol, spec.rtol), atol=_pick(array.atol, spec.atol),
                                        poison_byte=poison, inputs=input_arrays)
            verdict.max_abs_error = max(verdict.max_abs_error, check.max_abs_error)
            verdict.max_rel_error = max(verdict.max_rel_error, check.max_rel_error)
            verdict.mismatched_elements += check.mismatched
            if check.first_mismatch is not None and verdict.first_mismatch is None:
                verdict.first_mismatch = {"output": array.name, "trial": trial, "index": check.first_mismatch}
            for flag in check.flags:
                _flag(verdict, flag)
        if verdict.flags:
            verdict.correct = False
        return inputs, outputs, expected, plan, poison

    def _time(self, spec, launch, variables, size, job, verdict, trial_state):
        inputs, outputs, expected, plan, poison = trial_state

        def poison_outputs():     # outside the timed interval: nothing survives the last execution
            for guarded in outputs.values():
                guarded.fill_bytes(poison)
            plan.reset()

        # the whole plan is the measured unit: the events bracket every launch of it
        samples = time_launches(plan.launch, repeats=job["repeats"], warmup=job.get("warmup", 3),
                                flusher=self.flusher, between=poison_outputs)
        if not plan.guards_intact():
            _flag(verdict, "out_of_bounds_write")
            verdict.correct = False
        for array in spec.outputs:   # the last timed launch must still compute the right answer
            check = verify.check_output(array.name, outputs[array.name].array, expected[array.name],
                                        rtol=_pick(array.rtol, spec.rtol), atol=_pick(array.atol, spec.atol),
                                        poison_byte=poison)
            if not check.correct:
                _flag(verdict, "timing_divergence")
                verdict.correct = False
        stats = summarize(samples)
        verdict.time_ms, verdict.time_spread, verdict.timing = stats.median_ms, stats.cv, stats.to_json()
        moved = sum(g.nbytes for g in inputs.values()) + sum(g.nbytes for g in outputs.values())
        verdict.dram_floor_ms = dram_floor_ms(moved, self._peak_bandwidth)
        if verdict.dram_floor_ms is not None and stats.median_ms < verdict.dram_floor_ms:
            _flag(verdict, "implausible_speedup")
        if job.get("reference_timing", True):
            verdict.reference_time_ms = self._reference_time(spec, size, inputs, variables, launch, job)
            if verdict.reference_time_ms:
                verdict.speedup = verdict.reference_time_ms / stats.median_ms

    # --- inputs and the reference -------------------------------------------------------------
    def _input(self, spec, array, size, random_state, canary) -> GuardedArray:
        shape = spec.shape(array, size)
        guarded = GuardedArray(shape, array.dtype, canary)
        kind, params = array.distribution.kind, array.distribution.params
        dtype = numpy.dtype(array.dtype)
        if dtype.kind in "iu" or kind == "randint":
            values = random_state.randint(int(params[0]), int(params[1]), size=shape, dtype=numpy.int64)
        elif kind == "uniform":
            values = random_state.uniform(params[0], params[1], size=shape, dtype=numpy.float64)
        else:
            values = random_state.normal(params[0], params[1], size=shape, dtype=numpy.float64)
        guarded.array[...] = values.astype(dtype)
        return guarded

    def _reference(self, spec, inputs, variables, size, launch, outputs=None) -> dict:
        if spec.reference.python:
            return self._python_reference(spec, inputs, variables, size)
        return self._kernel_reference(spec, inputs, variables, size, outputs)

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
        scratch = ScratchBuffers(launch.scratch, 0)    # the reference gets its own, freshly reset
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

    def _reference_time(self, spec, size, inputs, variables, launch, job):
        key = (str(spec.path), size)
        if key not in self._reference_times:
            arrays = {n: g.array for n, g in inputs.items()}
            # a reference kernel writes into buffers allocated here, so that allocation is not timed
            outputs = None if spec.reference.python else {
                a.name: self.cupy.empty(spec.shape(a, size), dtype=a.dtype) for a in spec.outputs}
            samples = time_launches(lambda: self._reference(spec, arrays, variables, size, launch, outputs),
                                    repeats=job["repeats"], warmup=job.get("warmup", 3), flusher=self.flusher)
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


def _peak_dram_bandwidth(cupy) -> float | None:
    """Bytes per second from the memory clock and bus width (double data rate)."""
    try:
        attributes = cupy.cuda.Device().attributes
        clock_khz, bus_bits = attributes["MemoryClockRate"], attributes["GlobalMemoryBusWidth"]
    except Exception:
        return None
    return 2.0 * clock_khz * 1e3 * bus_bits / 8 if clock_khz and bus_bits else None
