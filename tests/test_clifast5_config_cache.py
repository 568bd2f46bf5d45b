"""What the configuration lookup keeps for the process (kernelscope/lint/config.py): the verdict of
find_config_in per directory while the stat signatures of its two candidate files stay, Settings()
per working directory, and the settings of unconfigured files. Each is compared with the general
path, across files created, edited and removed between lookups."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from kernelscope.lint import config
from kernelscope.lint.config import Overrides, Settings, SettingsResolver, find_config_in

TABLE = '[tool.kernelscope]\narch = "sm_80"\n'
MENTION = '[project]\ndependencies = ["kernelscope"]\n'


@pytest.fixture
def settled(monkeypatch):
    """Every file counts as settled at once, so that a test sees the remembered verdicts used."""
    monkeypatch.setattr(config, "_SETTLED_NS", 0)


@pytest.fixture
def counted(monkeypatch):
    calls = []
    real = config.find_config_in

    def counting(directory):
        calls.append(directory)
        return real(directory)

    monkeypatch.setattr(config, "find_config_in", counting)
    return calls


def agree(directory: Path) -> Path | None:
    found = config._config_in(str(directory))
    assert found == find_config_in(directory)
    return found


STATES = [
    {},
    {"pyproject.toml": TABLE},
    {"pyproject.toml": MENTION},
    {"pyproject.toml": MENTION + "# padding to change the size\n"},
    {"setup.cfg": "[kernelscope]\narch = sm_80\n"},
    {"setup.cfg": "[metadata]\nname = kernelscope\n"},
    {"pyproject.toml": MENTION, "setup.cfg": "[kernelscope]\narch = sm_80\n"},
    {"pyproject.toml": TABLE, "setup.cfg": "[kernelscope]\narch = sm_80\n"},
    {},
    {"setup.cfg": "[kernelscope]\narch = sm_75\n"},
]


def put(directory: Path, files: dict) -> None:
    for name in ("pyproject.toml", "setup.cfg"):
        path = directory / name
        if name in files:
            path.write_text(files[name])
        elif path.exists():
            path.unlink()


@pytest.mark.parametrize("margin", ["settled", "unsettled"])
def test_verdicts_follow_files_created_edited_and_removed(tmp_path, monkeypatch, margin):
    if margin == "settled":
        monkeypatch.setattr(config, "_SETTLED_NS", 0)
    for files in STATES + STATES[::-1]:
        put(tmp_path, files)
        agree(tmp_path)
        agree(tmp_path)


def test_a_settled_directory_is_read_once(tmp_path, settled, counted):
    put(tmp_path, {"pyproject.toml": MENTION, "setup.cfg": "[metadata]\nname = x\n"})
    assert agree(tmp_path) is None and agree(tmp_path) is None
    assert counted.count(str(tmp_path)) == 1


def test_a_directory_without_either_file_is_not_read(tmp_path, counted):
    assert config._config_in(str(tmp_path)) is None
    assert counted == []


def test_a_fresh_file_is_read_every_time(tmp_path, counted):
    # written just now: a same-size rewrite within the clock tick would keep its signature
    put(tmp_path, {"pyproject.toml": TABLE})
    assert agree(tmp_path) == tmp_path / "pyproject.toml"
    (tmp_path / "pyproject.toml").write_text(TABLE.replace("kernelscope", "kernelscape"))
    assert agree(tmp_path) is None
    assert counted.count(str(tmp_path)) == 2


def test_a_same_size_rewrite_with_old_times_is_still_seen(tmp_path, settled):
    # the change time moves on any write, even one that sets the modification time back
    path = tmp_path / "pyproject.toml"
    path.write_text(TABLE)
    os.utime(path, ns=(10**18, 10**18))
    assert agree(tmp_path) == path
    before = os.stat(path)
    path.write_text(TABLE.replace("kernelscope", "kernelscape"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    if os.stat(path).st_ctime_ns == before.st_ctime_ns:
        pytest.skip("the file system's clock did not move between the two writes")
    assert agree(tmp_path) is None


def test_a_directory_named_like_the_file(tmp_path, settled):
    (tmp_path / "pyproject.toml").mkdir()
    assert agree(tmp_path) is None
    (tmp_path / "pyproject.toml").rmdir()
    put(tmp_path, {"pyproject.toml": TABLE})
    assert agree(tmp_path) == tmp_path / "pyproject.toml"


def general_apply(overrides: Overrides, settings: Settings) -> Settings:
    changes = {f.name: getattr(overrides, f.name) for f in dataclasses.fields(overrides)
               if getattr(overrides, f.name) is not None and f.name not in ("severity", "extend_exclude")}
    if overrides.severity:
        changes["severity"] = settings.severity + tuple(overrides.severity)
    if overrides.extend_exclude:
        changes["exclude"] = settings.exclude + tuple(overrides.extend_exclude)
    return dataclasses.replace(settings, **changes)


OVERRIDES = [Overrides(), Overrides(arch="sm_75"), Overrides(severity=(("KS1", "info"),)),
             Overrides(extend_exclude=("build",)), Overrides(select=("KS2",), fail_on="warning")]


@pytest.mark.parametrize("overrides", OVERRIDES, ids=repr)
def test_overrides_apply_as_dataclasses_replace(overrides):
    for settings in (Settings(), Settings(arch="sm_80", exclude=("x",), severity=(("KS2", "error"),))):
        assert overrides.apply(settings) == general_apply(overrides, settings)


@pytest.mark.parametrize("overrides", OVERRIDES, ids=repr)
def test_unconfigured_settings_follow_the_working_directory(tmp_path, monkeypatch, settled, overrides):
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    source = tmp_path / "one" / "k.cu"
    for cwd in ("one", "two", "one"):
        monkeypatch.chdir(tmp_path / cwd)
        for _ in range(2):
            settings = SettingsResolver(overrides).for_path(source)
            if find_config_in(tmp_path) is None and not any(
                    find_config_in(p) for p in source.parents):
                expected = general_apply(overrides, dataclasses.replace(Settings(), root=Path.cwd()))
                assert settings == expected
                assert settings.root == tmp_path / cwd
    # and a configuration file made later governs the next resolver's lookup
    put(tmp_path, {"pyproject.toml": TABLE})
    settings = SettingsResolver(overrides).for_path(source)
    assert settings.source == tmp_path / "pyproject.toml"
    assert settings == general_apply(overrides, config.load_config_file(tmp_path / "pyproject.toml", Settings()))


def test_default_settings_per_working_directory(tmp_path, monkeypatch):
    for cwd in (tmp_path, tmp_path.parent, tmp_path):
        monkeypatch.chdir(cwd)
        assert SettingsResolver().defaults == Settings()
        assert SettingsResolver().defaults.root == cwd
