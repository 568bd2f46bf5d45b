"""The analysis run's collector settings are restored afterwards, also when the run fails."""

from __future__ import annotations

import gc

import pytest

from kernelscope.gc_tuning import THRESHOLDS, tuned_for_analysis


def test_thresholds_apply_inside_and_are_restored_after():
    before = gc.get_threshold()
    with tuned_for_analysis():
        assert gc.get_threshold() == THRESHOLDS
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_settings_are_restored_when_the_run_raises():
    before = gc.get_threshold()
    with pytest.raises(RuntimeError):
        with tuned_for_analysis():
            raise RuntimeError("analysis failed")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_run_that_keeps_many_records_alive_makes_only_young_collections():
    # 40 young collections' worth of objects that stay alive, as an analysis' records do: the
    # middle generation, which would re-scan all of them, is not collected during the run
    generations = []
    inside = [False]

    def count(phase, info):
        if phase == "start" and inside[0]:
            generations.append(info["generation"])

    gc.collect()
    gc.callbacks.append(count)
    try:
        with tuned_for_analysis():
            inside[0] = True
            kept = [[index] for index in range(40 * THRESHOLDS[0])]
            inside[0] = False
    finally:
        gc.callbacks.remove(count)
    assert len(kept) == 40 * THRESHOLDS[0]
    assert len(generations) >= 30 and set(generations) == {0}
