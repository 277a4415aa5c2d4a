"""Match equity (players/equity.py) and the ismcts player that plays for it (``goal=match``).

The exact chances are written from docs/RULES.md's match end rules: S3.5 (Scopa: at least 11 and more than the
opponent wins; tied totals of 11 or more play on), SP1.1 (Scopa a perdere: once a side has 11 or more, the side
with fewer points wins; a tie for the lowest plays on), B4.4 (Cicera: one deal, the higher total wins, equal
totals draw). The estimates are checked for what any estimate must do: stay between the exact values, favour
the side ahead, and give equal totals equal chances.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

import piglia
from conftest import endgames, minimax_to_deal_end
from piglia.errors import PigliaError
from piglia.players import make_player
from piglia.players.equity import MatchEquity, match_equity
from piglia.state import Game, State
from piglia.variant import Variant


def test_scopa_chances_are_exact_where_the_target_decides(scopa: Variant) -> None:
    """S3.5: 11 or more and more than the opponent wins the match, whatever deal it is."""
    equity = match_equity(Game(scopa))
    for deal in (1, 4):
        assert equity.shares([11, 9], deal) == (1.0, 0.0)
        assert equity.shares([10, 14], deal) == (0.0, 1.0)
        assert equity.shares([12, 11], deal) == (1.0, 0.0)
        assert equity.decided([10, 10], deal) is None  # nobody has 11: another deal
        assert equity.decided([11, 11], deal) is None  # tied at 11 or more: another deal


def test_scopa_chances_grow_with_the_own_total(scopa: Variant) -> None:
    """More points never lower a team's chance; equal totals give equal chances; an undecided match is neither
    won nor lost."""
    equity = match_equity(Game(scopa))
    for other in (0, 5, 9, 10):
        chances = [equity.shares([own, other], 2)[0] for own in range(0, 13)]
        assert all(a <= b for a, b in pairwise(chances)), (other, chances)
        assert chances[0] < chances[-1] == 1.0
        undecided = [c for own, c in enumerate(chances) if equity.decided([own, other], 2) is None]
        assert all(0.0 < c < 1.0 for c in undecided)
    for total in (0, 6, 10, 11, 13):
        assert equity.shares([total, total], 3) == (0.5, 0.5)
    # the team ahead is favoured, and more so the nearer the target
    assert 0.5 < equity.shares([4, 2], 1)[0] < equity.shares([10, 8], 1)[0] < 1.0


def test_fractional_totals_are_interpolated(scopa: Variant) -> None:
    """An estimate of the deal's points (fractional) gets a chance between those of the whole totals around it."""
    equity = match_equity(Game(scopa))
    low, high = equity.shares([9, 7], 2)[0], equity.shares([10, 7], 2)[0]
    assert equity.chance([9.0, 7.0], 2, 0) == low
    assert equity.chance([9.25, 7.0], 2, 0) == pytest.approx(0.75 * low + 0.25 * high)
    assert equity.chance([10.5, 7.0], 2, 0) == pytest.approx((high + 1.0) / 2)  # 11 to 7 is won (S3.5)
    both = equity.chance([9.5, 7.5], 2, 1)
    corners = [equity.shares([a, b], 2)[1] for a in (9, 10) for b in (7, 8)]
    assert both == pytest.approx(sum(corners) / 4)


def test_misere_chances_fall_with_the_own_total() -> None:
    """SP1.1: once a side has 11 or more the side with FEWER points wins, so every point lowers the chance."""
    equity = match_equity(Game(piglia.load_variant("scopa-a-perdere")))
    assert equity.shares([11, 5], 2) == (0.0, 1.0)
    assert equity.shares([3, 12], 2) == (1.0, 0.0)
    assert equity.decided([12, 12], 2) is None  # a tie for the lowest plays on
    chances = [equity.shares([own, 6], 2)[0] for own in range(0, 14)]
    assert all(a >= b for a, b in pairwise(chances)), chances
    assert chances[0] > 0.5 > chances[-1] == 0.0


def test_one_deal_match_is_always_exact() -> None:
    """B4.4: Cicera is one deal; the higher total wins, equal totals draw (an even share each). No future deal
    is ever needed, so none is played."""
    equity = match_equity(Game(piglia.load_variant("cicera")))
    assert equity.shares([7, 3], 1) == (1.0, 0.0)
    assert equity.shares([2, 9], 1) == (0.0, 1.0)
    assert equity.shares([5, 5], 1) == (0.5, 0.5)
    assert equity.chance([5.5, 5.0], 1, 0) == pytest.approx(0.75)
    assert equity._deals is None


def test_futures_from_given_deals(scopa: Variant) -> None:
    """With given deals instead of sampled ones, S3.5 played on by hand: every deal is 3 points to 1, to either
    side with even chances, deal by deal. From 9 to 9 the next deal decides, either way; from 9 to 0 the leader
    wins whatever comes (12-1, or 10-3 then 13-4 or 11-6); from 6 to 8 the trailer must take the next deal
    (9-9, else 7-11 loses) and then the one after: a chance of 1/4. A team that won at once in a drawn deal
    (an instant win) wins the match, whatever the totals."""
    always = MatchEquity(scopa.match, 2, deals=[((3, 1), None)])
    assert always.shares([9, 9], 1) == (0.5, 0.5)
    assert always.shares([9, 0], 1) == (1.0, 0.0)
    assert always.shares([6, 8], 1)[0] == pytest.approx(0.25, abs=0.08)
    instant = MatchEquity(scopa.match, 2, deals=[((0, 0), 0)])
    assert instant.shares([0, 10], 1) == (0.5, 0.5)  # the team that wins at once is either, deal by deal


# -- ismcts goal=match --------------------------------------------------------------------------------------


def test_goal_option_is_checked() -> None:
    assert make_player("ismcts:goal=match").goal == "match"  # type: ignore[attr-defined]
    assert make_player("ismcts").goal == "points"  # type: ignore[attr-defined]
    with pytest.raises(PigliaError, match="goal='deal'"):
        make_player("ismcts:goal=deal")
    with pytest.raises(PigliaError, match="goal=3"):
        make_player("ismcts:goal=3")
    with pytest.raises(PigliaError, match="margin=-1"):
        make_player("ismcts:goal=match:margin=-1")


def match_value(state: State, team: int) -> float:
    """Plain minimax to the deal's end from totals 10 to 10 (S3.5): the team that scores more in the deal has
    at least 11 and more, and wins; equal deal points leave the totals tied, another deal from level (1/2)."""

    def won(end: State) -> float:
        mine, theirs = end.deal_points[team], end.deal_points[1 - team]
        return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5

    return minimax_to_deal_end(state, team, won)


@pytest.mark.parametrize("margin", [0.0, 0.001])
def test_endgame_plays_for_the_match_at_ten_all(scopa: Variant, margin: float) -> None:
    """At 10 to 10 only who scores more in the deal matters (S3.5), not by how much: with the stock empty the
    solver's value with goal=match is the chance of winning the match, and ismcts plays a move that keeps it
    (a small ``margin``, a point's tie-break, does not outweigh a chance)."""
    from piglia.players.ismcts import IsmctsPlayer

    game = Game(scopa)
    rng = random.Random(3)
    checked = 0
    for seed, state in endgames(game, rng):
        state.totals = [10, 10]
        team = game.players.team_of[state.to_move]
        best = match_value(state, team)
        player = IsmctsPlayer(seed, goal="match", margin=margin)
        moves = state.legal_moves()
        move = player.choose(state.view(state.to_move), moves)
        assert player.last_root is None  # solved
        now = match_value(state.apply(move), team)
        assert now == best, (seed, str(move))
        # the values are gains in the chance of winning over the deal's points so far
        assert all(-1.1 <= v <= 1.1 for v in player.last_values.values())
        checked += 1
    assert checked >= 20


def test_match_goal_searches_with_chances(scopa: Variant) -> None:
    """Before the endgame the search's values are gains in the chance of winning: within -1 and 1, and the
    move it plays is legal; near the end of a match every value is a chance, not points."""
    game = Game(scopa)
    state = game.new_match(7, log=False)
    state.totals = [9, 10]
    player = make_player("ismcts:goal=match:iterations=60", 2)
    moves = state.legal_moves()
    move = player.choose(state.view(state.to_move), moves)
    assert move in moves
    values = player.last_values  # type: ignore[attr-defined]
    assert values and all(-1.0 <= v <= 1.0 for v in values.values())


def test_an_estimated_deal_is_not_a_certain_win() -> None:
    """B4.4: ahead at the end of Cicera's one deal is a win; ahead by an estimate made before the end is a win
    only as likely as the estimate is sure: the wider the error, the nearer an even chance. Equal totals stay
    even whatever the error."""
    equity = match_equity(Game(piglia.load_variant("cicera")))
    assert equity.chance([8.0, 6.0], 1, 0) == 1.0
    narrow = equity.chance_around([8.0, 6.0], 1, 0, 1.0)
    wide = equity.chance_around([8.0, 6.0], 1, 0, 4.0)
    assert 0.5 < wide < narrow < 1.0
    assert equity.chance_around([6.0, 8.0], 1, 1, 4.0) == pytest.approx(wide)
    assert equity.chance_around([7.0, 7.0], 1, 0, 3.0) == pytest.approx(0.5)
    assert equity.spread() > 0  # from the sampled deals: a deal's points do stray
