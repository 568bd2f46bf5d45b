"""Prompts for the trainer: a first turn from a corpus problem, and refinement turns that show the
model its previous attempt and the feedback on it.

The first turn states exactly what the harness will do with the answer - kernel name, argument order and
types, launch configuration - because a kernel with the wrong signature is wasted compute however good it
is. C-to-CUDA problems show the C loop; PyTorch-to-CUDA problems show the PyTorch module.
"""

from __future__ import annotations

SYSTEM = ("You are an expert CUDA engineer. You write correct, fast CUDA kernels for an NVIDIA H200 "
          "(compute capability 9.0). Answer with one ```cuda code block containing device code only.")

_C_TYPES = {"float32": "float", "float64": "double", "float16": "__half", "bfloat16": "__nv_bfloat16",
            "int32": "int", "int64": "long long", "uint32": "unsigned int", "uint8": "unsigned char",
            "int8": "signed char", "bool": "bool"}


def c_type(dtype: str) -> str:
    return _C_TYPES.get(dtype, dtype)


def signature(task) -> str:
    parameters = []
    for argument in task.arguments:
        base = c_type(argument.dtype)
        if argument.role == "scalar":
            parameters.append(f"{base} {argument.name}")
        elif argument.role == "input":
            parameters.append(f"const {base}* __restrict__ {argument.name}")
        else:
            parameters.append(f"{base}* __restrict__ {argument.name}")
    return f'extern "C" __global__ void {task.kernel}({", ".join(parameters)})'


def task_statement(task) -> str:
    source_kind = "PyTorch module" if task.style == "pytorch" else "C function"
    fence = "python" if task.style == "pytorch" else "c"
    shapes = "; ".join(f"{a.name}: {a.dtype}[{', '.join(map(str, a.shape))}]" for a in task.arguments
                       if a.role != "scalar")
    block = "x".join(str(b) for b in task.block if b != 1) or "1"
    grid = ", ".join(task.grid_text) or "as needed"
    sizes = ", ".join(f"{name}: {', '.join(f'{k}={v}' for k, v in values.items())}"
                      for name, values in task.sizes.items())
    return "\n".join([
        f"Write a CUDA kernel that computes the same result as this {source_kind}.",
        f"Problem: {task.description}" if task.description else "",
        f"```{fence}\n{task.prompt_source.rstrip()}\n```" if task.prompt_source else "",
        f"Signature (exactly): {signature(task)}",
        f"Arrays: {shapes}.",
        f"It is launched with block = {block} and grid = ({grid}); sizes tested: {sizes}.",
        plan_lesson(task),
        "The output is checked against a reference on fresh random inputs, then timed. Make it fast.",
    ]).replace("\n\n", "\n")


def plan_lesson(task) -> str:
    """How a candidate chooses its own launch (docs/spec-format.md, "Launch plans"), with this task's names."""
    arrays = [a.name for a in task.arguments]
    sizes = next(iter(task.sizes.values()), {})
    first = next(iter(sizes), "n")
    return "\n".join([
        "To launch differently (another grid or block, several kernels, scratch memory), put a launch plan "
        "in a comment at the top of your code; all launches are timed together. Example:",
        "```cuda",
        "/* kernelscope:plan",
        "[[scratch]]            # optional; zero = true: zeroed before every run, false: garbage",
        f'name = "partial"\ndtype = "float32"\nshape = ["ceil_div({first}, 1024)"]\nzero = false',
        "[[launch]]             # one or more, in order; numbers are expressions over the sizes",
        f'kernel = "step1"\ngrid = ["ceil_div({first}, 1024)"]\nblock = ["256"]\nargs = {_names(arrays + ["partial"])}',
        "[[launch]]",
        f'kernel = "step2"\ngrid = ["1"]\nblock = ["1024"]\nargs = {_names(["partial"] + arrays)}',
        "*/",
        "```",
        "args name the kernel's parameters in order: the arrays and scalars above and your scratch buffers.",
    ])


def _names(names) -> str:
    return "[" + ", ".join(f'"{n}"' for n in names) + "]"


def first_turn(task, *, chat: bool) -> str | list:
    statement = task_statement(task)
    if chat:
        return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": statement}]
    return f"{SYSTEM}\n\n{statement}\n\nAnswer:\n"


def refinement_turn(task, previous_answer: str, feedback: str, *, chat: bool) -> str | list:
    """The conversation so far (task, the model's previous answer) and the feedback as the next user turn."""
    follow_up = f"Feedback on your kernel:\n{feedback}\n\nSend the complete improved kernel."
    if chat:
        return [*first_turn(task, chat=True), {"role": "assistant", "content": previous_answer},
                {"role": "user", "content": follow_up}]
    return f"{first_turn(task, chat=False)}{previous_answer}\n\n{follow_up}\n\nAnswer:\n"
