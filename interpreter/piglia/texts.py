"""A variant's own words in one language: its title, description, notes and the names it gives things.

A rule file is written in English; its ``translations`` block gives, per language code, the same texts and
words for its names (suits, ranks, capture kinds, bonuses, awards, value tables)::

    translations:
      it:
        title: Il gioco
        description: Quattro giocatori in due coppie...
        notes: ["..."]
        reasons: {redeal: tre o più re sul tavolo iniziale}
        names: {hearts: cuori, wild_seven: sette matto}

A name the file does not translate is looked up in the language's catalog (``name.<identifier>``: the common
suits, ranks and award words); one found in neither is shown as written, and :attr:`VariantTexts.missing`
says so, so that a page can warn once rather than mix languages silently. English needs no block: a name
reads as written, with underscores as spaces (``ten_of_coins`` reads "ten of coins").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from piglia.locales import Catalog, load_catalog
from piglia.moves import Move
from piglia.variant import Variant

__all__ = ["BASE_LANGUAGE", "VariantTexts", "untranslated_note"]

BASE_LANGUAGE = "en"
"""The language a rule file's own title, description, notes and names are written in."""


class VariantTexts:
    """The texts of ``variant`` in language ``lang``, with the catalog of that language as :attr:`msg`."""

    def __init__(self, variant: Variant, lang: str = BASE_LANGUAGE) -> None:
        self.variant = variant
        self.lang = lang
        self.msg: Catalog = load_catalog(lang)
        translations: Mapping[str, Any] = variant.rules.get("translations") or {}
        self._own: Mapping[str, Any] = translations.get(lang) or {}
        self._names: Mapping[str, str] = self._own.get("names") or {}

    # -- the file's texts ----------------------------------------------------------------------------------

    @property
    def title(self) -> str:
        """The title in this language (the file's own when it has none)."""
        return str(self._own.get("title") or self.variant.title)

    @property
    def description(self) -> str:
        """The description paragraph in this language, whitespace folded."""
        return " ".join(str(self._own.get("description") or self.variant.description).split())

    @property
    def notes(self) -> list[str]:
        """The notes in this language (the file's own, untranslated, when it has none for it)."""
        notes = self._own.get("notes") or self.variant.notes
        return [" ".join(str(n).split()) for n in notes]

    def reason(self, key: str) -> str | None:
        """The reason the file gives for a redeal (``redeal``) or an instant win (``instant_win``), in this
        language when the file translates it; None when the file gives none."""
        written = self._reasons_written().get(key)
        if written is None:
            return None
        return str((self._own.get("reasons") or {}).get(key) or written)

    def _reasons_written(self) -> dict[str, str]:
        rules = self.variant.rules
        found = {
            "redeal": ((rules.get("deal") or {}).get("redeal") or {}).get("reason"),
            "instant_win": ((rules.get("match") or {}).get("instant_win") or {}).get("reason"),
            "replace": ((rules.get("deal") or {}).get("replace") or {}).get("reason"),
        }
        return {k: str(v) for k, v in found.items() if v}

    # -- names -----------------------------------------------------------------------------------------------

    def name(self, ident: str) -> str:
        """Words for one of the file's names: its translation, the catalog's common word, or the name as is."""
        found = self._lookup(ident)
        return found if found is not None else self._as_written(ident)

    def _lookup(self, ident: str) -> str | None:
        if ident in self._names:
            return str(self._names[ident])
        common = self.msg.messages.get(f"name.{ident}")
        if common is not None:
            return common
        if self.lang == BASE_LANGUAGE or _needs_no_words(ident):
            return self._as_written(ident)
        return None

    @staticmethod
    def _as_written(ident: str) -> str:
        return ident.replace("_", " ")

    def card(self, index: int) -> str:
        """A card of the deck in words: "7 of hearts", "7 di cuori"."""
        card = self.variant.deck.cards[index]
        return self.msg("card", rank=self.name(card.rank.name), suit=self.name(card.suit.name))

    def move(self, move: Move) -> str:
        """A move in words: "7 of hearts takes 3 of clubs + 4 of spades", "7 di cuori prende 3 di fiori + ..."."""
        card = self.card(move.card.index)
        if move.is_build:  # mechanics/builds.py
            cards = " + ".join(self.card(c.index) for c in move.onto)
            return self.msg("play.build", card=card, value=move.value, cards=cards)
        if not move.captured:
            return self.msg("play.stays", card=card)
        return self.msg("play.takes", card=card, cards=" + ".join(self.card(c.index) for c in move.captured))

    def card_id(self, card_id: str) -> str:
        """A card given by its id (``7d``) in words."""
        return self.card(self.variant.deck.parse_card(card_id).index)

    # -- what is missing ----------------------------------------------------------------------------------

    def identifiers(self) -> Iterator[str]:
        """Every name the variant shows: suits, ranks, value tables, capture kinds, bonuses, awards."""
        v = self.variant
        yield from (s.name for s in v.deck.suits)
        yield from (r.name for r in v.deck.ranks)
        yield from v.deck.tables
        yield from (k.name for tier in v.capture.tiers for k in tier)
        yield from (b.name for b in v.bonuses)
        yield from (a.name for a in v.awards)

    def missing(self) -> list[str]:
        """What this language lacks and is shown as the file writes it: ``title``, ``description``, ``notes``,
        ``reasons``, and the untranslated names; empty for the base language and for a complete translation."""
        if self.lang == BASE_LANGUAGE:
            return []
        rules = self.variant.rules
        out = [key for key in ("title", "description", "notes") if rules.get(key) and not self._own.get(key)]
        own_reasons = self._own.get("reasons") or {}
        if any(key not in own_reasons for key in self._reasons_written()):
            out.append("reasons")
        seen: set[str] = set()
        for ident in self.identifiers():
            if ident not in seen and self._lookup(ident) is None:
                out.append(ident)
            seen.add(ident)
        return out


_TEXTS = ("title", "description", "notes", "reasons")


def untranslated_note(texts: VariantTexts) -> str | None:
    """The one sentence that says what the rule file leaves untranslated in this language, or None: what a
    page or a game shows once, rather than mixing languages silently."""
    missing = texts.missing()
    if not missing:
        return None
    m = texts.msg
    parts = [m(f"untranslated.{key}") for key in _TEXTS if key in missing]
    names = [f"`{n}`" for n in missing if n not in _TEXTS]
    if names:
        parts.append(m.plural("untranslated.names", len(names), names=", ".join(names)))
    items = parts[0] if len(parts) == 1 else m("list", items=", ".join(parts[:-1]), last=parts[-1])
    return m("untranslated", items=items)


def _needs_no_words(ident: str) -> bool:
    # A rank called "7" or "10" reads the same in every language.
    return ident.isdigit()
