"""Reading the other hands from their plays: what a seat's plays of this hand say about the cards it still holds.

A card a seat holds now was in its hand at each of its plays since its hand was last dealt. Had it held a card
that made a much better play than the one it made (a sweep passed up, a picada not taken, a valuable card left
on the table), it would probably have played it; so such a card is less likely to be in its hand. The model is
the greedy player's own valuation of a play (:func:`play_value`: the bonuses the rules give for it, the weights
of the cards it takes, a small cost for a card placed), and a card's likelihood factor is
``exp(-beta * regret)``, where the regret is how much better the card's best play was than the play made, summed
over the seat's plays since its deal. ``beta`` says how much the reader trusts the others to play well: 0 reads
nothing (every card as likely as any other); a large value treats every passed-up gain as proof.

The table each play was made on is rebuilt backwards from the table now (a capture's cards put back, a placed
card taken off). Where the rules move table cards in ways the plays do not show (builds, face-down cards),
nothing is read; where the rebuild stops (it does not add up, or a capture took cards from a table whose order
matters, an order the plays do not keep), the plays before that point are not read.

Nothing here names a game: the plays worth making are the rules' own bonuses and the award weights
(:func:`~piglia.players.knowledge.card_weights`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from piglia.players.greedy import DISCARD_CAUTION
from piglia.players.knowledge import ordered_table, points_sign
from piglia.state import Game, SeatView, State

__all__ = ["Reader", "play_value"]

MIN_FACTOR = 1e-3  # a card is never ruled out: players err, and a view must always have a deal


def play_value(state: State, card: int, captured: tuple[int, ...], weights: Sequence[float]) -> float:
    """What playing ``card`` to take ``captured`` (nothing: a placement) is worth at once to the seat to move in
    ``state``: the bonuses it scores plus the weights of the cards it takes (its own card among them), or minus a
    share of the weight of a card placed; negated where fewer points are better."""
    if captured:
        value = state.bonus_points((card, captured)) + weights[card] + sum(weights[c] for c in captured)
    else:
        value = state.bonus_points((card, ())) - DISCARD_CAUTION * weights[card]
    return points_sign(state.game) * value


class Reader:
    """The likelihood factors of the unseen cards in the other hands, for one player across its decisions.

    A player keeps one reader: what a past play says about a card does not change as the hand goes on, so each
    play is read once (the unseen cards only shrink within a deal).
    """

    def __init__(self, beta: float) -> None:
        self.beta = beta
        # (deal, index of the play in the deal, its seat, card, captures and table) -> card -> regret
        self._regrets: dict[tuple[object, ...], dict[int, float]] = {}
        self._deal: int | None = None  # the deal the regrets are of: a new deal starts afresh (bounded memory)

    def factors(
        self, view: SeatView, game: Game, position: State, weights: Sequence[float]
    ) -> dict[int, dict[int, float]]:
        """Per other seat with something read: card index -> likelihood factor (below 1; cards not listed: 1).

        ``position`` is a full position consistent with the view (its hidden cards are not read): it lends the
        rules' bookkeeping (stock, piles, deal) to the rebuilt positions of the past plays."""
        if self.beta <= 0 or game.has_builds or view.face_down:
            return {}
        if view.deal != self._deal:
            self._regrets.clear()
            self._deal = view.deal
        plays = [(s, c.index, tuple(x.index for x in cap)) for s, c, cap in view.plays]
        size = game.deal_rules.hand
        # per other seat still holding cards, its plays since its hand was dealt (every play spends one card)
        wanted: dict[int, list[int]] = {}
        for seat, held in enumerate(view.hand_sizes):
            if seat == view.seat or held == 0:
                continue
            since = size - held
            if since <= 0:
                continue
            mine = [i for i, p in enumerate(plays) if p[0] == seat]
            if mine[-since:]:
                wanted[seat] = mine[-since:]
        if not wanted:
            return {}
        first = min(i for idx in wanted.values() for i in idx)
        tables = self._tables(plays, [c.index for c in view.table], first, ordered_table(game))
        unseen = [c.index for c in view.unseen]
        out: dict[int, dict[int, float]] = {}
        for seat, idx in wanted.items():
            regret = dict.fromkeys(unseen, 0.0)
            for i in idx:
                if i not in tables:  # before where the table could be rebuilt: not read
                    continue
                known = self._read(view.deal, i, plays, tables[i], position, unseen, weights)
                for c in unseen:
                    regret[c] += known[c]
            factors = {c: max(math.exp(-self.beta * r), MIN_FACTOR) for c, r in regret.items() if r > 0}
            if factors:
                out[seat] = factors
        return out

    @staticmethod
    def _tables(
        plays: list[tuple[int, int, tuple[int, ...]]], table: list[int], first: int, ordered: bool
    ) -> dict[int, list[int]]:
        """The table before each play from ``first`` on, rebuilt backwards from ``table``, as far back as it can
        be: the rebuild stops where it does not add up (some mechanic moved table cards the plays do not show),
        or at a capture when the order of the table's cards matters (the plays do not keep the order of the
        cards taken); the plays before it are not read."""
        out: dict[int, list[int]] = {}
        for i in range(len(plays) - 1, first - 1, -1):
            _seat, card, captured = plays[i]
            if captured:
                if ordered or any(c in table for c in captured):
                    break
                table = [*captured, *table]
            else:
                if card not in table:
                    break
                table = [c for c in table if c != card]
            out[i] = table
        return out

    def _read(
        self,
        deal: int,
        i: int,
        plays: list[tuple[int, int, tuple[int, ...]]],
        table: list[int],
        position: State,
        unseen: list[int],
        weights: Sequence[float],
    ) -> dict[int, float]:
        """Per unseen card: how much better its best play was than play ``i`` (0 if not), on the table it met."""
        seat, card, captured = plays[i]
        key = (deal, i, seat, card, captured, tuple(table))  # the table too: a player may be kept for a new match
        known = self._regrets.get(key)
        missing = unseen if known is None else [c for c in unseen if c not in known]
        if known is None:
            known = self._regrets[key] = {}
        if not missing:
            return known
        past = position.clone()
        past.table = list(table)
        past.to_move = seat
        past.plays = plays[:i]
        # the play was not the deal's last (the deal goes on): two cards in the hand keep last_play false
        past.hands[seat] = [card, card]
        made = play_value(past, card, captured, weights)
        capture = past.game.variant.capture
        for c, caps in zip(missing, capture.hand_captures(missing, table), strict=True):
            past.hands[seat] = [c, card]
            best = max(play_value(past, c, cap, weights) for cap in caps) if caps else -math.inf
            if not caps or not capture.mandatory:
                best = max(best, play_value(past, c, (), weights))
            known[c] = max(best - made, 0.0)
        return known
