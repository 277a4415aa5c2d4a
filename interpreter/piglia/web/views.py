"""What the web table sends a client: one seat's view of a match as JSON, built only from public information.

A client is a seat. It gets :meth:`State.view` of its seat (its own hand, the table, pile sizes, hand sizes,
the stock's size), the legal moves when it is its turn (each with what it would score), the public events of
the match (the record's events without the hands, the stock and the seed) and, for every finished deal, the
score sheet with the counts behind every award (cards 23-17) computed from the piles the events show.

Every name sent for display (cards, suits, ranks, capture kinds, bonuses, awards) is in the match's language
(:class:`~piglia.texts.VariantTexts`), in a ``label`` (or a card's ``name``) next to the rule file's own
identifier, which stays in ``name`` for clients that match on it.

Nothing here names a game: suits are drawn by looks read from ``variants/suit-looks.json`` or a suit's own
``props: {look: ...}``, and award counts come from each award's own compiled expressions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from piglia.cards import Deck
from piglia.contexts import AwardEnv
from piglia.events import deal_piles
from piglia.mechanics.awards import AwardForm, HolderAward, MostAward, ScoreAward
from piglia.mechanics.match import DEAL_LIMIT_REASON
from piglia.moves import Move
from piglia.players.knowledge import play_bonuses
from piglia.resources import data_dir
from piglia.state import Event, State
from piglia.texts import VariantTexts
from piglia.variant import Variant

__all__ = [
    "LOOKS",
    "AwardCounter",
    "deck_json",
    "labelled_event",
    "move_json",
    "move_marks",
    "public_event",
    "sheet_json",
    "suit_looks",
]

LOOKS = ("disc", "cup", "sword", "baton", "heart", "diamond", "club", "spade")


# -- cards ----------------------------------------------------------------------------------------------------


@cache
def _styles() -> dict[str, dict[str, str]]:
    path = data_dir("variants") / "suit-looks.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # drawings are a nicety: without the table every suit gets the plain look
    styles = data.get("styles", {})
    return {str(k): {str(n): str(v) for n, v in m.items()} for k, m in styles.items()}


def suit_looks(deck: Deck) -> tuple[str, list[str]]:
    """The drawing style of a deck and the look of each suit (``""``: a plain mark with the suit's id).

    The style is the one whose suit names the deck matches most (names and aliases); a suit's own
    ``props: {look: ...}`` wins over the table.
    """
    styles = _styles()

    def names(i: int) -> list[str]:
        suit = deck.suits[i]
        return [suit.name, *suit.aliases]

    best, best_hits = "plain", 0
    for style, table in styles.items():
        hits = sum(1 for i in range(len(deck.suits)) if any(n in table for n in names(i)))
        if hits > best_hits:
            best, best_hits = style, hits
    table = styles.get(best, {})
    looks = []
    for i, suit in enumerate(deck.suits):
        own = suit.props.get("look")
        if isinstance(own, str) and own in LOOKS:
            looks.append(own)
        else:
            looks.append(next((table[n] for n in names(i) if n in table), ""))
    return best, looks


def deck_json(deck: Deck, texts: VariantTexts) -> dict[str, Any]:
    """The deck for drawing cards: public knowledge (every card of the variant), never where a card is. Suits
    and ranks have their rule-file ``name`` and their ``label`` in the match's language; a card's ``name`` is
    the card in words of that language (its rank and suit in that language, as the catalog's ``card`` puts them)."""
    style, looks = suit_looks(deck)
    return {
        "style": style,
        "suits": [
            {"name": s.name, "id": s.id, "look": looks[s.index], "label": texts.name(s.name)} for s in deck.suits
        ],
        "ranks": [{"name": r.name, "id": r.id, "label": texts.name(r.name)} for r in deck.ranks],
        "cards": {
            c.id: {
                "rank": c.rank.id,
                "suit": c.suit.index,
                "value": c.rank.value,
                "court": c.rank.court,
                "name": texts.card(c.index),
            }
            for c in deck.cards
        },
    }


# -- events ---------------------------------------------------------------------------------------------------

# The fields of each event kind that every seat may see (docs/records.md), and nothing else: a field this table
# does not list (a face-down card, a hand, the seed) is dropped until someone decides that it is public.
PUBLIC_FIELDS: dict[str, tuple[str, ...]] = {
    "header": ("variant", "players", "teams"),
    "misdeal": ("deal", "dealer", "table", "reason"),
    "deal": ("deal", "dealer", "table", "stock"),
    "refill": ("deal", "stock"),
    "opening": ("deal", "player", "name", "points", "captured"),
    "declare": ("deal", "player", "name", "points", "cards", "named"),  # a declared hand is shown face up
    # face_down: seen once taken; build and onto: a build move's value and the table cards it joined (public)
    "play": ("deal", "player", "card", "captured", "kind", "bonuses", "face_down", "build", "onto"),
    "deal_end": ("deal", "leftover", "awards", "points", "totals"),
    "match_end": ("totals", "winner", "reason"),
}
# ... and of the objects inside them.
_BONUS_FIELDS = ("name", "points")
_AWARD_FIELDS = ("name", "team", "points", "carry")  # carry: tie: carry, public
_LEFTOVER_FIELDS = ("team", "cards")


def _only(data: Any, keys: Sequence[str]) -> dict[str, Any]:
    return {k: data[k] for k in keys if k in data}


def public_event(event: Event) -> Event | None:
    """An event as every seat may see it: only the fields :data:`PUBLIC_FIELDS` lists for its kind (the hands
    dealt become their sizes; the seed, and any field not listed, go); None for a kind not listed."""
    kind = event.get("event")
    keys = PUBLIC_FIELDS.get(kind) if isinstance(kind, str) else None
    if keys is None:
        return None  # an event kind this module does not know: hidden until someone says it is public
    out: dict[str, Any] = {"event": kind, **_only(event, keys)}
    if kind in ("deal", "refill"):
        out["hand_sizes"] = [len(h) for h in event["hands"]]
    if kind == "deal" and event.get("face_down"):
        out["face_down"] = len(event["face_down"])  # face-down table cards: their count, never which they are
    if kind == "play":
        out["bonuses"] = [_only(b, _BONUS_FIELDS) for b in event["bonuses"]]
    elif kind == "deal_end":
        out["leftover"] = _only(event["leftover"], _LEFTOVER_FIELDS)
        out["awards"] = [_only(a, _AWARD_FIELDS) for a in event["awards"]]
    return out


def labelled_event(event: Event, texts: VariantTexts) -> Event:
    """A public event with display words in the match's language next to the rule file's names: a ``label``
    on each bonus of a play, on an opening bonus, on each award of a deal's end, on a misdeal's reason and an
    instant win's; a ``kind_label`` on a capture."""
    out = dict(event)
    kind = out["event"]
    if kind == "play":
        out["bonuses"] = [{**b, "label": texts.name(b["name"])} for b in out["bonuses"]]
        if out.get("kind"):
            out["kind_label"] = texts.name(out["kind"])
    elif kind in ("opening", "declare"):
        out["label"] = texts.name(out["name"])
    elif kind == "deal_end":
        out["awards"] = [{**a, "label": texts.name(a["name"])} for a in out["awards"]]
    elif kind == "misdeal":
        out["label"] = texts.reason("redeal") or out["reason"]
    elif kind == "match_end" and out.get("reason"):
        # the deal limit's reason is the engine's, not the rule file's instant-win words
        instant = out["reason"] != DEAL_LIMIT_REASON
        out["label"] = (texts.reason("instant_win") if instant else None) or out["reason"]
    return out


# -- score sheets ---------------------------------------------------------------------------------------------


class AwardCounter:
    """The counts behind a variant's awards (the values compared, who holds a card), computed with each award's
    own compiled expressions; an award of a form this module does not know is given without counts."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def counts(self, piles: Sequence[Sequence[str]], deal: int) -> dict[str, dict[str, Any]]:
        """Per award: ``form``, per team ``values`` (list of numbers, or ``holds`` for a card) and ``eligible``."""
        deck = self.variant.deck
        envs = [AwardEnv(tuple(deck.by_id[c].index for c in pile), team, deal) for team, pile in enumerate(piles)]
        out: dict[str, dict[str, Any]] = {}
        for award in self.variant.awards:
            entry: dict[str, Any] = {"form": ""}
            try:
                if isinstance(award, AwardForm) and award.eligible_fn is not None:
                    entry["eligible"] = [bool(award.eligible_fn(env)) for env in envs]
                if isinstance(award, MostAward):
                    entry["form"] = "most"
                    entry["values"] = [[int(f(env)) for f in award.most_fns] for env in envs]
                elif isinstance(award, ScoreAward):
                    entry["form"] = "score"
                    entry["values"] = [[int(award.score.fn(env))] for env in envs]
                elif isinstance(award, HolderAward):
                    card = deck.cards[award.holder].id
                    entry.update(form="holder", card=card, holds=[card in pile for pile in piles])
            except Exception:  # counts are an explanation: an expression that fails here must not lose the sheet
                entry = {"form": ""}
            out[award.name] = entry
        return out


@lru_cache(maxsize=32)  # bounded: every uploaded rule file is a variant of its own, and its games end
def _counter(variant: Variant) -> AwardCounter:
    return AwardCounter(variant)


def sheet_json(texts: VariantTexts, events: Sequence[Event], team_of: Sequence[int], num_teams: int, end: Event) -> Any:
    """The end-of-deal score sheet from the public ``events``: every bonus and award with its team, points, the
    counts behind it and its ``label`` in the match's language."""
    deal = end["deal"]
    piles = deal_piles(events, team_of, num_teams, deal)
    counts = _counter(texts.variant).counts(piles, deal)
    awards = []
    for a in end["awards"]:
        awards.append({**a, "label": texts.name(a["name"]), **counts.get(a["name"], {"form": ""})})
    return {
        "deal": deal,
        "bonuses": bonus_tally(texts, events, team_of, deal),
        "awards": awards,
        "leftover": end["leftover"],
        "pile_sizes": [len(p) for p in piles],
        "points": end["points"],
        "totals": end["totals"],
    }


def bonus_tally(
    texts: VariantTexts, events: Sequence[Event], team_of: Sequence[int], deal: int
) -> list[dict[str, Any]]:
    """The bonuses scored in ``deal`` so far, per name (and ``label``, in the match's language) and team: how
    many times and how many points."""
    tally: dict[tuple[str, int], list[int]] = {}
    for e in events:
        if e.get("deal") != deal:
            continue
        if e["event"] == "play":
            for b in e["bonuses"]:
                got = tally.setdefault((b["name"], team_of[e["player"]]), [0, 0])
                got[0] += 1
                got[1] += b["points"]
        elif e["event"] in ("opening", "declare"):
            got = tally.setdefault((e["name"], team_of[e["player"]]), [0, 0])
            got[0] += 1
            got[1] += e["points"]
    return [
        {"name": name, "label": texts.name(name), "team": team, "count": n, "points": p}
        for (name, team), (n, p) in tally.items()
    ]


# -- moves ----------------------------------------------------------------------------------------------------


def move_json(move: Move) -> dict[str, Any]:
    """A move as the page words it: its notation, the card played, the cards taken, the build it makes (or None:
    a build move, mechanics/builds.py, gives the value announced and the table cards joined)."""
    build = {"value": move.value, "onto": [c.id for c in move.onto]} if move.is_build else None
    return {"notation": str(move), "card": move.card.id, "captured": [c.id for c in move.captured], "build": build}


def move_marks(state: State, texts: VariantTexts) -> list[dict[str, Any]]:
    """The legal moves of the seat to move, each with what it scores at once: its bonuses (played on a copy of
    the position, so the names are the engine's own; each with its ``label`` in the match's language) and
    whether it clears the table."""
    out: list[dict[str, Any]] = []
    table = state.table
    for index, (raw, move) in enumerate(zip(state.raw_moves(), state.legal_moves(), strict=True)):
        card, captured = raw
        bonuses: list[dict[str, Any]] = []
        if captured or state.game.bonus_on_play:
            # as the seat may know it: a play taking face-down cards is judged without them (play_bonuses)
            bonuses = [
                {"name": name, "points": points, "label": texts.name(name)} for name, points in play_bonuses(state, raw)
            ]
        kind = state.game.variant.capture.kind_of(card, table, captured) if captured else ""
        out.append(
            {
                **move_json(move),
                "index": index,
                "kind": kind,
                "kind_label": texts.name(kind) if kind else "",
                "bonuses": bonuses,
                "points": sum(b["points"] for b in bonuses),
                "clears_table": bool(captured) and len(captured) == len(table),
            }
        )
    return out
