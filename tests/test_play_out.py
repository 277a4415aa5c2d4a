"""The fused random-play loop (:meth:`State.play_out`, what ``piglia simulate`` plays) makes exactly the moves
that ``push_raw(pick_raw(draw))`` in a loop makes, with the same draws, for every built-in variant and player
count: the fast step it takes for most plays copies :meth:`State.push_raw`, so any difference between the two
(a bonus not scored, a card left on the table, a refill missed) shows here as a different match. The rules
themselves are tested against RULES.md elsewhere; here the step-by-step engine is the reference."""

from __future__ import annotations

import random
import signal
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

import piglia
from conftest import write_variant
from piglia import interrupt
from piglia.chance import randbelow
from piglia.errors import PigliaError
from piglia.outcome import Reason
from piglia.spec import builtin_names
from piglia.state import Game, State

CASES = [(name, n) for name in builtin_names() for n in piglia.load_variant(name).player_counts]


def deal_ends(state: State) -> list[Any]:
    """Watch ``state``: at the end of every deal, what the deal left (piles, scores, totals, who is to deal)."""
    seen: list[Any] = []

    def watch(s: State) -> None:
        seen.append((s.deal_no, [list(p) for p in s.piles], list(s.deal_scores), list(s.totals), s.dealer))

    state.observer = watch
    return seen


def recorded(draw: Callable[[int], int], calls: list[int]) -> Callable[[int], int]:
    def wrapped(n: int) -> int:
        calls.append(n)
        return draw(n)

    return wrapped


@pytest.mark.parametrize(("name", "players"), CASES)
def test_play_out_plays_the_moves_of_pick_raw_and_push_raw(name: str, players: int) -> None:
    same_matches(Game(piglia.load_variant(name), players), range(4))


# Mechanics the built-in variants seldom reach in a few random matches, made frequent: an instant win (Cicera
# traditional's takes all 13 swords) and a bonus reading the capture's kind. The test variants (tests/variants)
# add declarations and face-down cards in other mixes.
FREQUENT = {
    "instant-win": """
        name: instant-win
        extends: scopa
        match: {instant_win: {when: count(pile where suit == coins) >= 5, reason: five coins}}
        """,
    "kind-bonus": """
        name: kind-bonus
        extends: scopa
        bonuses:
          by_sum: {points: 1, when: kind == "sum"}
        """,
}


@pytest.mark.parametrize("name", sorted(FREQUENT))
def test_play_out_agrees_with_the_engine_where_a_rare_mechanic_is_frequent(name: str, tmp_path: Path) -> None:
    game = Game(piglia.load_variant(write_variant(tmp_path, FREQUENT[name])))
    reasons = same_matches(game, range(12))
    if name == "instant-win":
        assert reasons.count(Reason.INSTANT_WIN) >= 3  # the step under test was taken


def test_play_out_agrees_with_the_engine_on_the_test_variants() -> None:
    for path in sorted((Path(__file__).parent / "variants").glob("*.yaml")):
        variant = piglia.load_variant(path)
        for players in variant.player_counts:
            same_matches(Game(variant, players), range(4))


def same_matches(game: Game, seeds: Iterable[int]) -> list[Reason | None]:
    """Play each seed's match step by step and through play_out; assert they are the same match. Returns each
    match's end reason."""
    reasons: list[Reason | None] = []
    for seed in seeds:
        stepped = game.new_match(seed, log=False)
        fused = game.new_match(seed, log=False)
        ends_stepped, ends_fused = deal_ends(stepped), deal_ends(fused)
        draws_stepped: list[int] = []
        draws_fused: list[int] = []
        draw_a = recorded(randbelow(random.Random(seed)), draws_stepped)
        draw_b = recorded(randbelow(random.Random(seed)), draws_fused)
        branching: dict[int, int] = {}
        plays = 0
        want: dict[int, int] = {}
        while not stepped.over:
            n, move = stepped.pick_raw(draw_a)
            want[n] = want.get(n, 0) + 1
            stepped.push_raw(move)
            plays += 1
        assert fused.play_out(draw_b, branching) == plays
        assert branching == want
        assert draws_fused == draws_stepped
        assert ends_fused == ends_stepped
        assert (fused.totals, fused.winner, fused.end_reason) == (stepped.totals, stepped.winner, stepped.end_reason)
        reasons.append(fused.end_reason[0] if fused.end_reason else None)
    return reasons


def test_play_out_with_a_record_writes_the_record_the_engine_writes() -> None:
    """With a record kept, every play goes through push_raw: the record is the step-by-step engine's."""
    game = Game(piglia.load_variant("scopa"))
    stepped = game.new_match(7, log=True)
    fused = game.new_match(7, log=True)
    draw_a, draw_b = randbelow(random.Random(1)), randbelow(random.Random(1))
    while not stepped.over:
        stepped.push_raw(stepped.pick_raw(draw_a)[1])
    fused.play_out(draw_b, {})
    assert fused.events == stepped.events


def test_play_out_needs_a_state_that_deals_by_itself() -> None:
    state = Game(piglia.load_variant("scopa")).new_match(1, auto_deal=False)
    with pytest.raises(PigliaError, match="auto_deal"):
        state.play_out(randbelow(random.Random(1)), {})


@pytest.mark.parametrize("log", [False, True])
def test_a_stopped_match_counts_none_of_its_turns(log: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop asked for between moves ends play_out at once; the caller drops that match, so its turns must not
    reach the run's branching counts (fast path, and with a record kept, the step-by-step path)."""
    monkeypatch.setattr(interrupt.STOP, "signum", None)  # and back to it after the test
    game = Game(piglia.load_variant("scopa"))
    state = game.new_match(3, log=log)
    branching = {7: 2}  # counts of earlier matches, which stay as they were

    def stop_after_first_deal(_s: State) -> None:
        interrupt.set_flag(signal.SIGINT)

    state.observer = stop_after_first_deal
    with pytest.raises(interrupt.Interrupted):
        state.play_out(randbelow(random.Random(3)), branching)
    assert state.deal_no >= 1 and not state.over  # stopped within the match, after its first deal
    assert branching == {7: 2}
