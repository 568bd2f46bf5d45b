"""parse._top_level_declarations tells nodes apart by kind id (prefast14). It must find the
declarations that reading each node's type finds, in the same order: on every CUDA file."""

from kernelscope.frontend import parse as front
from test_walked_captures import CUDA_FILES


def _declarations_by_type(root) -> list:
    stack = [root]
    found = []
    while stack:
        node = stack.pop()
        for child in node.named_children:
            if child.type == "declaration":
                found.append(child)
            elif child.type in front._DECLARATION_CONTAINERS:
                stack.append(child)
    return found


# declarations in each kind of container, comments and functions between them
NESTED = """
const int A = 1;  // a comment
namespace outer { const int B = 2; __device__ float d[4];
  namespace inner { /* c */ __constant__ int C[2]; __device__ int f() { return 0; } }
}
extern "C" { const int D = 4; }
#if X
const int E = 5;
#ifdef Y
__shared__ float s[8];
#else
const int F = 6;
#endif
#endif
"""


def _trees():
    for text in [NESTED] + [path.read_text(encoding="latin-1") for path in CUDA_FILES]:
        yield front._parser().parse(text.encode("ascii", "replace")).root_node


def test_same_declarations_as_by_type_on_the_cuda_files():
    found = 0
    nested = 0
    for root in _trees():
        ours = [(node.start_byte, node.end_byte) for node in front._top_level_declarations(root)]
        assert ours == [(node.start_byte, node.end_byte) for node in _declarations_by_type(root)]
        found += len(ours)
        nested += sum(1 for node in front._top_level_declarations(root) if node.parent != root)
    assert found > 30 and nested > 6      # (declarations inside namespaces and #if blocks too)


def test_each_container_kind_is_needed(monkeypatch):
    # (the comparison can fail: without namespaces' kinds, declarations inside them are lost)
    kinds = front._declaration_container_kinds() - front.kind_ids("namespace_definition")
    monkeypatch.setattr(front, "_declaration_container_kinds", lambda: kinds)
    assert any(len(list(front._top_level_declarations(root))) != len(_declarations_by_type(root)) for root in _trees())
