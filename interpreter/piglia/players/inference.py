"""Reading the other hands from their plays: what a seat's plays of this hand say about the cards it still holds.

A card a seat holds now was in its hand at each of its plays since its hand was last dealt. Had it held a card
that made a much better play than the one it made (a sweep passed up, a picada not taken, a valuable card left
on the table), it would probably have played it; so such a card is less likely to be in its hand. The model is
the greedy player's own valuation of a play (:func:`~piglia.players.greedy.move_value`: the bonuses the rules give
for it, the weights of the cards it takes, a small cost for a card placed, less the best capture it leaves to the
next player, from the cards the seat could not see then), and a card's likelihood factor is
``exp(-beta * regret)``, where the regret is how much better the card's best play was than the play made, summed
over the seat's plays since its deal. ``beta`` says how much the reader trusts the others to play well: 0 reads
nothing (every card as likely as any other); a large value treats every passed-up gain as proof. No factor falls
below ``floor`` (:data:`MIN_FACTOR` by default): the valuation is only a model of how others choose.

The reply the play left counts: a seat that did not take a card, because taking it would have left an easy sweep,
gave up nothing by that valuation, so the play says nothing against its holding the card. A reader blind to the
reply would count the capture passed up as a regret and wrongly rule the card out (measured: the true hands of a
greedy player get about 1.6 times the log-likelihood gain over a uniform deal that the blind model gives them;
benchmarks/reading.py; benchmarks/players.md, "Issue 14, fifth pass").

The position each play was made from is rebuilt backwards: the table from the table now (a capture's cards put
back, a placed card taken off), the hands' and the stock's sizes from the deal's rhythm (every hand dealt
``hand`` cards at once, each seat playing one a round), the seat's own other cards and the stock from cards
nobody had seen then (only their number is read). Where the rules move table cards in ways the plays do not show
(builds, face-down cards), nothing is read; where the rebuild stops (it does not add up, or a capture took cards
from a table whose order matters, an order the plays do not keep), the plays before that point are not read.

Nothing here names a game: the plays worth making are the rules' own bonuses and the award weights
(:func:`~piglia.players.knowledge.card_weights`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

from piglia.errors import LimitError
from piglia.players.greedy import best_values, move_value
from piglia.players.knowledge import ordered_table
from piglia.state import Game, RawMove, SeatView, State

__all__ = ["Reader"]

# A card is never ruled out: players err, a view must always have a deal, and the model errs too. A card the seat
# holds gets a regret above 0.01 about 3% of the time in Scopa and Cicera alike, but in Cicera the plays flag only
# 10% of the other cards (Scopa: 33%), so at 1e-3 the model's errors outweighed what it read there: the true hands
# lost 0.1-0.4 nats against reading nothing; at 0.2 they gain 0.06-0.13, and Scopa's 0.37 becomes 0.30
# (benchmarks/reading.py --floors; benchmarks/players.md, issue 14's sixteenth pass).
MIN_FACTOR = 0.2


class Reader:
    """The likelihood factors of the unseen cards in the other hands, for one player across its decisions.

    A player keeps one reader: what a past play says about a card does not change as the hand goes on, so each
    play is read once (the unseen cards only shrink within a deal).
    """

    def __init__(self, beta: float, floor: float = MIN_FACTOR) -> None:
        self.beta = beta
        self.floor = floor  # the least likelihood factor a card gets
        # (deal, index of the play in the deal, its seat, card, captures and table) -> card -> regret
        self._regrets: dict[tuple[object, ...], dict[int, float]] = {}
        self._deal: int | None = None  # the deal the regrets are of: a new deal starts afresh (bounded memory)

    def factors(
        self, view: SeatView, game: Game, position: State, weights: Sequence[float], deadline: float = math.inf
    ) -> dict[int, dict[int, float]]:
        """Per other seat with something read: card index -> likelihood factor (below 1; cards not listed: 1).

        ``position`` is a full position consistent with the view (its hidden cards are not read): it lends the
        rules' bookkeeping (stock, piles, deal) to the rebuilt positions of the past plays. Past ``deadline`` (on
        :func:`time.perf_counter`'s clock: the player's safety net) no more is read: what was read counts, and the
        next decision reads on from there."""
        if self.beta <= 0:
            return {}
        out: dict[int, dict[int, float]] = {}
        for seat, regret in self.regrets(view, game, position, weights, deadline).items():
            factors = {c: max(math.exp(-self.beta * r), self.floor) for c, r in regret.items() if r > 0}
            if factors:
                out[seat] = factors
        return out

    def regrets(
        self, view: SeatView, game: Game, position: State, weights: Sequence[float], deadline: float = math.inf
    ) -> dict[int, dict[int, float]]:
        """Per other seat with plays to read: each unseen card's regret, how much better its best play was than
        the plays the seat made since its hand was dealt, summed over them (0: nothing said against it). What
        :meth:`factors` turns into likelihoods; ``benchmarks/reading.py --floors`` reads it directly."""
        if game.has_builds or view.face_down:
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
                known = self._read(view.deal, i, plays, tables[i], position, unseen, weights, deadline)
                for c in unseen:
                    regret[c] += known.get(c, 0.0)  # a card not read before the deadline: nothing said of it
            out[seat] = regret
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

    @staticmethod
    def value(past: State, raw: RawMove, hidden: Sequence[int], weights: Sequence[float]) -> float:
        """What the play ``raw`` was worth to the seat to move in ``past``, which could not see ``hidden``: the
        model of how the others choose (greedy's valuation)."""
        return move_value(past, raw, hidden, weights)

    @staticmethod
    def best(past: State, raws: Sequence[RawMove], hidden: Sequence[int], weights: Sequence[float]) -> float:
        """The most any of the plays ``raws`` was worth (:meth:`value`'s largest): greedy's valuation, which
        values only the plays that can be the best (a big table gives a card thousands of captures)."""
        return max(best_values(past, raws, hidden, weights, 1).values())

    def _read(
        self,
        deal: int,
        i: int,
        plays: list[tuple[int, int, tuple[int, ...]]],
        table: list[int],
        position: State,
        unseen: list[int],
        weights: Sequence[float],
        deadline: float,
    ) -> dict[int, float]:
        """Per unseen card: how much better its best play was than play ``i`` (0 if not), on the table it met;
        the cards not read before ``deadline`` are missing."""
        seat, card, captured = plays[i]
        key = (deal, i, seat, card, captured, tuple(table))  # the table too: a player may be kept for a new match
        known = self._regrets.get(key)
        missing = unseen if known is None else [c for c in unseen if c not in known]
        if known is None:
            known = self._regrets[key] = {}
        if not missing or time.perf_counter() > deadline:  # no deadline (inf): never past it
            return known
        past, hidden = self._past(position, plays, i, table)
        hand = past.hands[seat]
        made = self.value(past, (card, captured), hidden, weights)
        capture = past.game.variant.capture
        rest = hand[1:]
        try:
            options = capture.hand_captures(missing, table)
        except LimitError:  # a card would have had more captures than the engine lists: the play is not read
            known.update(dict.fromkeys(missing, 0.0))
            return known
        for c, caps in zip(missing, options, strict=True):
            if time.perf_counter() > deadline:
                break
            past.hands[seat] = [c, *rest]
            raws: list[RawMove] = [(c, cap) for cap in caps]
            if not caps or not capture.mandatory:
                raws.append((c, ()))
            known[c] = max(self.best(past, raws, hidden, weights) - made, 0.0)
        return known

    @staticmethod
    def _past(
        position: State, plays: list[tuple[int, int, tuple[int, ...]]], i: int, table: list[int]
    ) -> tuple[State, list[int]]:
        """The position play ``i`` was made from, as far as the valuation reads it, and the cards its seat could
        not see then. The table is the rebuilt one; each hand holds as many cards as it held then and the stock
        as many as it had (the deal's rhythm: all hands dealt ``hand`` cards at once, one play a seat a round),
        the cards themselves taken from those nobody had seen (the valuation reads only how many there are; the
        mover's first card is the one it played). ``position``'s piles are the view's (public)."""
        game = position.game
        seat, card, _captured = plays[i]
        size = game.deal_rules.hand
        players = game.num_players
        rnd = players * size  # plays between two deals of hands
        # seen then: the table, the piles as they were (less what was taken since), the card played
        taken = {c for _s, played, cap in plays[i:] if cap for c in (played, *cap)}
        seen = {c for pile in position.piles for c in pile if c not in taken}
        seen.update(table)
        seen.add(card)
        hidden = [c for c in range(len(game.variant.deck)) if c not in seen]
        filler = hidden or [card]
        past = position.clone()
        past.table = list(table)
        past.to_move = seat
        past.plays = plays[:i]
        first = i - i % rnd
        for s in range(players):
            held = size - sum(1 for j in range(first, i) if plays[j][0] == s)
            past.hands[s] = [filler[k % len(filler)] for k in range(max(held, 0))]
        if not past.hands[seat]:  # the rhythm did not hold (a short last deal of hands): it held this card
            past.hands[seat] = [card]
        past.hands[seat][0] = card
        dealt_since = (len(plays) // rnd - i // rnd) * rnd  # the cards dealt from the stock after play i
        past.stock = [filler[k % len(filler)] for k in range(len(position.stock) + dealt_since)]
        return past, hidden
