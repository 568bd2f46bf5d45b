"""The bundled trainer: GRPO from TRL on corpus problems, rewarded by `kernelscope.rl.reward`, with
multi-turn refinement.

The RL algorithm is TRL's GRPOTrainer, unchanged. What this module adds is the data around it:
- prompts from corpus problems (C-to-CUDA and PyTorch-to-CUDA, `kernelscope.rl.prompts`);
- refinement: after each scored batch, the best attempt of each problem's group and the feedback on
  it (`kernelscope.rl.feedback`) become that problem's next prompt, up to `max_turns` turns, after which
  the problem starts afresh. The dataset reads the prompt at fetch time (a `datasets` transform), so the
  next batch of a problem sees its latest feedback. TRL's data loader fetches one batch ahead, so
  feedback reaches the model one generation batch later than it was produced;
- reward components, outcome shares and reward evaluations per second logged through TRL's
  `log_metric`, every log line also appended to `progress.jsonl` in the output folder;
- the refinement state saved inside every checkpoint, so `--resume` continues the conversations too.
Heavy imports (torch, transformers, trl, datasets) happen inside functions: `pip install kernelscope[train]`.
"""

from __future__ import annotations

import json
import time
try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib
from dataclasses import dataclass, field
from pathlib import Path

from kernelscope.errors import UsageError
from kernelscope.rl.extract import completion_text
from kernelscope.rl.feedback import build_feedback
from kernelscope.rl.prompts import first_turn, refinement_turn

POOL_FILE = "refinement_pool.json"
PROGRESS_FILE = "progress.jsonl"


# ---- configuration --------------------------------------------------------------------------------

@dataclass
class TrainConfig:
    model: str                                   # a local Hugging Face model folder
    corpus: str = ""                             # folder of problems ("" = the checkout's corpus/)
    problems: list = field(default_factory=list)  # names; empty = every problem of the chosen styles
    styles: list = field(default_factory=lambda: ["c", "pytorch"])
    repeats: int = 8                             # rows per problem in one pass over the data
    max_turns: int = 3                           # 1 = no refinement
    chat: str = "auto"                           # auto | yes | no: prompts as chat messages
    reward: dict = field(default_factory=lambda: {"mode": "static"})
    ranker: str = "default"                      # default | none | path to a .skops model
    grpo: dict = field(default_factory=dict)     # GRPOConfig fields, passed through

    @classmethod
    def load(cls, path: str | Path) -> "TrainConfig":
        path = Path(path)
        try:
            document = tomllib.loads(path.read_text())
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise UsageError(f"{path}: cannot read the training config: {exc}") from exc
        flat = {**document.get("data", {}), **document.get("refinement", {})}
        model = document.get("model", {})
        values = {"model": model.get("path", "") if isinstance(model, dict) else model, **flat,
                  "reward": document.get("reward", {"mode": "static"}), "grpo": document.get("grpo", {})}
        if "ranker" in values["reward"]:
            values["ranker"] = values["reward"].pop("ranker")
        unknown = set(values) - set(cls.__dataclass_fields__)
        if unknown:
            raise UsageError(f"{path}: unknown settings {', '.join(sorted(unknown))}")
        config = cls(**values)
        if not config.model:
            raise UsageError(f"{path}: [model] path is required (a local Hugging Face model folder)")
        if config.corpus and not Path(config.corpus).is_absolute():
            config.corpus = str((path.parent / config.corpus).resolve())
        return config


# ---- multi-turn refinement ------------------------------------------------------------------------

@dataclass
class Turn:
    answer: str
    feedback: str
    number: int          # the turn this prompt is (2 = first refinement)


class RefinementPool:
    """Per problem, the attempt and feedback the next prompt builds on (none: a first turn)."""

    def __init__(self, tasks: dict, *, max_turns: int, chat: bool):
        self.tasks = tasks
        self.max_turns = max_turns
        self.chat = chat
        self.turns: dict[str, Turn] = {}

    def prompt(self, problem: str):
        task = self.tasks[problem]
        turn = self.turns.get(problem)
        if turn is None:
            return first_turn(task, chat=self.chat), 1
        return refinement_turn(task, turn.answer, turn.feedback, chat=self.chat), turn.number

    def record(self, labels, completions, rewards) -> None:
        """Keep, per problem in the batch, its best scored attempt with feedback for the next turn."""
        best: dict[str, tuple] = {}
        for label, completion, reward in zip(labels, completions, rewards):
            if reward is None or label not in self.tasks:
                continue
            if label not in best or reward.total > best[label][1].total:
                best[label] = (completion, reward)
        for problem, (completion, reward) in best.items():
            number = self.turns[problem].number + 1 if problem in self.turns else 2
            if number > self.max_turns:
                self.turns.pop(problem, None)  # start the problem afresh
                continue
            self.turns[problem] = Turn(completion_text(completion), build_feedback(reward, self.tasks[problem]), number)

    def to_json(self) -> dict:
        return {name: vars(turn) for name, turn in self.turns.items()}

    def load_json(self, document: dict) -> None:
        self.turns = {name: Turn(**turn) for name, turn in document.items() if name in self.tasks}


def select_tasks(config: TrainConfig) -> dict:
    from kernelscope.rl.tasks import default_corpus_dir, load_corpus

    corpus = Path(config.corpus) if config.corpus else default_corpus_dir()
    tasks = load_corpus(str(corpus)) if corpus.is_dir() else {}
    if config.problems:
        missing = [name for name in config.problems if name not in tasks]
        if missing:
            raise UsageError(f"unknown problems in {corpus}: {', '.join(missing)}")
        tasks = {name: tasks[name] for name in config.problems}
    tasks = {name: task for name, task in tasks.items() if task.style in config.styles}
    if not tasks:
        raise UsageError(f"no problems to train on in {corpus} (styles {config.styles})")
    return tasks


def build_dataset(pool: RefinementPool, repeats: int):
    """Rows name a problem; the prompt is made when a row is fetched, from the pool's current state."""
    from datasets import Dataset

    names = [name for name in sorted(pool.tasks) for _ in range(repeats)]
    dataset = Dataset.from_dict({"problem": names})

    def current_prompts(batch):
        made = [pool.prompt(name) for name in batch["problem"]]
        return {"prompt": [prompt for prompt, _ in made], "problem": list(batch["problem"]),
                "turn": [turn for _, turn in made]}

    dataset.set_transform(current_prompts)
    return dataset


# ---- rewards with timing --------------------------------------------------------------------------

class TimedReward:
    """The TRL reward function plus the refinement update, counting evaluations per second."""

    def __init__(self, reward, pool: RefinementPool, corpus_dir):
        from kernelscope.rl.adapters import make_trl_reward

        self.pool = pool
        self.evaluations = 0
        self.seconds = 0.0
        self._trl_reward = make_trl_reward(reward, corpus_dir=corpus_dir, on_scored=self._scored)
        self.__name__ = "kernelscope"  # TRL names the logged reward after the function

    def _scored(self, prompts, completions, labels, rewards):
        self.pool.record(labels, completions, rewards)

    def __call__(self, prompts, completions, completion_ids=None, **kwargs):
        started = time.perf_counter()
        totals = self._trl_reward(prompts, completions, completion_ids, **kwargs)
        elapsed = time.perf_counter() - started
        self.evaluations += len(completions)
        self.seconds += elapsed
        log_metric = kwargs.get("log_metric")
        if log_metric is not None:
            log_metric("kernelscope/evals_per_second", len(completions) / max(elapsed, 1e-9))
            turns = kwargs.get("turn")
            if turns:
                log_metric("kernelscope/turn", sum(turns) / len(turns))
        return totals


def make_reward(config: TrainConfig):
    from kernelscope.rl.reward import RewardConfig, UnifiedReward

    reward_config = RewardConfig.from_dict(config.reward)
    from kernelscope.rl.ranker import reference_ranker_fn, shipped_ranker_fn

    if config.ranker == "none":
        ranker_fn = None
    else:
        ranker_fn = shipped_ranker_fn() if config.ranker == "default" else reference_ranker_fn(config.ranker)
    return UnifiedReward(reward_config, ranker_fn=ranker_fn)


# ---- the run --------------------------------------------------------------------------------------

def _callbacks(pool: RefinementPool, output_dir: Path):
    from transformers import TrainerCallback

    class Progress(TrainerCallback):
        """Every log line to progress.jsonl; the refinement state into every checkpoint."""

        def on_log(self, args, state, control, logs=None, **kwargs):
            if logs and state.is_world_process_zero:
                with open(output_dir / PROGRESS_FILE, "a") as stream:
                    stream.write(json.dumps({"step": state.global_step, "time": time.time(), **logs}) + "\n")

        def on_save(self, args, state, control, **kwargs):
            checkpoint = output_dir / f"checkpoint-{state.global_step}"
            if checkpoint.is_dir():
                (checkpoint / POOL_FILE).write_text(json.dumps(pool.to_json()))

    return [Progress()]


def latest_checkpoint(output_dir: Path) -> Path | None:
    checkpoints = [p for p in output_dir.glob("checkpoint-*") if p.name.split("-")[-1].isdigit()]
    return max(checkpoints, key=lambda p: int(p.name.split("-")[-1])) if checkpoints else None


def train(config: TrainConfig, *, resume: str | bool | None = None, reward=None, max_steps: int | None = None,
          output_dir: str | None = None) -> dict:
    """Run GRPO. `resume`: True for the latest checkpoint in the output folder, or a checkpoint path.
    `reward`: a UnifiedReward to use instead of the one the config describes (tests inject fakes)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    tasks = select_tasks(config)
    grpo_settings = {"output_dir": "runs/grpo", "logging_steps": 1, "report_to": "none", **config.grpo}
    if max_steps is not None:
        grpo_settings["max_steps"] = max_steps
    if output_dir is not None:
        grpo_settings["output_dir"] = output_dir
    out = Path(grpo_settings["output_dir"])
    out.mkdir(parents=True, exist_ok=True)

    tokenizer = AutoTokenizer.from_pretrained(config.model)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    chat = {"yes": True, "no": False}.get(config.chat, getattr(tokenizer, "chat_template", None) is not None)
    pool = RefinementPool(tasks, max_turns=config.max_turns, chat=chat)

    checkpoint = None
    if resume:
        checkpoint = latest_checkpoint(out) if resume is True else Path(resume)
        if checkpoint is None or not checkpoint.is_dir():
            raise UsageError(f"no checkpoint to resume from in {out}")
        if (checkpoint / POOL_FILE).exists():
            pool.load_json(json.loads((checkpoint / POOL_FILE).read_text()))

    timed = TimedReward(reward or make_reward(config), pool, config.corpus or None)
    model = AutoModelForCausalLM.from_pretrained(config.model)
    trainer = GRPOTrainer(model=model, reward_funcs=[timed], args=GRPOConfig(**grpo_settings),
                          train_dataset=build_dataset(pool, config.repeats), processing_class=tokenizer,
                          callbacks=_callbacks(pool, out))
    started = time.perf_counter()
    result = trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    trainer.save_model(str(out / "final"))
    (out / "final" / POOL_FILE).write_text(json.dumps(pool.to_json()))
    return {"global_step": trainer.state.global_step, "train_loss": result.training_loss,
            "seconds": time.perf_counter() - started, "reward_evaluations": timed.evaluations,
            "reward_evaluations_per_second": timed.evaluations / max(timed.seconds, 1e-9),
            "output_dir": str(out)}
