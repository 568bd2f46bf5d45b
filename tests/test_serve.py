"""The reward service over real HTTP (a server on a free port in this process), with injected reward
functions: OpenRLHF's request and answer shapes, bounded queue, deadlines, errors that say what to do."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from kernelscope.serve import RewardServer, RewardService


def length_reward(queries, prompts, labels):
    """Reward = length of the response (query minus prompt); logs say whether the label was 'x'."""
    rewards = [float(len(q) - len(p)) for q, p in zip(queries, prompts)]
    logs = {"label_is_x": [1.0 if label == "x" else 0.0 for label in labels]}
    if labels[0] == "x":
        logs["only_for_x"] = [7.0]
    return {"rewards": rewards, "scores": [r / 10 for r in rewards], "extra_logs": logs}


@pytest.fixture
def serve():
    """serve(reward_fn, **service options) -> base URL; everything is shut down after the test."""
    started = []

    def start(reward_fn, **options):
        service = RewardService(reward_fn, **options)
        server = RewardServer(("127.0.0.1", 0), service)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        started.append((server, service))
        return server.url

    yield start
    for server, service in started:
        server.shutdown()
        server.server_close()
        service.close()


def post(url, payload, path="/get_reward", raw: bytes | None = None):
    body = raw if raw is not None else json.dumps(payload).encode()
    request = urllib.request.Request(url + path, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read()), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), dict(error.headers)


def get(url, path):
    with urllib.request.urlopen(url + path, timeout=10) as response:
        return json.loads(response.read())


def test_rewards_come_back_in_request_order_in_openrlhf_shape(serve):
    url = serve(length_reward)
    status, answer, _ = post(url, {"query": ["p1abc", "p2a", "p3abcdef"], "prompts": ["p1", "p2", "p3"],
                                   "labels": ["x", "y", "x"]})
    assert status == 200
    assert answer["rewards"] == [3.0, 1.0, 6.0]
    assert answer["scores"] == [0.3, 0.1, 0.6]
    assert answer["extra_logs"]["label_is_x"] == [1.0, 0.0, 1.0]
    assert answer["extra_logs"]["only_for_x"] == [7.0, 0.0, 7.0]     # absent for a sample: 0 for it


def test_both_openrlhf_paths_answer_and_prompts_and_labels_may_be_left_out(serve):
    url = serve(length_reward)
    for path in ("/", "/get_reward"):
        status, answer, _ = post(url, {"query": ["abcd"]}, path=path)
        assert status == 200 and answer["rewards"] == [4.0]


def test_tensor_like_answers_are_sent_as_plain_numbers(serve):
    class Tensor(list):
        def tolist(self):
            return list(self)

    url = serve(lambda q, p, l: {"rewards": Tensor([0.5]), "scores": Tensor([0.5]), "extra_logs": {"a": Tensor([1])}})
    status, answer, _ = post(url, {"query": ["a", "b"]})
    assert status == 200 and answer == {"rewards": [0.5, 0.5], "scores": [0.5, 0.5], "extra_logs": {"a": [1.0, 1.0]}}


@pytest.mark.parametrize("payload, raw, message", [
    (None, b"{not json", "not JSON"),
    ([1, 2], None, "JSON object"),
    ({"prompts": ["a"]}, None, "'query' must be a list"),
    ({"query": ["a", "b"], "prompts": ["a"], "labels": [None, None]}, None, "differ in length"),
    ({"query": ["a"], "prompts": [3]}, None, "'prompts' must be"),
])
def test_a_malformed_request_is_a_400_saying_what_is_wrong(serve, payload, raw, message):
    url = serve(length_reward)
    status, answer, _ = post(url, payload, raw=raw)
    assert status == 400 and message in answer["error"]


def test_a_request_larger_than_the_queue_is_a_413(serve):
    url = serve(length_reward, queue_size=3)
    status, answer, _ = post(url, {"query": ["a"] * 4})
    assert status == 413 and "--queue-size" in answer["error"]


def test_when_the_queue_is_full_a_request_is_refused_at_once_with_503(serve):
    release = threading.Event()

    def blocked(queries, prompts, labels):
        release.wait(20)
        return {"rewards": [1.0]}

    url = serve(blocked, workers=1, queue_size=2)
    def wait_for(key, value):
        deadline = time.monotonic() + 10
        while get(url, "/health")[key] != value and time.monotonic() < deadline:
            time.sleep(0.01)

    with ThreadPoolExecutor(2) as background:
        first = background.submit(post, url, {"query": ["a", "b"]})       # one runs, one waits
        wait_for("running", 1)
        started = time.monotonic()
        status, answer, headers = post(url, {"query": ["d", "e"]})      # needs 2, room for 1
        assert status == 503 and time.monotonic() - started < 2
        assert "overloaded" in answer["error"] and "retry" in answer["error"]
        assert headers.get("Retry-After")
        second = background.submit(post, url, {"query": ["f"]})          # but one sample fits
        wait_for("queued", 2)
        release.set()
        assert first.result()[0] == 200 and second.result()[0] == 200
    health = get(url, "/health")
    assert (health["refused"], health["served"], health["queued"], health["running"]) == (1, 2, 0, 0)


def test_a_request_that_misses_its_deadline_is_a_504_and_frees_its_place_in_the_queue(serve):
    release = threading.Event()

    def slow(queries, prompts, labels):
        release.wait(20)
        return {"rewards": [1.0]}

    url = serve(slow, workers=1, queue_size=4, timeout_s=0.3)
    status, answer, _ = post(url, {"query": ["a", "b", "c"]})
    assert status == 504 and "1 of 3" not in answer["error"] and "0 of 3" in answer["error"]
    health = get(url, "/health")
    assert health["queued"] == 0 and health["timed_out"] == 1       # the two waiting samples were dropped
    release.set()


def test_a_failing_reward_function_is_a_500_and_the_server_keeps_serving(serve):
    calls = []

    def flaky(queries, prompts, labels):
        calls.append(queries[0])
        if queries[0] == "boom":
            raise RuntimeError("the ranker file is missing")
        return {"rewards": [2.0]}

    url = serve(flaky)
    status, answer, _ = post(url, {"query": ["boom"]})
    assert status == 500 and "RuntimeError: the ranker file is missing" in answer["error"]
    assert post(url, {"query": ["fine"]})[:2] == (200, {"rewards": [2.0], "scores": [2.0], "extra_logs": {}})


def test_samples_of_one_request_are_scored_in_parallel(serve):
    active, peak, lock = [0], [0], threading.Lock()

    def tracked(queries, prompts, labels):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.2)
        with lock:
            active[0] -= 1
        return {"rewards": [1.0]}

    url = serve(tracked, workers=4)
    started = time.monotonic()
    assert post(url, {"query": ["a"] * 8})[0] == 200
    assert peak[0] == 4 and time.monotonic() - started < 8 * 0.2 * 0.75


def test_unknown_paths_are_404(serve):
    url = serve(length_reward)
    assert post(url, {"query": ["a"]}, path="/score")[0] == 404
    with pytest.raises(urllib.error.HTTPError) as caught:
        get(url, "/metrics")
    assert caught.value.code == 404


def test_the_rl_layers_openrlhf_reward_served_over_http_ranks_code_above_no_code(serve, monkeypatch):
    from kernelscope.rl import adapters

    monkeypatch.setenv("KERNELSCOPE_REWARD_MODE", "static")
    monkeypatch.setenv("KERNELSCOPE_RANKER", "none")
    adapters._environment_reward.cache_clear()
    kernel = ("```cuda\n__global__ void vector_add(const float *a, const float *b, float *c, int n) {\n"
              "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) c[i] = a[i] + b[i];\n}\n```")
    url = serve(adapters.reward_func)
    status, answer, _ = post(url, {"query": ["Q:" + kernel, "Q:I cannot help."], "prompts": ["Q:", "Q:"],
                                   "labels": ["vector_add", "vector_add"]})
    adapters._environment_reward.cache_clear()
    assert status == 200
    assert answer["rewards"][0] > answer["rewards"][1]
    assert all(len(values) == 2 for values in answer["extra_logs"].values())
