"""Turning command-line paths into the CUDA files to analyse."""

from __future__ import annotations

from pathlib import Path

from kernelscope.errors import InputError

CUDA_SUFFIXES = (".cu", ".cuh")


def expand_paths(paths) -> list[Path]:
    """Files are taken as given; directories contribute their .cu/.cuh files, sorted."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*") if p.suffix in CUDA_SUFFIXES and p.is_file())
            if not inside:
                raise InputError(f"{raw}: no CUDA files (.cu, .cuh) in this directory")
            found.extend(inside)
        elif path.exists():
            found.append(path)
        else:
            raise InputError(f"{raw}: no such file or directory")
    return found
