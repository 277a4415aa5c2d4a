"""The playout-policy instrument of benchmarks/policy.py (issue 14): ismcts's playout policy as a player sees only
its seat's view, and weighing the next player's reply over every hand it may hold, it plays greedy's one-ply
choice where both value a move alike."""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import ModuleType

import pytest

import piglia
from conftest import hide_differently, load_benchmark
from piglia.players.greedy import GreedyPlayer
from piglia.state import Game


@pytest.fixture
def policy() -> Iterator[ModuleType]:
    """benchmarks/policy.py as a module, its policy options put back as they were after the test."""
    module = load_benchmark("policy")
    saved = list(module.OPTIONS)
    yield module
    module.OPTIONS[:] = saved


def test_the_policy_player_decides_from_its_view_only(policy: ModuleType) -> None:
    """Hidden information stays hidden: the same view with the hidden cards dealt otherwise, the same move."""
    game = Game(piglia.load_variant("cicera"))
    rng = random.Random(4)
    for seed in range(6):
        state = game.new_match(seed, log=False)
        for _ in range(rng.randrange(0, 20)):
            state.push_raw(state.raw_moves()[rng.randrange(len(state.raw_moves()))])
        seat = state.to_move
        other = hide_differently(state, seat, rng)
        moves = state.legal_moves()
        a = policy.PolicyPlayer(seed).choose(state.view(seat), moves)
        b = policy.PolicyPlayer(seed).choose(other.view(seat), other.legal_moves())
        assert a in moves and a == b


def test_the_expected_reply_policy_plays_greedys_choice(policy: ModuleType) -> None:
    """S3.1 (Scopa), B3.2 (Cicera): greedy values a move by what it scores and takes, less the best reply the
    next player is expected to make over every hand it may hold. The policy with ``expect=1`` values moves the
    same way (a placement at its card's whole weight where greedy takes a tenth, which seldom changes the
    choice), so it makes greedy's choice on nearly every turn of greedy's first deals of both games; with one
    hand drawn for the next player (``expect=0``) it strays far more often (measured: 96% against 73%)."""
    agree = {}
    for expect in (0, 1):
        policy.OPTIONS[:] = ["noise=0", f"expect={expect}"]
        same = total = 0
        for name in ("scopa", "cicera"):
            game = Game(piglia.load_variant(name))
            for seed in range(4):
                state = game.new_match(seed, log=False)
                player, greedy = policy.PolicyPlayer(seed), GreedyPlayer(seed)
                while not state.over and state.deal_no == 1:  # the deal greedy plays against itself
                    view, moves = state.view(state.to_move), state.legal_moves()
                    choice = greedy.choose(view, moves)
                    if len(moves) > 1:
                        same += player.choose(view, moves) == choice
                        total += 1
                    state.push(choice)
        agree[expect] = same / total
    assert agree[1] > 0.9
    assert agree[1] > agree[0] + 0.1
