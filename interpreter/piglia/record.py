"""Game records (``piglia-record/2``, JSON Lines): writing them, and replaying them against the rules.

A record is the PGN of a capture game: a header, then every misdeal, deal, refill, play, deal end and the
match end, each a typed event of :mod:`piglia.events`. :func:`verify_file` replays each record with the engine
(the record's deals and refills are the chance outcomes it applies) and reports every place where the record
and the rules disagree, as ``FILE:LINE: what is wrong``. A file may hold several records one after another
(a simulation of many matches); each starts at its header. Version 1 records (no capture kind on plays) are
read too.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from piglia.chance import DealOutcome, Phase, RefillOutcome
from piglia.errors import PigliaError, RecordError, SpecError, SpecErrors
from piglia.events import FORMAT, FORMATS, Declare, MatchEnd, Opening, Play, RecordEvent
from piglia.moves import BuildRaw
from piglia.recordio import LineTooLong, StrictJsonError, bounded_lines, loads_strict
from piglia.spec import load_variant
from piglia.state import Game, State
from piglia.variant import Variant

__all__ = ["FORMAT", "FORMATS", "dump_event", "verify_file", "verify_lines", "write_events"]

MAX_RECORD_BYTES = 256 * 1024 * 1024
Event = dict[str, Any]  # a record line as read: a JSON object


def dump_event(event: RecordEvent | Event) -> str:
    """One event as one line of JSON (compact, keys in the order the format lists them)."""
    data = event.to_json() if isinstance(event, RecordEvent) else event
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def write_events(events: Iterable[RecordEvent | Event], out: IO[str]) -> None:
    """Write events as JSON Lines."""
    for event in events:
        out.write(dump_event(event))
        out.write("\n")


class _Stop(Exception):
    """The replay of this record cannot go on."""


@dataclass
class _Replay:
    """Replays one record, collecting discrepancies."""

    file: str
    variant_override: Variant | None
    base_dir: Path | None = None  # where to look for a variant file named in the header, beside the record
    errors: list[RecordError] = field(default_factory=list)
    state: State | None = None
    format: str = FORMAT
    pending: list[RecordEvent] = field(default_factory=list)
    logged: int = 0
    misdeals: list[tuple[int, ...]] = field(default_factory=list)  # this deal's misdealt tables so far
    expected: DealOutcome | None = None  # the deal the seed gives, once a deal's first line is read
    last_line: int = 0

    def err(self, line: int, message: str) -> None:
        self.errors.append(RecordError(message, file=self.file, line=line))

    def stop(self, line: int, message: str) -> _Stop:
        self.err(line, message)
        return _Stop()

    # -- cards ---------------------------------------------------------------------------------------------

    def cards(self, line: int, ids: Any, what: str, *, repeats: bool = False) -> list[int]:
        """The deck indexes of a list of card ids; a card listed twice is refused unless ``repeats``."""
        assert self.state is not None
        deck = self.state.game.variant.deck
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise self.stop(line, f"{what}: expected a list of card ids")
        out = []
        for cid in ids:
            if cid not in deck.by_id:
                raise self.stop(line, f"{what}: unknown card {cid!r}")
            out.append(deck.by_id[cid].index)
        if not repeats and len(set(out)) != len(out):
            raise self.stop(line, f"{what}: a card is listed twice")
        return out

    def field(self, line: int, event: Event, name: str) -> Any:
        if name not in event:
            raise self.stop(line, f"{event.get('event')} event without {name!r}")
        return event[name]

    # -- header --------------------------------------------------------------------------------------------

    def header(self, line: int, event: Event) -> None:
        if event.get("format") not in FORMATS:
            raise self.stop(line, f"not a {' or '.join(FORMATS)} record (format {event.get('format')!r})")
        self.format = event["format"]
        name = self.field(line, event, "variant")
        variant = self.variant_override
        if variant is None:
            try:
                variant = load_variant(str(name), relative_to=self.base_dir)
            except SpecErrors as exc:
                raise self.stop(line, f"variant {name!r} has errors: {exc.errors[0].format()}") from None
            except SpecError as exc:
                raise self.stop(
                    line, f"the record is of variant {name!r}: {exc.message}; pass its rule file: --variant FILE"
                ) from None
        elif name != variant.name:
            raise self.stop(line, f"the record is of variant {name!r}, not {variant.name!r}")
        if "spec_sha256" not in event:
            raise self.stop(line, "the header has no spec_sha256 (the fingerprint of the rules it was played under)")
        if event.get("spec_sha256") != variant.sha256:
            raise self.stop(
                line,
                f"the record was played under other rules than variant {variant.name!r} "
                "(spec_sha256 differs); pass the rule file it was played with: --variant FILE",
            )
        seed = self.field(line, event, "seed")
        players = self.field(line, event, "players")
        if not _whole(seed) or not _whole(players):
            raise self.stop(line, "seed and players must be whole numbers")
        try:
            game = Game(variant, players)
        except PigliaError as exc:
            raise self.stop(line, str(exc)) from None
        if event.get("teams") != [list(t) for t in game.players.teams]:
            raise self.stop(line, f"teams {event.get('teams')} do not match the variant's {list(game.players.teams)}")
        expected_cards = game.header(seed).cards
        listed = event.get("cards")
        if listed != expected_cards:
            if not isinstance(listed, dict):
                raise self.stop(line, "cards: expected a mapping from card id to its rank and suit")
            extra = [c for c in listed if c not in expected_cards]
            absent = [c for c in expected_cards if c not in listed]
            wrong = [c for c in listed if c in expected_cards and listed[c] != expected_cards[c]]
            detail = (
                f"card {extra[0]!r} is not in the variant's deck"
                if extra
                else f"card {absent[0]!r} of the variant's deck is missing"
                if absent
                else f"card {wrong[0]!r} is the {_card_words(expected_cards[wrong[0]])}"
            )
            raise self.stop(line, f"the cards listed do not match the variant's deck: {detail}")
        self.state = game.new_match(seed, auto_deal=False)
        self.logged = len(self.state.events or [])

    # -- events --------------------------------------------------------------------------------------------

    def event(self, line: int, event: Event) -> None:
        self.last_line = line
        kind = event.get("event")
        if self.state is None:
            if kind != "header":
                raise self.stop(line, "a record starts with a header event")
            self.header(line, event)
            return
        state = self.state
        if self.pending:
            expected = self.pending.pop(0)
            if kind != expected.event:
                raise self.stop(line, f"expected a {expected.event} event here, found {kind!r}")
            self.compare_end(line, event, expected.to_json())
            return
        if state.over:
            raise self.stop(line, f"{kind} event after the end of the match")
        if kind in ("misdeal", "deal"):
            self.deal(line, event, kind)
        elif kind == "refill":
            self.refill(line, event)
        elif kind == "play":
            self.play(line, event)
        elif kind == "declare":
            raise self.stop(line, "a declaration, but the rules make none here (no declaration holds, or not its turn)")
        elif kind == "opening":
            raise self.stop(line, "an opening bonus, but the rules give none on this deal's opening table")
        elif kind == "deal_end":
            raise self.stop(line, "deal_end, but the deal is not over: cards are still in hand or stock")
        elif kind == "match_end":
            raise self.stop(line, f"match_end, but the match is not over (totals {state.totals})")
        elif kind == "header":
            raise self.stop(line, "a new header before this match ended (the record above is cut short)")
        else:
            raise self.stop(line, f"unknown event {kind!r}")

    def check_deal_number(self, line: int, event: Event) -> None:
        assert self.state is not None
        number = self.field(line, event, "deal")
        if not _whole(number):
            raise self.stop(line, f"deal: expected a whole number, got {number!r}")
        if number != self.state.deal_no:
            raise self.stop(line, f"deal number {event.get('deal')!r}, expected {self.state.deal_no}")

    def deal(self, line: int, event: Event, kind: str) -> None:
        state = self.state
        assert state is not None
        if state.phase is not Phase.DEAL:
            raise self.stop(line, f"{kind} event in the middle of a deal")
        self.check_deal_number(line, event)
        if not _whole(event.get("dealer")):
            raise self.stop(line, f"dealer: expected a seat number, got {event.get('dealer')!r}")
        if event.get("dealer") != state.dealer:
            raise self.stop(line, f"dealer {event.get('dealer')!r}, but the rules make seat {state.dealer} deal")
        if self.expected is None:
            outcome = state.chance_outcome()  # what the seed deals, misdeals included
            assert isinstance(outcome, DealOutcome)
            self.expected = outcome
        expected = self.expected
        attempt = len(self.misdeals)
        table = self.cards(line, self.field(line, event, "table"), "table")
        if kind == "misdeal":
            if not state.is_misdeal(table):
                raise self.stop(line, "misdeal declared, but the redeal condition does not hold for this table")
            if attempt >= len(expected.misdeals) or tuple(table) != expected.misdeals[attempt]:
                self.err(line, f"the misdealt table does not match the shuffle of seed {state.seed}")
            self.misdeals.append(tuple(table))
            return
        hands_raw = self.field(line, event, "hands")
        if not isinstance(hands_raw, list) or len(hands_raw) != state.game.num_players:
            raise self.stop(line, f"hands: expected one list per seat ({state.game.num_players})")
        hands = [self.cards(line, h, f"hands[{i}]") for i, h in enumerate(hands_raw)]
        size = state.game.deal_rules.hand
        face_down = self.cards(line, event.get("face_down") or [], "face_down")
        # a card sent under the stock can come round again and be sent under once more (mechanics/replace.py)
        returned = self.cards(line, event.get("returned") or [], "returned", repeats=True)
        if len(face_down) != state.game.deal_rules.face_down:
            raise self.stop(
                line, f"the rules deal {state.game.deal_rules.face_down} table cards face down, not {len(face_down)}"
            )
        if any(len(h) != size for h in hands) or len(table) + len(face_down) != state.game.deal_rules.table:
            raise self.stop(
                line, f"a deal gives {size} cards to each seat and {state.game.deal_rules.table} to the table"
            )
        dealt = [c for h in hands for c in h] + table + face_down
        if len(set(dealt)) != len(dealt):
            raise self.stop(line, "the same card is dealt twice")
        if state.is_misdeal(table):
            raise self.stop(line, f"this opening table must be redealt ({state.game.deal_rules.redeal_reason})")
        stock = [c for c in range(len(state.game.variant.deck)) if c not in set(dealt)]
        if event.get("stock") != len(stock):
            self.err(line, f"stock {event.get('stock')!r}, but {len(stock)} cards are left undealt")
        same_hands = [sorted(h) for h in hands] == [sorted(h) for h in expected.hands]
        same_table = tuple(table) == expected.table and tuple(face_down) == expected.face_down
        if same_hands and same_table and attempt == len(expected.misdeals) and tuple(returned) == expected.returned:
            stock = list(expected.stock)
        else:
            self.err(line, f"the deal does not match the shuffle of seed {state.seed}")
        self.expected = None
        misdeals, self.misdeals = tuple(self.misdeals), []
        before = len(state.events or [])
        # The record's deal is the chance outcome: replayed even where it differs from the seed (said above),
        # so that the rest of the record is still checked.
        try:
            outcome = DealOutcome(
                tuple(map(tuple, hands)), tuple(table), tuple(stock), misdeals, tuple(face_down), tuple(returned)
            )
            state.push_chance(outcome)
        except PigliaError as exc:
            raise self.stop(line, str(exc)) from None
        # The opening bonuses (and an instant win they cause) are for the record's next lines to show.
        produced = (state.events or [])[before:]
        self.pending = [e for e in produced if isinstance(e, (Opening, Declare, MatchEnd))]
        self.logged = len(state.events or [])

    def refill(self, line: int, event: Event) -> None:
        state = self.state
        assert state is not None
        if state.phase is not Phase.REFILL:
            raise self.stop(line, "refill, but the players still hold cards (or the stock is empty)")
        self.check_deal_number(line, event)
        hands_raw = self.field(line, event, "hands")
        if not isinstance(hands_raw, list) or len(hands_raw) != state.game.num_players:
            raise self.stop(line, "hands: expected one list per seat")
        hands = [self.cards(line, h, f"hands[{i}]") for i, h in enumerate(hands_raw)]
        expected = state.chance_outcome()
        assert isinstance(expected, RefillOutcome)
        try:
            state.push_chance(RefillOutcome(tuple(map(tuple, hands))))
        except PigliaError as exc:
            raise self.stop(line, str(exc)) from None
        if state.hands != [sorted(h) for h in expected.hands]:
            self.err(line, f"the refill does not match the shuffle of seed {state.seed}")
        if event.get("stock") != len(state.stock):
            self.err(line, f"stock {event.get('stock')!r}, but {len(state.stock)} cards are left")
        # a declaration of the seat to move is for the record's next line to show
        self.pending = [e for e in (state.events or [])[self.logged :] if isinstance(e, Declare)]
        self.logged = len(state.events or [])

    def play(self, line: int, event: Event) -> None:
        state = self.state
        assert state is not None
        if state.phase is not Phase.MOVE:
            raise self.stop(line, "a play before the cards were dealt")
        self.check_deal_number(line, event)
        player = self.field(line, event, "player")
        if not _whole(player):
            raise self.stop(line, f"player: expected a seat number (a whole number), got {player!r}")
        if player != state.to_move:
            raise self.stop(line, f"seat {player!r} plays, but it is seat {state.to_move}'s turn")
        card_id = self.field(line, event, "card")
        if not isinstance(card_id, str):
            raise self.stop(line, f"card: expected a card id, got {card_id!r}")
        card = self.cards(line, [card_id], "card")[0]
        captured = tuple(sorted(self.cards(line, self.field(line, event, "captured"), "captured")))
        raw: tuple[int, tuple[int, ...]] = (card, captured)
        build, onto = event.get("build"), event.get("onto")
        if build is not None or onto is not None:  # a build move (mechanics/builds.py)
            if not _whole(build) or not isinstance(build, int) or build <= 0:
                raise self.stop(line, f"build: expected the value announced (a whole number above 0), got {build!r}")
            if not isinstance(onto, list) or not onto:
                raise self.stop(line, f"onto: expected the table cards the build joins (a list of ids), got {onto!r}")
            if captured:
                raise self.stop(line, "a build move captures nothing: captured must be empty")
            raw = BuildRaw(card, tuple(sorted(self.cards(line, onto, "onto"))), build)
        if raw not in state.raw_moves():
            raise self.stop(line, f"illegal move: {state.why_illegal(raw)}")
        state.push_raw(raw)
        produced = (state.events or [])[self.logged :]
        self.logged = len(state.events or [])
        mine = produced[0]
        assert isinstance(mine, Play)
        self.compare_kind(line, event, mine)
        self.compare_bonuses(line, event.get("bonuses"), mine.bonuses)
        face_down = event.get("face_down")
        if face_down is not None and not (isinstance(face_down, list) and all(isinstance(c, str) for c in face_down)):
            self.err(line, "face_down: expected a list of card ids")
        elif sorted(face_down or []) != sorted(mine.face_down or []):
            self.err(line, f"face_down {event.get('face_down')!r}, but the play takes {mine.face_down or []} face down")
        # deal_end / match_end / an automatic next deal are for the record's next lines to show
        self.pending = [e for e in produced[1:] if e.event in ("declare", "deal_end", "match_end")]

    # -- comparisons ---------------------------------------------------------------------------------------

    def compare_kind(self, line: int, event: Event, expected: Play) -> None:
        """Version 2 records name the capture kind of every capture (and none for a placement)."""
        recorded = event.get("kind")
        if self.format == "piglia-record/1" and "kind" not in event:
            return
        if recorded != expected.kind:
            if expected.kind is None:
                self.err(line, f"kind {recorded!r}, but the card is left on the table: a placement has no kind")
            elif recorded is None:
                self.err(line, f"the capture has no kind; the rules take it by {expected.kind!r}")
            else:
                self.err(line, f"kind {recorded!r}, but the rules take these cards by {expected.kind!r}")

    def compare_bonuses(self, line: int, recorded: Any, expected: list[dict[str, Any]]) -> None:
        if not isinstance(recorded, list):
            self.err(line, "bonuses: expected a list")
            return
        if not all(
            isinstance(b, dict) and set(b) == {"name", "points"} and isinstance(b["name"], str) for b in recorded
        ):
            self.err(line, 'bonuses: each entry is {"name": "...", "points": ...}, its name a string')
            return
        # Compared as lists, not as mappings: a bonus listed twice is a bonus scored twice.
        rec: dict[Any, list[Any]] = {}
        for b in recorded:
            rec.setdefault(b["name"], []).append(b["points"])
        exp: dict[str, list[Any]] = {}
        for b in expected:
            exp.setdefault(b["name"], []).append(b["points"])
        for name, points in exp.items():
            if name not in rec:
                self.err(line, f"missing bonus {name!r} ({points[0]} points): the rules score it on this play")
            elif len(rec[name]) > len(points):
                self.err(line, f"bonus {name!r} is listed {len(rec[name])} times; the rules score it {len(points)}")
            elif rec[name] != points:
                self.err(line, f"bonus {name!r} is worth {points[0]} here, the record says {rec[name][0]!r}")
        for name in rec:
            if name not in exp:
                self.err(line, f"bonus {name!r} is not earned by this play")

    def compare_end(self, line: int, event: Event, expected: Event) -> None:
        if expected["event"] == "match_end":
            if event.get("totals") != expected["totals"]:
                self.err(line, f"match totals {event.get('totals')!r}, the rules give {expected['totals']}")
            if event.get("winner") != expected["winner"]:
                self.err(line, f"winner {event.get('winner')!r}, the rules give {expected['winner']!r}")
            if event.get("reason") != expected.get("reason"):
                self.err(line, f"match end reason {event.get('reason')!r}, the rules give {expected.get('reason')!r}")
            return
        if expected["event"] == "declare":
            for key in ("deal", "player", "name", "points", "cards", "named"):
                if event.get(key) != expected.get(key):
                    self.err(line, f"declaration {key} {event.get(key)!r}, the rules give {expected.get(key)!r}")
            return
        if expected["event"] == "opening":
            for key in ("deal", "player", "name", "points", "captured"):
                if event.get(key) != expected[key]:
                    self.err(line, f"opening bonus {key} {event.get(key)!r}, the rules give {expected[key]!r}")
            return
        if event.get("deal") != expected["deal"]:
            self.err(line, f"deal number {event.get('deal')!r}, expected {expected['deal']}")
        if event.get("leftover") != expected["leftover"]:
            self.err(line, f"leftover {event.get('leftover')!r}, the rules give {expected['leftover']}")
        rec_awards = event.get("awards")
        if not isinstance(rec_awards, list):
            self.err(line, "awards: expected a list")
        elif not all(isinstance(a, dict) and set(a) - {"carry"} == {"name", "team", "points"} for a in rec_awards):
            self.err(line, 'awards: each entry is {"name": ..., "team": ..., "points": ...}')
        else:
            rec = _award_table(rec_awards)
            exp = _award_table(expected["awards"])
            for name in exp:
                if name not in rec:
                    self.err(line, f"award {name!r} is missing")
                elif rec[name] != exp[name]:
                    given, due = _awards_words(rec[name]), _awards_words(exp[name])
                    self.err(line, f"award {name!r}: the record gives {given}, the rules {due}")
            for name in rec:
                if name not in exp:
                    self.err(line, f"award {name!r} is not one of this variant's awards")
        for key in ("points", "totals"):
            if event.get(key) != expected[key]:
                self.err(line, f"{key} {event.get(key)!r}, the rules give {expected[key]}")

    def finish(self) -> None:
        state = self.state
        if state is None:
            return
        if self.pending or not state.over:
            self.err(self.last_line, "the record ends before the match is over (is it cut short?)")


def _whole(value: Any) -> bool:
    """A whole number as JSON writes one: ``1``, not ``1.0``, ``"1"`` or ``true`` (which Python counts as 1)."""
    return type(value) is int


def _card_words(entry: dict[str, str]) -> str:
    return f"{entry['rank']} of {entry['suit']}"


def _award_table(awards: list[Any]) -> dict[Any, list[tuple[Any, ...]]]:
    table: dict[Any, list[tuple[Any, ...]]] = {}
    for a in awards:
        if isinstance(a, dict):
            entry = (a.get("team"), a.get("points"))
            name = a.get("name")
            # a name that is no string (a hand edit) is compared by its text: a list cannot be a key
            key = name if isinstance(name, str) else repr(name)
            table.setdefault(key, []).append((*entry, a["carry"]) if "carry" in a else entry)
    return {k: sorted(v, key=repr) for k, v in table.items()}


def _awards_words(entries: list[tuple[Any, ...]]) -> str:
    return ", ".join(
        ("nobody" if team is None else f"{points} to team {team}") + "".join(f" ({c} carried on)" for c in carry)
        for team, points, *carry in entries
    )


def _records(lines: Iterable[str], file: str) -> Iterator[tuple[int, Event | RecordError]]:
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            event = loads_strict(text)
        except json.JSONDecodeError as exc:
            yield (
                number,
                RecordError(f"not valid JSON: {exc.msg} (column {exc.colno})", file=file, line=number),
            )
            continue
        except (StrictJsonError, RecursionError) as exc:
            message = str(exc) if isinstance(exc, StrictJsonError) else "nested too deeply: not a record line"
            yield number, RecordError(message, file=file, line=number)
            continue
        if not isinstance(event, dict) or "event" not in event:
            yield (
                number,
                RecordError('each line is a JSON object with an "event" key', file=file, line=number),
            )
            continue
        yield number, event


def verify_lines(
    lines: Iterable[str], file: str = "<record>", *, variant: Variant | None = None, base_dir: Path | None = None
) -> tuple[int, list[RecordError]]:
    """Replay every record in ``lines``; return (records checked, discrepancies).

    The variant named in a header is loaded from ``variant`` when given, else from ``NAME.yaml`` in
    ``base_dir`` (the record's folder), else from the built-in variants.
    """
    errors: list[RecordError] = []
    replay: _Replay | None = None
    count = 0
    skipping = False
    for line, item in _records(lines, file):
        if isinstance(item, RecordError):
            errors.append(item)
            skipping = True
            continue
        # A header always starts a new record: one after a match cut short ends that match (finish() says it is
        # cut short) rather than being read as a stray line of it, which skipped the whole next match unchecked.
        if item.get("event") == "header":
            if replay is not None and not skipping:
                replay.finish()
                errors.extend(replay.errors)
            elif replay is not None:
                errors.extend(replay.errors)
            replay = _Replay(file, variant, base_dir)
            count += 1
            skipping = False
        if skipping:
            continue
        if replay is None:
            replay = _Replay(file, variant, base_dir)
            count += 1
        try:
            replay.event(line, item)
        except _Stop:
            skipping = True
    if replay is not None:
        if not skipping:
            replay.finish()
        errors.extend(replay.errors)
    if count == 0 and not errors:
        errors.append(RecordError("the file holds no record", file=file, line=1))
    unique = {(e.line, e.message): e for e in errors}
    return count, sorted(unique.values(), key=lambda e: e.line)


class _Lines:
    """A file's lines within the limits of :func:`piglia.recordio.bounded_lines`; past them, the lines end and
    :attr:`too_long` says where and why."""

    def __init__(self, fh: IO[str]) -> None:
        self.fh = fh
        self.too_long: RecordError | None = None

    def __iter__(self) -> Iterator[str]:
        try:
            yield from bounded_lines(self.fh)
        except LineTooLong as exc:
            self.too_long = RecordError(str(exc), file=self.fh.name, line=exc.line)


def verify_file(path: str | os.PathLike[str], *, variant: Variant | None = None) -> tuple[int, list[RecordError]]:
    """Replay every record of a record file; return (records checked, discrepancies)."""
    name = os.fspath(path)
    p = Path(name)
    try:
        if p.stat().st_size > MAX_RECORD_BYTES:
            return 0, [RecordError("the file is too large for a record", file=name, line=1)]
        with p.open(encoding="utf-8") as fh:
            lines = _Lines(fh)
            count, errors = verify_lines(lines, name, variant=variant, base_dir=p.resolve().parent)
            if lines.too_long is not None:
                errors = [e for e in errors if count or e.message != "the file holds no record"]
                errors.append(lines.too_long)
            return count, errors
    except UnicodeDecodeError:
        return 0, [RecordError("the file is not UTF-8 text", file=name, line=1)]
    except OSError as exc:
        return 0, [RecordError(f"cannot read the file: {exc.strerror}", file=name, line=0)]
