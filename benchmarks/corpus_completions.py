"""The corpus's own implementations as model completions, for `kernelscope eval` (CPU).

    python3 benchmarks/corpus_completions.py -o corpus_completions.jsonl

Each implementation becomes one completion: its source, as it is, in a ```cuda block. Corpus
implementations keep their launch in their file (a `/* kernelscope:plan */` comment) as completions
do, so nothing needs adding.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from kernelscope.runner import load_spec

ROOT = Path(__file__).resolve().parents[1]


def completions(corpus: Path):
    for spec_file in sorted(corpus.glob("*/spec.toml")):
        spec = load_spec(spec_file)
        for implementation in spec.implementations:
            source = spec.resolve(implementation.file).read_text()
            yield {"problem": spec.name, "id": f"{spec.name}/{implementation.file}",
                   "completion": f"```cuda\n{source.rstrip()}\n```\n"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args()
    records = list(completions(args.corpus))
    args.output.write_text("".join(json.dumps(r) + "\n" for r in records))
    print(f"{len(records)} completions -> {args.output}")


if __name__ == "__main__":
    main()
