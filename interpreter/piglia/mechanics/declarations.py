"""Hand declarations: a seat's dealt cards score at the start of its first turn of each hand.

A rule file lists its declarations under ``declarations.hands``, each a condition on the ``hand`` (the seat's
cards as dealt) and its points, and may name wild cards with a card condition (``declarations.wild``):

.. code-block:: yaml

    declarations:
      wild: card == 7 of hearts                 # counts as any card its holder names
      hands:                                    # the first listed that holds is declared, and only it
        three_of_a_kind: {points: 10, when: count(distinct(c.rank for c in hand)) == 1}
        low: {points: 3, when: sum(hand) <= 9}

Declaring is automatic: it only ever adds points, so the engine declares for the seat, before its first card
of the hand (the reserved ``DECLARE`` phase is never waited in: there is no choice to make). The seat names
each wild card it holds as a rank; the wild counts as the card of that rank in its own suit. The engine names,
for the first declaration (in the file's order) that some naming makes hold, the first such naming in rank
order (so a wild counts as the lowest rank that works). The declared cards are public for the rest of the hand
(:attr:`~piglia.state.SeatView.shown`), and a ``declare`` record event says what was declared and named.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import TYPE_CHECKING, Any

from piglia.contexts import CardEnv
from piglia.dsl import Compiled, T
from piglia.errors import LimitError
from piglia.events import Declare
from piglia.mechanics.base import BuildContext, Page, Quantity, quantity_fn

if TYPE_CHECKING:
    from piglia.state import State
    from piglia.yamlpos import Path

__all__ = [
    "HAND_SCOPE",
    "MESSAGES",
    "SCHEMA",
    "Declaration",
    "Declarations",
    "HandEnv",
    "build_declarations",
    "hand_dealt",
    "turn_begins",
]

HAND_SCOPE: Mapping[str, T] = {"hand": T.CARDS}

# The catalog keys the rules page uses for declarations.
MESSAGES = ("declare.title", "declare.intro", "declare.hand", "declare.first", "declare.wild")

SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "description": "Hand declarations: at the start of a seat's first turn of each hand, its cards score if "
    "they meet one of these conditions (the first listed that holds, only it); the declared cards become public "
    "for the rest of the hand.",
    "properties": {
        "wild": {
            "type": "string",
            "minLength": 1,
            "description": "Which cards are wild for a declaration (a card condition, e.g. card == 7 of hearts): "
            "the holder names a rank, and the wild counts as the card of that rank in its own suit.",
        },
        "hands": {
            "type": "object",
            "minProperties": 1,
            "description": "The declarations, in order: name -> points and condition on the hand.",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "points": {
                        "oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "minLength": 1}],
                        "description": "Points scored (a number or an expression that sees hand).",
                    },
                    "when": {
                        "type": "string",
                        "minLength": 1,
                        "description": "The condition on the hand (sees hand: the seat's cards, wilds as named).",
                    },
                },
                "required": ["points", "when"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["hands"],
    "additionalProperties": False,
}


@dataclass(slots=True)
class HandEnv:
    """The scope of a declaration's condition: the hand, each wild card replaced by the card it is named as."""

    hand: tuple[int, ...]


DECLARED_KEPT = 1 << 14  # hands whose declaration a variant remembers (Declarations.known), then forgets at once
# Most namings of one hand's wild cards the engine tries (each against every declaration): Cirulla's one wild card
# has ten; a file where every card is wild would have ten to the power of the hand's size. Validation refuses a file
# whose hands could hold more (piglia.probe); play checks it again.
MAX_NAMINGS = 10_000
# Most estimated steps (the DSL's estimate) the conditions of the declarations may take over one hand's namings: a
# few seconds at most. Ten thousand namings each tried against a condition of a few thousand steps took minutes a
# deal (tests/data/hostile/slow-declarations.yaml).
MAX_DECLARE_STEPS = 20_000_000


@dataclass(frozen=True)
class Declaration:
    """One declaration: its name, condition and points."""

    name: str
    when: Compiled
    points: Quantity


@dataclass(frozen=True)
class Declarations:
    """The declarations of a variant, compiled, with the wild cards and what each may be named as."""

    hands: tuple[Declaration, ...]
    wild: Compiled | None
    wild_cards: frozenset[int]
    # per wild card: the cards it may be named as, in rank order (same suit, each rank)
    namings: Mapping[int, tuple[int, ...]]

    # Hands asked before, with their answer: a declaration reads nothing but the hand, and a game asks at the first
    # card of every hand (with a wild card: each naming of it, against every declaration). Keyed by the hand sorted
    # when it holds at most one wild card (then its order changes nothing), else as it is; cleared past
    # DECLARED_KEPT hands (memory stays bounded). Callers never change an answer.
    known: dict[tuple[int, ...], tuple[Declaration, int, dict[int, int]] | None] = field(
        default_factory=dict, compare=False, repr=False
    )

    def declare(self, hand: Sequence[int]) -> tuple[Declaration, int, dict[int, int]] | None:
        """The declaration ``hand`` makes (the first that holds), its points and the wild namings; or None."""
        wild = self.wild_cards
        key = tuple(hand) if len(wild.intersection(hand)) > 1 else tuple(sorted(hand))
        known = self.known
        if key in known:
            return known[key]
        if len(known) >= DECLARED_KEPT:
            known.clear()
        found = known[key] = self._declare(hand)
        return found

    def _declare(self, hand: Sequence[int]) -> tuple[Declaration, int, dict[int, int]] | None:
        """:meth:`declare` worked out: each declaration in turn, with each naming of the wild cards."""
        wilds = [c for c in hand if c in self.wild_cards]
        plain = [c for c in hand if c not in self.wild_cards]
        count = math.prod(len(self.namings[w]) for w in wilds)
        too_many = self.too_many(len(hand), count)
        if too_many is not None:
            raise LimitError(too_many)
        choices = list(product(*(self.namings[w] for w in wilds))) if wilds else [()]
        for declaration in self.hands:
            for named in choices:
                env = HandEnv(tuple(sorted([*plain, *named])))
                if declaration.when.fn(env):
                    return declaration, int(quantity_fn(declaration.points)(env)), dict(zip(wilds, named, strict=True))
        return None

    def most_namings(self, hand_size: int) -> int:
        """The most namings of its wild cards a hand of ``hand_size`` cards can have (holding the wild cards that
        may be named most ways)."""
        return math.prod(sorted((len(n) for n in self.namings.values()), reverse=True)[:hand_size])

    def too_many(self, hand_size: int, count: int) -> str | None:
        """Why a hand of ``hand_size`` cards whose wild cards can be named ``count`` ways is too costly to declare
        (past MAX_NAMINGS namings, or MAX_DECLARE_STEPS estimated steps of the conditions tried on them); else
        None."""
        if count > MAX_NAMINGS:
            return (
                f"a hand of {hand_size} cards can hold wild cards named {count:,} ways, more than the "
                f"{MAX_NAMINGS:,} the engine tries for a declaration (make fewer cards wild, or deal smaller hands)"
            )
        steps = sum(d.when.cost + 1 for d in self.hands)  # one naming tried against every declaration
        if count * steps > MAX_DECLARE_STEPS:
            return (
                f"a hand of {hand_size} cards can hold wild cards named {count:,} ways, each tried against the "
                f"declarations' conditions at about {steps:,} steps: more than the {MAX_DECLARE_STEPS:,} steps the "
                "engine spends on a declaration (make fewer cards wild, deal smaller hands, or simplify the conditions)"
            )
        return None

    def phrase(self, page: Page) -> list[str]:
        """The rules-page lines: an introduction, one line per declaration, the wild card's rule."""
        lines = [page.msg("declare.intro")]
        for d in self.hands:
            lines.append(
                page.msg(
                    "declare.hand",
                    name=page.name(d.name),
                    points=page.points(d.points),
                    cond=page.words.condition(d.when),
                )
            )
        if len(self.hands) > 1:
            lines.append(page.msg("declare.first"))
        if self.wild is not None:
            lines.append(page.msg("declare.wild", cond=page.words.condition(self.wild)))
        return lines


def build_declarations(b: BuildContext, spec: Mapping[str, Any]) -> Declarations:
    """Check and compile ``declarations``: each condition and points, and the wild card condition."""
    deck = b.deck
    assert deck is not None
    hands: list[Declaration] = []
    for name, entry in spec["hands"].items():
        path: Path = ("declarations", "hands", name)
        when = b.compiled((*path, "when"), entry["when"], HAND_SCOPE, T.BOOL)
        points = b.quantity((*path, "points"), entry["points"], HAND_SCOPE)
        hands.append(Declaration(str(name), when, points))
    wild: Compiled | None = None
    wild_cards: frozenset[int] = frozenset()
    namings: dict[int, tuple[int, ...]] = {}
    if "wild" in spec:
        wild = b.compiled(("declarations", "wild"), spec["wild"], {"card": T.CARD}, T.BOOL, bare_card="card")
        wild_cards = frozenset(c for c in range(len(deck)) if wild.fn(CardEnv(c, c)))
        if not wild_cards:
            raise b.fail(("declarations", "wild"), "no card of the deck is wild under this condition")
        by_suit_rank = {(deck.suit_of[c], deck.rank_of[c]): c for c in range(len(deck))}
        for w in wild_cards:
            suit = deck.suit_of[w]
            namings[w] = tuple(by_suit_rank[suit, r.index] for r in deck.ranks if (suit, r.index) in by_suit_rank)
    return Declarations(tuple(hands), wild, wild_cards, namings)


# -- the engine's hooks -------------------------------------------------------------------------------------


def hand_dealt(state: State) -> None:
    """New hands were dealt (a deal or a refill): what was shown is no longer, and the seat to move may declare."""
    state.shown = [() for _ in state.hands]
    turn_begins(state)


def turn_begins(state: State) -> None:
    """The seat to move declares its hand if this is its first card of the hand and a declaration holds."""
    declarations = state.game.variant.declarations
    if declarations is None or state.over:
        return
    seat = state.to_move
    hand = state.hands[seat]
    if len(hand) != state.game.deal_rules.hand:
        return
    found = declarations.declare(hand)
    if found is None:
        return
    declaration, points, named = found
    team = state.game.players.team_of[seat]
    state.deal_points[team] += points
    state.deal_scores.append((declaration.name, team, points))
    state.shown[seat] = tuple(hand)
    if state.events is not None:
        ids = state.game.variant.deck.cards
        state._log(
            Declare(
                state.deal_no,
                seat,
                declaration.name,
                points,
                [ids[c].id for c in hand],
                {ids[w].id: ids[n].id for w, n in sorted(named.items())} or None,
            )
        )
