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


@contextlib.contextmanager
def tuned_for_analysis():
    """Run the body with the thresholds above and the existing heap frozen; restore both after."""
    previous = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)
        gc.unfreeze()
