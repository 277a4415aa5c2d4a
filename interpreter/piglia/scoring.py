"""Scoring a play: the one place that builds a bonus's scope and scores the bonuses of a play.

The scope is built from the position *before* the play and the play itself, so the very same code serves
playing a move (:meth:`State.push_raw <piglia.state.State.push_raw>`) and valuing one without playing it
(:meth:`State.bonus_points <piglia.state.State.bonus_points>`). Only what the bonuses that can score on the play
read is built (:class:`ScopeReads`); the rest of the scope stays empty (nobody looks at it), which spares copying
the hand, the pile and the table on every play.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from piglia.contexts import NO_PLAY, BonusEnv

if TYPE_CHECKING:
    from piglia.state import State
    from piglia.variant import Bonus

__all__ = ["ScopeReads", "score_play"]


class ScopeReads(NamedTuple):
    """Which costly parts of a bonus's scope some bonuses read (the rest are cheap or always given)."""

    table_before: bool
    table_after: bool
    previous: bool
    hand: bool
    pile: bool

    @classmethod
    def of(cls, bonuses: Iterable[Bonus]) -> ScopeReads:
        """What ``bonuses`` read, together."""
        reads: frozenset[str] = frozenset().union(*(b.reads for b in bonuses))
        return cls(*(name in reads for name in cls._fields))


def score_play(
    state: State, card: int, captured: tuple[int, ...], kind: str, team: int, last_play: bool
) -> list[tuple[str, int]]:
    """The bonuses (name, points), in the variant's order, that the seat to move (of ``team``) scores by playing
    ``card`` to take ``captured`` (by capture ``kind``); ``last_play``: it is the last card of the deal.

    Bonuses on captures only (the default) are not checked for a placement; with none ``on: play``, a
    placement builds no scope at all.
    """
    game = state.game
    table = state.table
    # Only the bonuses whose conditions can hold for a play of this many cards captured: fewer than the table
    # holds leave a card on it, and so does a placement (Game.live_bonuses; Bonus.may_score).
    may_empty = len(captured) >= len(table)
    bonuses = game.live_bonuses[len(captured)][may_empty]
    if not bonuses:
        return []
    reads = game.live_reads[len(captured)][may_empty]  # what those bonuses read: the only parts built
    seat = state.to_move
    if reads.table_after:
        if not captured:
            table_after = (*table, card)
        elif len(captured) == len(table):  # a sweep: nothing left (the captured cards are all table cards)
            table_after = ()
        else:
            table_after = tuple([c for c in table if c not in captured])
    else:
        table_after = ()
    pile: tuple[int, ...] = ()
    if reads.pile:
        pile = (*state.piles[team], card, *captured) if captured else tuple(state.piles[team])
    # made in C: a named tuple's own constructor is a Python function (see BonusEnv)
    env = tuple.__new__(
        BonusEnv,
        (
            card,
            captured,
            tuple(table) if reads.table_before else (),
            table_after,
            state.previous if reads.previous else NO_PLAY,
            last_play,
            seat,
            team,
            kind,
            tuple([c for c in state.hands[seat] if c != card]) if reads.hand else (),
            pile,
            state.deal_no,
            table[-1] if table else -1,  # the top card (mechanics/pile.py)
        ),
    )
    scored = []
    for b in bonuses:
        if b.when(env):
            scored.append((b.name, int(b.points(env))))
    return scored
