"""The program that `kernelscope profile` runs under ncu: the planned launches, nothing else.

Started as `python -m kernelscope.runner.profile_target PLAN`, where PLAN is a pickle written by
kernelscope.runner.profile (trusted: the same user wrote it a moment ago). Each job is verified once
per size with the same harness as `run`, so that ncu sees exactly the launches `run` makes; the
verdicts go back in a JSON file next to the plan.
"""

from __future__ import annotations

import json
import pickle
import sys


def main(plan_path: str) -> int:
    import cupy

    from kernelscope.runner.harness import Harness

    with open(plan_path, "rb") as handle:
        plan = pickle.load(handle)
    cupy.cuda.Device(0).use()
    harness = Harness()
    verdicts = []
    for job in plan["jobs"]:
        reply = harness.run(job)
        verdicts.append([v.to_json() for v in reply["sizes"]])
    with open(plan["verdicts_path"], "w") as handle:
        json.dump(verdicts, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
