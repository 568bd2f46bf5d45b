"""False positives: lint the project's correct kernels with the block shapes they are launched
with, and require that no error-severity finding appears on any of them.

Correct kernels: every implementation listed in corpus/*/problem.toml (each is checked against its
reference on the GPU), examples/*.cu, the bug-free kernels of the seeded synchronization corpus
(bug = "none"; compute-sanitizer agrees), and the memory ground-truth kernels (run under Nsight
Compute). Warnings and infos on correct kernels are expected (an uncoalesced access is slow, not
wrong), so only errors count here.
"""

import tomllib
import warnings
from pathlib import Path

import pytest

from kernelscope.lint.config import Settings
from kernelscope.lint.engine import lint_file

ROOT = Path(__file__).resolve().parent.parent


def _block(dims):
    """A launch block from a problem spec; None (analysis default) when it is an expression."""
    try:
        values = [int(d) for d in dims]
    except (TypeError, ValueError):
        return None
    return tuple(values + [1] * (3 - len(values)))


def correct_kernels():
    """(path, block, kernel name or None for every kernel of the file)."""
    for spec in sorted(ROOT.glob("corpus/*/problem.toml")):
        problem = tomllib.loads(spec.read_text())
        default = problem.get("launch", {}).get("block")
        for implementation in problem.get("implementations", []):
            block = (implementation.get("launch") or {}).get("block") or default
            yield spec.parent / implementation["file"], _block(block) if block else None, None
    for example in sorted(ROOT.glob("examples/*.cu")):
        yield example, None, None
    for folder, keep in (("sync", lambda k: k["bug"] == "none"), ("memory", lambda k: True)):
        manifest = tomllib.loads((ROOT / "tests" / "kernels" / folder / "manifest.toml").read_text())
        for kernel in manifest["kernel"]:
            if keep(kernel):
                yield ROOT / "tests" / "kernels" / folder / kernel["file"], tuple(kernel["block"]), kernel["name"]


def error_findings():
    found, unanalysed = [], []
    for path, block, kernel in correct_kernels():
        outcome = lint_file(str(path), Settings(block=block))
        if outcome.error:
            unanalysed.append(outcome.error)
        found += [f.diagnostic for f in outcome.findings
                  if f.diagnostic.severity == "error" and (kernel is None or f.diagnostic.kernel == kernel)]
    return found, unanalysed


@pytest.mark.slow
def test_no_error_severity_finding_on_a_correct_kernel():
    found, unanalysed = error_findings()
    for message in unanalysed:
        warnings.warn(f"not analysed: {message}")
    listing = "\n".join(f"{d.path}:{d.line}: {d.rule} [{d.kernel}] {d.message}" for d in found)
    assert not found, "error-severity findings on correct kernels:\n" + listing
