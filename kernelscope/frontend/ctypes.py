"""C/CUDA type sizes and struct layouts, enough to turn an index into a byte address."""

from __future__ import annotations

import re
from dataclasses import field
from functools import lru_cache

from kernelscope.records import record

SCALAR_BYTES = {
    "char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "int8_t": 1, "uint8_t": 1,
    "short": 2, "unsigned short": 2, "int16_t": 2, "uint16_t": 2,
    "half": 2, "__half": 2, "__nv_bfloat16": 2, "nv_bfloat16": 2, "bfloat16": 2,
    "int": 4, "unsigned": 4, "unsigned int": 4, "signed": 4, "int32_t": 4, "uint32_t": 4, "float": 4,
    "long": 8, "unsigned long": 8, "long long": 8, "unsigned long long": 8, "int64_t": 8, "uint64_t": 8,
    "size_t": 8, "ptrdiff_t": 8, "double": 8, "long int": 8, "long long int": 8,
    "unsigned long long int": 8, "uint": 4, "ushort": 2, "uchar": 1, "ulong": 8,
    "__half2": 4, "half2": 4, "__nv_bfloat162": 4, "nv_bfloat162": 4,
}

FLOAT_PRECISION = {
    "float": "fp32", "double": "fp64", "half": "fp16", "__half": "fp16", "__half2": "fp16",
    "half2": "fp16", "__nv_bfloat16": "bf16", "nv_bfloat16": "bf16", "__nv_bfloat162": "bf16",
    "nv_bfloat162": "bf16", "bfloat16": "bf16",
}

_VECTOR = re.compile(r"^(char|uchar|short|ushort|int|uint|long|ulong|longlong|ulonglong|float|double)([1-4])$")
_VECTOR_COMPONENT = {"char": 1, "uchar": 1, "short": 2, "ushort": 2, "int": 4, "uint": 4, "long": 8,
                     "ulong": 8, "longlong": 8, "ulonglong": 8, "float": 4, "double": 8}
_COMPONENT_NAMES = ("x", "y", "z", "w")


@record
class Field:
    name: str
    type_name: str
    offset: int
    size: int
    count: int = 1      # elements, for an array member


@record
class StructLayout:
    name: str
    size: int
    align: int
    fields: dict = field(default_factory=dict)  # name -> Field, in declaration order


_QUALIFIERS = re.compile(r"\b(const|volatile|__restrict__|__restrict|restrict|static|register|constexpr|"
                         r"struct|class|typename|__shared__|__constant__|__device__)\b")


@lru_cache(maxsize=4096)
def normalise_type(text: str) -> str:
    """'const unsigned  int' -> 'unsigned int'; strips qualifiers and namespaces we do not model.
    Cached: a file spells its few types thousands of times."""
    text = _QUALIFIERS.sub(" ", text)
    text = text.replace("std::", "").replace("::", "")
    return " ".join(text.split())


def vector_info(type_name: str):
    """(component type size, component count) for CUDA vector types such as float4."""
    match = _VECTOR.match(type_name)
    if match:
        return _VECTOR_COMPONENT[match.group(1)], int(match.group(2))
    if type_name in ("__half2", "half2", "__nv_bfloat162", "nv_bfloat162"):
        return 2, 2
    return None


def vector_component_type(type_name: str) -> str | None:
    match = _VECTOR.match(type_name)
    if match:
        base = match.group(1)
        return {"uint": "unsigned int", "uchar": "unsigned char", "ushort": "unsigned short",
                "ulong": "unsigned long", "longlong": "long long", "ulonglong": "unsigned long long"}.get(base, base)
    if type_name in ("__half2", "half2"):
        return "__half"
    if type_name in ("__nv_bfloat162", "nv_bfloat162"):
        return "__nv_bfloat16"
    return None


class TypeTable:
    """Sizes of scalar, vector and the file's own struct types."""

    def __init__(self):
        self.structs: dict[str, StructLayout] = {}
        self.aliases: dict[str, str] = {}
        # structs whose members hand out `extern __shared__` memory (cuda-samples' SharedMemory<T>)
        self.shared_memory_structs: set[str] = set()

    def size_of(self, type_name: str | None) -> int | None:
        if not type_name:
            return None
        type_name = self.resolve(type_name)
        if type_name.endswith("*"):
            return 8
        if type_name in SCALAR_BYTES:
            return SCALAR_BYTES[type_name]
        vector = vector_info(type_name)
        if vector:
            component, count = vector
            return component * count
        if type_name in self.structs:
            return self.structs[type_name].size
        return None

    def align_of(self, type_name: str) -> int:
        type_name = self.resolve(type_name)
        vector = vector_info(type_name)
        if vector:
            component, count = vector
            return component * (count if count in (1, 2, 4) else 1)
        if type_name in self.structs:
            return self.structs[type_name].align
        return self.size_of(type_name) or 4

    def resolve(self, type_name: str) -> str:
        if type_name not in self.aliases:
            return type_name
        seen = set()
        while type_name in self.aliases and type_name not in seen:
            seen.add(type_name)
            type_name = self.aliases[type_name]
        return type_name

    def field(self, type_name: str, field_name: str) -> Field | None:
        type_name = self.resolve(type_name)
        layout = self.structs.get(type_name)
        if layout is not None:
            return layout.fields.get(field_name)
        vector = vector_info(type_name)
        if vector and field_name in _COMPONENT_NAMES[: vector[1]]:
            component = vector[0]
            return Field(field_name, vector_component_type(type_name) or "float",
                         _COMPONENT_NAMES.index(field_name) * component, component)
        return None

    def add_struct(self, name: str, members: list[tuple[str, str, int]], forced_align: int | None = None) -> None:
        """members: (field name, type name, array count) in order; natural C layout."""
        offset = 0
        align = 1
        fields = {}
        for field_name, type_name, count in members:
            size = self.size_of(type_name)
            if size is None:
                return  # a member we cannot size: leave the struct unknown rather than guess
            member_align = self.align_of(type_name)
            offset = (offset + member_align - 1) // member_align * member_align
            fields[field_name] = Field(field_name, self.resolve(type_name), offset, size, count)
            offset += size * count
            align = max(align, member_align)
        if forced_align:
            align = max(align, forced_align)
        size = (offset + align - 1) // align * align
        self.structs[name] = StructLayout(name, size, align, fields)


def precision_of(type_name: str | None) -> str | None:
    if not type_name:
        return None
    return FLOAT_PRECISION.get(type_name)
