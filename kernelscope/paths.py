"""Where the data that ships with the package lives.

`grammars/`, `profiles/` and `corpus/` sit at the top of the source tree and are installed as the
packages `kernelscope.grammars`, `kernelscope.profiles` and `kernelscope.corpus` (see `package_dir` in
setup.cfg). When the project
runs from a checkout on PYTHONPATH (as on the GPU machine) those packages do not exist, so fall back
to the directories next to the `kernelscope/` folder.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=None)
def data_dir(name: str) -> Path:
    """Directory of the shipped data folder `name` ("grammars", "profiles" or "corpus")."""
    spec = importlib.util.find_spec(f"kernelscope.{name}")
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            path = Path(location)
            if path.is_dir():
                return path
    return Path(__file__).resolve().parent.parent / name


def grammar_file(name: str) -> Path:
    return data_dir("grammars") / name


def profile_file(name: str) -> Path:
    return data_dir("profiles") / name
