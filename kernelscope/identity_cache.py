"""Values derived from objects that are never changed, kept by the objects' identity.

Hashing such an object's content (an occupancy sweep, a tuple of arrays) would cost about what
deriving the value again costs; its id is free. Each entry holds the object itself, so that no
other object can take its id while the entry exists; beyond `limit` entries the oldest goes first.
"""

from __future__ import annotations


class IdentityCache:
    def __init__(self, limit: int):
        self.limit = limit
        self._entries: dict = {}      # id(object) -> (object, value)

    def get(self, key_object, derive):
        """derive(key_object), computed once while the entry lasts."""
        entry = self._entries.get(id(key_object))
        if entry is None or entry[0] is not key_object:
            if len(self._entries) >= self.limit:
                del self._entries[next(iter(self._entries))]
            entry = self._entries[id(key_object)] = (key_object, derive(key_object))
        return entry[1]

    def __len__(self) -> int:
        return len(self._entries)
