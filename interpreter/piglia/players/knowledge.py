"""What every AI player derives from the rules and from its seat's view, generically.

* :func:`card_weights`: how much each card is worth towards the variant's end-of-deal awards, measured from
  the award specs themselves: over random splits of the deck between the teams, the points a team's pile
  scores with the card minus without it (the card moved to another team). Nothing here names a game: a
  card that is an award of its own comes out near one point because its award says so.
* :func:`determinize`: a full position consistent with a seat's view, the hidden cards dealt at random
  (:class:`Determinizer`: the same for many deals of one view, the view read once).
* :func:`play_bonuses`: what a play scores at once, as the seat to move may know it (the marks of the front ends).
* :func:`team_score`: a team's points minus the mean of the others', the quantity every player maximises.
* :func:`deal_over`, :func:`play`: the only engine calls the players make to move through an imagined
  position (kept here, in one place, so that a change to how the engine deals touches one file).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from piglia import dealflow
from piglia.chance import Phase
from piglia.costs import award_steps
from piglia.errors import PigliaError
from piglia.mechanics.builds import owed_cards
from piglia.state import Game, RawMove, SeatView, State
from piglia.variant import Variant

__all__ = [
    "Determinizer",
    "card_weights",
    "deal_over",
    "determinize",
    "game_of",
    "ordered_table",
    "play",
    "play_bonuses",
    "points_sign",
    "refill_hands",
    "team_score",
    "weight_samples",
]

_DEAL_OR_END = (Phase.DEAL, Phase.END)  # an imagined position never deals again: its deal is over
WEIGHT_SAMPLES = 120  # random deck splits; each gives one exact with/without difference per card
# The most estimated steps (the DSL's estimate of its expressions' work) the awards may take over all the splits: a
# built-in game's take 2 to 12 million (with up to four teams), a few tenths of a second. Awards that cost more
# (thousands of them, or one near the cost limit of an expression) get fewer splits, at least one, rather than minutes
# before an AI player's first move (tests/data/hostile/slow-award-weights.yaml).
WEIGHT_STEPS = 20_000_000


def game_of(view: SeatView) -> Game:
    """The rules the view's seat is playing (a view from :meth:`State.view` always carries them)."""
    if view.game is None:
        raise ValueError("this seat view carries no game; build it with State.view")
    return view.game


def team_score(points: Sequence[float], team: int) -> float:
    """``team``'s points minus the mean of the other teams' points."""
    others = [p for t, p in enumerate(points) if t != team]
    return points[team] - (sum(others) / len(others) if others else 0.0)


def points_sign(game: Game) -> float:
    """1.0 when points are good; -1.0 when the side with fewer points wins (a misere match end): a player then
    maximises the sign times the points."""
    return -1.0 if game.variant.match.lower_is_better else 1.0


def card_weights(game: Game) -> tuple[float, ...]:
    """Per card index: the end-of-deal points (as :func:`team_score`) a team gains by holding the card rather
    than leaving it to the others, halved: the worth of taking a card that could have gone either way.

    Deterministic for a variant and number of teams (the generator is seeded from the variant's hash), and
    computed once per process for each.
    """
    return _weights(game.variant, game.num_teams)


def check_options(player: str, **options: tuple[Any, float, float, bool]) -> None:
    """Refuse a player option that is not a number in its range (``ismcts:iterations=abc``, ``iterations=-5``):
    each option as (value, lowest, highest, whole number)."""
    for name, (value, low, high, whole) in options.items():
        kind = "a whole number" if whole else "a number"
        ok = isinstance(value, int) if whole else isinstance(value, int | float)
        if isinstance(value, bool) or not ok or not (low <= value <= high):  # NaN fails the range test too
            span = f"from {low:g} to {high:g}" if high != math.inf else f"of at least {low:g}"
            raise PigliaError(f"{player} option {name}={value!r}: expected {kind} {span}")


def weight_samples(variant: Variant, teams: int) -> int:
    """How many random splits :func:`card_weights` takes: :data:`WEIGHT_SAMPLES`, fewer when the awards would cost
    more than :data:`WEIGHT_STEPS` estimated steps over them (each split scores every award for every team once
    per card and once more)."""
    per_split = teams * sum(map(award_steps, variant.awards)) * (len(variant.deck) + 1)
    return max(1, min(WEIGHT_SAMPLES, WEIGHT_STEPS // max(per_split, 1)))  # no awards: nothing to bound


@lru_cache(maxsize=32)
def _weights(variant: Variant, teams: int) -> tuple[float, ...]:
    n_cards = len(variant.deck)
    rng = random.Random(f"piglia/weights/{variant.sha256}/{teams}")
    totals = [0.0] * n_cards
    samples = weight_samples(variant, teams)

    def scores(piles: list[list[int]]) -> list[float]:
        points = [0.0] * teams
        frozen = [tuple(p) for p in piles]
        for award in variant.awards:
            for team, pts in award.entries(frozen, 1):
                if team is not None:
                    points[team] += pts
        return points

    for _ in range(samples):
        owner = [rng.randrange(teams) for _ in range(n_cards)]
        piles: list[list[int]] = [[] for _ in range(teams)]
        for card, t in enumerate(owner):
            piles[t].append(card)
        base = scores(piles)
        for card, t in enumerate(owner):
            other = (t + 1 + rng.randrange(teams - 1)) % teams if teams > 1 else t
            if other == t:
                continue
            piles[t].remove(card)
            piles[other].append(card)
            without = scores(piles)
            piles[other].remove(card)
            piles[t].append(card)
            # the holder's gain over the others, with the card minus without it
            totals[card] += (team_score(base, t) - team_score(without, t)) / 2
    return tuple(v / samples for v in totals)


def ordered_table(game: Game) -> bool:
    """Whether the order of the table's cards matters to the rules: a capture kind or a bonus reads its top."""
    kinds = [k for tier in game.variant.capture.tiers for k in tier]
    return "top" in game.bonus_reads or any(getattr(k, "reads_top", False) for k in kinds)


def determinize(view: SeatView, rng: random.Random, *, auto_deal: bool = False) -> State:
    """A full position consistent with ``view``: the cards it has not seen dealt at random to the other hands
    and the stock (cards outside the deal, when the deck is not all dealt, are left out at random).

    The result depends only on the view and ``rng``, never on the real hidden cards.
    """
    return Determinizer(view, auto_deal=auto_deal)(rng)


class Determinizer:
    """:func:`determinize` for many deals of one view (a search deals the hidden cards hundreds of times).

    Each call draws from ``rng`` exactly what :func:`determinize` draws (the same shuffle, the same seed), so a
    search gives the same deals either way. What does not depend on the draw is read from the view once: the
    unseen cards, the seat's hand, the shown cards; and the first position is built from the view
    (:meth:`State.from_view`, which converts the view's cards and checks them: most of the cost of a deal), the
    next ones copied from it with their own hidden cards and seed.
    """

    def __init__(
        self, view: SeatView, *, auto_deal: bool = False, factors: dict[int, dict[int, float]] | None = None
    ) -> None:
        self.view = view
        # per other seat, the likelihood factors of the cards read from its plays (players/inference.py): a
        # hand is then drawn with those weights instead of uniformly
        self.factors = factors or {}
        self.game = game_of(view)
        self.auto_deal = auto_deal
        self.unseen = sorted(c.index for c in view.unseen)
        self.own = [c.index for c in view.hand]
        self.shown = [[c.index for c in s] for s in view.shown] if view.shown else None
        self.template: State | None = None

    def __call__(self, rng: random.Random) -> State:
        """A new position consistent with the view, the hidden cards dealt from ``rng``."""
        view = self.view
        unseen = list(self.unseen)
        rng.shuffle(unseen)
        factors = self.factors
        # a build's owner holds a card of its value (mechanics/builds.py): one is dealt to it first
        owed = owed_cards(self.game.variant, view.builds, view.seat, unseen, self.shown) if view.builds else {}
        hands: list[list[int]] = []
        pos = 0
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat:
                hands.append(self.own)
                continue
            # cards a declaration showed are known to be in that hand: only the rest is guessed
            shown = self.shown[seat] if self.shown else []
            mine = owed.get(seat, [])
            take = size - len(shown) - len(mine)
            if seat in factors and take > 0:
                # the hand drawn with the read weights (Efraimidis and Spirakis: the ``take`` largest keys
                # u ** (1 / weight), u uniform), the cards left keep their shuffled order for the next seats
                weight = factors[seat]
                rest = unseen[pos:]
                keys = [math.log(1.0 - rng.random()) / weight.get(c, 1.0) for c in rest]
                order = sorted(range(len(rest)), key=keys.__getitem__, reverse=True)
                chosen = set(order[:take])
                hands.append(shown + mine + [rest[k] for k in order[:take]])
                unseen[pos:] = [c for k, c in enumerate(rest) if k in chosen] + [
                    c for k, c in enumerate(rest) if k not in chosen
                ]
            else:
                hands.append(shown + mine + unseen[pos : pos + take])
            pos += take
        stock = unseen[pos : pos + view.stock_size]
        pos += view.stock_size
        face_down = unseen[pos : pos + view.face_down]  # the table cards under the pile are as unknown as the stock
        seed = rng.getrandbits(32)
        template = self.template
        if template is None:
            state = State.from_view(
                self.game, view, hands, stock, seed=seed, auto_deal=self.auto_deal, face_down=face_down
            )
            self.template = state.clone()  # the caller plays on the state: the template is kept apart
            return state
        # what from_view sets from the hidden cards and the seed; the rest is the view's, as in the template
        state = template.clone()
        state.seed = seed
        state.hands = [sorted(h) for h in hands]
        state.stock = stock
        state.face_down = face_down
        return state


def deal_over(state: State) -> bool:
    """Whether the deal of an imagined position (made by :func:`determinize`) has ended: its points are final."""
    return state.phase in _DEAL_OR_END


def play(state: State, raw: RawMove) -> bool:
    """Play ``raw`` in an imagined position, in place, dealing the next hands from its stock when they run out
    (an imagined position never starts another deal); return whether the deal is over (:func:`deal_over`)."""
    state.push_raw(raw)
    phase = state.phase  # read once: the play loops of a search ask this after every move
    if phase is Phase.REFILL:
        refill_hands(state)
        return deal_over(state)
    return phase in _DEAL_OR_END


def refill_hands(state: State) -> None:
    """Deal the next hands of an imagined position from its stock if every hand is empty."""
    if state.phase is Phase.REFILL:
        # What ``push_chance(chance_outcome())`` deals (the top of the stock, from the seat after the dealer),
        # without the undo entry: nobody takes back a move of an imagined position, and the entry's snapshot
        # was a third of the refill's cost.
        dealflow.refill_from_stock(state)


GUESSES = 4  # positions dealt from the view that judge a play taking face-down cards


def play_bonuses(state: State, raw: RawMove) -> list[tuple[str, int]]:
    """The bonuses (name, points) the seat to move would score at once by ``raw``, as that seat may know them.

    A play that takes no face-down card scores what the engine says on a copy of the position. One that takes
    face-down cards, which no seat has seen, may score according to what they are (a bonus counting the aces
    taken): then only what it scores on each of :data:`GUESSES` positions dealt from the seat's view is given,
    never the real position's answer, which would tell the seat the hidden cards."""

    def scored(position: State) -> tuple[Counter[tuple[str, int]], bool]:
        """What ``raw`` scores on ``position`` (played there: a copy, or a dealt guess), and whether it takes
        face-down cards; the play's own event says both."""
        position.events = []  # its own log, whatever the position kept
        position.push_raw(raw)
        done = next(e for e in position.events if e["event"] == "play")
        return Counter((b["name"], b["points"]) for b in done["bonuses"]), bool(done.get("face_down"))

    real, face_down = scored(state.clone())
    if not face_down:
        return list(real.elements())
    view = state.view(state.to_move)
    rng = random.Random(f"piglia/marks/{state.deal_no}/{len(state.plays)}")  # drawn from public things only
    common = scored(determinize(view, rng))[0]
    for _ in range(GUESSES - 1):
        common &= scored(determinize(view, rng))[0]
    return list(common.elements())
