"""Executing a bound launch plan inside the worker: scratch buffers, argument lists, the launches.

One `PlanExecution` serves one trial: it owns the trial's scratch buffers (guarded like outputs,
buffers.ScratchBuffers) and the argument tuple of every launch. `reset()` keeps executions of the
plan independent: zeroed scratch is zeroed again and the rest is overwritten with a fresh garbage
byte before every execution, verified or timed, so nothing a previous execution left in scratch can
be read back as an answer. The caller calls `reset()` outside any timed interval, `launch()` inside.
"""

from __future__ import annotations

import numpy

from kernelscope.runner.buffers import ScratchBuffers

_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
_STATIC_SMEM_LIMIT = 48 * 1024


class PlanExecution:
    def __init__(self, functions: dict, bound, scalar_values: dict, arrays: dict, *, canary: int):
        """`functions`: kernel name -> CuPy function; `bound`: a plan.ConcretePlan; `scalar_values`:
        problem scalar name -> numpy scalar; `arrays`: input and output name -> device array."""
        self.scratch = ScratchBuffers(bound.scratch, canary)
        values = dict(scalar_values)
        values.update({name: numpy.dtype(dtype).type(value) for name, (dtype, value) in bound.scalars.items()})
        values.update(arrays)
        values.update(self.scratch.arrays())
        self._steps = []
        for launch in bound.launches:
            function = functions[launch.kernel]
            if launch.dynamic_smem > _STATIC_SMEM_LIMIT:
                import cupy

                cupy.cuda.driver.funcSetAttribute(function.ptr, _CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                  launch.dynamic_smem)
            self._steps.append((function, launch.grid, launch.block, tuple(values[a] for a in launch.args),
                                launch.dynamic_smem))

    def reset(self) -> None:
        self.scratch.reset()

    def launch(self) -> None:
        for function, grid, block, args, smem in self._steps:
            function(grid, block, args, shared_mem=smem)

    def run(self) -> None:
        self.reset()
        self.launch()

    def guards_intact(self) -> bool:
        return self.scratch.guards_intact()
