"""`kernelscope run` and `kernelscope profile`: thin wrappers over kernelscope.runner."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kernelscope.commands._common import echo, exits_2_on_error
from kernelscope.errors import UsageError
from kernelscope.runner.source_policy import OPT_INS


def _candidates(spec, items):
    """(label, source, kernel, launch, path) for each --candidate, or the spec's implementations."""
    if items:
        found = []
        for item in items:
            path, kernel = _split_candidate(item)
            found.append((item, _read(path), kernel, None, str(path)))
        return found
    if not spec.implementations:
        raise UsageError(f"{spec.name} lists no [[implementations]]; pass --candidate FILE[:KERNEL]")
    return [(impl.file if not impl.kernel else f"{impl.file}:{impl.kernel}", _read(spec.resolve(impl.file)),
             impl.kernel, None, str(spec.resolve(impl.file))) for impl in spec.implementations]


def _split_candidate(item: str):
    path, sep, kernel = item.rpartition(":")
    if sep and kernel.isidentifier() and path:
        return Path(path), kernel
    return Path(item), None


def _read(path: Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read candidate {path}: {exc}") from None


def _common_options(function):
    for option in reversed([
        click.argument("spec_path", metavar="SPEC", required=False, type=click.Path(exists=True, dir_okay=True)),
        click.option("--candidate", "-c", "candidates", multiple=True, metavar="FILE[:KERNEL]",
                     help="Candidate source (repeatable); default: the spec's [[implementations]]."),
        click.option("--size", "sizes", multiple=True, metavar="NAME", help="Only these size configurations."),
        click.option("--compiler", type=click.Choice(["nvrtc", "nvcc"]), default="nvrtc", show_default=True,
                     help="NVRTC through CuPy, or nvcc."),
        click.option("--arch", default=None, metavar="sm_XY", help="Target architecture (default: the GPU's)."),
        click.option("--allow", multiple=True, type=click.Choice(OPT_INS),
                     help="Opt into an escape (dynamic parallelism, device malloc, clocks)."),
        click.option("--output", "-o", type=click.Path(dir_okay=False), help="Write the report here."),
    ]):
        function = option(function)
    return function


@click.command("run")
@_common_options
@click.option("--trials", type=click.IntRange(3, None), default=3, show_default=True,
              help="Fresh random input sets per size.")
@click.option("--repeats", type=click.IntRange(1, None), default=30, show_default=True,
              help="Timed launches per size; the median and spread are reported.")
@click.option("--warmup", type=click.IntRange(0, None), default=3, show_default=True,
              help="Untimed launches before timing (JIT, caches, clocks).")
@click.option("--timeout", "timeout_s", type=float, default=60.0, show_default=True,
              help="Seconds a candidate may run before its worker is killed.")
@click.option("--seed", type=int, default=None, help="Seed for the input sets (default: fresh each run).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True,
              help="text for reading, json or csv for scripts.")
@click.option("--batch", "batch_path", type=click.Path(exists=True, dir_okay=True), default=None,
              help="Evaluate a batch: a .jsonl file of candidates or a folder of problems (docs/batch.md).")
@click.option("--workers", type=click.IntRange(1, None), default=None,
              help="--batch: GPUs to use, one worker each (default: every visible GPU or every GPU of the cluster).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="--batch: this machine's GPUs, or a Ray cluster (pip install 'kernelscope[ray]').")
@click.option("--address", default=None, metavar="ADDR",
              help="--batch --backend ray: the cluster to join (auto, ray://head:10001; default: start a local one).")
@exits_2_on_error
def run(spec_path, candidates, sizes, compiler, arch, allow, output, trials, repeats, warmup, timeout_s, seed, fmt,
        batch_path, workers, backend, address):
    """Compile, verify and time candidates of the problem SPEC on the GPU, or a whole --batch
    spread over the GPUs.

    Exit status: 0 when every candidate is correct, 1 when one is not, 2 on bad input or no GPU.
    """
    if batch_path is not None:
        from kernelscope.batch.command import run_batch_command

        if spec_path is not None or candidates:
            raise UsageError("--batch takes its candidates from the batch; leave out SPEC and --candidate")
        raise SystemExit(run_batch_command(
            batch_path, workers=workers, backend=backend, address=address, sizes=sizes, trials=trials,
            repeats=repeats, warmup=warmup, timeout_s=timeout_s, compiler=compiler, arch=arch, allow=allow,
            seed=seed, fmt=fmt, output=output))
    if spec_path is None:
        raise UsageError("run needs a SPEC (or --batch)")
    from kernelscope.runner import load_spec
    from kernelscope.runner.device import require_gpu
    from kernelscope.runner.evaluation import evaluate
    from kernelscope.runner.results import results_to_csv

    spec = load_spec(spec_path)
    _check_sizes(spec, sizes)
    chosen = _candidates(spec, candidates)
    require_gpu()
    results = [evaluate(spec, source, kernel, sizes=list(sizes) or None, trials=trials, repeats=repeats,
                        warmup=warmup, timeout_s=timeout_s, backend=compiler, arch=arch, launch=launch,
                        allow=allow, seed=seed, candidate=label)
               for label, source, kernel, launch, _path in chosen]
    if fmt == "json":
        text = json.dumps({"schema": "kernelscope.run/1", "problem": spec.name,
                           "results": [r.to_json() for r in results]}, indent=2) + "\n"
    elif fmt == "csv":
        text = results_to_csv(results)
    else:
        text = "".join(_text_line(r) for r in results)
    _emit(text, output)
    raise SystemExit(0 if all(r.correct for r in results) else 1)


@click.command("profile")
@_common_options
@click.option("--ncu", default="ncu", show_default=True, help="The Nsight Compute command line tool.")
@click.option("--raw-csv", type=click.Path(dir_okay=False), help="Also keep ncu's raw CSV here.")
@click.option("--no-static", is_flag=True, help="Skip the static analysis join.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True,
              help="text for reading, json or csv for scripts.")
@exits_2_on_error
def profile(spec_path, candidates, sizes, compiler, arch, allow, output, ncu, raw_csv, no_static, fmt):
    """Profile the launches of SPEC's candidates with Nsight Compute (one ncu process for all),
    with the static analysis's predictions next to the measured counters."""
    if spec_path is None:
        raise UsageError("profile needs a SPEC")
    from kernelscope.runner import load_spec
    from kernelscope.runner.device import require_gpu
    from kernelscope.runner.profile import Candidate, profile as run_profile

    spec = load_spec(spec_path)
    _check_sizes(spec, sizes)
    chosen = [Candidate(label=label, source=source, kernel=kernel, launch=launch, path=path)
              for label, source, kernel, launch, path in _candidates(spec, candidates)]
    require_gpu()
    result = run_profile(spec, chosen, sizes=list(sizes) or None, arch=arch, backend=compiler, allow=allow,
                         ncu=ncu, analyze=not no_static)
    if raw_csv:
        Path(raw_csv).write_text(result.csv_text)
    frame = result.frame
    if fmt == "csv":
        text = frame.to_csv(index=False)
    elif fmt == "json":
        text = frame.to_json(orient="records", indent=2) + "\n"
    else:
        columns = [c for c in ("candidate", "size", "measured_time_ns", "measured_registers", "predicted_registers",
                               "measured_ld_sectors_per_request", "predicted_ld_sectors_per_request",
                               "measured_theoretical_occupancy", "predicted_theoretical_occupancy",
                               "measured_dram_bytes", "predicted_dram_bytes") if c in frame]
        text = frame[columns].to_string(index=False) + "\n"
    _emit(text, output)


def _check_sizes(spec, sizes) -> None:
    unknown = [s for s in sizes if s not in spec.sizes]
    if unknown:
        raise UsageError(f"unknown size(s) {', '.join(unknown)}; {spec.name} has {', '.join(spec.sizes)}")


def _text_line(result) -> str:
    verdict = "correct" if result.correct else "INCORRECT"
    parts = [f"{result.candidate or result.kernel}: {verdict}"]
    for size in result.sizes:
        if size.time_ms is not None:
            speed = f", {size.speedup:.2f}x" if size.speedup else ""
            parts.append(f"{size.size} {size.time_ms * 1e3:.1f} us ±{100 * (size.time_spread or 0):.1f}%{speed}")
        elif not size.correct and size.first_mismatch:
            parts.append(f"{size.size} first mismatch {size.first_mismatch}")
    if result.flags:
        parts.append("flags: " + ",".join(result.flags))
    if result.error:
        parts.append(result.error.splitlines()[0])
    return "; ".join(parts) + "\n"


def _emit(text: str, output) -> None:
    if output:
        Path(output).write_text(text)
    else:
        echo(text, nl=False)
