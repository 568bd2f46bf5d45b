"""The unified reward in the shapes that RL libraries call (docs/rl.md has the setup for each).

- TRL: `make_trl_reward(...)` returns a `reward_funcs` entry, called as
  `f(prompts, completions, completion_ids, **kwargs) -> list[float | None]`; the dataset column named
  `task_column` (default "problem") says which corpus problem each completion answers, and when TRL
  passes `log_metric` the batch means of every component are logged through it.
- verl: `compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs) -> dict` with
  "score", "outcome" and the same numeric keys for every sample, for
  `reward.custom_reward_function.path=pkg://kernelscope.rl.adapters` (verl 0.8/0.9; verl 0.8's trainer
  also moves the older top-level `custom_reward_function` there, 0.9's standard trainer ignores it).
- OpenRLHF: `reward_func(queries, prompts, labels, **kwargs) -> {"rewards", "scores", "extra_logs"}`
  for `--reward.remote_url <path of this file>` (or `kernelscope serve`'s URL); `extra_logs` has the same
  keys, one value per sample, on every call.
In verl and OpenRLHF the label / ground truth is the problem's name (or its spec.toml path). Their
module-level entry points build one reward from the environment: KERNELSCOPE_REWARD_MODE (static|full),
KERNELSCOPE_CORPUS (a folder of problems; the corpus shipped with the package by default) and
KERNELSCOPE_RANKER (a .skops model, "none" to disable).

No made-up scores. A sample whose problem is unknown, a missing corpus, full mode without a GPU: an
error at the first call (`RewardSetupError`, `ToolMissingError`). An evaluation that broke for reasons
of its own (the runner's worker died, the analyzer crashed): retried, then `None` for TRL, which skips
it, and `HarnessError` with the reason for verl and OpenRLHF, which have no way to skip a sample. A
number is never invented for it: 0.0 would sit above every failing candidate's score.
"""

from __future__ import annotations

import logging
import os
from functools import lru_cache
from pathlib import Path
from typing import Callable

from kernelscope.errors import KernelscopeError, ToolMissingError, UsageError
from kernelscope.rl.reward import (COMPONENT_KEYS, OUTCOMES, HarnessError, Reward, RewardConfig, UnifiedReward,
                                   reward_components_mean)
from kernelscope.rl.tasks import default_corpus_dir, load_corpus, load_task

log = logging.getLogger(__name__)

HARNESS_RETRIES = 2        # further attempts, one candidate at a time, after a batch evaluation breaks
# Per-sample numbers every adapter reports, in this order, for every sample and every call.
SAMPLE_KEYS = (*COMPONENT_KEYS, *(f"outcome_{outcome}" for outcome in OUTCOMES))


class RewardSetupError(KernelscopeError):
    """The reward cannot be computed as configured (unknown problem, missing corpus): fix the setup."""


# Errors that no retry can cure: they stop the caller at once instead of costing a sample.
SETUP_ERRORS = (RewardSetupError, ToolMissingError, UsageError)


class TaskResolver:
    """Problem name or spec.toml path -> Task, from one corpus folder."""

    def __init__(self, corpus_dir: str | Path | None = None):
        self.corpus_dir = Path(corpus_dir) if corpus_dir else default_corpus_dir()

    def __call__(self, label):
        if hasattr(label, "kernel"):  # already a Task
            return label
        if label is None or str(label).strip() == "":
            raise RewardSetupError("a sample has no problem: give each one the name of a corpus problem "
                                   "(or a spec.toml path) as its label / ground truth / problem column")
        text = str(label)
        path = Path(text)
        if path.suffix == ".toml" or (path.is_dir() and (path / "spec.toml").exists()):
            try:
                return load_task(path)
            except (OSError, ValueError, KeyError) as exc:
                raise RewardSetupError(f"cannot read the problem {text!r}: {exc}") from None
        tasks = self.tasks()
        if text not in tasks:
            close = sorted(name for name in tasks if name.startswith(text[:4]))[:5]
            hint = f"; similar: {', '.join(close)}" if close else ""
            raise RewardSetupError(f"unknown problem {text!r} in the corpus {self.corpus_dir} "
                                   f"({len(tasks)} problems{hint})")
        return tasks[text]

    def tasks(self) -> dict:
        if not self.corpus_dir.is_dir():
            raise RewardSetupError(f"the corpus folder {self.corpus_dir} does not exist "
                                   "(set KERNELSCOPE_CORPUS to a folder of problem folders)")
        tasks = load_corpus(str(self.corpus_dir))
        if not tasks:
            raise RewardSetupError(f"the corpus folder {self.corpus_dir} has no problems (no */spec.toml)")
        return tasks


def score_samples(reward: UnifiedReward, resolve: TaskResolver, completions, labels, *,
                  retries: int = HARNESS_RETRIES) -> tuple[list[Reward | None], list[str | None]]:
    """Rewards in order, and for each None the reason its evaluation broke.

    Every label is resolved first: an unknown problem raises before anything is scored. The batch then
    goes to the reward at once (the runner compiles and runs it together); if that breaks, each
    candidate is retried alone, so a broken evaluation costs only its own sample."""
    tasks = [resolve(label) for label in labels]
    try:
        return reward.score_many(list(completions), tasks), [None] * len(tasks)
    except SETUP_ERRORS:
        raise
    except Exception as exc:  # noqa: BLE001 - isolate the candidate that broke the batch
        log.warning("batch reward evaluation failed (%s: %s); scoring one by one", type(exc).__name__, exc)
    results: list[Reward | None] = []
    reasons: list[str | None] = []
    for completion, task, label in zip(completions, tasks, labels):
        result, reason = None, None
        for attempt in range(1 + retries):
            try:
                result = reward(completion, task)
                break
            except SETUP_ERRORS:
                raise
            except Exception as exc:  # noqa: BLE001 - the harness's fault, not the candidate's
                reason = f"{type(exc).__name__}: {exc}"
                log.warning("reward evaluation for %r failed (attempt %d of %d): %s", label, attempt + 1,
                            1 + retries, reason)
        results.append(result)
        reasons.append(None if result is not None else reason)
    return results, reasons


def sample_values(result: Reward) -> dict[str, float]:
    """The per-sample numbers of one reward: every component and a 0/1 per outcome (SAMPLE_KEYS)."""
    values = {key: float(result.components[key]) for key in COMPONENT_KEYS}
    for outcome in OUTCOMES:
        values[f"outcome_{outcome}"] = float(result.outcome == outcome)
    return values


def make_trl_reward(reward: UnifiedReward | None = None, *, corpus_dir=None, task_column: str = "problem",
                    on_scored: Callable | None = None) -> Callable:
    """A TRL `reward_funcs` entry. The reward is `reward`, else the one verl and OpenRLHF get
    (KERNELSCOPE_REWARD_MODE, KERNELSCOPE_RANKER); the corpus is `corpus_dir`, else KERNELSCOPE_CORPUS,
    else the one shipped with the package. `on_scored(prompts, completions, labels, rewards)` sees every
    batch (the trainer uses it to build the next refinement turn)."""
    reward = reward or reward_from_environment()
    resolve = TaskResolver(corpus_dir or os.environ.get("KERNELSCOPE_CORPUS") or None)

    def kernelscope_reward(prompts, completions, completion_ids=None, **kwargs) -> list[float | None]:
        labels = kwargs.get(task_column)
        if labels is None:
            raise RewardSetupError(f"the dataset has no {task_column!r} column naming each row's problem "
                                   f"(columns passed: {', '.join(sorted(kwargs)) or 'none'})")
        if len(labels) != len(completions):
            raise RewardSetupError(f"{len(labels)} {task_column!r} values for {len(completions)} completions")
        rewards, _ = score_samples(reward, resolve, completions, labels)
        scored = [r for r in rewards if r is not None]
        log_metric = kwargs.get("log_metric")
        if log_metric is not None and scored:
            for name, value in reward_components_mean(scored).items():
                log_metric(f"kernelscope/{name}", float(value))
        log_extra = kwargs.get("log_extra")
        if log_extra is not None:
            log_extra("kernelscope_outcome", [r.outcome if r else "harness_error" for r in rewards])
        if on_scored is not None:
            on_scored(prompts, completions, labels, rewards)
        return [None if r is None else float(r.total) for r in rewards]

    return kernelscope_reward


def _environment_config() -> RewardConfig:
    mode = os.environ.get("KERNELSCOPE_REWARD_MODE", "static")
    try:
        return RewardConfig(mode=mode)
    except ValueError as exc:
        raise UsageError(f"KERNELSCOPE_REWARD_MODE: {exc}") from None


def reward_from_environment() -> UnifiedReward:
    """KERNELSCOPE_REWARD_MODE (default static) and KERNELSCOPE_RANKER (default the shipped model,
    "none" for no ranker); full mode without a GPU is an error here, before any sample."""
    config = _environment_config()
    if config.mode == "full":
        from kernelscope.rl.reward import gpu_check

        gpu_check()
    from kernelscope.rl.ranker import reference_ranker_fn, shipped_ranker_fn

    ranker_path = os.environ.get("KERNELSCOPE_RANKER", "")
    if ranker_path.lower() == "none":
        ranker_fn = None
    else:
        ranker_fn = reference_ranker_fn(ranker_path) if ranker_path else shipped_ranker_fn()
    return UnifiedReward(config, ranker_fn=ranker_fn)


@lru_cache(maxsize=1)
def _environment_reward() -> tuple[UnifiedReward, TaskResolver]:
    """The reward the verl/OpenRLHF entry points share, configured from the environment once (a setup
    error is raised at every call until it is fixed: lru_cache keeps only successes)."""
    resolve = TaskResolver(os.environ.get("KERNELSCOPE_CORPUS") or None)
    resolve.tasks()   # a missing or empty corpus is an error now, not at some later sample
    return reward_from_environment(), resolve


def check_environment() -> None:
    """Build the environment's reward now, raising what the first call would (for `kernelscope serve`)."""
    _environment_reward()


def _scored_or_raise(results, reasons, labels) -> list[Reward]:
    for result, reason, label in zip(results, reasons, labels):
        if result is None:
            raise HarnessError(f"the evaluation of a sample of {label!r} failed {1 + HARNESS_RETRIES} times "
                               f"(not the candidate's fault): {reason}")
    return results


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs) -> dict:
    """verl's custom reward function: {"score", "outcome", *SAMPLE_KEYS}, the same keys for every sample."""
    reward, resolve = _environment_reward()
    label = (extra_info or {}).get("problem", ground_truth) if isinstance(extra_info, dict) else ground_truth
    results, reasons = score_samples(reward, resolve, [solution_str], [label])
    result = _scored_or_raise(results, reasons, [label])[0]
    return {"score": float(result.total), "outcome": result.outcome, **sample_values(result)}


def reward_func(queries, prompts, labels, **kwargs) -> dict:
    """OpenRLHF's reward function: queries are prompt + response, so the prompt is cut off. Returns
    tensors of one value per sample (lists where torch is absent); `extra_logs` always has SAMPLE_KEYS."""
    reward, resolve = _environment_reward()
    responses = [query[len(prompt):] if prompt and query.startswith(prompt) else query
                 for query, prompt in zip(queries, prompts)]
    results = _scored_or_raise(*score_samples(reward, resolve, responses, labels), labels)
    totals = [float(r.total) for r in results]
    scores = [max(0.0, t) for t in totals]  # OpenRLHF filters on scores in [0, 1]
    per_sample = [sample_values(r) for r in results]
    extra = {key: [values[key] for values in per_sample] for key in SAMPLE_KEYS}
    try:
        import torch
    except ImportError:
        return {"rewards": totals, "scores": scores, "extra_logs": extra}
    return {"rewards": torch.tensor(totals), "scores": torch.tensor(scores),
            "extra_logs": {k: torch.tensor(v) for k, v in extra.items()}}
