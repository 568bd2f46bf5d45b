"""The start-up handshake shared by GPU workers and compile processes (CPU only)."""

from __future__ import annotations

import os

import pytest

from kernelscope.errors import KernelscopeError
from kernelscope.runner.bounded_compile import CompileProcess
from kernelscope.runner.child import start_child, stop_child


class StartFailed(KernelscopeError):
    pass


def test_a_child_that_dies_before_its_hello_is_reported_with_its_exit_code():
    with pytest.raises(StartFailed, match=r"the test child exited during start-up \(exit code 1\)"):
        start_child("kernelscope.no_such_module", [], what="the test child", startup_timeout_s=60,
                    error=StartFailed, quiet_stderr=True)


def test_a_started_child_is_ready_and_stop_kills_its_process_group():
    process, connection = start_child("kernelscope.runner.bounded_compile", [str(2 ** 32)], what="the compile process",
                                      startup_timeout_s=120, own_process_group=True, quiet_stderr=True)
    assert process.poll() is None
    assert os.getpgid(process.pid) == process.pid      # it leads its own group
    stop_child(process, connection, own_process_group=True)
    assert process.poll() is not None
    assert connection.closed


def test_compile_process_restarts_after_stop():
    compiler = CompileProcess()
    compiler.start()
    first = compiler._process.pid
    compiler.stop()
    assert not compiler.alive()
    compiler.start()
    assert compiler.alive() and compiler._process.pid != first
    compiler.stop()
