"""`kernelscope serve` as a trainer meets it: a process that prints its URL and answers POSTs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

from click.testing import CliRunner

from kernelscope.cli import cli

HERE = Path(__file__).resolve().parent


def doubled_length(queries, prompts, labels):
    """A reward for the test: twice the response's length."""
    return {"rewards": [2.0 * (len(q) - len(p)) for q, p in zip(queries, prompts)]}


def test_the_command_prints_its_url_and_serves_the_given_reward():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen([sys.executable, "-m", "kernelscope", "serve", "--port", "0", "--workers", "2",
                                "--reward", "test_serve_cli:doubled_length"],
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stderr.readline()
        assert "serving rewards at http://127.0.0.1:" in line and "2 workers" in line
        url = line.split(" at ")[1].split()[0]
        body = json.dumps({"query": ["p:abc", "p:a"], "prompts": ["p:", "p:"], "labels": [None, None]}).encode()
        with urllib.request.urlopen(urllib.request.Request(url, data=body), timeout=30) as response:
            assert json.loads(response.read())["rewards"] == [6.0, 2.0]
    finally:
        process.terminate()
        process.wait(10)
        process.stderr.close()


def test_bad_options_exit_2_with_one_line():
    runner = CliRunner()
    result = runner.invoke(cli, ["serve", "--reward", "no_such_module_here:f"])
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0 and "--reward" in result.stderr
    assert runner.invoke(cli, ["serve", "--queue-size", "0"]).exit_code == 2
    assert runner.invoke(cli, ["serve", "--timeout", "0"]).exit_code == 2


def test_a_port_in_use_is_a_clear_error():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--reward", "json:dumps"])
    assert result.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in result.stderr
