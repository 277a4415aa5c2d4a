"""The capture memo kept between simulations (piglia.memo_store): a big run keeps what its capture table learnt,
the next recalls it, and only the speed changes: the same records and statistics, whatever was kept."""

from __future__ import annotations

import io
import json
import marshal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import piglia
from conftest import run_piglia
from piglia import diskcache, memo_store
from piglia.build import VariantBuilder
from piglia.capture_table import CaptureTable
from piglia.simulate import _NoReporter, simulate
from piglia.variant import Variant


def fresh(name: str) -> Variant:
    """The built-in variant ``name`` built anew, with a capture table of its own (load_variant shares one)."""
    shared = piglia.load_variant(name)
    built = VariantBuilder(json.loads(json.dumps(dict(shared.rules))), _NoReporter()).build(
        sha256=shared.sha256, source="<test>"
    )
    assert built is not None
    return built


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PIGLIA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("PIGLIA_NO_CACHE", raising=False)
    # No duel against counting in this process: it is timed, and a memo that lost one on a loaded machine would be
    # switched off and kept by no one (with workers, 200 deals each end before the warm-up that precedes a duel)
    monkeypatch.setattr(CaptureTable, "DUEL_EVERY", 10**9)
    return tmp_path


def kept(cache: Path) -> list[Path]:
    return sorted((cache / memo_store.KIND).glob("*.entry"))


def run(variant: Variant, deals: int, **kw: object) -> tuple[dict[str, object], str]:
    """A run's statistics (its timing left out) and its records."""
    out = io.StringIO()
    summary = simulate(variant, deals=deals, seed=3, record=out, **kw)  # type: ignore[arg-type]
    stats = summary.as_dict()
    stats.pop("seconds", None)
    return stats, out.getvalue()


def test_a_big_run_keeps_its_memo_and_the_next_recalls_it_to_the_same_records(cache: Path) -> None:
    first = fresh("escoba")
    assert first.capture.table is not None
    cold = run(first, memo_store.RECALL_FROM_DEALS)
    assert len(kept(cache)) == 1
    learnt = len(first.capture.table.memo)

    second = fresh("escoba")
    assert second.capture.table is not None and not second.capture.table.memo
    assert memo_store.recall(second) == learnt  # every key the first run learnt, before a card is played
    assert memo_store.recall(second) == 0  # once per process
    assert run(second, memo_store.RECALL_FROM_DEALS) == cold


def test_a_small_run_neither_reads_nor_writes_the_memo(cache: Path) -> None:
    variant = fresh("scopa")
    run(variant, memo_store.RECALL_FROM_DEALS - 1)
    assert kept(cache) == []
    assert variant.capture.table is not None and variant.capture.table.memo  # it learnt, for itself only


def test_without_a_cache_nothing_is_kept_and_the_records_are_the_same(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_cache = run(fresh("scopa"), 300)
    monkeypatch.setenv("PIGLIA_NO_CACHE", "1")
    variant = fresh("scopa")
    assert memo_store.recall(variant) == 0
    assert run(variant, 300) == with_cache


@pytest.mark.parametrize(
    "payload",
    [
        b"not marshal data",
        marshal.dumps([1, 2, 3]),  # not a dict
        marshal.dumps({1: ((0,),), "k": ((0,),)}),  # a key not an int
        marshal.dumps({1: ((0,),), 2: ((0, 99),)}),  # a position past the deck: no table holds it
        marshal.dumps({1: ((0,),), 2: ((),)}),  # an empty capture
        marshal.dumps({1: ((0,),), 2: [(0,)]}),  # an answer not a tuple
    ],
)
def test_a_kept_memo_that_does_not_check_is_ignored(cache: Path, payload: bytes) -> None:
    variant = fresh("scopa")
    key = memo_store._key(variant)
    assert key is not None
    diskcache.store(memo_store.KIND, key, payload)
    assert memo_store.recall(variant) == 0
    assert variant.capture.table is not None and not variant.capture.table.memo
    assert run(variant, 300) == run(fresh("scopa"), 300)


def test_the_memo_exported_and_absorbed_is_the_same_memo_long_answers_included(cache: Path) -> None:
    # big tables' answers are kept as takers (CaptureTable.TAKERS_FROM): exported as positions, absorbed back
    first = fresh("escoba")
    run(first, 150)
    table = first.capture.table
    assert table is not None
    long = [k for k, found in table.memo.items() if found and type(found[0]) is not tuple]
    assert long, "no answer long enough to be kept as takers: the test would check nothing"
    second = fresh("escoba")
    other = second.capture.table
    assert other is not None
    assert other.absorb(table.export()) == len(table.memo)
    assert other.export() == table.export()
    assert all(type(other.memo[k][0]) is not tuple for k in long)  # takers again
    assert other.absorb(table.export()) == 0  # nothing new


def test_workers_keep_the_memo_too_with_the_same_records(cache: Path) -> None:
    # The runs with workers are commands, as a user runs them: a worker is forked from a server that may have been
    # started, by another test of this process, before this test set its cache folder; a command starts its own.
    def with_workers(name: str) -> tuple[dict[str, object], str]:
        records = cache / name
        done = run_piglia(
            "simulate", "escoba", "--deals", "400", "--seed", "3", "--workers", "2", "--json", "--record", str(records)
        )
        assert done.returncode == 0, done.stderr
        stats = json.loads(done.stdout)
        stats.pop("seconds", None)
        return stats, records.read_text()

    one = run(fresh("escoba"), 400)
    kept(cache)[0].unlink()
    assert with_workers("first.jsonl") == one
    assert len(kept(cache)) == 1
    assert with_workers("second.jsonl") == one  # recalled in each worker


def test_the_memos_kept_are_bounded(cache: Path) -> None:
    for i in range(memo_store.KEPT + 3):
        diskcache.store(memo_store.KIND, diskcache.digest(str(i)), b"x", limit=memo_store.KEPT)
    assert len(kept(cache)) <= memo_store.KEPT


# Any data a payload may hold: what marshal writes from numbers, strings, bytes, None, tuples, lists and dicts.
payload_data = st.recursive(
    st.none()
    | st.booleans()
    | st.floats()
    | st.integers(-(2**70), 2**70)
    | st.text(max_size=3)
    | st.binary(max_size=3),
    lambda inner: st.tuples(inner, inner) | st.lists(inner, max_size=3) | st.dictionaries(st.integers(-3, 9), inner),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(data=payload_data, cut=st.integers(0, 64))
def test_any_payload_is_a_memo_that_checks_or_none_never_an_error(data: Any, cut: int) -> None:
    payload = marshal.dumps(data)
    for raw in (payload, payload[:cut]):  # and cut short
        entries = memo_store._entries(raw, 40)
        if entries is not None:  # then every answer is one a table of 40 cards could hold
            for key, found in entries.items():
                assert isinstance(key, int) and key >= 0 and isinstance(found, tuple)
                assert all(isinstance(c, tuple) and c and all(0 <= p < 40 for p in c) for c in found)
