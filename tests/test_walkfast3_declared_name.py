"""A kernel parameter's name is read by parse._declared_name: a slice of the parsed text for a plain
name or one pointer to it, nodes.leaf_name otherwise. It must be leaf_name's answer for every
parameter declarator of every CUDA file of the project; a slice taken from the wrong node is caught."""

from kernelscope.frontend import parse as front
from kernelscope.frontend.macros import preprocess
from kernelscope.frontend.nodes import FIELD, leaf_name
from kernelscope.frontend.shims import apply_shims
from kernelscope.frontend.source import normalise
from test_walker_fast_paths import CUDA_FILES


def _parameter_declarators():
    """(parsed text, declarator) for every parameter declaration of the project's CUDA files."""
    found = []
    for path in CUDA_FILES:
        expanded = preprocess(normalise(path.read_text(errors="replace")), None, "sm_90").text
        text, _ = apply_shims(expanded.encode("ascii", "replace").decode("ascii"))
        text += "}" * front._unclosed_braces(text)
        stack = [front._parser().parse(text.encode("ascii")).root_node]
        while stack:
            node = stack.pop()
            if node.type == "parameter_declaration":
                declarator = node.child_by_field_id(FIELD.declarator)
                if declarator is not None:
                    found.append((text, declarator))
            stack.extend(node.named_children)
    return found


DECLARATORS = _parameter_declarators()


def _mismatches(declared_name) -> int:
    front._load_name_kinds()
    return sum(declared_name(text, declarator) != leaf_name(declarator) for text, declarator in DECLARATORS)


def test_the_slices_are_read_where_there_are_many():
    front._load_name_kinds()
    sliced = [d for _, d in DECLARATORS if d.kind_id in front._IDENTIFIER_KINDS or
              d.kind_id in front._POINTER_DECLARATOR_KINDS and d.child_by_field_id(FIELD.declarator) is not None
              and d.child_by_field_id(FIELD.declarator).kind_id in front._IDENTIFIER_KINDS]
    assert len(sliced) > 1000 and len(DECLARATORS) > len(sliced)


def test_declared_names_are_what_leaf_name_reads():
    assert _mismatches(front._declared_name) == 0


def test_a_name_sliced_from_the_declarator_itself_is_caught():
    def broken(text, declarator):
        if declarator.kind_id in front._POINTER_DECLARATOR_KINDS:
            return text[declarator.start_byte:declarator.end_byte]      # `*p`, not `p`
        return front._declared_name(text, declarator)

    assert _mismatches(broken) > 100
