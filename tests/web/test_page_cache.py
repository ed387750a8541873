"""The match pages' cache (web/page_cache.py): bounded by its entries' sizes, the least
recently used dropped first, an entry too big for it not kept."""

from web.page_cache import LRU


def test_the_least_recently_used_goes_first_and_the_size_stays_bounded() -> None:
    cache: LRU[str] = LRU(10)
    cache.put("a", "aaaa", 4)
    cache.put("b", "bbbb", 4)
    assert cache.get("a") == "aaaa"  # now the most recently used
    cache.put("c", "cccc", 4)
    assert cache.get("b") is None and cache.get("a") == "aaaa" and cache.get("c") == "cccc"
    assert cache.size == 8 and len(cache) == 2
    cache.put("big", "x" * 11, 11)
    assert cache.get("big") is None and cache.size == 8
    cache.put("a", "aa", 2)  # replaced: its old size given back
    assert cache.size == 6 and cache.get("a") == "aa"
