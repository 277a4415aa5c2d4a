"""``State.legal_moves``: the public moves are exactly :meth:`State.raw_moves` as :class:`Move` values, in order,
whether the Game already holds a Move for a raw move or builds it now (``Game.moves_made``, bounded)."""

from __future__ import annotations

import random

import pytest

import piglia
from piglia import state as state_module
from piglia.moves import BuildRaw, Move
from piglia.spec import builtin_names
from piglia.state import Game, State


def built(state: State) -> list[Move]:
    """The moves of ``state`` built one by one through Move's own constructors (the reference)."""
    cards = state.game.variant.deck.cards
    out = []
    for raw in state.raw_moves():
        if isinstance(raw, BuildRaw):
            out.append(Move.build(cards[raw[0]], tuple(cards[c] for c in raw.onto), raw.value))
        else:
            out.append(Move(cards[raw[0]], tuple(cards[c] for c in raw[1])))
    return out


@pytest.mark.parametrize("name", ["scopa", "cicera", "cassino", "pisti", "escoba"])
def test_legal_moves_are_the_raw_moves_as_moves(name: str) -> None:
    game = Game(piglia.load_variant(name))
    rng = random.Random(7)
    for seed in range(3):
        state = game.new_match(seed, log=False)
        while not state.over:
            moves = state.legal_moves()
            assert moves == built(state)
            assert [m.raw for m in moves] == state.raw_moves()
            if rng.random() < 0.1:
                game.forget_moves()  # built afresh next time: the same moves
            state.push(moves[rng.randrange(len(moves))])


def test_one_move_object_serves_every_position_that_has_it() -> None:
    game = Game(piglia.load_variant("scopa"))
    first = game.position(hands=[["7d", "Rs"], ["3b"]], table=["Ab"], stock=["6d", "6c"], to_move=0, log=False)
    second = game.position(hands=[["7d", "Cs"], ["4b"]], table=["2c"], stock=["6d", "6c"], to_move=0, log=False)
    (seven,) = [m for m in first.legal_moves() if str(m) == "7d"]
    (again,) = [m for m in second.legal_moves() if str(m) == "7d"]
    assert again is seven


def test_the_moves_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state_module, "MOVES_KEPT", 8)
    game = Game(piglia.load_variant("scopa"))
    state = game.new_match(3, log=False)
    rng = random.Random(3)
    most = 0
    while not state.over:
        moves = state.legal_moves()
        assert moves == built(state)
        most = max(most, game.moves_kept, sum(map(len, game.moves_made)))
        state.push(moves[rng.randrange(len(moves))])
    # never more than the bound: a Move made past it first forgets the others
    assert most <= 8


@pytest.mark.parametrize("name", builtin_names())
def test_is_legal_is_membership_in_the_raw_moves(name: str) -> None:
    """push checks a move by asking about its card alone (State.is_legal): the same answer as looking it up in
    the whole list, for every listed move and for moves made up from the hand, the table and other cards."""
    game = Game(piglia.load_variant(name))
    rng = random.Random(11)
    for seed in range(2):
        state = game.new_match(seed, log=False)
        turns = 0
        while not state.over and turns < 60:
            raws = state.raw_moves()
            listed = set(raws)
            for raw in raws:
                assert state.is_legal(raw), raw
            hand, table = state.hands[state.to_move], state.table
            others = [c for c in range(len(game.variant.deck)) if c not in hand]
            for _ in range(12):
                card = rng.choice(hand if rng.random() < 0.8 or not others else others)
                taken = tuple(sorted(rng.sample(table, rng.randint(0, min(3, len(table))))))
                assert state.is_legal((card, taken)) == ((card, taken) in listed), (card, taken)
            state.push_raw(raws[rng.randrange(len(raws))])
            turns += 1
