"""Configuration discovery and precedence: defaults < nearest config file < command line."""

import textwrap

import pytest

from kernelscope.errors import UsageError
from kernelscope.lint.config import Overrides, Settings, SettingsResolver, load_config_file


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def test_without_any_configuration_every_rule_is_enabled_at_its_default_severity(tmp_path):
    settings = SettingsResolver().for_path(tmp_path / "k.cu")
    assert settings.source is None
    assert settings.is_enabled("KS101") and settings.is_enabled("KS903")
    assert settings.severity_for("KS101") == "warning"
    assert settings.fail_on == "error"


def test_pyproject_table_is_found_by_walking_up_from_the_file(tmp_path):
    write(tmp_path / "pyproject.toml", """
        [tool.kernelscope]
        ignore = ["KS4"]
        arch = "sm_80"
    """)
    settings = SettingsResolver().for_path(tmp_path / "src" / "deep" / "k.cu")
    assert settings.source == tmp_path / "pyproject.toml"
    assert not settings.is_enabled("KS402")
    assert settings.arch == "sm_80"


def test_pyproject_without_a_kernelscope_table_is_passed_over(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.kernelscope]\nselect = ["KS2"]\n')
    write(tmp_path / "sub" / "pyproject.toml", '[tool.black]\nline-length = 100\n')
    settings = SettingsResolver().for_path(tmp_path / "sub" / "k.cu")
    assert settings.source == tmp_path / "pyproject.toml"


def test_the_nearest_configuration_wins(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.kernelscope]\nselect = ["KS2"]\n')
    write(tmp_path / "vendor" / "setup.cfg", "[kernelscope]\nselect = KS1\n")
    resolver = SettingsResolver()
    assert resolver.for_path(tmp_path / "vendor" / "k.cu").is_enabled("KS101")
    assert not resolver.for_path(tmp_path / "vendor" / "k.cu").is_enabled("KS201")
    assert resolver.for_path(tmp_path / "k.cu").is_enabled("KS201")


def test_pyproject_wins_over_setup_cfg_in_the_same_directory(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.kernelscope]\nfail-on = "warning"\n')
    write(tmp_path / "setup.cfg", "[kernelscope]\nfail-on = info\n")
    assert SettingsResolver().for_path(tmp_path / "k.cu").fail_on == "warning"


def test_setup_cfg_section_reads_lists_and_tables(tmp_path):
    write(tmp_path / "setup.cfg", """
        [kernelscope]
        select = KS1, KS2
        ignore =
            KS104
        severity =
            KS101: error
        per-file-ignores =
            tests/*.cu: KS2, KS101
        block = 16x16
        define = N=64, USE_FAST
    """)
    settings = load_config_file(tmp_path / "setup.cfg")
    assert settings.select == ("KS1", "KS2")
    assert not settings.is_enabled("KS104")
    assert settings.severity_for("KS101") == "error"
    assert settings.block == (16, 16, 1)
    assert dict(settings.defines) == {"N": "64", "USE_FAST": "1"}
    assert not settings.is_enabled("KS201", tmp_path / "tests" / "a.cu")
    assert settings.is_enabled("KS201", tmp_path / "src" / "a.cu")


def test_command_line_replaces_configured_select_and_fail_on(tmp_path):
    write(tmp_path / "pyproject.toml", """
        [tool.kernelscope]
        select = ["KS2"]
        fail-on = "warning"
        [tool.kernelscope.severity]
        KS201 = "warning"
        KS202 = "info"
    """)
    overrides = Overrides(select=("KS1",), fail_on="info", severity=(("KS201", "info"),))
    settings = SettingsResolver(overrides).for_path(tmp_path / "k.cu")
    assert settings.is_enabled("KS101") and not settings.is_enabled("KS201")
    assert settings.fail_on == "info"
    assert settings.severity_for("KS201") == "info"      # the flag wins for the code it names
    assert settings.severity_for("KS202") == "info"      # the file still decides the others


def test_explicit_config_file_is_used_for_every_path(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.kernelscope]\nselect = ["KS2"]\n')
    other = write(tmp_path / "ci" / "lint.toml", 'select = ["KS3"]\n')
    settings = SettingsResolver(config_file=other).for_path(tmp_path / "k.cu")
    assert settings.is_enabled("KS301") and not settings.is_enabled("KS201")


def test_the_more_specific_prefix_decides_between_select_and_ignore():
    assert Settings(select=("KS203",), ignore=("KS2",)).is_enabled("KS203")
    assert not Settings(select=("KS2",), ignore=("KS20",)).is_enabled("KS203")
    assert not Settings(select=("KS2",), ignore=("KS2",)).is_enabled("KS201")


def test_severity_overrides_use_the_most_specific_prefix():
    settings = Settings(severity=(("KS1", "error"), ("KS101", "info")))
    assert settings.severity_for("KS101") == "info"
    assert settings.severity_for("KS103") == "error"


def test_per_file_ignore_patterns_without_slash_match_file_names_anywhere(tmp_path):
    settings = Settings(root=tmp_path, per_file_ignores=(("*_test.cu", ("KS1",)),))
    assert not settings.is_enabled("KS101", tmp_path / "a" / "b" / "x_test.cu")
    assert settings.is_enabled("KS101", tmp_path / "a" / "x.cu")


@pytest.mark.parametrize("body, message", [
    ('[tool.kernelscope]\nselct = ["KS1"]\n', "unknown key 'selct'"),
    ('[tool.kernelscope]\nselect = ["KS7"]\n', "'KS7' matches no rule"),
    ('[tool.kernelscope]\nfail-on = "fatal"\n', "severity must be one of"),
    ('[tool.kernelscope]\nblock = "0x4"\n', "positive sizes"),
    ('[tool.kernelscope\n', "cannot read"),
])
def test_bad_configuration_is_a_usage_error_naming_the_problem(tmp_path, body, message):
    write(tmp_path / "pyproject.toml", body)
    with pytest.raises(UsageError, match=message):
        SettingsResolver().for_path(tmp_path / "k.cu")


def test_sub_tables_of_other_commands_are_left_alone(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.kernelscope]\nselect = ["KS1"]\n[tool.kernelscope.features]\nx = 1\n')
    assert SettingsResolver().for_path(tmp_path / "k.cu").select == ("KS1",)


def test_command_line_exclude_adds_to_the_configured_exclusions(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.kernelscope]\nextend-exclude = ["vendor"]\n')
    settings = SettingsResolver(Overrides(extend_exclude=("build",))).for_path(tmp_path / "k.cu")
    assert {".*", "vendor", "build"} <= set(settings.exclude)


def test_grid_args_and_show_info_from_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.kernelscope]\ngrid = "64x2"\narg = ["n=4096", "ld=0x10"]\nshow-info = false\n')
    settings = load_config_file(tmp_path / "pyproject.toml")
    assert settings.grid == (64, 2, 1)
    assert dict(settings.bindings) == {"n": 4096, "ld": 16}
    assert settings.show_info is False


def test_show_info_from_setup_cfg_and_the_cli_default(tmp_path):
    from kernelscope.lint.config import CLI_DEFAULTS

    (tmp_path / "setup.cfg").write_text("[kernelscope]\nshow-info = yes\n")
    assert load_config_file(tmp_path / "setup.cfg", CLI_DEFAULTS).show_info is True
    (tmp_path / "setup.cfg").write_text("[kernelscope]\nselect = KS2\n")
    assert load_config_file(tmp_path / "setup.cfg", CLI_DEFAULTS).show_info is False
    assert load_config_file(tmp_path / "setup.cfg").show_info is True    # library callers see everything


@pytest.mark.parametrize("text, message", [
    ('arg = ["n"]', "arg expects NAME=VALUE"),
    ('arg = ["n=many"]', "value must be an integer"),
    ('grid = "0x4"', "grid must have 1 to 3 positive sizes"),
    ('show-info = "sometimes"', "show-info must be true or false"),
])
def test_bad_grid_arg_or_show_info_values_are_usage_errors(tmp_path, text, message):
    (tmp_path / "pyproject.toml").write_text(f"[tool.kernelscope]\n{text}\n")
    with pytest.raises(UsageError, match=message):
        load_config_file(tmp_path / "pyproject.toml")


def test_a_setup_cfg_of_another_tool_is_skipped_and_the_search_goes_on_upwards(tmp_path):
    # the inner setup.cfg is broken INI but has no [kernelscope] header: it is not ours to read
    write(tmp_path / "pyproject.toml", '[tool.kernelscope]\nselect = ["KS1"]\n')
    write(tmp_path / "pkg" / "setup.cfg", "[metadata\nname = pkg\n")
    write(tmp_path / "pkg" / "pyproject.toml", '[build-system]\nrequires = ["setuptools"]\n')
    assert SettingsResolver().for_path(tmp_path / "pkg" / "k.cu").select == ("KS1",)


def test_a_kernelscope_section_in_setup_cfg_is_still_found(tmp_path):
    write(tmp_path / "setup.cfg", "[metadata]\nname = x\n\n[kernelscope]\nselect = KS1\n")
    assert SettingsResolver().for_path(tmp_path / "k.cu").select == ("KS1",)


def test_names_that_are_not_regular_files_are_passed_over_without_reading_them(tmp_path):
    # a directory called pyproject.toml and a named pipe called setup.cfg: opening the pipe to look
    # for a [kernelscope] header would wait for a writer forever
    import os
    import threading

    write(tmp_path / "pyproject.toml", '[tool.kernelscope]\nselect = ["KS1"]\n')
    (tmp_path / "pkg" / "pyproject.toml").mkdir(parents=True)
    os.mkfifo(tmp_path / "pkg" / "setup.cfg")
    found = []
    # in a daemon thread, so that a lookup stuck on the pipe fails the test instead of hanging it
    lookup = threading.Thread(target=lambda: found.append(SettingsResolver().for_path(tmp_path / "pkg" / "k.cu")),
                              daemon=True)
    lookup.start()
    lookup.join(timeout=60)
    assert found, "the configuration lookup blocked on a named pipe"
    assert found[0].select == ("KS1",)


def test_a_path_given_as_text_or_relative_resolves_like_its_absolute_path(tmp_path, monkeypatch):
    write(tmp_path / "setup.cfg", "[kernelscope]\nselect = KS1\n")
    (tmp_path / "src").mkdir()
    monkeypatch.chdir(tmp_path / "src")
    resolver = SettingsResolver()
    by_text = resolver.for_path("k.cu")
    assert by_text.select == ("KS1",)
    assert by_text.source == tmp_path / "setup.cfg"
    assert resolver.for_path(tmp_path / "src") is by_text   # a directory is its own start


def test_a_rewritten_pyproject_of_the_same_size_is_read_again(tmp_path):
    # parsed documents are kept by their bytes: a rewrite within one clock tick of the file system,
    # which a modification time would not tell apart, must still be seen
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.kernelscope]\narch = "sm_80"\n')
    assert load_config_file(config).arch == "sm_80"
    config.write_text('[tool.kernelscope]\narch = "sm_86"\n')
    assert load_config_file(config).arch == "sm_86"
    assert SettingsResolver().for_path(tmp_path / "k.cu").arch == "sm_86"


def test_a_pyproject_that_is_not_utf8_is_a_usage_error(tmp_path):
    (tmp_path / "pyproject.toml").write_bytes(b'[tool.kernelscope]\narch = "sm_90\xff"\n')
    with pytest.raises(UsageError, match="cannot read .*pyproject.toml"):
        SettingsResolver().for_path(tmp_path / "k.cu")
