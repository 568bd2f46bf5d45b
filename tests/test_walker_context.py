"""Each record's context (the loops around it and the conditions guarding it) as the walk leaves
and enters loops, branches, ternaries and inlined helpers. Records made in a row under the same
ones share a Context object, so a context kept too long would show up here as a record with the
loops or conditions of an earlier statement."""

from kernelscope.frontend.parse import parse_file

SOURCE = """
__device__ void fill(float* p, int m) {
    for (int j = 0; j < m; j++) p[j] = 0.f;
}
__global__ void k(float* a, int n) {
    a[0] = 1.f;
    for (int i = 0; i < n; i++) {
        a[i] = 2.f;
        if (i > 2) a[i + 1] = 3.f;
        a[i + 2] = 4.f;
    }
    if (n > 4) { a[1] = 5.f; } else { a[2] = 6.f; }
    a[3] = 7.f;
    if (n > 8) fill(a, n);
    a[4] = 8.f;
    a[5] = n > 1 ? a[6] : a[7];
}
"""


def _shape(access):
    """(line, op, loop variables, (condition line, negated) for each condition)."""
    context = access.context
    return (access.line, access.op, tuple(loop.var for loop in context.loops),
            tuple((c.line, c.negated) for c in context.conditions))


def test_every_record_has_the_loops_and_conditions_of_its_own_statement():
    kernel = parse_file(SOURCE, "k.cu").kernels[0]
    assert [_shape(a) for a in kernel.accesses] == [
        (6, "store", (), ()),
        (8, "store", ("i",), ()),
        (9, "store", ("i",), ((9, False),)),
        (10, "store", ("i",), ()),
        (12, "store", (), ((12, False),)),
        (12, "store", (), ((12, True),)),
        (13, "store", (), ()),
        (3, "store", ("j",), ((14, False),)),
        (15, "store", (), ()),
        (16, "load", (), ((16, False),)),
        (16, "load", (), ((16, True),)),
        (16, "store", (), ()),
    ]
