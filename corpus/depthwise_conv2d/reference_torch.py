import torch
import torch.nn.functional as F


def forward(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return F.conv2d(x, weight, padding=1, groups=x.shape[1])
