"""The reward service against a hostile client: a real server on a loopback port, raw sockets where
a well-behaved HTTP library would refuse to send what an attacker sends.

Samples are scored in worker processes (SandboxedReward) by the reward functions at the bottom of
this module or by the RL layer's own static reward, exactly as `kernelscope serve` does.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kernelscope.serve import (LabelPolicy, RewardServer, RewardService, SampleLimits, SandboxedReward,
                               ServerLimits)

ROOT = Path(__file__).resolve().parents[1]
KERNEL = ("```cuda\n__global__ void vector_add(const float *a, const float *b, float *c, int n) {\n"
          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) c[i] = a[i] + b[i];\n}\n```")


# -- rewards the workers import (module-level so that a spawned process finds them) ---------------

def length_reward(queries, prompts, labels):
    return {"rewards": [float(len(q)) for q in queries], "extra_logs": {"label": [float(labels[0] is not None)]}}


def spinning_reward(queries, prompts, labels):
    """Spins forever holding its own process's interpreter lock when asked to ("spin")."""
    while queries[0] == "spin":
        pass
    return {"rewards": [1.0]}


def hungry_reward(queries, prompts, labels):
    blocks = []
    while True:
        blocks.append(bytearray(64 * 2 ** 20))


def label_echo_reward(queries, prompts, labels):
    """What the worker was given as the label (the resolved spec path), as its length."""
    return {"rewards": [float(len(labels[0] or ""))], "extra_logs": {"is_spec": [float(str(labels[0]).endswith("spec.toml"))]}}


# -- the server -------------------------------------------------------------------------------------

@pytest.fixture
def serve():
    """serve(reward spec, workers=..., labels=..., **server limits) -> (base URL, service)."""
    started = []

    def start(reward_spec=f"{__name__}:length_reward", *, workers=2, labels=None, time_s=20.0,
              memory_bytes=1024 ** 3, environment=None, **limits):
        reward = SandboxedReward(reward_spec, SampleLimits(time_s, memory_bytes), environment)
        service = RewardService(reward, workers=workers, queue_size=64, timeout_s=120, labels=labels)
        server = RewardServer(("127.0.0.1", 0), service, ServerLimits(**limits))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append((server, service))
        return server.url, service

    yield start
    for server, service in started:
        server.shutdown()
        server.server_close()
        service.close()


def post(url, payload=None, *, raw: bytes | None = None, headers=None, timeout=60):
    body = raw if raw is not None else json.dumps(payload).encode()
    request = urllib.request.Request(url + "/get_reward", data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def health(url, timeout=5):
    started = time.monotonic()
    with urllib.request.urlopen(url + "/health", timeout=timeout) as response:
        return json.loads(response.read()), time.monotonic() - started


def raw_exchange(url, request: bytes, *, read_timeout=30) -> bytes:
    """Send bytes as they are, return everything the server answers until it closes."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=read_timeout) as connection:
        try:
            connection.sendall(request)
        except OSError:
            pass                       # the server may close before taking all of an unwanted body
        chunks = []
        try:
            while chunk := connection.recv(65536):
                chunks.append(chunk)
        except (ConnectionResetError, socket.timeout):
            pass
    return b"".join(chunks)


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0


def request_head(headers: dict, path="/get_reward") -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: x"] + [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


# -- labels: problem names of the corpus, never paths ------------------------------------------------

@pytest.fixture
def foreign_spec(tmp_path):
    """A problem outside the corpus whose reference code would leave a mark if it were imported."""
    folder = tmp_path / "foreign"
    folder.mkdir()
    for name in ("spec.toml", "reference.py", "reference.c"):
        source = (ROOT / "corpus" / "vector_add" / name).read_text()
        (folder / name).write_text(source)
    marker = tmp_path / "imported"
    (folder / "reference.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n" +
                                         (folder / "reference.py").read_text())
    return folder, marker


def test_a_label_naming_a_host_folder_or_file_is_refused_and_nothing_is_loaded(serve, foreign_spec, monkeypatch):
    folder, marker = foreign_spec
    url, _ = serve("kernelscope.rl.adapters:reward_func", labels=LabelPolicy(ROOT / "corpus"),
                   environment={"KERNELSCOPE_RANKER": "none", "KERNELSCOPE_REWARD_MODE": "static"})
    corpus_relative = os.path.relpath(folder, ROOT / "corpus")
    for label in (str(folder), str(folder / "spec.toml"), corpus_relative, "../vector_add", "vector_add/spec.toml",
                  str(ROOT / "corpus" / "vector_add"), "vector_add\x00"):
        status, answer = post(url, {"query": [KERNEL], "prompts": [""], "labels": [label]})
        assert status == 400, (label, answer)
        assert "not a problem of the served corpus" in answer["error"]
    assert not marker.exists()
    status, answer = post(url, {"query": [KERNEL], "prompts": [""], "labels": ["vector_add"]})
    assert status == 200 and answer["extra_logs"]["outcome_ok"] == [1.0]


def test_labels_that_are_not_text_are_refused(serve):
    url, _ = serve(labels=LabelPolicy(ROOT / "corpus"))
    for label in (5, ["vector_add"], {"path": "/etc"}):
        status, answer = post(url, {"query": ["x"], "labels": [label]})
        assert status == 400 and "problem names" in answer["error"]


def test_the_worker_gets_the_corpus_spec_path_not_the_clients_text(serve):
    url, _ = serve(f"{__name__}:label_echo_reward", labels=LabelPolicy(ROOT / "corpus"))
    status, answer = post(url, {"query": ["x"], "labels": ["vector_add"]})
    assert status == 200 and answer["extra_logs"]["is_spec"] == [1.0]
    assert answer["rewards"] == [float(len(str((ROOT / "corpus" / "vector_add" / "spec.toml").resolve())))]


def test_an_allowed_spec_root_opens_specs_inside_it_only(serve, foreign_spec, tmp_path):
    folder, _ = foreign_spec
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "mine").symlink_to(folder, target_is_directory=True)     # a link out of the root
    inside = allowed / "inside"
    inside.mkdir()
    (inside / "spec.toml").write_text((folder / "spec.toml").read_text())
    url, _ = serve(f"{__name__}:label_echo_reward", labels=LabelPolicy(ROOT / "corpus", allowed))
    assert post(url, {"query": ["x"], "labels": ["inside"]})[0] == 200
    assert post(url, {"query": ["x"], "labels": [str(inside / "spec.toml")]})[0] == 200
    for label in ("mine", "inside/../../foreign", str(folder), "inside/reference.py"):
        assert post(url, {"query": ["x"], "labels": [label]})[0] == 400, label


# -- lengths, encodings and slow clients ---------------------------------------------------------------

@pytest.mark.parametrize("headers, expected", [
    ({"Content-Length": "-1"}, 400),
    ({"Content-Length": "+5"}, 400),
    ({"Content-Length": "5_0"}, 400),
    ({"Content-Length": "0x10"}, 400),
    ({"Content-Length": "99999999999999999999999"}, 400),
    ({"Transfer-Encoding": "chunked"}, 411),
    ({}, 411),
    ({"Content-Length": str(10 ** 12)}, 413),
])
def test_a_body_length_that_is_missing_negative_malformed_or_huge_is_refused_at_once(serve, headers, expected):
    url, _ = serve(max_body_bytes=1024 * 1024)
    started = time.monotonic()
    answer = raw_exchange(url, request_head(headers), read_timeout=20)
    assert status_of(answer) == expected, answer[:300]
    assert time.monotonic() - started < 15          # answered, not waited on until a timeout
    assert b'"error"' in answer


def test_two_content_lengths_are_refused(serve):
    url, _ = serve()
    answer = raw_exchange(url, request_head({"Content-Length": "2"})[:-2] + b"Content-Length: 9\r\n\r\n{}")
    assert status_of(answer) == 400


def test_a_body_that_ends_early_is_refused(serve):
    url, _ = serve(socket_timeout_s=2)
    head = request_head({"Content-Length": "100"})
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=20) as connection:
        connection.sendall(head + b'{"query": ')
        connection.shutdown(socket.SHUT_WR)
        answer = connection.recv(65536)
    assert status_of(answer) in (0, 400)            # closed, or told the body was cut short


def test_a_client_sending_a_byte_at_a_time_is_cut_off_at_the_deadline_while_health_answers(serve):
    url, _ = serve(request_deadline_s=3, socket_timeout_s=2)
    host, port = url.removeprefix("http://").split(":")
    body = json.dumps({"query": ["abc"]}).encode()
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(request_head({"Content-Length": str(len(body) + 1000)}))
        closed = False
        for index in range(60):
            try:
                connection.sendall(body[index % len(body):][:1])
            except OSError:
                closed = True
                break
            assert health(url)[0]["status"] == "ok"
            time.sleep(0.5)
            ready = connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) if _readable(connection) else None
            if ready == b"":
                closed = True
                break
    assert closed, "the slow client was never cut off"
    assert time.monotonic() - started < 20


def _readable(connection) -> bool:
    import select
    return bool(select.select([connection], [], [], 0)[0])


def test_an_idle_connection_is_closed_after_the_socket_timeout(serve):
    url, _ = serve(socket_timeout_s=1, request_deadline_s=30)
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=20) as connection:
        started = time.monotonic()
        assert connection.recv(100) == b""           # nothing sent: the server gives up on us
    assert time.monotonic() - started < 15


def test_more_connections_than_allowed_are_answered_503_and_the_rest_still_served(serve):
    url, _ = serve(max_connections=4, request_deadline_s=20, socket_timeout_s=20)
    host, port = url.removeprefix("http://").split(":")
    idle = [socket.create_connection((host, int(port)), timeout=20) for _ in range(4)]
    try:
        time.sleep(0.5)
        answer = raw_exchange(url, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n", read_timeout=10)
        assert status_of(answer) == 503
    finally:
        for connection in idle:
            connection.close()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            assert health(url)[0]["status"] == "ok"
            break
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    assert post(url, {"query": ["abc"]})[0] == 200


def test_deeply_nested_json_is_a_400(serve):
    url, _ = serve()
    for body in (b"[" * 200_000 + b"]" * 200_000, b'{"query": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"):
        status, answer = post(url, raw=body)
        assert status == 400, answer
    assert post(url, {"query": ["abc"]})[0] == 200


# -- the size and cost of one sample ---------------------------------------------------------------------

def test_a_50_mb_completion_is_refused_by_size_without_being_read(serve):
    url, _ = serve()                                  # the default limit: 8 MB
    big = json.dumps({"query": ["x" * (50 * 2 ** 20)]}).encode()
    started = time.monotonic()
    answer = raw_exchange(url, request_head({"Content-Length": str(len(big))}) + big[:65536])
    assert status_of(answer) == 413 and b"--max-body-mb" in answer
    assert time.monotonic() - started < 15


def test_a_50_mb_completion_within_a_raised_limit_costs_its_sample_limit_and_health_answers(serve):
    url, _ = serve("kernelscope.rl.adapters:reward_func", labels=LabelPolicy(ROOT / "corpus"), time_s=4,
                   max_body_bytes=64 * 2 ** 20,
                   environment={"KERNELSCOPE_RANKER": "none", "KERNELSCOPE_REWARD_MODE": "static"})
    completion = "```cuda\n__global__ void vector_add(float* c) {\n" + "  c[0] = 1;\n" * (50 * 2 ** 20 // 12) + "}\n"
    result = {}

    def send():
        result["answer"] = post(url, {"query": [completion], "prompts": [""], "labels": ["vector_add"]}, timeout=120)

    sender = threading.Thread(target=send)
    sender.start()
    slowest = 0.0
    while sender.is_alive():
        slowest = max(slowest, health(url)[1])
        time.sleep(0.2)
    sender.join()
    status, answer = result["answer"]
    assert status in (200, 422), answer         # scored within 4 s, or stopped at the limit: never hung
    if status == 422:
        assert "4 s limit" in answer["error"] or "memory limit" in answer["error"]
    assert slowest < 3.0, f"/health took {slowest:.1f} s while the sample was scored"


def test_a_runaway_sample_is_stopped_at_its_limit_while_other_requests_are_answered(serve):
    url, service = serve(f"{__name__}:spinning_reward", workers=3, time_s=3)
    result = {}
    runaway = threading.Thread(target=lambda: result.setdefault("runaway", post(url, {"query": ["spin"]})))
    runaway.start()
    time.sleep(0.5)
    with ThreadPoolExecutor(8) as pool:
        started = time.monotonic()
        normal = list(pool.map(lambda _: post(url, {"query": ["fine"]}), range(40)))
        normal_s = time.monotonic() - started
    runaway.join(30)
    assert all(status == 200 and answer["rewards"] == [1.0] for status, answer in normal)
    status, answer = result["runaway"]
    assert status == 422 and "not scored within its 3 s limit" in answer["error"]
    assert "sample 0 of 1" in answer["error"] and "rewards" not in answer
    assert service.status()["sandbox_killed"] == 1
    assert post(url, {"query": ["fine again"]})[0] == 200    # a fresh worker took its place
    assert normal_s < 60


def test_a_sample_over_its_memory_limit_gets_an_error_not_a_score(serve):
    url, _ = serve(f"{__name__}:hungry_reward", memory_bytes=512 * 2 ** 20)
    status, answer = post(url, {"query": ["x"]})
    assert status == 422 and "512 MB" in answer["error"], answer


# -- the bearer token -----------------------------------------------------------------------------------

def test_a_token_is_required_and_compared_exactly(serve):
    url, _ = serve(token="s3cret-token")
    assert post(url, {"query": ["abc"]})[0] == 401
    for wrong in ("Bearer s3cret", "Bearer s3cret-token2", "Basic s3cret-token", "s3cret-token"):
        status, answer = post(url, {"query": ["abc"]}, headers={"Authorization": wrong})
        assert status == 401 and "Bearer" in answer["error"]
    assert post(url, {"query": ["abc"]}, headers={"Authorization": "Bearer s3cret-token"}) == \
        (200, {"rewards": [3.0], "scores": [3.0], "extra_logs": {"label": [0.0]}})
    assert health(url)[0]["status"] == "ok"


def test_the_command_reads_the_token_from_the_environment_and_refuses_path_labels(tmp_path):
    env = {**os.environ, "KERNELSCOPE_SERVE_TOKEN": "from-env", "KERNELSCOPE_RANKER": "none",
           "KERNELSCOPE_REWARD_MODE": "static"}
    process = subprocess.Popen([sys.executable, "-m", "kernelscope", "serve", "--port", "0", "--workers", "1",
                                "--corpus", str(ROOT / "corpus")], stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stderr.readline()
        assert "bearer token required" in line and "from-env" not in line
        url = line.split(" at ")[1].split()[0].removesuffix("/get_reward")
        auth = {"Authorization": "Bearer from-env"}
        assert post(url, {"query": [KERNEL], "labels": ["vector_add"]})[0] == 401
        status, answer = post(url, {"query": [KERNEL], "labels": [str(ROOT / "corpus" / "vector_add")]}, headers=auth)
        assert status == 400 and "not a problem" in answer["error"]
        status, answer = post(url, {"query": [KERNEL], "labels": ["vector_add"]}, headers=auth)
        assert status == 200 and answer["rewards"][0] > 0
    finally:
        process.terminate()
        process.wait(20)
        process.stderr.close()
