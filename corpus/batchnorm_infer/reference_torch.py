import torch
import torch.nn.functional as F


def forward(x, mean, var, weight, bias):
    return F.batch_norm(x, mean, var, weight, bias, training=False, eps=1e-5)
