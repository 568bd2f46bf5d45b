"""GPU smoke run of the RL layer with measured rewards (H200).

    source .whl/install.sh && python3 benchmarks/gpu/train_smoke.py --out "$OUT"

1. The full (measured) reward on the runner's adversarial kernels (tests/kernels/adversarial): every
   one must land in the "fail" band, the honest kernel in "pass".
2. A tiny policy that can write kernels at all: a small Llama with a byte-level BPE tokenizer, both made
   here (no downloads), warm-started for a few hundred steps on prompt -> corpus implementation pairs, so
   that its samples compile sometimes and the runner has real work. This is only a stand-in for a
   pretrained code model, which the GPU machine cannot download.
3. `kernelscope.rl.trainer.train`: a few GRPO steps (TRL's GRPOTrainer) with full rewards and
   refinement turns; reward evaluations per second are measured inside the loop.
Also the full reward on the smoke problems' corpus implementations (throughput with real kernels).
Writes adversarial.csv, corpus_rewards.csv, progress.jsonl and summary.json under --out; the log goes
to stdout.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SMOKE_PROBLEMS = ["vector_add", "saxpy", "polynomial", "gather", "row_sum", "transpose", "stencil_1d",
                  "black_scholes"]


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def environment() -> None:
    import importlib.metadata as metadata

    import torch

    versions = {}
    for name in ("torch", "transformers", "trl", "datasets", "accelerate", "pyarrow", "cupy-cuda13x", "skops"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "missing"
    log(f"device: {torch.cuda.get_device_name(0)}; versions: {versions}")


def adversarial_rewards(out: Path, run_fn) -> bool:
    from kernelscope.rl.reward import RewardConfig, UnifiedReward
    from kernelscope.rl.tasks import load_task

    folder = ROOT / "tests" / "kernels" / "adversarial"
    task = load_task(folder / "spec.toml")
    # The worker's first job pays for CuPy, the CUDA context and the reference's kernels; under the
    # short timeout used below that made the honest kernel time out in the first H200 run. Warm it.
    from kernelscope.runner import evaluate, load_spec

    evaluate(load_spec(task.spec_path), (folder / "correct.cu").read_text(), timeout_s=120.0)
    reward = UnifiedReward(RewardConfig(mode="full"), run_fn=run_fn)
    rows = []
    for path in sorted(folder.glob("*.cu")):
        started = time.perf_counter()
        result = reward(f"```cuda\n{path.read_text()}```", task)
        flags = sorted(getattr(result.run, "flags", []) or [])
        rows.append({"kernel": path.stem, "band": result.band, "outcome": result.outcome,
                     "total": round(result.total, 4), "hacks": ";".join(sorted(result.hacks)),
                     "runner_flags": ";".join(flags), "seconds": round(time.perf_counter() - started, 3)})
        log(f"adversarial {path.stem:18s} band={result.band:4s} outcome={result.outcome:13s} "
            f"total={result.total:+.3f} hacks={sorted(result.hacks)} runner_flags={flags}")
    with open(out / "adversarial.csv", "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    honest_ok = all(r["band"] == "pass" for r in rows if r["kernel"] == "correct")
    cheats_fail = all(r["band"] == "fail" for r in rows if r["kernel"] != "correct")
    log(f"adversarial kernels all in the fail band: {cheats_fail}; honest kernel passes: {honest_ok}")
    return cheats_fail and honest_ok


def corpus_throughput(out: Path, tasks: dict, run_many_fn, ranker_fn) -> None:
    """The full reward on every implementation of the smoke problems, each with its own launch: reward
    evaluations per second with compiling, correct kernels (the policy's samples are mostly broken)."""
    from kernelscope.rl.reward import RewardConfig, UnifiedReward

    reward = UnifiedReward(RewardConfig(mode="full"), run_many_fn=run_many_fn, ranker_fn=ranker_fn)
    rows, started = [], time.perf_counter()
    for task in tasks.values():
        sources = [f"```cuda\n{task.implementation_source(i['file'])}```" for i in task.implementations]
        launched = [task.for_implementation(i) for i in task.implementations]
        for implementation, result in zip(task.implementations, reward.score_many(sources, launched)):
            rows.append({"problem": task.name, "implementation": implementation["file"], "band": result.band,
                         "outcome": result.outcome, "total": round(result.total, 4),
                         "speedup": None if result.speedup is None else round(result.speedup, 3),
                         "performance": round(result.components["performance"], 4),
                         "structure": round(result.components["structure"], 4)})
    seconds = time.perf_counter() - started
    for row in rows:
        log(f"corpus {row}")
    log(f"corpus implementations under the full reward: {len(rows)} in {seconds:.1f} s "
        f"({len(rows) / seconds:.2f} evaluations/s), passing: {sum(r['band'] == 'pass' for r in rows)}")
    with open(out / "corpus_rewards.csv", "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def warm_start_policy(directory: Path, tasks: dict, steps: int) -> Path:
    """A ~10M-parameter Llama that has seen prompt -> implementation pairs of the smoke problems."""
    import torch
    from tokenizers import ByteLevelBPETokenizer
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    from kernelscope.rl.prompts import first_turn

    examples = []
    for task in tasks.values():
        prompt = first_turn(task, chat=False)
        for implementation in task.implementations:
            examples.append((prompt, f"```cuda\n{task.implementation_source(implementation['file']).strip()}\n```"))
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator([p + c for p, c in examples], vocab_size=2048, special_tokens=["<pad>", "<eos>"])
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe._tokenizer, pad_token="<pad>", eos_token="<eos>")
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=256, intermediate_size=1024, num_hidden_layers=4,
                         num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=4096,
                         pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                         bos_token_id=tokenizer.eos_token_id)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = LlamaForCausalLM(config).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    encoded = []
    for prompt, completion in examples:
        prompt_ids = tokenizer(prompt)["input_ids"]
        completion_ids = tokenizer(completion)["input_ids"] + [tokenizer.eos_token_id]
        ids = torch.tensor(prompt_ids + completion_ids)
        labels = ids.clone()
        labels[:len(prompt_ids)] = -100  # learn the answer, not the question
        encoded.append((ids, labels))
    log(f"warm start: {len(examples)} examples, longest {max(len(i) for i, _ in encoded)} tokens, "
        f"{sum(p.numel() for p in model.parameters()) / 1e6:.1f}M parameters")
    generator = torch.Generator().manual_seed(0)
    started = time.perf_counter()
    for step in range(steps):
        batch = [encoded[i] for i in torch.randint(len(encoded), (8,), generator=generator)]
        width = max(len(ids) for ids, _ in batch)
        ids = torch.full((len(batch), width), tokenizer.pad_token_id)
        labels = torch.full((len(batch), width), -100)
        for row, (i, l) in enumerate(batch):
            ids[row, :len(i)], labels[row, :len(l)] = i, l
        with torch.autocast(device, dtype=torch.bfloat16):
            loss = model(input_ids=ids.to(device), attention_mask=(ids != tokenizer.pad_token_id).to(device),
                         labels=labels.to(device)).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 50 == 0 or step == steps - 1:
            log(f"warm start step {step}: loss {loss.item():.3f}")
    log(f"warm start took {time.perf_counter() - started:.1f} s")
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--warm-steps", type=int, default=300)
    parser.add_argument("--grpo-steps", type=int, default=4)
    parser.add_argument("--work", type=Path, default=Path("/tmp/kernelscope_train_smoke"))
    parser.add_argument("--dry-run", action="store_true",
                        help="CPU rehearsal: static rewards, no runner (checks everything else)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    args.work.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT))

    from kernelscope.rl.ranker import shipped_ranker_fn
    from kernelscope.rl.reward import RewardConfig, UnifiedReward, default_run, default_run_many
    from kernelscope.rl.tasks import load_corpus
    from kernelscope.rl.trainer import TrainConfig, train

    mode = "static" if args.dry_run else "full"
    run_fn = functools.partial(default_run, timeout_s=10.0)
    if args.dry_run:
        adversarial_ok = True
    else:
        environment()
        adversarial_ok = adversarial_rewards(args.out, run_fn)

    tasks = {name: task for name, task in load_corpus(str(ROOT / "corpus")).items() if name in SMOKE_PROBLEMS}
    ranker_fn = shipped_ranker_fn()
    run_many_fn = functools.partial(default_run_many, timeout_s=10.0)
    if not args.dry_run:
        corpus_throughput(args.out, tasks, run_many_fn, ranker_fn)
    policy = warm_start_policy(args.work / "policy", tasks, args.warm_steps)

    reward = UnifiedReward(RewardConfig(mode=mode), run_many_fn=run_many_fn, ranker_fn=ranker_fn)
    output_dir = args.work / "run"
    config = TrainConfig(model=str(policy), corpus=str(ROOT / "corpus"), problems=sorted(tasks), repeats=4,
                         max_turns=2, chat="no", reward={"mode": mode},
                         grpo={"num_generations": 4, "per_device_train_batch_size": 8, "max_completion_length": 512,
                               "max_steps": args.grpo_steps, "save_steps": 2, "learning_rate": 1e-5,
                               "temperature": 1.0, "bf16": not args.dry_run, "use_cpu": args.dry_run,
                               "logging_steps": 1, "seed": 0,
                               "output_dir": str(output_dir)})
    log(f"GRPO: {len(tasks)} problems, ranker {'on' if ranker_fn else 'off'}, {mode} rewards")
    summary = train(config, reward=reward)
    summary["adversarial_all_fail_band"] = adversarial_ok
    progress = (output_dir / "progress.jsonl").read_text()
    (args.out / "progress.jsonl").write_text(progress)
    for line in progress.splitlines():
        entry = json.loads(line)
        picked = {k: round(v, 4) if isinstance(v, float) else v for k, v in entry.items()
                  if k.startswith("kernelscope/") or k in ("step", "reward", "loss", "kl")}
        log(f"progress {picked}")
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2))
    log(f"summary {json.dumps(summary)}")
    return 0 if adversarial_ok else 1


if __name__ == "__main__":
    sys.exit(main())
