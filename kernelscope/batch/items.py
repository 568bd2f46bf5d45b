"""What a batch is made of: candidates, each a kernel source against one problem spec.

A batch comes from a JSON Lines file (one candidate per line) or from a directory of problems (every
problem's [[implementations]], which is how the corpus is checked). Everything is read and validated
up front, so that a typo on line 900 fails before the GPUs spend an hour on lines 1-899.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from kernelscope.errors import InputError
from kernelscope.runner.spec import LaunchSpec, ProblemSpec, load_spec

SPEC_FILE_NAMES = ("spec.toml", "problem.toml")
ITEM_KEYS = {"id", "spec", "source", "file", "kernel", "launch", "sizes"}


@dataclass(frozen=True)
class BatchItem:
    """One candidate. `index` is its position in the batch; results carry it back."""
    index: int
    spec: ProblemSpec
    source: str
    kernel: str | None = None
    label: str = ""                      # the `candidate` field of the result, as `kernelscope run` names it
    launch: LaunchSpec | None = None     # overrides the spec's [launch]
    sizes: tuple | None = None           # None: every size of the spec


def load_items(path) -> list[BatchItem]:
    """A .jsonl file of candidates, a directory of problems, or one problem's directory or spec."""
    path = Path(path)
    if path.is_dir() or path.suffix == ".toml":
        return _from_problems(path)
    if not path.is_file():
        raise InputError(f"{path}: no such batch file or directory")
    return _from_jsonl(path)


def _from_problems(path: Path) -> list[BatchItem]:
    specs = _spec_files(path)
    if not specs:
        raise InputError(f"{path}: no {' or '.join(SPEC_FILE_NAMES)} found")
    items = []
    for spec_path in specs:
        spec = load_spec(spec_path)
        for impl in spec.implementations:
            label = impl.file if not impl.kernel else f"{impl.file}:{impl.kernel}"
            items.append(BatchItem(index=len(items), spec=spec, source=_read(spec.resolve(impl.file)),
                                   kernel=impl.kernel, label=label))
    if not items:
        raise InputError(f"{path}: the problems list no [[implementations]]")
    return items


def _spec_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    for name in SPEC_FILE_NAMES:
        if (path / name).is_file():
            return [path / name]
    found = []
    for child in sorted(p for p in path.iterdir() if p.is_dir()):
        found.extend(child / name for name in SPEC_FILE_NAMES if (child / name).is_file())
    return found


def _from_jsonl(path: Path) -> list[BatchItem]:
    specs: dict[Path, ProblemSpec] = {}
    items = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
        except ValueError as exc:
            raise InputError(f"{where}: not JSON: {exc}") from None
        items.append(_item(record, len(items), path.parent, specs, where))
    if not items:
        raise InputError(f"{path}: no candidates")
    return items


def _item(record, index: int, base: Path, specs: dict, where: str) -> BatchItem:
    if not isinstance(record, dict):
        raise InputError(f"{where}: each line must be a JSON object")
    unknown = set(record) - ITEM_KEYS
    if unknown:
        raise InputError(f"{where}: unknown keys {', '.join(sorted(unknown))} (known: {', '.join(sorted(ITEM_KEYS))})")
    if not isinstance(record.get("spec"), str):
        raise InputError(f"{where}: 'spec' (the problem's directory or TOML file) is required")
    spec_path = (base / record["spec"]).resolve()
    if spec_path.is_dir():
        spec_path = next((spec_path / n for n in SPEC_FILE_NAMES if (spec_path / n).is_file()), spec_path)
    if spec_path not in specs:       # read each problem once, however many candidates it has
        specs[spec_path] = load_spec(spec_path)
    spec = specs[spec_path]
    if ("source" in record) == ("file" in record):
        raise InputError(f"{where}: give exactly one of 'source' (the code) or 'file' (a path to it)")
    source = record["source"] if "source" in record else _read(base / record["file"])
    kernel = record.get("kernel")
    if not isinstance(source, str) or (kernel is not None and not isinstance(kernel, str)):
        raise InputError(f"{where}: 'source' and 'kernel' must be strings")
    sizes = record.get("sizes")
    if sizes is not None:
        if not isinstance(sizes, list) or not sizes or not all(s in spec.sizes for s in sizes):
            raise InputError(f"{where}: 'sizes' must list sizes of {spec.name} ({', '.join(spec.sizes)})")
        sizes = tuple(sizes)
    launch = _launch(record.get("launch"), spec, sizes, where)
    label = record.get("id", record.get("file", f"#{index}"))
    return BatchItem(index=index, spec=spec, source=source, kernel=kernel, label=str(label), launch=launch,
                     sizes=sizes)


def _launch(table, spec: ProblemSpec, sizes, where: str) -> LaunchSpec | None:
    """A launch override; evaluated for every size now so that a bad expression is an input error."""
    if table is None:
        return None
    if not isinstance(table, dict) or set(table) - {"block", "grid", "dynamic_smem", "args"}:
        raise InputError(f"{where}: 'launch' takes block, grid, dynamic_smem and args")
    dims = {k: tuple(table[k]) if isinstance(table.get(k), list) else
            ((table[k],) if k in table else None) for k in ("block", "grid")}
    args = table.get("args")
    launch = LaunchSpec(block=dims["block"], grid=dims["grid"], dynamic_smem=table.get("dynamic_smem"),
                        args=tuple(args) if isinstance(args, list) else None)
    try:
        for size in sizes or spec.sizes:
            spec.concrete_launch(size, launch)
    except (InputError, ValueError, TypeError) as exc:
        raise InputError(f"{where}: bad launch override: {exc}") from None
    return launch


def _read(path: Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read candidate {path}: {exc}") from None
