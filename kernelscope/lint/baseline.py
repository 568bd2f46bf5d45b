"""Baselines: record today's findings once, then report only findings that are new.

The file lists (path, fingerprint) pairs, paths relative to the baseline file's directory so the
file can be committed and used from any working directory. Fingerprints ignore line numbers (see
`findings.fingerprints`), so unrelated edits above a recorded finding do not resurrect it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from kernelscope.errors import UsageError

SCHEMA = "kernelscope.baseline/1"


def _relative(path: str, base: Path) -> str:
    return Path(os.path.relpath(os.path.abspath(path), base)).as_posix()


def write_baseline(path: str | os.PathLike, findings) -> int:
    """Write every finding to `path`; returns how many were recorded."""
    path = Path(path)
    base = path.resolve().parent
    entries = sorted(
        ({"path": _relative(f.diagnostic.path, base), "rule": f.diagnostic.rule,
          "fingerprint": f.fingerprint, "line": f.diagnostic.line, "message": f.diagnostic.message}
         for f in findings),
        key=lambda e: (e["path"], e["line"], e["rule"], e["fingerprint"]))
    document = {"schema": SCHEMA, "findings": entries}
    try:
        path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write baseline {path}: {exc.strerror or exc}") from None
    return len(entries)


class Baseline:
    def __init__(self, path: str | os.PathLike):
        path = Path(path)
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UsageError(f"baseline {path} does not exist (create it with --write-baseline)") from None
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot read baseline {path}: {exc}") from None
        if not isinstance(document, dict) or document.get("schema") != SCHEMA:
            raise UsageError(f"{path} is not a kernelscope baseline (schema {SCHEMA})")
        self.base = path.resolve().parent
        try:
            self.known = {(e["path"], e["fingerprint"]) for e in document["findings"]}
        except (KeyError, TypeError):
            raise UsageError(f"{path}: malformed baseline entries") from None

    def is_known(self, finding) -> bool:
        return (_relative(finding.diagnostic.path, self.base), finding.fingerprint) in self.known

    def new_findings(self, findings) -> list:
        return [f for f in findings if not self.is_known(f)]
