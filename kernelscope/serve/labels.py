"""Which problem a sample answers: a name from the served corpus, never a path from the client.

A label is text from the network. If it could name a folder, a client could make the service load
a spec.toml of its choosing (and, in full mode, import that spec's reference code). So labels are
looked up among the problems of the corpus the service was started with; only an operator's
`--allow-spec-root DIR` lets labels name spec files, and then only inside DIR.
"""

from __future__ import annotations

from pathlib import Path

from kernelscope.serve.service import RequestError


class LabelPolicy:
    """`resolve(label)` -> the spec.toml path the reward should load (absolute), or None for no label."""

    def __init__(self, corpus_dir: str | Path, allow_spec_root: str | Path | None = None):
        from kernelscope.rl.tasks import load_corpus

        self.corpus_dir = Path(corpus_dir).resolve()
        if not self.corpus_dir.is_dir():
            raise FileNotFoundError(f"the corpus folder {corpus_dir} does not exist")
        self.problems = {name: str((task.directory / "spec.toml").resolve())
                         for name, task in load_corpus(str(self.corpus_dir)).items()}
        self.spec_root = Path(allow_spec_root).resolve() if allow_spec_root else None

    def resolve(self, label):
        if label is None or label == "":
            return None
        if not isinstance(label, str):
            raise RequestError("labels must be problem names (strings) or null")
        if label in self.problems:
            return self.problems[label]
        spec = self._under_spec_root(label)
        if spec is not None:
            return spec
        raise RequestError(f"label {label[:200]!r} is not a problem of the served corpus ({len(self.problems)} "
                           f"problems, e.g. {', '.join(sorted(self.problems)[:3])})")

    def resolve_all(self, labels: list) -> list:
        return [self.resolve(label) for label in labels]

    def _under_spec_root(self, label: str) -> str | None:
        if self.spec_root is None or "\0" in label:
            return None
        candidate = (self.spec_root / label).resolve()   # an absolute label replaces the root here
        if candidate.is_dir():
            candidate = candidate / "spec.toml"
        if candidate.name != "spec.toml" or not candidate.is_file():
            return None
        if not candidate.is_relative_to(self.spec_root):  # `..` and symbolic links resolved above
            return None
        return str(candidate)
