"""The click-free half of `kernelscope run --batch`: formats, streaming, exit status; device choice."""

from __future__ import annotations

import csv
import io
import json

import pytest
from test_batch_local import VECTOR_ADD, FakeEvaluator

from kernelscope.batch import api, command
from kernelscope.batch.devices import choose_devices
from kernelscope.errors import ToolMissingError, UsageError

GOOD = "good"


@pytest.fixture
def batch_file(tmp_path):
    """Three candidates of the example problem: good, bad (slow, so it finishes last), does not compile."""
    path = tmp_path / "batch.jsonl"
    lines = [{"spec": str(VECTOR_ADD), "source": "bad sleep=0.3", "id": "slow-bad"},
             {"spec": str(VECTOR_ADD), "source": "good", "id": "fast-good"},
             {"spec": str(VECTOR_ADD), "source": "nocompile", "id": "broken"}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.fixture
def fake_gpus(monkeypatch):
    """Run the command's batch with the fake evaluator on two pretend GPUs."""
    real = api.iter_batch

    def on_fakes(items, options=None, **kwargs):
        kwargs.update(evaluator=FakeEvaluator(), devices=[0, 1])
        kwargs.pop("workers", None)
        return real(items, options, **kwargs)

    monkeypatch.setattr(command, "iter_batch", on_fakes)


def test_json_lines_arrive_in_finishing_order_with_batch_positions(fake_gpus, batch_file, capsys):
    status = command.run_batch_command(batch_file, fmt="json")
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1                                   # one candidate is wrong
    assert records[-1]["candidate"] == "slow-bad" and records[-1]["index"] == 0
    assert sorted(r["index"] for r in records) == [0, 1, 2]
    by_id = {r["candidate"]: r for r in records}
    assert by_id["fast-good"]["correct"] and by_id["fast-good"]["slot"] in (0, 1)
    assert by_id["broken"]["flags"] == ["compile_error"] and by_id["broken"]["slot"] is None
    assert all(r["schema"] == "kernelscope.run/1" for r in records)


def test_csv_is_written_in_batch_order_to_the_output_file(fake_gpus, batch_file, tmp_path):
    out = tmp_path / "results.csv"
    command.run_batch_command(batch_file, fmt="csv", output=str(out))
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [row["candidate"] for row in rows] == ["slow-bad", "fast-good", "broken"]


def test_text_lines_name_the_candidate_and_verdict(fake_gpus, batch_file, capsys):
    command.run_batch_command(batch_file, fmt="text")
    text = capsys.readouterr().out
    assert "[1] vector_add/fast-good: correct" in text
    assert "[0] vector_add/slow-bad: INCORRECT" in text and "flags: mismatch" in text


def test_exit_status_is_0_when_every_candidate_is_correct(fake_gpus, tmp_path, capsys):
    path = tmp_path / "good.jsonl"
    path.write_text(json.dumps({"spec": str(VECTOR_ADD), "source": GOOD}) + "\n")
    assert command.run_batch_command(path) == 0


def test_workers_are_one_per_visible_gpu():
    assert choose_devices(None, available=3) == [0, 1, 2]
    assert choose_devices(2, available=3) == [0, 1]
    with pytest.raises(UsageError, match="shows 2 GPU"):
        choose_devices(3, available=2)
    with pytest.raises(ToolMissingError, match="no CUDA GPU"):
        choose_devices(None, available=0)


def test_the_ray_backend_without_ray_installed_says_how_to_get_it(monkeypatch, batch_file):
    import builtins

    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(ToolMissingError, match=r"kernelscope\[ray\]"):
        list(api.iter_batch(batch_file, backend="ray", evaluator=FakeEvaluator()))


def test_address_without_the_ray_backend_is_a_usage_error(batch_file):
    with pytest.raises(UsageError, match="--address"):
        api.iter_batch(batch_file, backend="local", address="ray://head:10001", evaluator=FakeEvaluator())
