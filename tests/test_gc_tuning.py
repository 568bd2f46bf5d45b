"""The analysis run's collector settings are restored afterwards, also when the run fails; what each
kernel leaves alive is frozen, which the analysis' lack of reference cycles makes safe."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

from kernelscope.analyze import analyze_source
from kernelscope.gc_tuning import THRESHOLDS, settle, tuned_for_analysis
from project_sources import PROJECT_CUDA_FILES

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_analyze  # noqa: E402


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


def test_settle_freezes_only_inside_a_tuned_run():
    gc.collect()
    settle()
    assert gc.get_freeze_count() == 0       # a library caller's heap is left alone
    with tuned_for_analysis():
        frozen = gc.get_freeze_count()
        made_after = [[index] for index in range(1000)]
        settle()
        assert gc.get_freeze_count() >= frozen + len(made_after)
    assert gc.get_freeze_count() == 0


def test_the_analysis_makes_no_reference_cycles_on_any_project_file():
    # settle() freezes what a kernel leaves alive; garbage among it is freed at once only when it
    # is in no reference cycle (a host walker that held a function holding it kept whole files'
    # tables alive until a full collection)
    gc.collect()
    with_cycles = []
    gc.disable()
    try:
        for path in PROJECT_CUDA_FILES:
            analyze_source(path.read_text(), str(path), registers="estimate")
            if gc.collect():
                with_cycles.append(path.name)
    finally:
        gc.enable()
    assert len(PROJECT_CUDA_FILES) > 300
    assert with_cycles == []


def test_a_tuned_run_over_many_kernels_makes_no_collection():
    # the records a run keeps are frozen kernel by kernel, never scanned by a young collection
    # (without settle: about one collection per 70 of these kernels)
    text = bench_analyze.realistic_source(400)[0]
    collections = []

    def count(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    gc.collect()
    with tuned_for_analysis():
        # counted inside the tuned run only: leaving it restores the default threshold of 700, and
        # what the file's last steps allocate after the last kernel settled may then start one
        # young collection of those few objects, which is not the run's
        gc.callbacks.append(count)
        try:
            result = analyze_source(text, "many.cu", registers="estimate")
        finally:
            gc.callbacks.remove(count)
    assert len(result.kernels) >= 400
    assert collections == []
