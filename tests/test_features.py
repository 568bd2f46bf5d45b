"""The feature table: schema, determinism, per-file errors, and values that follow the analyses."""

from pathlib import Path

import math

from click.testing import CliRunner

from kernelscope.cli import cli
from kernelscope.features import FEATURE_NAMES, SCHEMA_VERSION, extract, extract_source, schema_markdown

ROOT = Path(__file__).resolve().parents[1]

COALESCED = """
__global__ void copy(const float* __restrict__ a, float* __restrict__ b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i];
}"""

TRANSPOSE = """
__global__ void naive(const float* a, float* b, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  b[x * n + y] = a[y * n + x];
}"""


def test_docs_features_md_is_generated_from_the_code():
    assert (ROOT / "docs" / "features.md").read_text() == schema_markdown()


def test_table_has_at_least_thirty_numeric_features_and_a_version():
    table = extract_source(COALESCED, registers="estimate")
    assert len(FEATURE_NAMES) >= 30
    assert list(table["schema_version"]) == [SCHEMA_VERSION]
    assert all(table[name].dtype.kind == "f" for name in FEATURE_NAMES)


def test_features_follow_the_analysis():
    good = extract_source(COALESCED, registers="estimate").iloc[0]
    bad = extract_source(TRANSPOSE, registers="estimate", bindings={"n": 4096}).iloc[0]
    assert good["share_coalesced"] == 1 and good["sector_efficiency"] == 1
    assert good["share_restrict_pointers"] == 1 and bad["share_restrict_pointers"] == 0
    assert bad["sectors_per_request_max"] == 32 and bad["sector_efficiency"] < 0.6
    assert good["flops_per_thread"] == 0 and good["global_bytes_per_thread"] == 8


def test_unreadable_files_become_error_rows_not_failures(tmp_path):
    (tmp_path / "ok.cu").write_text(COALESCED)
    (tmp_path / "binary.cu").write_bytes(b"\x00\x01\x02" * 100)
    table = extract([tmp_path], registers="estimate")
    errors = table[table["error"].notna()]
    assert list(errors["file"].map(lambda p: Path(p).name)) == ["binary.cu"]
    assert "binary" in errors["error"].iloc[0]
    assert math.isnan(errors["registers"].iloc[0])
    assert table[table["error"].isna()]["kernel"].tolist() == ["copy"]


def test_output_is_byte_identical_across_runs_and_worker_counts(tmp_path):
    runner = CliRunner()
    outputs = []
    for jobs in ("1", "2", "1"):
        out = tmp_path / f"f{len(outputs)}.csv"
        result = runner.invoke(cli, ["features", str(ROOT / "examples"), "-o", str(out), "--registers",
                                     "estimate", "-j", jobs])
        assert result.exit_code == 0, result.output
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]


def test_jsonl_output_and_unknown_suffix(tmp_path):
    runner = CliRunner()
    out = tmp_path / "f.jsonl"
    result = runner.invoke(cli, ["features", str(ROOT / "examples" / "saxpy.cu"), "-o", str(out),
                                 "--registers", "estimate"])
    assert result.exit_code == 0
    assert out.read_text().count("\n") >= 1 and SCHEMA_VERSION in out.read_text()
    bad = runner.invoke(cli, ["features", str(ROOT / "examples" / "saxpy.cu"), "-o", str(tmp_path / "f.xlsx")])
    assert bad.exit_code == 2
