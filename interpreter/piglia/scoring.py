"""Scoring a play: the one place that builds a bonus's scope and scores the bonuses of a play.

The scope is built from the position *before* the play and the play itself, so the very same code serves
playing a move (:meth:`State.push_raw <piglia.state.State.push_raw>`) and valuing one without playing it
(:meth:`State.bonus_points <piglia.state.State.bonus_points>`). Only what some bonus of the variant reads is
built; the rest of the scope stays empty (nobody looks at it), which spares copying the hand, the pile and the
table on every play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from piglia.contexts import NO_PLAY, BonusEnv

if TYPE_CHECKING:
    from piglia.state import State

__all__ = ["score_play"]


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
    bonuses = game.live_bonuses[len(captured)][len(captured) >= len(table)]
    if not bonuses:
        return []
    seat = state.to_move
    if game.reads_table_after:
        if not captured:
            table_after = (*table, card)
        elif len(captured) == len(table):  # a sweep: nothing left (the captured cards are all table cards)
            table_after = ()
        else:
            table_after = tuple([c for c in table if c not in captured])
    else:
        table_after = ()
    pile: tuple[int, ...] = ()
    if game.reads_pile:
        pile = (*state.piles[team], card, *captured) if captured else tuple(state.piles[team])
    env = BonusEnv(
        card,
        captured,
        tuple(table) if game.reads_table_before else (),
        table_after,
        state.previous if game.reads_previous else NO_PLAY,
        last_play,
        seat,
        team,
        kind,
        tuple([c for c in state.hands[seat] if c != card]) if game.reads_hand else (),
        pile,
        state.deal_no,
        table[-1] if table else -1,  # the top card (mechanics/pile.py)
    )
    scored = []
    for b in bonuses:
        if b.when(env):
            scored.append((b.name, int(b.points(env))))
    return scored
