"""Rewards over HTTP for trainers that call a remote reward (OpenRLHF 0.11's `--reward.remote_url`).

    from kernelscope.serve import RewardServer, RewardService
    service = RewardService(reward_fn, workers=4, queue_size=256, timeout_s=600)
    RewardServer(("0.0.0.0", 5000), service).serve_forever()

`reward_fn` defaults (in `kernelscope serve`) to the RL layer's OpenRLHF reward, its GPU runs going
to one worker per visible GPU. Standard library only.
"""

from __future__ import annotations

from kernelscope.serve.http import RewardServer
from kernelscope.serve.service import Overloaded, RequestError, RewardService, TimedOut, TooLarge

__all__ = ["Overloaded", "RequestError", "RewardServer", "RewardService", "TimedOut", "TooLarge"]
