"""The RL adapters from an installed wheel, outside the checkout, with no KERNELSCOPE_* variable:
the corpus ships inside the package, pass and fail samples give equal key sets, an unknown problem
raises, renamed parameters score like the original, and a 1 MB degenerate completion is cheap."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
import kernelscope
from kernelscope.rl import adapters
from kernelscope.rl.adapters import RewardSetupError, compute_score, reward_func

kernel = ('```cuda\nextern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {\n'
          '    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) c[i] = a[i] + b[i];\n}\n```')
renamed = (kernel.replace("const float* a, const float* b, float* c", "const float* x, const float* y, float* z")
           .replace("c[i] = a[i] + b[i]", "z[i] = x[i] + y[i]"))
report = {"package": kernelscope.__file__, "corpus": str(adapters.TaskResolver().corpus_dir)}
passed = compute_score("kernelscope", kernel, "vector_add")
failed = compute_score("kernelscope", "no code, sorry", "vector_add")
report["pass"], report["fail"] = passed, failed
report["renamed"] = compute_score("kernelscope", renamed, "vector_add")["score"]
try:
    compute_score("kernelscope", kernel, "no_such_problem")
    report["unknown"] = "scored"
except RewardSetupError as exc:
    report["unknown"] = str(exc)
logs = [reward_func([text], [""], ["vector_add"])["extra_logs"] for text in (kernel, "no code")]
report["openrlhf_keys_equal"] = sorted(logs[0]) == sorted(logs[1])
report["degenerate_cpu_s"] = {}
for name, unit in (("__global__", "__global__ "), ("blank_lines", "\n")):
    text = unit * ((1 << 20) // len(unit))
    started = time.process_time()
    outcome = compute_score("kernelscope", text, "vector_add")["outcome"]
    report["degenerate_cpu_s"][name] = [time.process_time() - started, outcome]
print(json.dumps(report))
'''


BUILD = "import sys\nfrom setuptools import build_meta\nprint(build_meta.build_wheel(sys.argv[1]))"
NOT_SOURCE = shutil.ignore_patterns(".git", ".ci-venv", ".venv", "build", "dist", "*.egg-info", "__pycache__",
                                    ".gpu-*", ".whl", ".pytest_cache", ".kernelscope-cache")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The wheel built from a copy of this checkout (setuptools' PEP 517 hook, as pip calls it, without
    pip's isolated build environment, which costs a download), unpacked into a folder of its own as
    pip installs a pure-Python wheel."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    build = subprocess.run([sys.executable, "-c", BUILD, str(work)], cwd=source, capture_output=True, text=True)
    if build.returncode != 0:  # setuptools older than 70.1 needs the `wheel` package to build one
        pytest.skip(f"cannot build the wheel here: {build.stderr.strip().splitlines()[-1:]}")
    wheel = next(work.glob("kernelscope-*.whl"))
    site = work / "site"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(site)
    return site, names


def test_the_wheel_ships_the_corpus(installed):
    _, names = installed
    assert "kernelscope/corpus/vector_add/spec.toml" in names
    assert sum(name.endswith("/spec.toml") for name in names if name.startswith("kernelscope/corpus/")) >= 40


@pytest.mark.slow
def test_adapters_from_the_installed_wheel_outside_the_checkout(installed, tmp_path):
    pytest.importorskip("tree_sitter_cuda")
    site, _ = installed
    environment = {k: v for k, v in os.environ.items() if not k.startswith("KERNELSCOPE_") and k != "PYTHONPATH"}
    probe = subprocess.run([sys.executable, "-c", PROBE, str(site)], cwd=tmp_path, env=environment,
                           capture_output=True, text=True, timeout=600)
    assert probe.returncode == 0, probe.stderr[-3000:]
    report = json.loads(probe.stdout.strip().splitlines()[-1])
    assert report["package"].startswith(str(site)) and report["corpus"].startswith(str(site))
    assert report["pass"]["outcome"] == "ok" and report["fail"]["outcome"] == "no_code"
    assert list(report["pass"]) == list(report["fail"])
    assert report["renamed"] == pytest.approx(report["pass"]["score"])
    assert "unknown problem 'no_such_problem'" in report["unknown"]
    assert report["openrlhf_keys_equal"]
    for name, (seconds, outcome) in report["degenerate_cpu_s"].items():
        assert outcome == "no_code" and seconds < 1.0, (name, seconds)
