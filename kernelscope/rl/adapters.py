"""The unified reward in the shapes that RL libraries call.

- TRL: `make_trl_reward(...)` returns a `reward_funcs` entry, called as
  `f(prompts, completions, completion_ids, **kwargs) -> list[float | None]`; the dataset column named
  `task_column` (default "problem") says which corpus problem each completion answers, and when TRL
  passes `log_metric` the batch means of every component are logged through it.
- verl: `compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs) -> dict` with
  "score" (plus the components), for `custom_reward_function.path` pointing at this module.
- OpenRLHF: `reward_func(queries, prompts, labels, **kwargs) -> {"rewards", "scores", "extra_logs"}`
  for `--remote_rm_url` pointing at this module.
In verl and OpenRLHF the label / ground truth is the problem's name (or its spec.toml path). Their
module-level entry points build one reward from the environment: KERNELSCOPE_REWARD_MODE (static|full),
KERNELSCOPE_CORPUS (a folder of problems) and KERNELSCOPE_RANKER (a .skops model, "none" to disable).
"""

from __future__ import annotations

import logging
import os
from functools import lru_cache
from pathlib import Path
from typing import Callable

from kernelscope.rl.reward import Reward, RewardConfig, UnifiedReward, reward_components_mean
from kernelscope.rl.tasks import default_corpus_dir, load_corpus, load_task

log = logging.getLogger(__name__)


class TaskResolver:
    """Problem name or spec.toml path -> Task, from one corpus folder."""

    def __init__(self, corpus_dir: str | Path | None = None):
        self.corpus_dir = Path(corpus_dir) if corpus_dir else default_corpus_dir()

    def __call__(self, label):
        if label is None or label == "":
            return None
        if hasattr(label, "kernel"):  # already a Task
            return label
        text = str(label)
        path = Path(text)
        if path.suffix == ".toml" or (path.is_dir() and (path / "spec.toml").exists()):
            return load_task(path)
        tasks = load_corpus(str(self.corpus_dir)) if self.corpus_dir.is_dir() else {}
        if text not in tasks:
            raise KeyError(f"unknown problem {text!r} (corpus: {self.corpus_dir})")
        return tasks[text]


def _score_batch(reward: UnifiedReward, resolve: TaskResolver, completions, labels) -> list[Reward | None]:
    """Rewards in order; None where the evaluation itself broke (an unknown problem, a harness
    failure: not the candidate's fault). The batch goes to the runner at once; if that fails, each
    candidate is retried alone so that one broken evaluation costs only its own reward."""
    tasks, usable = [], []
    for index, label in enumerate(labels):
        try:
            tasks.append(resolve(label))
            usable.append(index)
        except (KeyError, OSError, ValueError) as exc:
            log.warning("no task for %r: %s", label, exc)
            tasks.append(None)
    results: list[Reward | None] = [None] * len(completions)
    try:
        scored = reward.score_many([completions[i] for i in usable], [tasks[i] for i in usable])
        for index, result in zip(usable, scored):
            results[index] = result
    except Exception as exc:  # noqa: BLE001 - isolate the candidate that broke the batch
        log.warning("batch reward evaluation failed (%s: %s); scoring one by one", type(exc).__name__, exc)
        for index in usable:
            try:
                results[index] = reward(completions[index], tasks[index])
            except Exception as single:  # noqa: BLE001 - one broken evaluation must not stop training
                log.warning("reward evaluation failed for %r: %s: %s", labels[index], type(single).__name__, single)
    return results


def make_trl_reward(reward: UnifiedReward | None = None, *, corpus_dir=None, task_column: str = "problem",
                    on_scored: Callable | None = None) -> Callable:
    """A TRL `reward_funcs` entry. `on_scored(prompts, completions, tasks, rewards)` sees every batch
    (the trainer uses it to build the next refinement turn)."""
    reward = reward or UnifiedReward()
    resolve = TaskResolver(corpus_dir)

    def kernelscope_reward(prompts, completions, completion_ids=None, **kwargs) -> list[float | None]:
        labels = kwargs.get(task_column) or [None] * len(completions)
        rewards = _score_batch(reward, resolve, completions, labels)
        scored = [r for r in rewards if r is not None]
        log_metric = kwargs.get("log_metric")
        if log_metric is not None and scored:
            for name, value in reward_components_mean(scored).items():
                log_metric(f"kernelscope/{name}", float(value))
        log_extra = kwargs.get("log_extra")
        if log_extra is not None:
            log_extra("kernelscope_outcome", [r.outcome if r else "error" for r in rewards])
        if on_scored is not None:
            on_scored(prompts, completions, labels, rewards)
        return [None if r is None else float(r.total) for r in rewards]

    return kernelscope_reward


@lru_cache(maxsize=1)
def _environment_reward() -> tuple[UnifiedReward, TaskResolver]:
    """The reward the verl/OpenRLHF entry points share, configured from the environment once."""
    config = RewardConfig(mode=os.environ.get("KERNELSCOPE_REWARD_MODE", "static"))
    from kernelscope.rl.ranker import reference_ranker_fn, shipped_ranker_fn

    ranker_path = os.environ.get("KERNELSCOPE_RANKER", "")
    if ranker_path.lower() == "none":
        ranker_fn = None
    else:
        ranker_fn = reference_ranker_fn(ranker_path) if ranker_path else shipped_ranker_fn()
    return UnifiedReward(config, ranker_fn=ranker_fn), TaskResolver(os.environ.get("KERNELSCOPE_CORPUS"))


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs) -> dict:
    """verl's custom reward function."""
    reward, resolve = _environment_reward()
    label = (extra_info or {}).get("problem", ground_truth) if isinstance(extra_info, dict) else ground_truth
    result = _score_batch(reward, resolve, [solution_str], [label])[0]
    if result is None:
        return {"score": 0.0, "outcome": "error"}
    return {"score": float(result.total), "outcome": result.outcome,
            **{name: float(value) for name, value in result.components.items()}}


def reward_func(queries, prompts, labels, **kwargs) -> dict:
    """OpenRLHF's remote reward function: queries are prompt + response, so cut the prompt off."""
    reward, resolve = _environment_reward()
    responses = [query[len(prompt):] if query.startswith(prompt) else query
                 for query, prompt in zip(queries, prompts)]
    results = _score_batch(reward, resolve, responses, labels)
    totals = [0.0 if r is None else float(r.total) for r in results]
    scored = [r for r in results if r is not None]
    scores = [max(0.0, t) for t in totals]  # OpenRLHF filters on scores in [0, 1]
    extra = {name: [value] * len(totals) for name, value in reward_components_mean(scored).items()}
    try:
        import torch
    except ImportError:
        return {"rewards": totals, "scores": scores, "extra_logs": extra}
    return {"rewards": torch.tensor(totals), "scores": torch.tensor(scores),
            "extra_logs": {k: torch.tensor(v) for k, v in extra.items()}}
