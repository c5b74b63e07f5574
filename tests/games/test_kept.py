"""games.kept, the one cache helper: bounded, named, emptied from one place."""

import time

import pytest

from games import kept


def test_a_cache_keeps_at_most_its_size_the_oldest_out():
    cache = kept.Kept(3, name="test.bounded")
    for n in range(5):
        cache.put(n, str(n))
    assert len(cache) == 3 and cache.get(0) is None and cache.get(4) == "4"
    assert cache.get_or_make(9, lambda: "nine") == "nine" and cache.get(9) == "nine"
    assert cache.get(2) is None  # the oldest went


def test_a_timed_entry_is_gone_after_its_seconds():
    cache = kept.Kept(8, seconds=0.01, name="test.timed")
    long = kept.Kept(8, seconds=3600, name="test.timed_long")
    cache.put("a", 1)
    long.put("a", 1)
    time.sleep(0.02)
    assert cache.get("a") is None and long.get("a") == 1


def test_a_name_is_one_cache_only():
    first = kept.Kept(2, name="test.named")
    with pytest.raises(ValueError, match="test.named"):
        kept.Kept(2, name="test.named")
    assert "test.named" in kept.named()
    del first


def test_forget_all_empties_all_but_the_lasting_ones():
    passing = kept.Kept(4, name="test.passing")
    lasting = kept.Kept(4, name="test.lasting", lasting=True)
    calls = []

    @kept.memo("test.memo")
    def square(n):
        calls.append(n)
        return n * n

    passing.put(1, 1)
    lasting.put(1, 1)
    assert square(3) == 9 and square(3) == 9 and calls == [3]
    kept.forget_all()
    assert passing.get(1) is None and lasting.get(1) == 1
    assert square(3) == 9 and calls == [3, 3]
    kept.forget_all(lasting=True)
    assert lasting.get(1) is None
