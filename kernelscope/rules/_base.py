"""The base class that every rule's documentation class derives from.

A rule is declared once, as a class: its code, name and default severity are class attributes, its
docstring is the documentation, written in four sections (What it does / Why is this bad? /
Example / Use instead), and its `check` classmethod finds it. Declaring a rule without one of those
sections fails at import, so the documentation cannot drift out of existence.

Checks read facts and judge them; they compute nothing the analyses could not tell everyone else.
A check is `check(facts)`, yielding `Diagnostic`s (`cls.finding(...)` makes one with the rule's
code and default severity). `scope` says what `facts` is:
- "kernel": a `kernelscope.analyze.KernelResult` (the kernel record, its analyses' results, the
  file `path` and the `rejected_launches` the launch shape analysis set aside), once per kernel;
- "file": a `kernelscope.analyze.FileResult` (its `model` is the front end's `FileModel`), once per file.
A rule without a `check` is reported by something other than the analyses (KS903: the lint engine).
"""

from __future__ import annotations

import inspect
import re
from typing import ClassVar

from kernelscope.model import SEVERITIES, Diagnostic

SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead")

# The parts of a kernel's facts (`KernelResult` attributes) that a rule's `reads_only` may name.
KERNEL_PARTS = ("memory", "kernel", "sync")

_HEADING = re.compile(r"^## (.+?)\s*$", re.MULTILINE)
_CODE = re.compile(r"^KS\d{3}$")
_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[str]
    scope: ClassVar[str] = "kernel"     # what `check` receives: "kernel" or "file" facts
    # The one field of the kernel's facts whose entries are all the check reports from, if any:
    # (part, field) with part one of KERNEL_PARTS, e.g. ("sync", "shared_races") or ("memory",
    # "branches"). check_kernel skips the check where that part is None or its field is empty (most
    # kernels have no race, no divergent branch, ...).
    reads_only: ClassVar[tuple | None] = None
    # Filled in from the docstring by __init_subclass__.
    doc: ClassVar[str]
    sections: ClassVar[dict]
    has_check: ClassVar[bool]

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not _CODE.match(cls.code):
            raise TypeError(f"{cls.__name__}: rule code {cls.code!r} is not of the form KSnnn")
        if not _NAME.match(cls.name):
            raise TypeError(f"{cls.__name__}: rule name {cls.name!r} must be lower-case-with-dashes")
        if cls.severity not in SEVERITIES:
            raise TypeError(f"{cls.__name__}: severity {cls.severity!r} is not one of {SEVERITIES}")
        cls.doc = inspect.cleandoc(cls.__doc__ or "")
        cls.sections = _split_sections(cls.doc)
        missing = [s for s in SECTIONS if not cls.sections.get(s)]
        if missing:
            raise TypeError(f"{cls.code}: documentation lacks section(s) {missing}")
        if cls.scope not in ("kernel", "file"):
            raise TypeError(f"{cls.code}: scope {cls.scope!r} is not 'kernel' or 'file'")
        cls.has_check = "check" in cls.__dict__
        if cls.reads_only is not None and cls.reads_only[0] not in KERNEL_PARTS:
            raise TypeError(f"{cls.code}: reads_only names {cls.reads_only[0]!r}, not one of {KERNEL_PARTS}")

    def __init__(self):
        raise TypeError("rules are declarations; use the class itself")

    @classmethod
    def check(cls, facts):
        """The findings of this rule in `facts` (see the module docstring); rules that the analyses
        do not report have none."""
        return ()

    @classmethod
    def finding(cls, path: str, line: int, column: int, message: str, kernel=None, **extra) -> Diagnostic:
        """A finding of this rule at its default severity (the lint configuration may change it later)."""
        return Diagnostic(cls.code, cls.severity, path, line, column, message, kernel, **extra)

    @classmethod
    def summary(cls) -> str:
        """The first sentence of "What it does", for listings and SARIF short descriptions."""
        what = " ".join(cls.sections["What it does"].split())
        # a full stop that is not part of an ellipsis ("`const ... __restrict__`" goes on)
        end = re.search(r"(?<!\.)\.(?!\.)\s", what)
        return what if end is None else what[: end.start() + 1]

    @classmethod
    def family(cls) -> str:
        """The family prefix, e.g. "KS1" for KS101."""
        return cls.code[:3]


def _split_sections(doc: str) -> dict:
    """Map each "## Heading" of a docstring to the text under it."""
    headings = list(_HEADING.finditer(doc))
    sections = {}
    for here, after in zip(headings, headings[1:] + [None]):
        body = doc[here.end(): after.start() if after else len(doc)]
        sections[here.group(1)] = body.strip()
    return sections
