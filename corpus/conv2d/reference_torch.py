import torch
import torch.nn.functional as F


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return F.conv2d(x, weight, bias, padding=1)
