"""Message catalogs: the words of rules pages, one JSON file per language (``en.json``, ``it.json``...).

A catalog is a flat mapping from a key to a text with ``{field}`` placeholders. Adding a language means
translating ``en.json`` into a new file next to it; no code changes. Keys ending in ``.one`` / ``.other`` are
the singular and plural of one message (see :meth:`Catalog.plural`). A catalog may also carry
``"_contractions"``: a list of ``[regex, replacement]`` pairs applied, in order, to every filled-in message, for
what a language fuses when words meet (Italian "di la carta" is "della carta", Hungarian "a" is "az" before a
vowel): messages are composed from parts, so these seams appear only once the parts are put together.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from piglia.dsl.words import MissingMessage
from piglia.errors import PigliaError

__all__ = ["Catalog", "languages", "load_catalog"]


@dataclass(frozen=True)
class Catalog:
    """The messages of one language; call it with a key and fields: ``msg("card", rank="7", suit="hearts")``."""

    lang: str
    messages: dict[str, str]
    contractions: tuple[tuple[re.Pattern[str], str], ...] = ()

    def __call__(self, key: str, /, **fields: Any) -> str:
        """The text for ``key`` with its placeholders filled; :class:`MissingMessage` if there is none."""
        try:
            text = self.messages[key]
        except KeyError:
            raise MissingMessage(key) from None
        text = text.format_map(fields)
        if fields:  # a seam between words exists only where a part was filled in
            for pattern, replacement in self.contractions:
                text = pattern.sub(replacement, text)
        return text

    def plural(self, key: str, n: int, /, **fields: Any) -> str:
        """``key.one`` when ``n`` is 1, else ``key.other``, with ``{n}`` filled in."""
        return self(f"{key}.one" if n == 1 else f"{key}.other", n=n, **fields)


def languages() -> list[str]:
    """The languages with a catalog, e.g. ``['en', 'it']``."""
    folder = resources.files(__name__)
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))


@cache
def load_catalog(lang: str) -> Catalog:
    """The catalog of ``lang``; :class:`PigliaError` naming the languages there are when there is none.

    >>> load_catalog("en")("card", rank="7", suit="hearts")
    '7 of hearts'
    """
    if lang not in languages():
        raise PigliaError(f"no catalog for language {lang!r}; there are: {', '.join(languages())}")
    text = resources.files(__name__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    contractions = tuple((re.compile(pattern), str(repl)) for pattern, repl in data.get("_contractions", []))
    return Catalog(lang, {str(k): str(v) for k, v in data.items() if not k.startswith("_")}, contractions)
