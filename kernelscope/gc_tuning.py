"""Garbage-collector settings for one analysis run over many kernels.

The analyses allocate many small, short-lived objects (expression nodes, per-thread arrays, records)
and few reference cycles, so CPython's default of a young collection every 700 allocations spends
its time re-scanning objects that are still alive. Objects that exist before the run (modules,
compiled queries, profiles) are frozen out of collections altogether.
"""

from __future__ import annotations

import contextlib
import gc

# Young collections every 10,000 allocations instead of 700: collections stay short and rare.
# A middle-generation collection only after 100 of them instead of 10: it re-scans every record
# the run keeps alive and finds next to no garbage (an 800-kernel file makes about 16 young
# collections and a few hundred objects in cycles; its one middle collection cost 86 ms, more
# than all of its young ones together).
THRESHOLDS = (10_000, 100, 10)

# How many tuned_for_analysis blocks are open: `settle` freezes only inside one, so that a library
# caller's own heap is never frozen behind its back.
_open = 0


@contextlib.contextmanager
def tuned_for_analysis():
    """Run the body with the thresholds above and the existing heap frozen; restore both after."""
    global _open
    previous = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    _open += 1
    try:
        yield
    finally:
        _open -= 1
        gc.set_threshold(*previous)
        gc.unfreeze()


def settle() -> None:
    """Called when one kernel is done (parsed, or analysed): inside tuned_for_analysis, freeze what
    it left alive. Those are the file's model and results, kept to the end of the run; a young
    collection would only scan them again and find nothing (an 800-kernel file: 12 young
    collections, 4% of the run, none collecting anything). Freezing is a constant-time list splice
    and restarts the young generation's count, so a collection happens only inside a kernel that
    allocates more than THRESHOLDS[0] objects that outlive it.

    It is safe because the analysis makes no reference cycles (tests/test_gc_tuning.py checks every
    example, test and corpus file): anything frozen that is garbage is freed by reference counting
    as soon as its last user drops it, and only objects in cycles would wait for a full collection
    after the run."""
    if _open:
        gc.freeze()
