"""walkfast17: loop-carried Syms shared by structure (sx.shared_loop_sym) and expression texts kept
by structure key (sx.text_of) give what the plain constructors and str() give."""

from kernelscope import symbolic as sx
from kernelscope.frontend.parse import parse_file

_SLOTS = ("name", "varying", "_key", "_weight", "_depth", "_symbols", "_free_names", "_carried",
          "_env_names", "_has_load")


def _defaults():
    i, n = sx.shared_sym("i"), sx.shared_sym("n")
    return [sx.Const(0), sx.Const(0.0), sx.Const(True), i, sx.binary("*", i, n), sx.Load("a", sx.binary("+", i, 4)),
            sx.Opaque("expf", (i,)), sx.Select(i, n, sx.Const(1)), sx.Unary("-", n), sx.Call("min", (i, n)),
            sx.Sym("k", default=sx.Const(3), varying=True)]


def test_shared_loop_sym_is_the_plain_sym():
    sx.forget_file_tables()
    for default in _defaults():
        for varying in (False, True):
            shared = sx.shared_loop_sym("v", default, varying)
            plain = sx.Sym("v", default=default, varying=varying)
            assert shared is not plain
            for slot in _SLOTS:
                assert getattr(shared, slot) == getattr(plain, slot), slot
            assert shared.default is default
            assert shared.thread_dependent == plain.thread_dependent


def test_shared_loop_sym_shares_by_structure_only():
    sx.forget_file_tables()
    first = sx.shared_loop_sym("i", sx.Const(0), False)
    assert sx.shared_loop_sym("i", sx.Const(0), False) is first           # an equal default, built anew
    assert sx.shared_loop_sym("i", sx.Const(0), True) is not first        # varying differs
    assert sx.shared_loop_sym("j", sx.Const(0), False) is not first       # the name differs
    assert sx.shared_loop_sym("i", sx.Const(0.0), False) is not first     # 0 and 0.0 differ
    assert sx.shared_loop_sym("i", sx.Const(False), False) is not first   # 0 and False differ
    sx.forget_file_tables()
    assert sx.shared_loop_sym("i", sx.Const(0), False) is not first       # one file's table only


class _Marked(sx.Const):
    """A subclass with its class's structure key (as a test's might be): never shared."""
    __slots__ = ()

    def __str__(self):
        return "marked"


def test_unshareable_classes_are_not_kept():
    sx.forget_file_tables()
    marked = _Marked(0)
    assert sx.shared_loop_sym("i", marked, False) is not sx.shared_loop_sym("i", marked, False)
    assert sx.text_of(sx.Const(0)) == "0"
    assert sx.text_of(marked) == "marked"       # not the "0" kept for its key


def test_text_of_is_str():
    sx.forget_file_tables()
    for default in _defaults():
        for node in (default, sx.Sym("v", default=default), sx.Load("b", default), sx.Opaque("s", (default,))):
            assert sx.text_of(node) == str(node)
            assert sx.text_of(node) == str(node)        # (again, from the table)


def test_fields_of_a_value_are_named_by_its_text():
    source = """
    struct pair { float a; float b; };
    __global__ void k(const float4* in, float* out, pair p) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float4 v = in[i];
        for (int j = 0; j < 4; j++) {
            out[i] = v.x + v.y + v.z + v.w + p.a;
        }
        for (int j = 0; j < 8; j++) {
            out[i + j] = v.x * p.b;
        }
    }
    """
    kernel = parse_file(source).kernels[0]
    stored = [str(a.stored) for a in kernel.accesses if a.op == "store"]
    assert "in[" in stored[0] and ".x" in stored[0] and ".w" in stored[0]
    assert [loop.start for loop in kernel.loops] == [sx.Const(0), sx.Const(0)]
