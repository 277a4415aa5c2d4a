"""The compiled, immutable rules of a variant (the "Game" object), as the engine uses them.

:func:`piglia.spec.load_variant` builds a :class:`Variant` from a rule file; nothing here reads YAML or
parses expressions. Everything the engine needs per play is precomputed: capture kinds with their filter
tables, bonus and award callables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from piglia.cards import Deck
from piglia.contexts import BONUS_SCOPE
from piglia.dsl import Compiled
from piglia.mechanics.awards import Award
from piglia.mechanics.bonuses import BonusTrigger
from piglia.mechanics.capture import Capture, CaptureKind
from piglia.mechanics.declarations import Declarations
from piglia.mechanics.match import MatchRules

__all__ = ["Bonus", "CaptureRules", "DealRules", "MatchRules", "OpeningBonus", "PlayerRules", "Variant"]

Expr = Callable[[Any], Any]


@dataclass(frozen=True)
class CaptureRules:
    """Capture kinds in priority tiers, and whether capturing is mandatory."""

    tiers: tuple[tuple[CaptureKind, ...], ...]
    mandatory: bool
    # One function per tier, ``(played, table) -> captures``: a single kind's own method (kinds list their
    # captures ascending, each once), or a merge of the tier's kinds. Built once; the engine calls these.
    finders: tuple[Callable[[int, Sequence[int]], list[Capture]], ...] = field(
        init=False, repr=False, compare=False, default=()
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "finders", tuple(_finder(tier) for tier in self.tiers))

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        """The captures open to ``played`` on ``table``, ascending: those of the first tier that has any."""
        for find in self.finders:
            caps = find(played, table)
            if caps:
                return caps
        return []

    def options(self, played: int, table: Sequence[int]) -> list[tuple[Capture, str]]:
        """The captures open to ``played`` on ``table`` with the kind of each, from the first tier that has any.

        A capture reachable by two kinds of one tier is listed once, under the first kind.
        """
        for tier in self.tiers:
            seen: dict[Capture, str] = {}
            for kind in tier:
                for cap in kind.captures(played, table):
                    seen.setdefault(cap, kind.name)
            if seen:
                return sorted(seen.items())
        return []

    def kind_of(self, played: int, table: Sequence[int], captured: Capture) -> str:
        """The name of the kind by which ``played`` takes ``captured`` from ``table`` (``""`` if none does)."""
        for cap, name in self.options(played, table):
            if cap == captured:
                return name
        return ""


def _finder(tier: tuple[CaptureKind, ...]) -> Callable[[int, Sequence[int]], list[Capture]]:
    if len(tier) == 1:
        return tier[0].captures

    def merged(played: int, table: Sequence[int]) -> list[Capture]:
        found: set[Capture] = set()
        for kind in tier:
            found.update(kind.captures(played, table))
        return sorted(found)

    return merged


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
