"""Scoring a play: the one builder of a bonus's scope, and the bonuses a play scores.

The scope is built from the position *before* the play and the play itself, so the very same code serves
playing a move (:meth:`State.push_raw <piglia.state.State.push_raw>`) and valuing one without playing it
(:meth:`State.bonus_points <piglia.state.State.bonus_points>`). Only what some bonus of the variant reads is
built; the rest of the scope stays empty (nobody looks at it), which spares copying the hand, the pile and the
table on every play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from piglia.contexts import BonusEnv
from piglia.variant import Bonus

if TYPE_CHECKING:
    from piglia.state import State

__all__ = ["bonus_scope", "scored_bonuses"]


def bonus_scope(state: State, card: int, captured: tuple[int, ...], kind: str) -> BonusEnv:
    """The scope of the bonuses for the seat to move playing ``card`` to take ``captured`` (by ``kind``)."""
    game = state.game
    seat = state.to_move
    team = game.players.team_of[seat]
    table = state.table
    hands = state.hands
    hand = hands[seat]
    if game.reads_table_after:
        table_after = tuple([c for c in table if c not in captured]) if captured else (*table, card)
    else:
        table_after = ()
    pile: tuple[int, ...] = ()
    if game.reads_pile:
        pile = (*state.piles[team], card, *captured) if captured else tuple(state.piles[team])
    return BonusEnv(
        card,
        captured,
        tuple(table) if game.reads_table_before else (),
        table_after,
        state.previous,
        not state.stock and len(hand) == 1 and sum(map(len, hands)) == 1,  # the last card of the deal
        seat,
        team,
        kind,
        tuple([c for c in hand if c != card]) if game.reads_hand else (),
        pile,
        state.deal_no,
    )


def scored_bonuses(bonuses: Sequence[Bonus], env: BonusEnv, capture: bool) -> list[tuple[str, int]]:
    """The bonuses that hold for the play in ``env``, in the variant's order, with their points.

    Bonuses on captures only (the default) are skipped for a placement (``capture`` false).
    """
    return [(b.name, int(b.points(env))) for b in bonuses if (capture or b.on_play) and b.when(env)]
