"""Match equity: each team's chance of winning the match from the totals after the deal being played.

A player that maximises its deal's points plays every deal alike; one that plays for the match cares whether a
point changes who wins (at 10 to 9 of a match to 11, the one point that takes it past the target is worth more
than three points that do not). :class:`MatchEquity` turns the totals a deal ends with into each team's chance
of winning the match, from the variant's own match end rules (:class:`~piglia.mechanics.match.MatchRules`):

* where those rules decide the match on the totals after this deal (:meth:`MatchRules.winner`), the chance is
  exact: 1 for the winner, 0 for the others, and an even share each for a draw (a deal limit, equal totals of a
  number of deals);
* otherwise it is estimated over future deals: ``FUTURES`` sequences of deals, each deal drawn from
  ``DEAL_SAMPLES`` deals of the variant played once by a cheap policy (capture the most weight, else place the
  least: :func:`sample_deals`), each deal going to the teams rotated at random and each sequence played once
  more per rotation of the teams (every team meets the same luck, so equal totals give equal chances), the same
  sequences for every query (common random numbers: two nearby totals are compared on the same futures, so
  the chance moves with the totals, not with the luck of the draw). Each future is played on from the totals
  until the rules decide, at most ``MAX_FUTURE`` deals (still undecided: an even share). A drawn deal in which
  a team won at once (an instant win) gives that team the match.

The deals are played once per variant and number of players and kept (:func:`match_equity`, about a tenth of a
second), and only when a chance is first asked that the rules do not decide (a one-deal match never plays
them). Totals may be fractional (a search's estimate of the deal's points): the chance is then interpolated
between the whole totals around them, linearly in each team's total; :meth:`MatchEquity.chance_around` also
counts such an estimate as uncertain (a normal error of a given spread, :meth:`MatchEquity.spread` being that of
a whole deal's points).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache
from itertools import product

from piglia.mechanics.match import MatchRules
from piglia.players.knowledge import card_weights, play, points_sign
from piglia.state import Game, RawMove, State
from piglia.variant import Variant

__all__ = ["DEAL_SAMPLES", "FUTURES", "MAX_FUTURE", "MatchEquity", "match_equity", "sample_deals"]

DEAL_SAMPLES = 60  # deals of the variant played once (per variant and number of players) by the cheap policy
FUTURES = 150  # sequences of future deals every estimate is averaged over (the same ones for every query)
MAX_FUTURE = 40  # deals a future is played on at most (a match of the family lasts a handful, to 51 about 8)
MEMO_LIMIT = 200_000  # chances kept per variant; the store starts again beyond it (a bounded memory)

# One deal of the variant: each team's points, and the team that won the match at once during it (or None).
DealSample = tuple[tuple[int, ...], int | None]


def _cheap_move(state: State, weights: Sequence[float], sign: float) -> RawMove:
    """The cheap policy: the capture worth the most (its bonuses plus the weights of the cards), else the
    placement of the card worth the least; when fewer points are better (misere) the opposite."""
    best: RawMove | None = None
    best_value = -math.inf
    for m in state.raw_moves():
        card, captured = m
        if captured:
            value = state.bonus_points(m) + weights[card] + sum(weights[c] for c in captured)
        else:
            value = -weights[card]
        value *= sign
        if value > best_value:
            best, best_value = m, value
    if best is None:
        raise ValueError("no legal move in a deal that is not over")
    return best


def sample_deals(game: Game, count: int = DEAL_SAMPLES) -> list[DealSample]:
    """``count`` deals of ``game`` (the first deal of matches with seeds derived from the variant's hash),
    played to their end by the cheap policy: each team's points and the team that won at once, if any."""
    weights = card_weights(game)
    sign = points_sign(game)
    samples: list[DealSample] = []
    for k in range(count):
        state = game.new_match(int(game.variant.sha256[:8], 16) + k, auto_deal=False, log=False)
        state.push_chance(state.chance_outcome())
        over = state.over
        while not over and state.raw_moves():
            over = play(state, _cheap_move(state, weights, sign))
        # without auto_deal the next deal waits: the totals are this deal's points (an instant win may have
        # ended the match before the awards, leaving its winner)
        samples.append((tuple(state.totals), state.winner if state.over and state.deal_no == 1 else None))
    return samples


class MatchEquity:
    """Each team's chance of winning the match from the totals after a deal (see the module text).

    ``deals`` are the sampled deals the futures draw from (:func:`sample_deals`); None: none given, and
    :meth:`of_game` has them played from the game only when an estimate is first needed."""

    def __init__(self, match: MatchRules, teams: int, deals: Sequence[DealSample] | None = None, seed: int = 0):
        self.match = match
        self.teams = teams
        self._deals: Sequence[DealSample] | None = deals
        self._source: Game | None = None
        self._seed = seed
        self._futures: list[list[DealSample]] | None = None
        self._spread: float | None = None
        self._memo: dict[tuple[tuple[int, ...], int], tuple[float, ...]] = {}

    @classmethod
    def of_game(cls, game: Game) -> MatchEquity:
        """The equity of ``game``'s rules, its deals sampled from ``game`` when first needed."""
        equity = cls(game.variant.match, game.num_teams, seed=int(game.variant.sha256[8:16], 16))
        equity._source = game
        return equity

    def decided(self, totals: Sequence[int], deals: int) -> tuple[float, ...] | None:
        """The exact chances when the match end rules decide the match on ``totals`` after deal ``deals``
        (1 for the winner, an even share each for a draw), else None."""
        over, winner = self.match.winner(totals, deals)
        if not over:
            return None
        if winner is None:
            return (1.0 / self.teams,) * self.teams
        return tuple(1.0 if t == winner else 0.0 for t in range(self.teams))

    def shares(self, totals: Sequence[int], deals: int) -> tuple[float, ...]:
        """Each team's chance of winning the match when the totals after deal number ``deals`` (1 for the
        first) are ``totals`` (whole numbers)."""
        key = (totals if isinstance(totals, tuple) else tuple(totals), deals)
        known = self._memo.get(key)
        if known is not None:
            return known
        exact = self.decided(key[0], deals)
        value = exact if exact is not None else self._estimate(key[0], deals)
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
        self._memo[key] = value
        return value

    def chance(self, totals: Sequence[float], deals: int, team: int) -> float:
        """``team``'s chance of winning from fractional ``totals`` (an estimate of the deal's points added):
        interpolated linearly in each team's total between the whole totals around them."""
        if len(totals) == 2:  # two teams, the common case, written out (a search asks this at every playout)
            x, y = totals
            a, b = math.floor(x), math.floor(y)
            fx, fy = x - a, y - b
            shares = self.shares
            low = shares((a, b), deals)[team]
            if fx:
                low = (1.0 - fx) * low + fx * shares((a + 1, b), deals)[team]
            if not fy:
                return low
            high = shares((a, b + 1), deals)[team]
            if fx:
                high = (1.0 - fx) * high + fx * shares((a + 1, b + 1), deals)[team]
            return (1.0 - fy) * low + fy * high
        floor = [math.floor(t) for t in totals]
        frac = [t - lo for t, lo in zip(totals, floor, strict=True)]
        if not any(frac):
            return self.shares(floor, deals)[team]
        value = 0.0
        for corner in product((0, 1), repeat=len(floor)):
            weight = 1.0
            for up, f in zip(corner, frac, strict=True):
                weight *= f if up else 1.0 - f
            if weight:
                value += weight * self.shares([lo + up for lo, up in zip(floor, corner, strict=True)], deals)[team]
        return value

    def spread(self) -> float:
        """How far a deal's points stray: the standard deviation, over the sampled deals, of a team's points
        minus the mean of the others' (0 with one team or no deals)."""
        if self._spread is None:
            diffs = [
                p[t] - sum(p[u] for u in range(self.teams) if u != t) / (self.teams - 1)
                for p, _ in self._sampled()
                for t in range(self.teams)
                if self.teams > 1
            ]
            mean = sum(diffs) / len(diffs) if diffs else 0.0
            self._spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / len(diffs)) if diffs else 0.0
        return self._spread

    def chance_around(self, totals: Sequence[float], deals: int, team: int, spread: float) -> float:
        """:meth:`chance` when ``team``'s points against the others' in this deal are only known to within
        ``spread`` (a normal error of that standard deviation; three-point Gauss-Hermite: the difference moved
        by 0 and by plus and minus sqrt(3) spreads, weighted 2/3, 1/6 and 1/6). A search's estimate of a deal's
        points made before its end is such a total: without the error, a lead estimated past the target would
        be a certain win, and every move that keeps it would look alike."""
        if spread <= 0:
            return self.chance(totals, deals, team)
        # half to the team, half from each other team: the difference moves by 2*half
        half = math.sqrt(3.0) * spread / 2
        up = [t + half if u == team else t - half for u, t in enumerate(totals)]
        down = [t - half if u == team else t + half for u, t in enumerate(totals)]
        return (
            2 / 3 * self.chance(totals, deals, team)
            + (self.chance(up, deals, team) + self.chance(down, deals, team)) / 6
        )

    def _estimate(self, totals: tuple[int, ...], deals: int) -> tuple[float, ...]:
        wins = [0.0] * self.teams
        futures = self._sequences()
        for future in futures:
            current = list(totals)
            played = deals
            for points, instant in future:
                played += 1
                if instant is not None:
                    wins[instant] += 1.0
                    break
                for t, p in enumerate(points):
                    current[t] += p
                over, winner = self.match.winner(current, played)
                if over:
                    if winner is None:
                        for t in range(self.teams):
                            wins[t] += 1.0 / self.teams
                    else:
                        wins[winner] += 1.0
                    break
            else:  # still undecided after MAX_FUTURE deals: no side is favoured
                for t in range(self.teams):
                    wins[t] += 1.0 / self.teams
        return tuple(w / len(futures) for w in wins)

    def _sampled(self) -> Sequence[DealSample]:
        """The deals the futures draw from: given, or played now (once) from the game."""
        if self._deals is None:
            self._deals = sample_deals(self._source) if self._source is not None else []
        return self._deals

    def _sequences(self) -> list[list[DealSample]]:
        """The futures: sequences of sampled deals, each once per rotation of the teams (no side favoured)."""
        if self._futures is None:
            deals = self._sampled()
            rng = random.Random(f"piglia/equity/{self._seed}")
            teams = self.teams
            futures: list[list[DealSample]] = []
            for _ in range(FUTURES):
                # each drawn deal goes to the teams rotated at random (a sampled deal's first team is always the
                # same seat, the dealer's or not), and the whole sequence is played once more per rotation of
                # those: every team meets the same luck, so that equal totals give equal chances
                drawn = [
                    (deals[rng.randrange(len(deals))], rng.randrange(teams)) for _ in range(MAX_FUTURE if deals else 0)
                ]
                for rotation in range(teams):
                    future: list[DealSample] = []
                    for (points, instant), turn in drawn:
                        shift = (turn + rotation) % teams
                        rotated = tuple(points[(t + shift) % teams] for t in range(teams))
                        future.append((rotated, None if instant is None else (instant - shift) % teams))
                    futures.append(future)
            self._futures = futures
        return self._futures


def match_equity(game: Game) -> MatchEquity:
    """The match equity of ``game``'s rules, made once per process for each variant and number of players
    (its sampled deals and its chances are kept with it)."""
    return _equity(game.variant, game.num_players)


@lru_cache(maxsize=32)
def _equity(variant: Variant, players: int) -> MatchEquity:
    return MatchEquity.of_game(Game(variant, players))
