"""Random play counts a card's builds without listing them (``mechanics/builds.py``, ``_count_builds``); only the
drawn card's builds are listed. The groups of loose cards builds are made of are kept from turn to turn, the
groups of the cards placed added and those holding the cards taken dropped (``_pool``), and must be the groups a
search of the table finds. The count must be the length of the listing :func:`raw_moves` makes (after the
owner's obligation, CA2.2, keeps only the moves that take in the mover's builds that the rest of the hand could no
longer take), or random play would draw from a different number of moves. The listing itself is tested against
RULES.md 5.3 in tests/test_rules_cassino.py; here it is the reference.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pytest

import piglia
from piglia.chance import randbelow
from piglia.errors import LimitError
from piglia.mechanics import builds as builds_
from piglia.state import Game, State
from piglia.variant import Variant

ROOT = Path(__file__).resolve().parent.parent


def both(state: State) -> Iterator[tuple[str, int, int]]:
    """For each card of the hand to move that may build: (its id, the builds counted, the builds listed)."""
    rules = builds_._rules(state)
    values = state.game.variant.deck.value_of
    hand = state.hands[state.to_move]
    owned = [b for b in state.builds if b.owner == state.to_move]
    pool = builds_._pool(state, builds_.loose(state))
    for i, card in enumerate(hand):
        held = {values[c] for c in hand[:i] + hand[i + 1 :] if rules.ok[c]}
        if not (rules.ok[card] and held):
            continue
        need = 0
        for b in owned:
            if b.value not in held:
                need |= 1 << b.cards[0]
        listed = [o for o in builds_._build_options(state, card, held, pool) if builds_._covers(o[0], need)]
        yield state.game.variant.deck.cards[card].id, builds_._count_builds(state, card, held, pool, need), len(listed)


def random_positions(game: Game, matches: int) -> Iterator[State]:
    """Every position to move of ``matches`` random matches (the moves drawn as random play draws them)."""
    for seed in range(matches):
        state = game.new_match(seed=seed)
        draw = randbelow(random.Random(seed))
        while not state.is_terminal():
            yield state
            _n, move = state.pick_raw(draw)
            state.push_raw(move)


@pytest.mark.parametrize(
    ("ref", "players"),
    [("cassino", 2), ("cassino", 4), (str(ROOT / "tests" / "variants" / "misere-builds.yaml"), 2)],
)
def test_builds_counted_are_the_builds_listed_in_random_play(ref: str, players: int) -> None:
    game = Game(piglia.load_variant(ref), players)
    checked = with_builds = with_need = 0
    for state in random_positions(game, 6):
        for card, counted, listed in both(state):
            assert counted == listed, (card, state.table, state.builds)
            checked += 1
            with_builds += listed > 0
        owned = [b for b in state.builds if b.owner == state.to_move]
        with_need += bool(owned)
    # the matches reach what the count must get right: builds to make, and builds of the mover's to keep
    assert checked > 100 and with_builds > 20 and with_need > 5


@pytest.fixture(scope="module")
def cassino() -> Variant:
    return piglia.load_variant("cassino")


def test_unions_of_groups_split_two_ways_are_counted_once(cassino: Variant) -> None:
    # CA2.1: the 3 builds 6 (the 6 held) with any group of 3 (3c, 3h, and A+2 four ways), and a multiple build
    # of 6 with such a group and further groups of 6 (6s, A+5, 2+4, 3+3, A+2+3...). One set of cards often
    # splits two ways (3c with 3h+A+2, or A+2 with 3c+3h...): it is one build, counted once.
    state = Game(cassino).position(
        hands=[["3d", "6h", "Kd"], ["Qc"]],
        table=["Ac", "5s", "2c", "4h", "3c", "6s", "Ah", "2s", "3h"],
        to_move=0,
    )
    results = list(both(state))
    assert results and all(counted == listed for _card, counted, listed in results)
    assert max(listed for _card, _counted, listed in results) > 10


def test_the_owner_must_take_in_a_build_only_the_hand_still_covers(cassino: Variant) -> None:
    # CA2.2: seat 0 owns a build of 9 and holds one 9. A move of the 9 must take the build in (the rest of the
    # hand could no longer take it), and no build with the 9 does (no higher value held): none counts. The 2
    # leaves the 9 in hand, so its builds need not take the build in
    state = Game(cassino).position(
        hands=[["9h", "2d", "7d"], ["Qc"]],
        table=["Ac", "2c", "4h", "5s"],
        builds=[(["4d", "5c"], 9, 0, False)],
        to_move=0,
    )
    results = dict((card, (counted, listed)) for card, counted, listed in both(state))
    assert all(counted == listed for counted, listed in results.values())
    assert results["9h"][1] == 0
    assert results["2d"][1] > 0  # 2+5 or 2+A+4 = 9, 2+5 = 7...


def test_a_limit_is_raised_where_the_listing_raises_it(tmp_path: Path, cassino: Variant) -> None:
    # far more multiple builds than the sets' limit: counting them stops with the listing's own message
    table = [f"{r}{s}" for r in ("A", "2", "3", "4", "5") for s in "dhcs"]
    state = Game(cassino).position(hands=[["6d", "6h", "Kd"], ["Qc"]], table=table[:18], to_move=0)
    messages = []
    for counting in (True, False):
        pool = builds_._pool(state, builds_.loose(state))
        card = state.hands[0][0]
        held = {6}
        with pytest.raises(LimitError) as caught:
            if counting:
                builds_._count_builds(state, card, held, pool, 0)
            else:
                builds_._build_options(state, card, held, pool)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and "multiple builds of 6" in messages[0]


@pytest.mark.parametrize("most", [builds_.MAX_POOL_GROUPS, 5])
def test_groups_kept_from_turn_to_turn_are_the_groups_of_the_table(monkeypatch: pytest.MonkeyPatch, most: int) -> None:
    # CA2.1: a build's cards are the played card and loose cards adding up to its value; the groups the pool
    # gives for each total must be exactly the sets of loose cards (those builds may take) with that total,
    # listed from turn to turn or, past the most groups a pool lists (5 here: most tables), searched for
    monkeypatch.setattr(builds_, "MAX_POOL_GROUPS", most)
    variant = piglia.load_variant("cassino")
    game = Game(variant, 2)
    values = variant.deck.value_of
    rules = variant.builds
    assert rules is not None
    checked = 0
    for state in random_positions(game, 3):
        loose = [c for c in builds_.loose(state) if rules.ok[c]]
        if len(loose) > 12:
            continue
        pool = builds_._pool(state, builds_.loose(state))
        for total in range(1, rules.top + 1):
            expected = {
                sum(1 << c for c in group)
                for size in range(1, len(loose) + 1)
                for group in combinations(loose, size)
                if sum(values[c] for c in group) == total
            }
            assert pool.groups(total) == expected, (total, loose)
            checked += 1
    assert checked > 500
