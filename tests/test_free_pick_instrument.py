"""The free-pick instrument of benchmarks/free_pick.py (issue 12): the matches it times with the pick free are the
very matches the real pick plays, answer for answer, and the variant keeps its own pick afterwards."""

from __future__ import annotations

import pytest

import piglia
import piglia.spec
from conftest import load_benchmark
from piglia.state import Game


def test_the_free_pick_replays_the_real_picks_matches() -> None:
    """Replayed answers give the same deals (the instrument raises otherwise); the variant's own pick is back."""
    free_pick = load_benchmark("free_pick")
    row = free_pick.measure("scopa", 2, matches=4, warm=2, rounds=1)
    assert row["deals"] > 4 and row["real_deals_per_s"] > 0 and row["free_deals_per_s"] > 0
    capture = Game(piglia.load_variant("scopa")).variant.capture
    assert "pick" not in vars(capture)  # the class's method, not the recording or the replay


def test_a_replay_that_does_not_match_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay that plays other matches is caught (the deals counted differ), and the pick is put back even so."""
    free_pick = load_benchmark("free_pick")
    real_play = free_pick._play
    calls = {"n": 0}

    def one_deal_short(game: Game, first: int, count: int) -> int:
        calls["n"] += 1
        deals: int = real_play(game, first, count)
        return deals - 1 if calls["n"] == 4 else deals  # warm, record, real, then the free round

    monkeypatch.setattr(free_pick, "_play", one_deal_short)
    with pytest.raises(AssertionError, match="replayed"):
        free_pick.measure("scopa", 2, matches=2, warm=1, rounds=1)
    assert "pick" not in vars(Game(piglia.load_variant("scopa")).variant.capture)


def test_the_split_asks_the_capture_table_and_replays_the_same_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``split``, a third pick asks the settled capture table and draws as the real one, and still replays the
    recorded answers: the deals agree (the instrument checks), and the lookups' time is reported."""
    # a variant of its own, whose capture table only this test has played (the process's one may be switched off)
    monkeypatch.setattr(piglia.spec, "_CACHE", {})
    free_pick = load_benchmark("free_pick")
    row = free_pick.measure("scopa", 2, matches=4, warm=300, rounds=1, split=True)
    assert row["lookup_and_draw_us"] is not None
    assert "pick" not in vars(Game(piglia.load_variant("scopa")).variant.capture)
