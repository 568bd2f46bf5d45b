"""Walker._arith looks the precision up in FLOAT_PRECISION itself and makes a counted operator's
Arith record itself (what _flop and Scope.add do, written out). On every CUDA file of the project
the model must be the one the earlier _arith gives (precision_of's call, each record through
_flop and Scope.add): same records, same order and `seq` stamps, same contexts. A broken copy is
caught."""

from kernelscope import math_costs
from kernelscope.frontend import body
from kernelscope.frontend.ctypes import precision_of
from test_walker_fast_paths import CUDA_FILES, digests


def _arith_before(self, node, operator, ctype, left=None, right=None) -> None:
    """Walker._arith as it was before walkfast14."""
    precision = precision_of(ctype)
    if precision is None or operator not in ("+", "-", "*", "/"):
        return
    if node.kind_id in body._BINARY_KINDS:
        text = self._source[node.start_byte:node.end_byte]
        if self._counted_arith is None:
            self._counted_arith = {text}
        elif text in self._counted_arith:
            return
        else:
            self._counted_arith.add(text)
    if operator == "/" and precision in ("fp32", "fp64"):
        cost = math_costs.division_flops(precision, body._constant_value(left), body._constant_value(right))
        self._flop(node, "div", precision, cost)
        return
    self._flop(node, {"+": "add", "-": "add", "*": "mul", "/": "div"}[operator], precision, 1)


def _earlier_arith(monkeypatch):
    monkeypatch.setattr(body.Walker, "_arith", _arith_before)


def test_arith_records_are_the_ones_flop_makes_on_every_file(monkeypatch):
    assert digests(monkeypatch, CUDA_FILES, general_path=_earlier_arith) == []


def test_the_files_count_float_operations():
    """(the comparison above means something only where _arith records operations)"""
    from kernelscope.frontend.parse import parse_file
    counted = 0
    for path in CUDA_FILES[:80]:
        try:
            model = parse_file(path.read_text(errors="replace"), str(path))
        except Exception:
            continue
        counted += sum(len(k.arith) for k in model.kernels)
    assert counted > 200


def _wrong_kinds(monkeypatch):
    monkeypatch.setattr(body, "_FLOP_KINDS", {"+": "add", "-": "add", "*": "add", "/": "div"})


def _unstamped(monkeypatch):
    """Records appended without Scope.add's stamp."""
    made = body.Arith

    def unstamped(*args):
        record = made(*args)
        record.__class__ = _NoSeq
        return record
    monkeypatch.setattr(body, "Arith", unstamped)


class _NoSeq(body.Arith):
    __slots__ = ()

    @property
    def seq(self):
        return 0

    @seq.setter
    def seq(self, value):
        pass


_NoSeq.__name__ = "Arith"     # (the digest names a record by its class: only the stamp may differ)


def test_a_wrong_operation_kind_is_caught(monkeypatch):
    assert digests(monkeypatch, CUDA_FILES[:60], general_path=_earlier_arith, fast_patch=_wrong_kinds) != []


def test_a_record_without_its_stamp_is_caught(monkeypatch):
    assert digests(monkeypatch, CUDA_FILES[:60], general_path=_earlier_arith, fast_patch=_unstamped) != []
