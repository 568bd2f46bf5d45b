"""A policy prompt and a hand-written completion with a launch plan, through `kernelscope train`'s
reward path: TrainConfig -> make_reward -> TimedReward (TRL's reward function) -> refinement pool.

    python3 benchmarks/gpu/plan_reward_path.py --mode static          # any machine
    source .whl/install.sh && python3 benchmarks/gpu/plan_reward_path.py --mode full --out "$OUT"   # GPU

The completion is corpus/col_sum/plans/two_pass.cu (two kernels, a scratch buffer) inside a model-style
answer; a second completion breaks its plan. Prints, and writes to plan_reward_path_<mode>.json, the
prompt's plan lesson, each reward's outcome, components and the feedback the next turn would show.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

PROBLEM = "col_sum"


def answers() -> dict:
    source = (ROOT / "corpus" / PROBLEM / "plans" / "two_pass.cu").read_text()
    good = f"Two passes give the GPU enough blocks:\n```cuda\n{source}```\n"
    broken = good.replace('args = ["partial", "out", "cols", "chunks"]', 'args = ["partial", "cols", "chunks"]')
    return {"plan": good, "broken_plan": broken}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["static", "full"], default="static")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()

    from kernelscope.rl.trainer import RefinementPool, TimedReward, TrainConfig, make_reward, select_tasks

    config = TrainConfig(model="(no model: hand-written completions)", problems=[PROBLEM],
                         reward={"mode": args.mode})
    tasks = select_tasks(config)
    pool = RefinementPool(tasks, max_turns=2, chat=False)
    prompt, turn = pool.prompt(PROBLEM)
    reward = make_reward(config)
    timed = TimedReward(reward, pool, ROOT / "corpus")
    completions = answers()
    totals = timed([prompt] * len(completions), list(completions.values()), problem=[PROBLEM] * len(completions))
    scored = reward.score_many(list(completions.values()), [tasks[PROBLEM]] * len(completions))  # cached
    report = {"mode": args.mode, "problem": PROBLEM, "prompt_turn": turn,
              "prompt_teaches_plans": "kernelscope:plan" in prompt,
              "results": {name: {"total": total, **reward_json(r)} for (name, r), total
                          in zip(zip(completions, scored), totals)},
              "next_prompt_feedback": pool.turns[PROBLEM].feedback if PROBLEM in pool.turns else None}
    text = json.dumps(report, indent=2, default=str)
    print(text)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    (Path(args.out) / f"plan_reward_path_{args.mode}.json").write_text(text + "\n")
    good, bad = report["results"]["plan"], report["results"]["broken_plan"]
    return 0 if good["band"] == "pass" and bad["outcome"] == "compile_error" else 1


def reward_json(reward) -> dict:
    document = reward.to_json()
    document["launches"] = [{"kernel": l["kernel"], "grid": list(l["grid"]), "block": list(l["block"])}
                            for l in (reward.launches if hasattr(reward, "launches") else [])]
    if reward.run is not None:
        document["run"] = {"correct": reward.run.correct, "kernel": reward.run.kernel, "flags": reward.run.flags,
                           "time_ms": reward.run.time_ms, "speedup": reward.run.speedup, "error": reward.run.error}
    if reward.errors:
        document["errors"] = reward.errors
    return document


if __name__ == "__main__":
    sys.exit(main())
