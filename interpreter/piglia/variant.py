"""The compiled, immutable rules of a variant (the "Game" object), as the engine uses them.

:func:`piglia.spec.load_variant` builds a :class:`Variant` from a rule file; nothing here reads YAML or
parses expressions. Everything the engine needs per play is precomputed: capture kinds with their filter
tables, bonus and award callables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from piglia.capture_rules import CaptureRules, RawMove
from piglia.cards import Deck
from piglia.contexts import BONUS_SCOPE
from piglia.dsl import Compiled
from piglia.mechanics.awards import Award
from piglia.mechanics.bonuses import BonusTrigger
from piglia.mechanics.builds import Builds
from piglia.mechanics.declarations import Declarations
from piglia.mechanics.match import MatchRules

__all__ = ["Bonus", "CaptureRules", "DealRules", "MatchRules", "OpeningBonus", "PlayerRules", "RawMove", "Variant"]

Expr = Callable[[Any], Any]


@dataclass(frozen=True)
class Bonus:
    """A bonus scored at capture time (or on every play, with ``on: play``)."""

    name: str
    when: Expr
    points: Expr
    on_play: bool
    # The scope variables ``when`` and ``points`` read: the engine builds only those (the rest of a
    # BonusEnv is left empty), which saves copying the hand, the pile and the table on every play.
    reads: frozenset[str] = frozenset(BONUS_SCOPE)
    # The mechanic that says which plays it is checked on, with the compiled parts the rules page phrases.
    trigger: BonusTrigger | None = field(default=None, compare=False, repr=False)
    # What ``when`` says of the plays it can hold for, read from the terms its ``and`` joins: only a play that
    # leaves the table empty (``empty(table_after)``), only one that captures from ``captured_min`` to
    # ``captured_max`` cards (``count(captured) >= 2``...; None: no most). Other plays are not checked at all.
    needs_empty_table: bool = False
    captured_min: int = 0
    captured_max: int | None = None

    def may_score(self, captured: int, empties_table: bool) -> bool:
        """Whether this bonus can score on a play that captures ``captured`` cards (0: a placement) and may
        (``empties_table``) or cannot leave the table empty; False says its condition cannot hold."""
        if not (captured or self.on_play) or captured < self.captured_min:
            return False
        if self.captured_max is not None and captured > self.captured_max:
            return False
        return empties_table or not self.needs_empty_table


@dataclass(frozen=True)
class PlayerRules:
    """Seats, teams, dealing order and who leads, for one player count."""

    count: int
    teams: tuple[tuple[int, ...], ...]
    team_of: tuple[int, ...]
    first_dealer: int | None  # None: drawn at random from the seed
    rotation: str  # "next" or "same"
    lead_offset: int  # 1: the seat after the dealer leads; 0: the dealer
    order: str


@dataclass(frozen=True)
class OpeningBonus:
    """A bonus on the opening table for the dealer's team, which may take table cards (``deal.opening``)."""

    name: str
    when: Expr  # DealEnv -> bool
    points: Expr  # DealEnv -> int
    take: Expr | None  # DealEnv -> cards taken from the table; None: nothing


@dataclass(frozen=True)
class DealRules:
    """How a deal is dealt."""

    hand: int  # cards per player at a time, for this player count
    table: int
    refill: bool
    redeal: Expr | None
    redeal_reason: str
    opening: tuple[OpeningBonus, ...] = ()
    hand_all: bool = False  # the hand size is "all the cards after the table", as written
    redeal_when: Compiled | None = field(default=None, compare=False, repr=False)  # the condition, for phrasing
    redeal_reason_written: bool = False  # the reason was written (not the default), so the rules page shows it
    face_down: int = 0  # of the ``table`` opening cards, how many are dealt face down (mechanics/facedown.py)
    replace: tuple[bool, ...] | None = None  # per card: sent under the stock from the opening table (replace.py)
    replace_when: Compiled | None = field(default=None, compare=False, repr=False)
    replace_reason: str = ""  # as written, for the rules page ("" when none was written)


@dataclass(frozen=True)
class Variant:
    """The rules of one variant, resolved and compiled. Immutable; shared by every state of a game."""

    name: str
    title: str
    description: str
    sources: tuple[str, ...]
    deck: Deck
    player_counts: tuple[int, ...]
    players_by_count: Mapping[int, PlayerRules]
    deals_by_count: Mapping[int, DealRules]
    capture: CaptureRules
    bonuses: tuple[Bonus, ...]
    leftover: str
    awards: tuple[Award, ...]
    match: MatchRules
    rules: Mapping[str, Any] = field(repr=False)  # the resolved rule data (extends applied)
    sha256: str = ""
    source: str = ""
    notes: tuple[str, ...] = ()  # for readers of the rules page
    removed_ranks: tuple[str, ...] = ()  # as written in deck.remove_ranks
    declarations: Declarations | None = None  # hand declarations (mechanics.declarations), if any
    builds: Builds | None = None  # builds that live across turns (mechanics.builds), if any

    @property
    def default_players(self) -> int:
        """The first allowed player count."""
        return self.player_counts[0]

    def players(self, count: int | None = None) -> PlayerRules:
        """Seat rules for ``count`` players (default: the first allowed count)."""
        return self.players_by_count[count or self.default_players]

    def deal_rules(self, count: int | None = None) -> DealRules:
        """Deal rules for ``count`` players."""
        return self.deals_by_count[count or self.default_players]

    def __hash__(self) -> int:
        return hash(self.sha256)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Variant) and other.sha256 == self.sha256
