"""Record events as typed values: one dataclass per line kind of a game record (docs/records.md).

The engine logs these values, :mod:`piglia.record` writes them with :meth:`RecordEvent.to_json` and reads
them back with :func:`event_from_json`, and :mod:`piglia.stats` folds them: one definition of each event for
all three. Cards are named by id, as in the record. The fields are in the order a record line lists them, so
``to_json`` gives the very bytes of the format.

For code written when events were plain mappings, an event also reads like one: ``event["captured"]``,
``event.get("reason")`` and ``event["event"]`` (its kind) work, and an event equals its JSON object.

>>> play = Play(deal=1, player=0, card="7d", captured=["7c"], kind="match", bonuses=[])
>>> play.to_json()
{'event': 'play', 'deal': 1, 'player': 0, 'card': '7d', 'captured': ['7c'], 'kind': 'match', 'bonuses': []}
>>> event_from_json(play.to_json()) == play
True
>>> play["event"], play["card"]
('play', '7d')
>>> play == play.to_json()
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

__all__ = [
    "EVENT_TYPES",
    "FORMAT",
    "FORMATS",
    "Deal",
    "DealEnd",
    "Declare",
    "Header",
    "MatchEnd",
    "Misdeal",
    "Opening",
    "Play",
    "RecordEvent",
    "Refill",
    "deal_piles",
    "event_from_json",
]

FORMAT = "piglia-record/2"  # what the engine writes
FORMATS = ("piglia-record/1", "piglia-record/2")  # what replay reads: /1 has no capture kind on plays


_FIELDS: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    """The field names of an event class, in order (looked up once per class: events are written by the million)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))
    return names


class RecordEvent:
    """The base of every record event: its ``event`` name, its JSON form, and mapping-style reading."""

    event: ClassVar[str]
    # fields written only when not None (optional fields of the format)
    optional: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        """The event as the JSON object of its record line (key order as docs/records.md lists it)."""
        out: dict[str, Any] = {"event": self.event}
        optional = self.optional
        for name in _names(type(self)):
            value = getattr(self, name)
            if value is None and name in optional:
                continue
            out[name] = value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Any:
        """The event from its JSON object (unknown keys are ignored; a missing required key raises KeyError)."""
        optional = cls.optional
        kwargs = {name: data.get(name) if name in optional else data[name] for name in _names(cls)}
        return cls(**kwargs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RecordEvent):
            return type(other) is type(self) and other.to_json() == self.to_json()
        if isinstance(other, dict):
            return other == self.to_json()
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable values, as the dicts they replace

    def __getitem__(self, key: str) -> Any:
        if key == "event":
            return self.event
        if key in self.optional and getattr(self, key, None) is None:
            raise KeyError(key)
        try:
            return getattr(self, key)
        except AttributeError:
            raise KeyError(key) from None

    def get(self, key: str, default: Any = None) -> Any:
        """Mapping-style reading, as of the event's JSON object."""
        try:
            return self[key]
        except KeyError:
            return default


@dataclass(slots=True, eq=False)
class Header(RecordEvent):
    """The first line: the variant, its fingerprint, the seed, the seats and teams, the deck."""

    event: ClassVar[str] = "header"
    format: str
    variant: str
    spec_sha256: str
    seed: int
    players: int
    teams: list[list[int]]
    cards: dict[str, dict[str, str]]


@dataclass(slots=True, eq=False)
class Misdeal(RecordEvent):
    """An opening deal that the rules reject and redeal."""

    event: ClassVar[str] = "misdeal"
    deal: int
    dealer: int
    table: list[str]
    reason: str


@dataclass(slots=True, eq=False)
class Deal(RecordEvent):
    """A deal: the hands, the table (face up), the number of cards left in the stock; the face-down table cards
    and the opening cards returned under the stock, when the rules deal any."""

    event: ClassVar[str] = "deal"
    optional: ClassVar[tuple[str, ...]] = ("face_down", "returned")
    deal: int
    dealer: int
    hands: list[list[str]]
    table: list[str]
    stock: int
    face_down: list[str] | None = None
    returned: list[str] | None = None


@dataclass(slots=True, eq=False)
class Refill(RecordEvent):
    """Hands dealt again from the stock."""

    event: ClassVar[str] = "refill"
    deal: int
    hands: list[list[str]]
    stock: int


@dataclass(slots=True, eq=False)
class Opening(RecordEvent):
    """An opening bonus of the dealer, and the table cards it took."""

    event: ClassVar[str] = "opening"
    deal: int
    player: int
    name: str
    points: int
    captured: list[str]


@dataclass(slots=True, eq=False)
class Declare(RecordEvent):
    """A hand declared at the start of a seat's first turn of a hand: its cards (public for the rest of the
    hand), the declaration's name and points, and what each wild card was named as (absent without one)."""

    event: ClassVar[str] = "declare"
    optional: ClassVar[tuple[str, ...]] = ("named",)
    deal: int
    player: int
    name: str
    points: int
    cards: list[str]
    named: dict[str, str] | None = None


@dataclass(slots=True, eq=False)
class Play(RecordEvent):
    """A card played: what it took, by which capture kind (captures only), the bonuses it scored, and the
    face-down table cards it took with the pile (when it took any); for a build move (mechanics/builds.py), the
    value announced (``build``) and the table cards the card joined (``onto``)."""

    event: ClassVar[str] = "play"
    optional: ClassVar[tuple[str, ...]] = ("kind", "face_down", "build", "onto")
    deal: int
    player: int
    card: str
    captured: list[str]
    kind: str | None
    bonuses: list[dict[str, Any]]
    face_down: list[str] | None = None
    build: int | None = None
    onto: list[str] | None = None


@dataclass(slots=True, eq=False)
class DealEnd(RecordEvent):
    """The end of a deal: the leftover, every award, the deal's points and the match totals."""

    event: ClassVar[str] = "deal_end"
    deal: int
    leftover: dict[str, Any]
    awards: list[dict[str, Any]]
    points: list[int]
    totals: list[int]


@dataclass(slots=True, eq=False)
class MatchEnd(RecordEvent):
    """The end of the match: the totals, the winning team (None: a draw), the reason of an instant win."""

    event: ClassVar[str] = "match_end"
    optional: ClassVar[tuple[str, ...]] = ("reason",)
    totals: list[int]
    winner: int | None
    reason: str | None = None


EVENT_TYPES: dict[str, type[RecordEvent]] = {
    cls.event: cls for cls in (Header, Misdeal, Deal, Refill, Opening, Declare, Play, DealEnd, MatchEnd)
}


def event_from_json(data: dict[str, Any]) -> RecordEvent:
    """The typed event of a record line's JSON object; KeyError for an unknown event or a missing field."""
    cls = EVENT_TYPES[data["event"]]
    event: RecordEvent = cls.from_json(data)
    return event


def deal_piles(
    events: Iterable[RecordEvent | Mapping[str, Any]], team_of: Sequence[int], num_teams: int, deal: int
) -> list[list[str]]:
    """Each team's pile at the end of ``deal``, read from the public events (captures, face-down cards taken,
    openings, leftover): what a score sheet counts, for the terminal game and the web table alike."""
    piles: list[list[str]] = [[] for _ in range(num_teams)]
    for e in events:
        if e.get("deal") != deal:
            continue
        kind = e["event"]
        if kind == "play" and e["captured"]:
            piles[team_of[e["player"]]] += [e["card"], *e["captured"], *(e.get("face_down") or ())]
        elif kind == "opening" and e["captured"]:
            piles[team_of[e["player"]]] += e["captured"]
        elif kind == "deal_end" and e["leftover"]["team"] is not None:
            piles[e["leftover"]["team"]] += e["leftover"]["cards"]
    return piles
