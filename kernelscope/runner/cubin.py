"""What a cubin says about itself: the mutable device globals a candidate defines.

A `__device__` or `__managed__` variable keeps its value from one launch to the next, which is how a
kernel carries an answer between launches. The harness restores every such variable before each
launch and compares it afterwards, so it needs their names; they are the object symbols of the
cubin's `.nv.global` (zero-initialised) and `.nv.global.init` (initialised) sections. Read with
`struct` from the ELF tables (no GPU needed, so CPU tests can check it on nvcc's output).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

_STT_OBJECT = 1
_NV_MANAGED = 0x4           # st_other bit nvcc sets on __managed__ variables
_GLOBAL_SECTIONS = (".nv.global", ".nv.global.init")


class CubinError(ValueError):
    """The bytes are not a 64-bit little-endian ELF cubin."""


@dataclass(frozen=True)
class DeviceGlobal:
    name: str
    size: int
    section: str
    managed: bool


def mutable_globals(cubin: bytes) -> list[DeviceGlobal]:
    """The writable device variables of `cubin` (not `__constant__`, not `__shared__`), in symbol order."""
    if len(cubin) < 64 or cubin[:4] != b"\x7fELF" or cubin[4] != 2 or cubin[5] != 1:
        raise CubinError("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * shentsize) for i in range(shnum)]
    names_offset = sections[shstrndx][4]
    section_names = [_c_string(cubin, names_offset + s[0]) for s in sections]
    found = []
    for header in sections:
        if header[1] != 2:                  # SHT_SYMTAB
            continue
        offset, size, link, entsize = header[4], header[5], header[6], header[9] or 24
        strings = sections[link][4]
        for position in range(offset, offset + size, entsize):
            name_at, info, other, shndx, _value, symbol_size = struct.unpack_from("<IBBHQQ", cubin, position)
            if info & 0xF != _STT_OBJECT or not 0 < shndx < len(sections):
                continue
            section = section_names[shndx]
            if section in _GLOBAL_SECTIONS:
                found.append(DeviceGlobal(_c_string(cubin, strings + name_at), symbol_size, section,
                                          bool(other & _NV_MANAGED)))
    return found


def _c_string(data: bytes, offset: int) -> str:
    end = data.index(b"\x00", offset)
    return data[offset:end].decode("utf-8", "replace")
