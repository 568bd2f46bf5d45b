"""Result records, their JSON and CSV, and timing statistics (CPU only)."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest

from kernelscope.runner.results import RunResult, SizeVerdict, results_to_csv
from kernelscope.runner.timing import dram_floor_ms, summarize


def verdict(size, correct=True, time_ms=1.0, reference=2.0, flags=()):
    return SizeVerdict(size=size, correct=correct, trials=3, time_ms=time_ms, time_spread=0.01,
                       reference_time_ms=reference, speedup=reference / time_ms if time_ms else None,
                       flags=list(flags))


def test_summary_comes_from_the_last_size_and_speedup_is_a_geometric_mean():
    result = RunResult(problem="p", kernel="k", compiled=True,
                       sizes=[verdict("small", time_ms=1.0, reference=4.0), verdict("large", time_ms=2.0,
                                                                                    reference=2.0)]).finish()
    assert result.correct
    assert result.time_ms == 2.0 and result.reference_time_ms == 2.0
    assert result.speedup == pytest.approx(math.sqrt(4.0 * 1.0))


def test_a_failing_size_makes_the_candidate_incorrect_and_lifts_its_flags():
    result = RunResult(problem="p", kernel="k", compiled=True,
                       sizes=[verdict("small"), verdict("large", correct=False, time_ms=None,
                                                        flags=["unwritten_output"])]).finish()
    assert not result.correct and result.flags == ["unwritten_output"]


def test_warning_flags_do_not_fail_a_candidate():
    result = RunResult(problem="p", kernel="k", compiled=True,
                       sizes=[verdict("small", flags=["implausible_speedup"])]).finish()
    assert result.correct and "implausible_speedup" in result.flags


def test_uncompiled_candidate_is_incorrect():
    result = RunResult(problem="p", kernel="k", flags=["compile_error"], error="boom").finish()
    assert not result.correct and result.speedup is None


def test_json_is_strict_even_with_infinite_errors():
    size = verdict("small", correct=False, flags=["mismatch"])
    size.max_abs_error = float("inf")
    size.max_rel_error = float("nan")
    document = RunResult(problem="p", kernel="k", compiled=True, sizes=[size]).finish().to_json()
    text = json.dumps(document, allow_nan=False)
    assert json.loads(text)["sizes"][0]["max_abs_error"] == "inf"
    assert document["schema"] == "kernelscope.run/1"


def test_csv_has_one_row_per_size_and_candidate():
    results = [RunResult(problem="p", kernel="k", candidate=name, compiled=True,
                         sizes=[verdict("small"), verdict("large")]).finish() for name in ("a.cu", "b.cu")]
    rows = list(csv.DictReader(io.StringIO(results_to_csv(results))))
    assert [(r["candidate"], r["size"]) for r in rows] == [("a.cu", "small"), ("a.cu", "large"),
                                                         ("b.cu", "small"), ("b.cu", "large")]
    assert rows[0]["correct"] == "True"


def test_summarize_reports_median_spread_and_quartiles():
    stats = summarize([1.0, 2.0, 3.0, 4.0, 100.0])
    assert stats.median_ms == 3.0 and stats.min_ms == 1.0 and stats.max_ms == 100.0
    assert stats.repeats == 5 and stats.cv > 1.0        # the outlier dominates the mean, not the median
    assert summarize([2.0] * 30).cv == 0.0


def test_summarize_refuses_no_samples():
    with pytest.raises(ValueError):
        summarize([])


def test_dram_floor_is_bytes_over_peak_bandwidth():
    # vector_add at n = 2^25 moves 3 x 128 MiB; at 4.9 TB/s that takes at least ~82 us
    floor = dram_floor_ms(3 * 4 * 2**25, 4.9e12)
    assert floor == pytest.approx(3 * 4 * 2**25 / 4.9e12 * 1e3)
    assert 0.08 < floor < 0.085
    assert dram_floor_ms(1024, None) is None
