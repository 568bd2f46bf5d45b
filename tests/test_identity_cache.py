"""IdentityCache derives a value once per object, by identity: an equal but distinct object is
another entry, and beyond the limit the oldest entry goes first."""

from kernelscope.identity_cache import IdentityCache


def test_values_are_derived_once_per_object_and_equal_objects_are_not_confused():
    calls = []

    def derive(obj):
        calls.append(obj)
        return len(calls)

    cache = IdentityCache(8)
    first, twin = [1, 2], [1, 2]
    assert cache.get(first, derive) == 1
    assert cache.get(first, derive) == 1
    assert cache.get(twin, derive) == 2          # equal content, another object
    assert calls == [first, twin] and calls[0] is first and calls[1] is twin


def test_beyond_the_limit_the_oldest_entry_goes_first():
    cache = IdentityCache(2)
    objects = [object() for _ in range(3)]
    derived = []
    for obj in objects:
        cache.get(obj, derived.append)
    assert len(cache) == 2
    cache.get(objects[2], derived.append)         # still kept
    cache.get(objects[1], derived.append)         # still kept
    assert len(derived) == 3
    cache.get(objects[0], derived.append)         # the oldest had gone: derived again
    assert derived == [objects[0], objects[1], objects[2], objects[0]]
