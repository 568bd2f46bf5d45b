"""Precision and recall of the race rules (KS202, KS207, KS209) on the labelled race suite.

tests/kernels/races/ holds one kernel per file. Each file starts with its label:

    // race-suite: race | race-free
    // memory: shared | global                 (where the race is, or where the look-alike is)
    // between: threads-of-a-block | lanes-of-a-warp | blocks
    // launch: block=128 grid=4 [smem=512] [cooperative=yes]
    // args: float32[512], float32[512]:zeros, int32=4     (arrays: dtype[count][:fill]; scalars: dtype=value)

and the lines of a race carry a `// RACE` comment. A racy kernel counts as found when a race rule of
its memory (KS202/KS207 for shared, KS209 for global) reports one of those lines (or names one as
the other access); any race finding on a race-free kernel, or in the other memory of a racy one, is
a false alarm. Two settings: the launch bound (block, grid, scalar arguments), and what `lint` sees
without --grid/--arg (the block shape only).

    python3 benchmarks/race_suite.py            # the table, and every mistake
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "tests" / "kernels" / "races"
RULES_OF_MEMORY = {"shared": {"KS202", "KS207"}, "global": {"KS209"}}
HEADER = re.compile(r"^//\s*([a-z-]+):\s*(.*)$")
KERNEL = re.compile(r'extern "C" __global__ void (\w+)\(')
ARRAY = re.compile(r"^(\w+)\[(\d+)\](?::(\w+))?$")
SCALAR = re.compile(r"^(\w+)=(-?\d+)$")


def _dims(text: str) -> list:
    dims = [int(d) for d in text.split("x")]
    return dims + [1] * (3 - len(dims))


def read_entry(path: Path) -> dict:
    """One suite kernel: its label, launch, arguments and the lines marked RACE."""
    text = path.read_text()
    fields: dict = {}
    for line in text.splitlines():
        match = HEADER.match(line)
        if not match:
            break
        fields.setdefault(match.group(1), match.group(2).strip())
    launch = dict(item.split("=") for item in fields["launch"].split())
    args = []
    for item in (a.strip() for a in fields["args"].split(",")):
        array, scalar = ARRAY.match(item), SCALAR.match(item)
        if array:
            args.append({"array": array.group(1), "size": int(array.group(2)), "fill": array.group(3) or "normal"})
        elif scalar:
            args.append({"scalar": scalar.group(1), "value": int(scalar.group(2))})
        else:
            raise ValueError(f"{path.name}: cannot read argument {item!r}")
    lines = [n for n, line in enumerate(text.splitlines(), start=1) if line.rstrip().endswith("// RACE")]
    label = fields["race-suite"]
    if label not in ("race", "race-free") or fields["memory"] not in RULES_OF_MEMORY:
        raise ValueError(f"{path.name}: bad label")
    if (label == "race") != bool(lines):
        raise ValueError(f"{path.name}: a racy kernel marks its lines with // RACE, a race-free one none")
    return {"name": path.stem, "kernel": KERNEL.search(text).group(1), "file": str(path.relative_to(ROOT)),
            "label": label, "memory": fields["memory"], "between": fields["between"],
            "block": _dims(launch["block"]), "grid": _dims(launch["grid"]),
            "dynamic_smem": int(launch.get("smem", 0)), "cooperative": launch.get("cooperative") == "yes",
            "args": args, "lines": lines}


def entries() -> list[dict]:
    return [read_entry(path) for path in sorted(SUITE.glob("*.cu"))]


def race_findings(entry: dict, bound: bool) -> dict:
    """memory -> source lines the race rules report (both accesses of each race)."""
    from kernelscope.analyses import sync
    from kernelscope.frontend import parse_file
    from kernelscope.rules import sync as sync_rules

    path = ROOT / entry["file"]
    kernel = next(k for k in parse_file(path.read_text(), str(path)).kernels if k.name == entry["kernel"])
    bindings = {}
    if bound:
        bindings = {p.name: a["value"] for p, a in zip(kernel.params, entry["args"]) if "scalar" in a}
    result = sync.analyze(kernel, tuple(entry["block"]), bindings, grid=tuple(entry["grid"]) if bound else None)
    found: dict = {}
    for diagnostic in sync_rules.findings(result, kernel, entry["file"]):
        for memory, rules in RULES_OF_MEMORY.items():
            if diagnostic.rule in rules:
                lines = found.setdefault(memory, set())
                lines.add(diagnostic.line)
                lines.update(line for line, _, _ in diagnostic.related)
    return found


def score(suite: list[dict], bound: bool) -> dict:
    """Kernel-level counts: a racy kernel is found or missed; every other race report is false."""
    found = false = 0
    mistakes = []
    for entry in suite:
        reported = race_findings(entry, bound)
        for memory, lines in reported.items():
            right = entry["label"] == "race" and memory == entry["memory"] and lines & set(entry["lines"])
            if right:
                found += 1
            else:
                false += 1
                mistakes.append((entry["name"], "false alarm", memory, sorted(lines)))
        if entry["label"] == "race" and not (reported.get(entry["memory"], set()) & set(entry["lines"])):
            mistakes.append((entry["name"], "missed", entry["memory"], entry["lines"]))
    races = sum(e["label"] == "race" for e in suite)
    return {"races": races, "race_free": len(suite) - races, "found": found, "false": false,
            "precision": found / (found + false) if found + false else float("nan"),
            "recall": found / races if races else float("nan"), "mistakes": mistakes}


def main() -> int:
    suite = entries()
    print(f"{len(suite)} kernels in {SUITE.relative_to(ROOT)}: "
          f"{sum(e['label'] == 'race' for e in suite)} racy, {sum(e['label'] != 'race' for e in suite)} race-free")
    print(f"{'setting':34s} {'found':>6s} {'false':>6s} {'precision':>10s} {'recall':>8s}")
    for bound, title in ((True, "launch bound (block, grid, args)"), (False, "lint: block only, no grid")):
        result = score(suite, bound)
        print(f"{title:34s} {result['found']:>6d} {result['false']:>6d} {result['precision']:>10.3f} "
              f"{result['recall']:>8.3f}")
        for mistake in result["mistakes"]:
            print(f"    {mistake[0]}: {mistake[1]} ({mistake[2]}, lines {' '.join(map(str, mistake[3]))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
