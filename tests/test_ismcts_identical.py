"""The ismcts player's speed-ups change nothing it decides (issue 12: "ismcts decisions 1.5x faster at the same
iterations").

Whole matches of ismcts (a small budget, to stay quick) against greedy, hashed two ways: the moves played,
and every decision's value of each root move (to ten significant digits) with the players' generators' final
states. The expected hashes were recorded from main's code at 1803e01, before the ismcts optimisation: this is the one
place where a recorded value is the right expectation, since what it pins is that an optimisation changed
nothing. The value hash fails on any change to a playout (another random draw, another order of the draws,
another card counted), the move hash on any change to what is played.

If a deliberate change to the player's play (not its speed) breaks these, record the new hashes with the
change's commit, and say so there.
"""

from __future__ import annotations

import hashlib
import random

import pytest

import piglia
from conftest import hide_differently
from piglia.players import make_player
from piglia.players.ismcts import IsmctsPlayer
from piglia.players.knowledge import Determinizer, determinize
from piglia.spec import builtin_names
from piglia.state import Game, State

# variant, seats, match seed, extra ismcts options -> (hash of the moves, hash of the values and generators)
RECORDED = [
    ("scopa", 2, 1, "", "4e9ee548124036cb", "16a5b914ed3acb26"),
    ("cicera", 4, 2, "", "5e4084e1ba5d1bd6", "26fbd08c54fa73df"),
    ("pisti", 2, 3, "", "a8af3fa4c7bc213e", "8a41e139135e841d"),
    ("cassino", 2, 4, "", "629f55e904d391a8", "42daa4e48c2cf313"),
    ("cirulla", 2, 5, "", "90c5472d4a54a086", "49706e16eb2f8f49"),
    ("scopa-a-perdere", 2, 6, "", "e53da9921abbe923", "6e30eab7cad770af"),  # misere: the other playout policy
    ("scopa", 2, 7, ":paired=0:tree=2", "5487f1cb93e2c218", "aedf1fe94d03e3e2"),  # the tree search, not paired
]


def play_match(name: str, seats: int, seed: int, extra: str) -> tuple[str, str]:
    """Play one match, ismcts (60 iterations, no clock) in the seats of one parity against greedy; return the
    hashes of its moves and of its decisions' values and the players' generators."""
    game = Game(piglia.load_variant(name), seats)
    state = game.new_match(seed, log=False)
    # infer=0: the hashes pin the search's machinery as it was at 1803e01, before the hidden hands were read from
    # the plays (players/inference.py), which deliberately changes what the default player deals and plays
    spec = f"ismcts:iterations=60:seconds=0:infer=0{extra}"
    players = [make_player(spec if s % 2 == seed % 2 else "greedy", seed * 16 + s) for s in range(game.num_players)]
    moves = hashlib.sha256()
    values = hashlib.sha256()
    while not state.over:
        seat = state.to_move
        legal = state.legal_moves()
        player = players[seat]
        move = player.choose(state.view(seat), legal)
        moves.update(str(move).encode() + b";")
        if isinstance(player, IsmctsPlayer) and len(legal) > 1:
            # ten significant digits: exact for this player's sums, robust to how a Python version rounds sum()
            values.update(repr([(m, f"{v:.10g}") for m, v in sorted(player.last_values.items())]).encode())
        state.push(move)
    for player in players:
        values.update(repr(player.rng.getstate()).encode())  # type: ignore[attr-defined]
    return moves.hexdigest()[:16], values.hexdigest()[:16]


@pytest.mark.parametrize(("name", "seats", "seed", "extra", "moves", "values"), RECORDED)
def test_ismcts_plays_as_before(name: str, seats: int, seed: int, extra: str, moves: str, values: str) -> None:
    """The same moves and the same playouts as main's code before the optimisation, for a seed and a match."""
    got_moves, got_values = play_match(name, seats, seed, extra)
    assert got_moves == moves, f"{name}: ismcts chose other moves than before"
    assert got_values == values, f"{name}: ismcts's playouts differ from before (the same moves so far)"


def views_in_play(name: str, seats: int | None, count: int) -> list[tuple[State, int]]:
    """Positions of random play in a variant (a few plies into each of several deals), with the seat to move."""
    game = Game(piglia.load_variant(name), seats)
    out = []
    rng = random.Random(f"views/{name}/{seats}")
    for k in range(count):
        state = game.new_match(k, log=False)
        for _ in range(rng.randrange(1, 30)):
            if state.over:
                break
            moves = state.raw_moves()
            state.push_raw(moves[rng.randrange(len(moves))])
        if not state.over:
            out.append((state, state.to_move))
    return out


BUILTIN = [(name, seats) for name in builtin_names() for seats in piglia.load_variant(name).player_counts]
# Variants without builds: with builds the players ask the position (State.capture_options) and list the moves
# each time, so the two shortcuts checked below are not taken there.
NO_BUILDS = [(name, seats) for name, seats in BUILTIN if piglia.load_variant(name).builds is None]


@pytest.mark.parametrize(("name", "seats"), BUILTIN)
def test_determinizer_deals_what_determinize_deals(name: str, seats: int) -> None:
    """The players' Determinizer (the view read once, later positions copied from the first) gives, draw for
    draw, the position that determinize (State.from_view each time) gives: every attribute of the state, so
    that an attribute the engine adds to State and derives from the hidden cards is not left stale."""
    slots = [s for s in State.__slots__ if s not in ("_undo", "observer")]
    for state, seat in views_in_play(name, seats, 6):
        view = state.view(seat)
        deal = Determinizer(view)
        a, b = random.Random(5), random.Random(5)
        for _ in range(3):
            got, want = deal(a), determinize(view, b)
            for slot in slots:
                assert getattr(got, slot) == getattr(want, slot), f"{name}: {slot} differs"
            assert got.raw_moves() == want.raw_moves()


@pytest.mark.parametrize(("name", "seats"), NO_BUILDS)
def test_hand_captures_lists_what_options_lists(name: str, seats: int) -> None:
    """The players list the captures of several cards at once (CaptureRules.hand_captures, through the capture
    table's memo) where they listed each card's options (CaptureRules.options); the two must agree, card by
    card, on the table of every position (what the threat and reply valuations rely on)."""
    variant = piglia.load_variant(name)
    rules = variant.capture
    cards = list(range(len(variant.deck)))
    for state, _seat in views_in_play(name, seats, 8):
        for table in (state.table, state.table[:-1], [*state.table, *state.stock[:2]]):
            listed = rules.hand_captures(cards, table)
            for card, caps in zip(cards, listed, strict=True):
                if card in table:
                    continue
                assert sorted(caps) == sorted(cap for cap, _kind in rules.options(card, table)), (name, card, table)


@pytest.mark.parametrize(("name", "seats"), NO_BUILDS)
def test_legal_moves_depend_on_the_hand_and_the_table_only(name: str, seats: int) -> None:
    """ismcts keeps the legal move lists of a search by (hand to move, table) when the variant has no builds
    (IsmctsPlayer._playout): that holds only while the engine's moves read nothing else of a position. Every
    other part of the position changed (the other hands and the stock dealt otherwise, the piles, the plays,
    the points, the last capturer), the moves must stay the same list."""
    rng = random.Random(3)
    for state, seat in views_in_play(name, seats, 8):
        other = hide_differently(state, seat, rng)
        other.piles = [list(p) for p in reversed(other.piles)]
        other.plays = []
        other.deal_points = [p + 3 for p in other.deal_points]
        other.last_capturer = -1
        assert other.raw_moves() == state.raw_moves(), name
