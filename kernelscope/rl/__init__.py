"""Rewards for RL of CUDA kernel generators: `reward` (the unified reward), `adapters` (TRL, verl,
OpenRLHF), `ranker` (the pairwise ranker), `feedback` (refinement messages), `trainer` (GRPO on TRL).
See docs/rl.md. Nothing here imports torch, TRL or CuPy at module level."""
