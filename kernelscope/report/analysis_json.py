"""`kernelscope analyze --format json`: the kernelscope.analysis/1 document
(kernelscope/schemas/analysis-1.schema.json), compact (pipe it through
`python -m json.tool` or `jq` to read it; indented output costs more than the analysis itself)."""

from __future__ import annotations

import json
import math


def render(document: dict) -> str:
    try:
        return json.dumps(document, allow_nan=False, separators=(",", ":")) + "\n"
    except ValueError:
        # JSON has no NaN or Infinity: unknown quantities are null
        return json.dumps(_finite(document), separators=(",", ":")) + "\n"


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value
