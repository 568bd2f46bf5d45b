"""Everything under kernelscope/ that is a package is listed in setup.cfg (a non-editable install
would silently lose it otherwise), and the shipped data is found."""

import configparser
from pathlib import Path

from kernelscope.paths import grammar_file, profile_file

ROOT = Path(__file__).resolve().parents[1]


def test_every_python_package_is_declared_in_setup_cfg():
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    declared = set(config["options"]["packages"].split())
    found = {".".join(path.parent.relative_to(ROOT).parts)
             for path in (ROOT / "kernelscope").rglob("__init__.py")}
    assert found <= declared, sorted(found - declared)


def test_grammar_and_profiles_are_found():
    assert "(function_definition)" in grammar_file("cuda.scm").read_text()
    assert profile_file("architectures.json").is_file()
