"""Walker.lvalue reads a subscript's array name (`a` of `a[i]`) from the walk's names itself, as
_operand reads an operand's name, instead of through `expression` and expr_identifier. The model
must be what the general path builds, on every CUDA file of the project (compared by the digest of
tests/test_walker_fast_paths.py, which names expression nodes by first-met order), and a shortcut
that lost the array's pointer would be caught."""

from kernelscope.frontend import body
from kernelscope.frontend.body import Value
from test_walker_fast_paths import CUDA_FILES, ROOT, digests, kind_sets_emptied


_general = kind_sets_emptied("_SUBSCRIPT_BASE_NAMES")


def _differing(monkeypatch, paths, fast_patch=None) -> list:
    return digests(monkeypatch, paths, _general, fast_patch)


def test_subscript_bases_read_alone_are_what_expression_gives(monkeypatch):
    body._load_kind_tables()
    assert body._SUBSCRIPT_BASE_NAMES       # (the shortcut is on: what the comparison compares with)
    assert _differing(monkeypatch, CUDA_FILES) == []


def test_a_base_read_without_its_pointer_is_caught(monkeypatch):
    class Pointless(dict):
        """An env whose names lose their pointers when read with .get (as the shortcut reads them)."""
        def get(self, name, default=None):
            value = super().get(name, default)
            return Value(value.expr, value.ctype) if value is not None and value.pointer is not None else value

    init = body.Walker.__init__

    def walker_with_pointless_env(walker, unit, scope, env, record=True):
        init(walker, unit, scope, Pointless(env), record)

    paths = sorted((ROOT / "examples").glob("*.cu"))[:20]
    assert _differing(monkeypatch, paths, lambda m: m.setattr(body.Walker, "__init__", walker_with_pointless_env)) != []
