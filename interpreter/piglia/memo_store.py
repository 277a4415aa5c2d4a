"""The capture table's memo kept between simulations: a run starts from what earlier runs of its rules learnt.

A variant's capture table (:mod:`piglia.capture_table`) learns the captures of each table key as random play meets
it. Where captures are sums over big tables it learns for thousands of deals, and a run is slower until it has:
up to 1.5 times, over a run's first few thousand deals (docs/performance.md, issue 12's nineteenth pass). So a
simulation of at least :data:`RECALL_FROM_DEALS` deals (or :data:`RECALL_FROM_MATCHES` matches) recalls the memo an
earlier run kept for the same rules and the same engine code, and keeps what it has learnt for the next one. Only
the speed changes: an answer is the same whether it was learnt now or recalled (``tests/test_capture_table.py``
checks the memo's answers against the plain search), so records and statistics are identical
(``tests/test_memo_store.py``). Small runs neither read nor write it, so that ``piglia simulate --deals 1`` starts
as fast as before.

The memo is kept in the disk cache (:mod:`piglia.diskcache`: ``PIGLIA_NO_CACHE=1`` turns it off), keyed by the
variant's rules and the engine's code (:func:`piglia.spec.engine_stamp`): changed rules or another engine are
another key, never a stale answer. A kept memo is checked whole when it is read (an answer no table of its key
could hold would fail a move); one that does not pass is ignored. At most :data:`KEPT` memos are kept, the oldest
written going first; a memo at its bound (``CaptureTable.MAX_ENTRIES`` keys) is about 3.5 MB.
"""

from __future__ import annotations

import marshal
import time
import weakref

from piglia import diskcache
from piglia.capture_table import CaptureTable
from piglia.variant import Variant

__all__ = ["KEPT", "RECALL_FROM_DEALS", "RECALL_FROM_MATCHES", "keep", "recall", "worth_recalling"]

KIND = "capture-memo"
LAYOUT = "1"  # bumped when the payload's form changes: older memos are then another key, never read
KEPT = 32  # memos kept (one per rules and engine): every built-in variant's, a few megabytes at most each
RECALL_FROM_DEALS = 200  # smaller runs learn little, and recalling a big memo costs about 0.1 s
RECALL_FROM_MATCHES = 50
MIN_NEW = 1000  # a memo is kept again only when it has learnt this many keys since it was recalled or kept...
# ...and, in a worker, grown this many times or not kept for KEEP_EVERY seconds: a worker cannot tell its last
# batch, so it keeps after a batch, and a memo learning from nothing to its bound is written about a dozen times,
# not after every batch (each write of a big memo costs about 0.1 s).
GROWTH = 1.5
KEEP_EVERY = 10.0

# The memo's size when each table was recalled or last kept in this process, and when: only a recalled table is
# kept.
_sizes: weakref.WeakKeyDictionary[CaptureTable, tuple[int, float]] = weakref.WeakKeyDictionary()


def worth_recalling(deals: int | None, matches: int | None) -> bool:
    """Whether a run of ``deals`` deals or ``matches`` matches recalls and keeps the memo."""
    return (deals or 0) >= RECALL_FROM_DEALS or (matches or 0) >= RECALL_FROM_MATCHES


def _key(variant: Variant) -> str | None:
    if diskcache.cache_dir() is None or not variant.sha256:
        return None
    from piglia.spec import engine_stamp  # here: loading rules is spec's concern, and it imports much

    stamp = engine_stamp()
    if stamp is None:  # a mechanic whose code cannot be told: its answers could change unseen
        return None
    return diskcache.digest("capture memo", LAYOUT, variant.sha256, stamp)


def _entries(payload: bytes, cards: int) -> dict[int, tuple[tuple[int, ...], ...]] | None:
    """The memo ``payload`` holds, or None when it is not one: every key an int, every answer a tuple of
    captures, each a non-empty tuple of positions among ``cards`` (no table holds more)."""
    try:
        data = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    if type(data) is not dict or not all(type(key) is int and key >= 0 for key in data):
        return None
    if not all(type(found) is tuple for found in data.values()):
        return None
    try:  # each capture checked once: thousands of them make up hundreds of thousands of answers
        captures = set().union(*data.values())
    except TypeError:  # an unhashable capture: not one
        return None
    for positions in captures:
        if type(positions) is not tuple or not positions:
            return None
        for p in positions:
            if type(p) is not int or not 0 <= p < cards:
                return None
    return data


def recall(variant: Variant) -> int:
    """Teach ``variant``'s capture table the memo kept for its rules and engine, once per process; returns how
    many keys it learnt (0 when there is no table, no kept memo, or it was recalled already)."""
    table = variant.capture.table
    if table is None or not table.on or table in _sizes:
        return 0
    key = _key(variant)
    payload = diskcache.load(KIND, key) if key is not None else None
    learnt = 0
    if payload is not None:
        entries = _entries(payload, len(table.played_class))
        if entries is not None:
            learnt = table.absorb(entries)
    _sizes[table] = len(table.memo), time.monotonic()
    return learnt


def keep(variant: Variant, *, growth: float = 1.0) -> bool:
    """Keep ``variant``'s memo for later runs, merged with the one kept already, if it was recalled in this
    process and has learnt :data:`MIN_NEW` keys since (and grown ``growth`` times, or was last kept
    :data:`KEEP_EVERY` seconds ago); returns whether it did."""
    table = variant.capture.table
    if table is None or not table.on or table not in _sizes:
        return False
    (before, when), size = _sizes[table], len(table.memo)
    if size - before < MIN_NEW or (size < before * growth and time.monotonic() - when < KEEP_EVERY):
        return False
    key = _key(variant)
    if key is None:
        return False
    entries = table.export()
    payload = diskcache.load(KIND, key)
    # Another process (a worker, another run) may have kept keys this one never met: they are kept too.
    kept = _entries(payload, len(table.played_class)) if payload is not None else None
    for k, found in (kept or {}).items():
        if len(entries) >= table.MAX_ENTRIES:
            break
        entries.setdefault(k, found)
    diskcache.store(KIND, key, marshal.dumps(entries), limit=KEPT)
    _sizes[table] = size, time.monotonic()
    return True
