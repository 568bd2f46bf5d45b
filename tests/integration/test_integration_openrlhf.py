"""OpenRLHF's own rollout-to-replay-buffer path with kernelscope's reward, one sample per call as
OpenRLHF 0.11 makes them (skipped where OpenRLHF is not installed; docs/rl.md says how it was run).

For each sample: `SingleTurnAgentExecutor.execute` (the reward found through `--reward.remote_url`: the
adapters' file, or a `kernelscope serve` URL), then `SamplesGenerator._process_response_into_experience`.
Then the batch as the experience maker and the actor build it: `Experience.concat_experiences`,
`split_experience_batch`, `NaiveReplayBuffer.append` and `make_experience_batch`.

vLLM is not installed (it needs CUDA): the generation engine is replaced by one that returns the
sample's tokens, and a stand-in `vllm` module provides the three names OpenRLHF's modules import.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import sys
import threading
import types
from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("openrlhf")
pytest.importorskip("ray")

from rl_samples import PROBLEM, SAMPLES, build_tokenizer, compiler_present, environment  # noqa: E402

ORDER = ["pass", "fail", "no_code", "hack", "renamed"]


def stand_in_vllm(monkeypatch):
    if "vllm" in sys.modules and not getattr(sys.modules["vllm"], "kernelscope_stand_in", False):
        return
    vllm = types.ModuleType("vllm")
    vllm.kernelscope_stand_in = True
    vllm.__version__ = "0.0.0"
    vllm.SamplingParams = SimpleNamespace
    inputs, utils = types.ModuleType("vllm.inputs"), types.ModuleType("vllm.utils")
    inputs.TokensPrompt = dict
    utils.random_uuid = lambda: "0"
    for name, module in (("vllm", vllm), ("vllm.inputs", inputs), ("vllm.utils", utils)):
        monkeypatch.setitem(sys.modules, name, module)


class FixedEngine:
    """Answers generate() with the sample's tokens, as vLLM's RequestOutput shapes them."""

    def __init__(self, tokens):
        self.tokens = tokens

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        return SimpleNamespace(outputs=[SimpleNamespace(token_ids=list(self.tokens), finish_reason="stop",
                                                        logprobs=None)])


def rollout(executor, tokenizer):
    from openrlhf.trainer.ppo_utils.samples_generator import SamplesGenerator

    experiences, outputs = [], []
    for name in ORDER:
        prompt = f"Write {PROBLEM}.\n"
        tokens = tokenizer(SAMPLES[name][0])["input_ids"]
        output = asyncio.run(executor.execute(prompt, PROBLEM, SimpleNamespace(max_tokens=1024, logprobs=None),
                                              4096, tokenizer, FixedEngine(tokens)))
        assert output["reward"] is not None, f"{name}: OpenRLHF got no reward (see its log)"
        outputs.append(output)
        experiences.append(SamplesGenerator._process_response_into_experience(None, output, max_len=4096))
    return outputs, experiences


def through_the_replay_buffer(experiences, tokenizer, monkeypatch):
    from openrlhf.trainer.ppo_utils.experience import Experience, make_experience_batch, split_experience_batch
    from openrlhf.trainer.ppo_utils.replay_buffer import NaiveReplayBuffer

    batch = Experience.concat_experiences(experiences, tokenizer.pad_token_id)
    assert len(split_experience_batch(batch)) == len(ORDER)
    # the buffer names its target device at construction; on this CPU machine nothing is moved there
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    buffer = NaiveReplayBuffer(sample_batch_size=len(ORDER), cpu_offload=True)
    buffer.append(Experience.concat_experiences(experiences, tokenizer.pad_token_id))
    assert len(buffer) == len(ORDER)
    return batch, make_experience_batch(buffer.items)


@pytest.fixture
def tokenizer(tmp_path):
    return build_tokenizer(tmp_path, [SAMPLES[name][0] for name in ORDER] + [f"Write {PROBLEM}.\n"])


@pytest.fixture
def served(monkeypatch):
    """`kernelscope serve`'s server on a loopback port, with the default reward."""
    from kernelscope.rl.adapters import reward_func
    from kernelscope.serve import RewardServer, RewardService

    service = RewardService(reward_func, workers=2, queue_size=16, timeout_s=120)
    server = RewardServer(("127.0.0.1", 0), service)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"{server.url}/get_reward"
    server.shutdown()
    server.server_close()
    service.close()


@pytest.mark.parametrize("endpoint", ["file", "url"])
def test_openrlhf_rollouts_with_per_sample_rewards_reach_the_replay_buffer(tokenizer, monkeypatch, endpoint, request):
    if not compiler_present():
        pytest.skip("the 'fail' sample needs NVRTC or nvcc for static mode's compile gate")
    environment(monkeypatch)
    stand_in_vllm(monkeypatch)
    from openrlhf.utils.agent import SingleTurnAgentExecutor

    import kernelscope.rl.adapters as adapters

    remote_url = adapters.__file__ if endpoint == "file" else request.getfixturevalue("served")
    executor = SingleTurnAgentExecutor(remote_rm_url=remote_url)
    outputs, experiences = rollout(executor, tokenizer)
    batch, sampled = through_the_replay_buffer(experiences, tokenizer, monkeypatch)

    print(f"\nopenrlhf {importlib.metadata.version('openrlhf')}, --reward.remote_url = "
          f"{'the adapters file (reward_func)' if endpoint == 'file' else 'kernelscope serve ' + remote_url}")
    print("code path: SingleTurnAgentExecutor.execute (one sample per reward call) -> "
          "SamplesGenerator._process_response_into_experience -> Experience.concat_experiences -> "
          "split_experience_batch -> NaiveReplayBuffer.append -> make_experience_batch")
    keys = [sorted(output["extra_logs"]) for output in outputs]
    assert all(k == keys[0] for k in keys), "extra_logs keys differ between samples"
    print(f"extra_logs keys (every sample): {keys[0]}")
    rewards = batch.info["reward"].flatten().tolist()
    hacks = batch.info["outcome_hack"].flatten().tolist()
    for name, reward, hack in zip(ORDER, rewards, hacks):
        print(f"  {name:8} reward={reward:+.4f} outcome_hack={hack:.0f}")
    expected = [SAMPLES[name][1] for name in ORDER]
    for outcome in ("ok", "compile_error", "no_code", "hack"):
        flags = batch.info[f"outcome_{outcome}"].flatten().tolist()
        assert flags == [float(e == outcome) for e in expected], outcome
    assert rewards[0] > 0 and all(r < 0 for r in rewards[1:4]) and rewards[4] == pytest.approx(rewards[0])
    assert all(0.0 <= s <= 1.0 for s in batch.info["score"].flatten().tolist())
    assert len(sampled.info["reward"]) == len(ORDER)
    print(f"replay buffer: {len(ORDER)} items; sampled batch info keys: {len(sampled.info)}")
