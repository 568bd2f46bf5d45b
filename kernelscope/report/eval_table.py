"""The `kernelscope eval` table: one row per problem, then the pooled figures."""

from __future__ import annotations


def eval_table(document: dict) -> str:
    ps = list(document["problems"][0]["fast_p"]) if document["problems"] else []
    header = ["problem", "n", "compiled", "correct", *[f"fast_{p}" for p in ps], "geomean"]
    rows = [_row(entry["problem"], entry, ps) for entry in document["problems"]]
    rows.append(_row("overall", document["overall"], ps))
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(len(header))]
    lines = [f"speedups over: {_baseline_words(document['baseline'])}",
             "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths)))]
    for number, row in enumerate(rows):
        if number == len(rows) - 1:
            lines.append("-" * len(lines[1]))
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
    return "\n".join(lines) + "\n"


def _row(name: str, figures: dict, ps: list) -> list[str]:
    geomean = figures["geomean_speedup"]
    return [name, str(figures["completions"]), _percent(figures["compiled_rate"]), _percent(figures["correct_rate"]),
            *[_percent(figures["fast_p"][p]) for p in ps], "-" if geomean is None else f"{geomean:.2f}x"]


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def _baseline_words(baseline: str) -> str:
    return {"problem": "each problem's baseline (eager torch or the fastest known implementation)",
            "reference": "each problem's reference"}.get(baseline, baseline)
