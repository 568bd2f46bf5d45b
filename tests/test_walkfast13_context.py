"""Walker.context() gives its last Context without comparing the loop and condition lists while
nothing was pushed or popped since (each change to Walker.loops or Walker.conditions sets
Walker._context_current to False). On every CUDA file of the project, every call must give what
the comparison alone gives: the same object where it would keep the last one, a new one with the
current lists' entries where it would not. A walker that forgets the changes is caught."""

import kernelscope.frontend.parse as parse
from kernelscope.frontend import body
from test_walker_fast_paths import CUDA_FILES


def _by_comparison_keeps(walker) -> bool:
    """Whether the comparison (all of context() before walkfast13) gives the last Context again."""
    loops, conditions, known = walker.loops, walker.conditions, walker._context
    return known is not None and len(known.loops) == len(loops) and len(known.conditions) == len(conditions) \
        and (not loops or known.loops[-1] is loops[-1]) \
        and (not conditions or known.conditions[-1] is conditions[-1])


def _same_entries(made, walker) -> bool:
    return len(made.loops) == len(walker.loops) and len(made.conditions) == len(walker.conditions) \
        and all(a is b for a, b in zip(made.loops, walker.loops)) \
        and all(a is b for a, b in zip(made.conditions, walker.conditions))


def _wrong_contexts(monkeypatch, paths) -> tuple[list, int]:
    """(where a call gave what the comparison would not, how many calls kept the last one unasked)"""
    wrong, unasked, where = [], [], [None]
    context = body.Walker.context

    def checked(walker):
        keeps, before, current = _by_comparison_keeps(walker), walker._context, walker._context_current
        made = context(walker)
        unasked.append(current)
        if (made is before) != keeps or not _same_entries(made, walker):
            wrong.append(f"{where[0]}: {walker.current_function}")
        return made

    with monkeypatch.context() as patched:
        patched.setattr(body.Walker, "context", checked)
        for path in paths:
            where[0] = path.name
            parse.parse_file(path.read_text(errors="replace"), str(path))
    return wrong, sum(unasked)


def test_the_kept_context_is_what_the_comparison_gives_on_every_file(monkeypatch):
    wrong, unasked = _wrong_contexts(monkeypatch, CUDA_FILES)
    assert wrong == []
    assert unasked > 1000           # (the shortcut is taken: most calls follow no change)


class _Forgetful(body.Walker):
    """A walker for which no change to its lists says so once context() was asked."""

    @property
    def _context_current(self):
        return self.__dict__.get("_current", False)

    @_context_current.setter
    def _context_current(self, value):
        if value:
            self.__dict__["_current"] = True


def test_a_forgotten_change_is_caught(monkeypatch):
    monkeypatch.setattr(parse, "Walker", _Forgetful)
    wrong, _ = _wrong_contexts(monkeypatch, CUDA_FILES[:30])
    assert wrong != []
