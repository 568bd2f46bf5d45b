"""The JSON Schemas of the documents kernelscope writes (kernelscope.analysis/1, kernelscope.lint/1,
kernelscope.run/1): the contract with the outside, shipped with the package and checked in the tests.
docs/json-schema.md describes them for readers."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

# schema name written in a document's "schema" key -> file next to this module
FILES = {
    "kernelscope.analysis/1": "analysis-1.schema.json",
    "kernelscope.lint/1": "lint-1.schema.json",
    "kernelscope.run/1": "run-1.schema.json",
}


@lru_cache(maxsize=None)
def load(name: str) -> dict:
    """The JSON Schema (a dict) of the document named `name`, e.g. "kernelscope.analysis/1"."""
    try:
        filename = FILES[name]
    except KeyError:
        raise KeyError(f"no schema for {name!r}; known: {', '.join(FILES)}") from None
    return json.loads((Path(__file__).parent / filename).read_text())
