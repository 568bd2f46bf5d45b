"""Rewards over HTTP for trainers that call a remote reward (OpenRLHF 0.11's `--reward.remote_url`).

    from kernelscope.serve import LabelPolicy, RewardServer, RewardService, SandboxedReward, ServerLimits
    reward = SandboxedReward("kernelscope.rl.adapters:reward_func")       # each sample in a worker process
    service = RewardService(reward, workers=4, queue_size=256, timeout_s=600, labels=LabelPolicy("corpus"))
    RewardServer(("0.0.0.0", 5000), service, ServerLimits(token="...")).serve_forever()

`kernelscope serve` serves the RL layer's OpenRLHF reward: in static mode each sample is scored in a
worker process with a time and memory limit; in full mode in the server's process, its GPU runs going
to one runner worker per visible GPU. Standard library only.
"""

from __future__ import annotations

from kernelscope.serve.http import RewardServer, ServerLimits
from kernelscope.serve.labels import LabelPolicy
from kernelscope.serve.sandbox import SampleLimits, SampleRejected, SandboxedReward
from kernelscope.serve.service import Overloaded, RequestError, RewardService, SampleFailed, TimedOut, TooLarge

__all__ = ["LabelPolicy", "Overloaded", "RequestError", "RewardServer", "RewardService", "SampleFailed",
           "SampleLimits", "SampleRejected", "SandboxedReward", "ServerLimits", "TimedOut", "TooLarge"]
