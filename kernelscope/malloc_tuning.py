"""glibc malloc settings for a command process that analyses, reports and ends (cli.QUICK_COMMANDS).

By default glibc gives freed memory back to the system as soon as it can: the top of its heap when
more than 128 KiB of it is free, and every block of 128 KiB or more (numpy arrays, the report's
text, tree-sitter's larger arrays, big lists and dicts), which it maps anew for each request. A
process that builds a file's model, analyses it and writes its report then touches fresh pages over
and over, and the kernel zeroes each one on its first touch (a minor page fault, about 2 us): an
800-kernel file took about 33,000 of them, a tenth of its CPU time. Kept, freed memory is reused
instead: about 25,000 faults for the same file, the same peak memory.

Only for those commands' processes (cli._start_quick_process), never for a library caller's: a
long-running process may well want its memory back. Not where the user set glibc's own variables
for these settings, and a no-op on other C libraries (musl, macOS, Windows).
"""

from __future__ import annotations

import os

# mallopt's parameter numbers (glibc's malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3

# Free memory at the top of the heap is given back only beyond this (the process ends long before).
TRIM_THRESHOLD = 1 << 30
# Blocks from this size up are mapped on their own (and unmapped when freed); smaller ones come from
# the heap, where freed ones are reused. 32 MiB is the largest glibc takes on 64-bit systems.
MMAP_THRESHOLD = 32 << 20

# Environment variables with which a user sets these themselves (glibc reads them at start-up).
USER_SETTINGS = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_")


def keep_freed_memory() -> bool:
    """Have glibc keep freed memory for reuse (see the module's docstring). True where it was set;
    False on another C library, where the user chose their own settings, or where glibc refused.
    Never raises."""
    if not _is_glibc() or _user_chose():
        return False
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
        mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
        mallopt.restype = ctypes.c_int
        # both or neither pays: the trim threshold alone still maps every large block anew (an
        # 800-kernel file: 33,000 faults), the mmap threshold alone has the heap's top given back
        # and taken again (36,700)
        trimmed = mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
        mapped = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
        return bool(trimmed and mapped)
    except (OSError, AttributeError, ImportError):    # no libc symbols, no mallopt, no ctypes
        return False


def _is_glibc() -> bool:
    try:
        return (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")
    except (AttributeError, ValueError, OSError):    # no confstr (Windows), name unknown (musl, macOS)
        return False


def _user_chose() -> bool:
    return (any(name in os.environ for name in USER_SETTINGS)
            or "glibc.malloc." in os.environ.get("GLIBC_TUNABLES", ""))
