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
