import math

import torch


def forward(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return q @ k.transpose(-2, -1) * (1.0 / math.sqrt(q.shape[-1]))
