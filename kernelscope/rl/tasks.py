"""Corpus problems as RL tasks: what a prompt shows and what the reward needs to know.

Reads `spec.toml` directly (docs/spec-format.md) rather than through the runner, so that static
rewards and prompt building work on machines without CuPy. Only the fields the RL layer uses are read.
"""

from __future__ import annotations

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from kernelscope.runner.expr import evaluate

def size_value(expression, variables: dict):
    """Evaluate a size expression ("ceil_div(n, 256)") over the size variables: the runner's safe
    evaluator (it needs no CuPy)."""
    return evaluate(expression, variables)


@dataclass(frozen=True)
class Argument:
    name: str
    dtype: str
    role: str          # input | output | scalar
    shape: tuple = ()  # size expressions (arrays)
    value: str = ""    # size expression (scalars)


@dataclass(frozen=True)
class Task:
    """One corpus problem, seen from the RL side."""
    name: str
    directory: Path
    style: str                     # c | pytorch
    description: str
    prompt_source: str             # the C or PyTorch reference shown to the model
    kernel: str                    # the name the candidate's kernel must have
    arguments: tuple               # Argument records in kernel argument order
    block: tuple                   # launch block at the largest size
    grid_text: tuple               # grid expressions as written (shown in prompts)
    sizes: dict = field(default_factory=dict)
    # ({"file", "kernel", "strategy", "plan_launches", "launch"}, ...): see _implementation
    implementations: tuple = ()
    launch: dict = field(default_factory=dict)  # the problem's [launch] table as written
    implementation: str | None = None  # set by for_implementation: whose launch this task uses

    @property
    def spec_path(self) -> Path:
        return self.directory / "spec.toml"

    @property
    def largest_size(self) -> str:
        return max(self.sizes, key=lambda name: _size_weight(self.sizes[name])) if self.sizes else ""

    def bindings(self, size: str | None = None) -> dict[str, int]:
        """Integer scalar arguments at a size: what `analyze --arg` binds for concrete evaluation."""
        variables = self.sizes.get(size or self.largest_size, {})
        bound = {}
        for argument in self.arguments:
            if argument.role == "scalar" and argument.dtype.startswith(("int", "uint")):
                try:
                    bound[argument.name] = int(size_value(argument.value, variables))
                except (KeyError, ValueError, SyntaxError):
                    continue
        return bound

    @property
    def single_kernel_implementations(self) -> tuple:
        """The implementations launched as one kernel: what per-kernel features and yardsticks describe
        (a plan of several launches splits the work between kernels)."""
        return tuple(i for i in self.implementations if len(i.get("plan_launches", ())) <= 1)

    def implementation_block(self, implementation: dict) -> tuple:
        """The block an implementation is launched with (its own override, else the problem's)."""
        override = implementation.get("launch", {}).get("block")
        if not override:
            return self.block
        variables = self.sizes.get(self.largest_size, {})
        block = tuple(int(size_value(e, variables)) for e in override)
        return block + (1,) * (3 - len(block))

    def threads(self, implementation: dict | None = None, size: str | None = None) -> int | None:
        """grid x block threads of a launch at a size (the problem's launch unless an implementation
        overrides it); None when an expression cannot be evaluated."""
        variables = self.sizes.get(size or self.largest_size, {})
        launch = {**self.launch, **((implementation or {}).get("launch", {}))}
        try:
            total = 1
            for expression in list(launch.get("block", ["256"])) + list(launch.get("grid", ["1"])):
                total *= int(size_value(expression, variables))
            return total
        except (KeyError, ValueError, SyntaxError, ZeroDivisionError):
            return None

    def for_implementation(self, implementation: dict) -> "Task":
        """This task as one of its implementations is launched (its block and grid overrides)."""
        launch = {**self.launch, **implementation.get("launch", {})}
        return replace(self, launch=launch, block=self.implementation_block(implementation),
                       grid_text=tuple(str(e) for e in launch.get("grid", ())), implementation=implementation["file"])

    def launched_as(self, block: tuple, grid: tuple) -> "Task":
        """This task launched with a concrete block and grid (a candidate's one-launch plan, bound at
        the largest size): what threads() and the work yardstick then count."""
        launch = {**self.launch, "block": [str(d) for d in block], "grid": [str(d) for d in grid]}
        return replace(self, launch=launch, block=tuple(block) + (1,) * (3 - len(block)),
                       grid_text=tuple(launch["grid"]))

    def implementation_source(self, file: str) -> str:
        return (self.directory / file).read_text()

    @property
    def dtypes(self) -> set[str]:
        return {a.dtype for a in self.arguments if a.role != "scalar"}


def _size_weight(variables: dict) -> int:
    product = 1
    for value in variables.values():
        if isinstance(value, (int, float)):
            product *= max(int(value), 1)
    return product


def load_task(directory: str | Path) -> Task:
    directory = Path(directory)
    spec_file = directory / "spec.toml" if directory.is_dir() else directory
    directory = spec_file.parent
    spec = tomllib.loads(spec_file.read_text())
    launch = spec.get("launch", {})
    by_name = {}
    for role, key in (("input", "inputs"), ("output", "outputs")):
        for entry in spec.get(key, []):
            by_name[entry["name"]] = Argument(entry["name"], entry["dtype"], role, tuple(entry.get("shape", ())))
    for entry in spec.get("scalars", []):
        by_name[entry["name"]] = Argument(entry["name"], entry["dtype"], "scalar",
                                          value=str(entry.get("value", entry["name"])))
    order = launch.get("args") or list(by_name)
    arguments = tuple(by_name[name] for name in order if name in by_name)
    implementations = tuple(_implementation(directory, entry) for entry in spec.get("implementations", []))
    sizes = spec.get("sizes", {})
    largest = max(sizes.values(), key=_size_weight) if sizes else {}
    block = tuple(int(size_value(e, largest)) for e in launch.get("block", ["256"]))
    prompt_file = spec.get("prompt_source")
    prompt_source = (directory / prompt_file).read_text() if prompt_file and (directory / prompt_file).exists() else ""
    kernel = spec.get("kernel") or (implementations[0].get("kernel") if implementations else spec["name"])
    return Task(name=spec["name"], directory=directory, style=spec.get("style", "c"),
                description=spec.get("description", ""), prompt_source=prompt_source, kernel=kernel,
                arguments=arguments, block=block + (1,) * (3 - len(block)),
                grid_text=tuple(str(e) for e in launch.get("grid", ())), sizes=sizes,
                implementations=implementations, launch=launch)


def _implementation(directory: Path, entry: dict) -> dict:
    """An [[implementations]] entry with its launch as its file's plan gives it (the runner's loader
    validates the plan; here it is only read): `plan_launches`, the plan's [[launch]] tables ([]
    without a plan), and for a plan of one launch its `kernel` and a `launch` table (block, grid,
    dynamic_smem) that takes the place of the problem's [launch]."""
    from kernelscope.errors import InputError
    from kernelscope.runner.plan import plan_text

    if "launch" in entry:    # the runner's loader refuses these too: one format, the plan in the file
        raise InputError(f"{directory / 'spec.toml'}: implementation {entry.get('file')}: launch overrides in the "
                         "spec are no longer read; put the launch in the file as a /* kernelscope:plan */ comment")
    entry = dict(entry)
    text = plan_text((directory / entry["file"]).read_text())
    launches = list(tomllib.loads(text).get("launch", [])) if text else []
    entry["plan_launches"] = launches
    if len(launches) == 1:
        entry.setdefault("kernel", launches[0].get("kernel"))
        entry["launch"] = {k: launches[0][k] for k in ("block", "grid", "dynamic_smem") if k in launches[0]}
    return entry


@lru_cache(maxsize=4)
def load_corpus(root: str | Path) -> dict[str, Task]:
    """Every problem under `root` (a folder of problem folders), by name."""
    tasks = {}
    for spec_file in sorted(Path(root).glob("*/spec.toml")):
        task = load_task(spec_file)
        tasks[task.name] = task
    return tasks


def default_corpus_dir() -> Path:
    """The corpus shipped with the package (`kernelscope.corpus`), or a checkout's `corpus/`."""
    from kernelscope.paths import data_dir

    return data_dir("corpus")
