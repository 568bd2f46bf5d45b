"""Which barrier intervals of a batch of loop iterations have a word that two threads touch, for the
sync executor's batched loops.

Every race check at a barrier starts by asking, per array, whether two different threads touch one
word in the interval the barrier closes; in most intervals of a reduction or a sorting network none
do (each thread keeps to its own slots, or only one side of each pair acts), and the check stops
there. When a loop of loads, stores and barriers runs as one batch, its intervals are made of the
same accesses in every iteration, so that first question is answered here for all of them at once,
one table of (interval, word, thread) rows instead of one small table per interval. The answer
only lets the executor skip checks that would have found nothing; an interval where two threads do
meet is checked as it always was.
"""

from __future__ import annotations

import numpy as np

# a dense scratch table of (interval, word) slots is used while it is at most this long (or four
# slots per row); wider spreads of words are sorted instead
DENSE_SLOTS = 1 << 18


def interval_numbers(barrier_runs: list, access_columns: list, trips: int) -> tuple:
    """(interval of each access execution, intervals closed) for a batch that executes, in each of
    `trips` iterations, its body's entries in order. `barrier_runs[c]` (per trip: whether the barrier
    in body column c runs, or None for an access) and `access_columns` (the body columns of the
    accesses) describe the body. An access execution belongs to the interval that the next barrier
    run closes, numbered from 0 in execution order; -1 when no barrier of the batch closes it."""
    columns = len(barrier_runs)
    runs = np.zeros((trips, columns), dtype=np.int64)
    for column, ran in enumerate(barrier_runs):
        if ran is not None:
            runs[:, column] = ran
    # barriers run before each entry, in execution order (row after row)
    before = (np.cumsum(runs.reshape(-1)) - runs.reshape(-1)).reshape(trips, columns)
    closed = int(runs.sum())
    numbers = []
    for column in access_columns:
        number = before[:, column].copy()
        number[number >= closed] = -1
        numbers.append(number)
    return numbers, closed


def intervals_sharing_a_word(intervals: np.ndarray, words: np.ndarray, threads: np.ndarray, count: int) -> np.ndarray:
    """Per interval 0 .. count - 1, whether two different threads touch one word among the rows of
    that interval (rows: one (interval, word, thread) touch each)."""
    shared = np.zeros(count, dtype=bool)
    if words.size < 2:
        return shared
    low = int(np.minimum.reduce(words))     # (the ufunc's method: ndarray.min adds a Python wrapper)
    span = int(np.maximum.reduce(words)) - low + 1
    if span * count <= max(DENSE_SLOTS, 4 * words.size):
        slots = intervals * span + (words - low)
        # each slot remembers one thread that touched it (whichever was written last); a touch by
        # any other thread then differs from it
        owner = np.empty(span * count, dtype=threads.dtype)
        owner[slots] = threads
        shared[intervals[owner[slots] != threads]] = True
        return shared
    order = np.lexsort((words, intervals))
    intervals, words, threads = intervals[order], words[order], threads[order]
    # within a run of equal (interval, word), two different threads are adjacent somewhere
    meet = (intervals[1:] == intervals[:-1]) & (words[1:] == words[:-1]) & (threads[1:] != threads[:-1])
    shared[intervals[1:][meet]] = True
    return shared
