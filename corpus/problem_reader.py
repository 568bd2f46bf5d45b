"""Read a corpus problem (spec.toml) and build its inputs and reference outputs with numpy on the CPU.

The corpus tests use it to check references against the prompt sources without a GPU;
`kernelscope.runner.load_spec` is the authoritative loader, and the tests check that it accepts every
spec too.
"""

from __future__ import annotations

import importlib.util
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kernelscope.runner.expr import evaluate as _runner_evaluate

CORPUS_DIR = Path(__file__).resolve().parent


def evaluate(expression: str | int | float, variables: dict):
    """Evaluate a size expression such as "ceil_div(n, 256)": the runner's safe evaluator."""
    return _runner_evaluate(expression, variables)


@dataclass(frozen=True)
class Problem:
    directory: Path
    spec: dict

    @property
    def name(self) -> str:
        return self.spec["name"]

    @property
    def sizes(self) -> dict:
        return self.spec["sizes"]

    @property
    def implementations(self) -> list:
        return self.spec["implementations"]

    def shape(self, entry: dict, size: str) -> tuple:
        return tuple(int(evaluate(e, self.sizes[size])) for e in entry["shape"])

    def scalars(self, size: str) -> dict:
        variables = self.sizes[size]
        return {s["name"]: np.dtype(s["dtype"]).type(evaluate(s["value"], variables))
                for s in self.spec.get("scalars", [])}

    def make_inputs(self, size: str, rng: np.random.Generator) -> dict:
        return {entry["name"]: _draw(entry, self.shape(entry, size), self.sizes[size], rng)
                for entry in self.spec["inputs"]}

    def reference(self, inputs: dict, size: str) -> dict:
        module_file, function = self.spec["reference"]["python"].split(":")
        result = getattr(load_module(self.directory / module_file), function)(**inputs, **self.scalars(size))
        if not isinstance(result, dict):
            result = dict(zip([o["name"] for o in self.spec["outputs"]],
                              result if isinstance(result, tuple) else (result,)))
        return result


def _draw(entry: dict, shape: tuple, variables: dict, rng: np.random.Generator) -> np.ndarray:
    kind, _, rest = entry["distribution"].partition("(")
    low, high = (evaluate(arg, variables) for arg in rest.rstrip(")").split(","))
    dtype = np.dtype(entry["dtype"])
    if kind == "uniform":
        values = rng.uniform(low, high, size=shape)
    elif kind == "normal":
        values = rng.normal(low, high, size=shape)
    elif kind == "randint":
        values = rng.integers(low, high, size=shape)
    else:
        raise ValueError(f"unknown distribution {entry['distribution']!r}")
    return values.astype(dtype)


def load_module(path: Path):
    spec = importlib.util.spec_from_file_location(f"corpus_{path.parent.name}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_problem(directory: Path) -> Problem:
    with open(directory / "spec.toml", "rb") as handle:
        return Problem(directory, tomllib.load(handle))


def all_problems() -> list[Problem]:
    return [load_problem(d) for d in sorted(CORPUS_DIR.iterdir()) if (d / "spec.toml").exists()]
