"""Rules pages: a variant's resolved rules read back in plain words, as Markdown or one self-contained HTML page.

The page has the shape of the source pages (objective, players, cards, the deal, a turn with an example,
bonuses, the end of the deal, the end of the match) and is generated only from the compiled :class:`Variant`,
never from the rule data again: each mechanic (capture kind, award form, bonus trigger, match end) phrases
itself from its compiled object (:mod:`piglia.mechanics`), expressions are phrased from the compiler's typed AST
by :class:`piglia.dsl.words.Words`, and the worked example is found and played by the engine. Every word comes
from a message catalog (:mod:`piglia.locales`).
"""

from __future__ import annotations

import html
import itertools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from piglia.costs import kind_when_steps
from piglia.dsl.words import MissingMessage, Words
from piglia.errors import PigliaError
from piglia.locales import Catalog
from piglia.mechanics.awards import award_text
from piglia.mechanics.base import Quantity, mechanic_text
from piglia.mechanics.capture import kind_text
from piglia.mechanics.match import match_lines, match_objective, match_short
from piglia.state import Game
from piglia.texts import VariantTexts, untranslated_note
from piglia.variant import Variant

__all__ = ["Example", "find_example", "md_literal", "render_html", "render_markdown", "write_docs"]

# How many random (played card, table) positions the example search looks at: enough to find one that shows
# the capture priority on any deck of the family, few enough to stay well under a second.
_EXAMPLE_TRIES = 1500
# The most estimated steps (the DSL's estimate) the kinds' ``when`` conditions may take over the tries: each try asks
# every kind for its captures two or three times. A condition near the cost limit of an expression made the page
# take minutes; such rules get fewer tries (at least _EXAMPLE_LEAST), and every built-in game all of them.
_EXAMPLE_STEPS = 20_000_000
_EXAMPLE_LEAST = 20


@dataclass(frozen=True)
class Example:
    """A worked turn: the table, the played card, the engine's legal moves for it and what each scores."""

    table: tuple[int, ...]
    played: int
    moves: tuple[tuple[tuple[int, ...], str, tuple[tuple[str, int], ...]], ...]  # (captured, kind, bonuses)
    excluded: tuple[tuple[tuple[int, ...], str], ...]  # captures a later priority tier would allow


def _captures_by_kind(variant: Variant, played: int, table: Sequence[int]) -> dict[str, list[tuple[int, ...]]]:
    return {k.name: k.captures(played, table) for tier in variant.capture.tiers for k in tier}


def example_room(variant: Variant) -> int | None:
    """The most table cards a worked example can show (None: the deck is too small for one).

    The example needs the played card, one more card in its player's hand (so the play is not the last of the
    deal) and one card in every other hand, besides the table.
    """
    room = len(variant.deck) - 1 - Game(variant).num_players
    return room if room >= 0 else None


def example_tries(variant: Variant) -> int:
    """How many random positions :func:`find_example` looks at: :data:`_EXAMPLE_TRIES`, fewer when the kinds'
    conditions would cost more than :data:`_EXAMPLE_STEPS` estimated steps over them."""
    per_try = 3 * sum(steps for _name, steps in kind_when_steps(variant))
    return max(_EXAMPLE_LEAST, min(_EXAMPLE_TRIES, _EXAMPLE_STEPS // max(per_try, 1)))


def find_example(variant: Variant, *, table_size: int | None = None, seed: str = "piglia-rules-example") -> Example:
    """A deterministic, instructive turn: priority at work if the rules have any, else a choice of captures.

    The candidates are random; the moves are the engine's ``legal_moves()`` of a position built with
    :meth:`Game.position`, and the bonuses are what the engine scores when each move is applied.
    """
    deck = variant.deck
    rng = random.Random(seed)
    room = example_room(variant)
    if room is None:
        raise PigliaError(f"a deck of {len(deck)} cards is too small for a worked example")
    size = min(table_size or min(max(variant.deal_rules().table, 3), 5), room)
    best: tuple[int, tuple[int, ...], int] | None = None
    for _ in range(example_tries(variant)):
        cards = rng.sample(range(len(deck)), size + 1)
        played, table = cards[0], tuple(sorted(cards[1:]))
        opened = variant.capture.options(played, table)
        if not opened:
            continue
        kinds_open = {kind for _, kind in opened}
        taken = {cap for cap, _ in opened}
        # Captures a later tier would allow but the priority rules out: the most instructive thing to show.
        excluded = any(cap not in taken for caps in _captures_by_kind(variant, played, table).values() for cap in caps)
        score = 8 * excluded + 3 * len(kinds_open) + min(len(opened), 3)
        if best is None or score > best[0]:
            best = (score, table, played)
    if best is None:  # no capture found at all (a deck where nothing captures): show a placement
        cards = rng.sample(range(len(deck)), size + 1)
        best = (0, tuple(sorted(cards[1:])), cards[0])
    _, table, played = best
    return _example_at(variant, table, played)


def _example_at(variant: Variant, table: tuple[int, ...], played: int) -> Example:
    deck = variant.deck
    game = Game(variant)
    n = game.num_players
    spare = [c for c in range(len(deck)) if c not in table and c != played]
    # Every seat keeps a card after the play, so the example is never the last play of the deal.
    hands = [[played, spare[0]]] + [[spare[i]] for i in range(1, n)]
    state = game.position(
        hands=[[deck.cards[c].id for c in h] for h in hands],
        table=[deck.cards[c].id for c in table],
        dealer=n - 1,
        to_move=0,
    )
    opened = dict(variant.capture.options(played, table))
    moves = []
    for move in state.legal_moves():
        if move.card.index != played or move.is_build:  # the example shows captures; builds have their section
            continue
        captured = tuple(c.index for c in move.captured)
        after = state.apply(move)
        events = after.events or []
        play = next(e for e in reversed(events) if e.get("event") == "play")
        bonuses = tuple((str(b["name"]), int(b["points"])) for b in play["bonuses"])
        moves.append((captured, opened.get(captured, ""), bonuses))
    excluded = tuple(
        (cap, kind)
        for kind, caps in _captures_by_kind(variant, played, table).items()
        for cap in caps
        if cap not in opened
    )
    return Example(table, played, tuple(moves), excluded)


# -- rule-file text on the page --------------------------------------------------------------------------------

# Characters that are Markdown wherever they stand (emphasis, raw HTML and autolinks, table cells, ATX headings and
# their closing ``#``, GitHub's strikethrough, backslash escapes themselves): always escaped. The others are escaped
# only where they mean something, so that ordinary prose (``tie_points``, "aliases [coins])", "0 & 2") keeps the
# Markdown it had and the checked-in pages of docs/variants do not churn.
_ALWAYS = frozenset("\\*<>|#~")
# An entity or numeric character reference (``&amp;``, ``&#106;``) would render as the character it names.
_ENTITY = re.compile(r"&(?=#|[A-Za-z0-9]+;)")
# An ordered list marker at the start of a line ("1. ", "2) ").
_ORDERED = re.compile(r"\d+(?=[.)])")
_BACKTICKS = re.compile(r"`+")


def md_literal(text: object, *, code: bool = True) -> str:
    """Text a rule file wrote (a title, a description, a note, a name) as one line of Markdown that shows exactly
    as written wherever the page puts it: at the start of a line, in a list item, in a table cell, between ``**``.

    Whitespace, newlines included, is folded to single spaces, so the text can never start a block of its own (a
    heading, a table, a rule, a list); every character that could be read as Markdown is backslash-escaped, so it
    can neither format nor link, fetch an image, or carry HTML. With ``code`` (prose: descriptions, notes, sources,
    reasons, the title) a well-formed code span (`` `awards: {...}` ``) stays one, as the built-in translations
    write them: its content is shown as written anyway. Names (``code=False``) are words, shown character for
    character, backticks included.
    """
    line = " ".join(str(text).split())
    out: list[str] = []
    pos = 0
    for start, end in _code_spans(line) if code else ():
        out.append(_escape(line, pos, start))
        out.append(line[start:end])
        pos = end
    out.append(_escape(line, pos, len(line)))
    return "".join(out)


def _code_spans(line: str) -> list[tuple[int, int]]:
    """Where ``line`` has CommonMark code spans: a run of backticks closed by the next run of the same length.

    Backslashes are not read as escapes: :func:`_escape` doubles every one outside the spans, so in the output
    a backtick after a backslash is a real backtick, as it is here.
    """
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(line)]
    spans = []
    i = 0
    while i < len(runs):
        start, end = runs[i]
        close = next((j for j in range(i + 1, len(runs)) if runs[j][1] - runs[j][0] == end - start), None)
        if close is None:  # an opening run with no closer is literal backticks (escaped by _escape)
            i += 1
            continue
        spans.append((start, runs[close][1]))
        i = close + 1
    return spans


def _escape(line: str, start: int, end: int) -> str:
    """``line[start:end]``, outside any code span, with a backslash before each character Markdown would read."""
    ordered = _ORDERED.match(line)
    out = []
    for i in range(start, end):
        c = line[i]
        if c in _ALWAYS or c == "`":  # a backtick outside a kept code span: a literal one
            escape = True
        elif c == "_":
            # Between two letters or digits ("tie_points") an underscore can neither open nor close emphasis.
            escape = not (0 < i < len(line) - 1 and line[i - 1].isalnum() and line[i + 1].isalnum())
        elif c == "[":
            # Only at the start of a line can a bracket begin a link reference definition (or a task list box);
            # without a definition a bracket links only as "](", handled below.
            escape = i == 0
        elif c == "]":
            # "](" makes an inline link or image ("][" a reference link); at the end, what the page puts next is
            # unknown.
            escape = i == len(line) - 1 or line[i + 1] in "(["
        elif c == "&":
            escape = _ENTITY.match(line, i) is not None
        elif c in "-+=":  # a list item, a thematic break or a setext underline when the text starts a line
            escape = i == 0
        elif c in ".)":  # "1." starting the text would be an ordered list
            escape = ordered is not None and i == ordered.end()
        else:
            escape = False
        out.append("\\" + c if escape else c)
    return "".join(out)


class _Page:
    """Builds the Markdown of one variant's page in one language."""

    def __init__(self, variant: Variant, texts: VariantTexts) -> None:
        self.v = variant
        self.texts = texts
        self.catalog: Catalog = texts.msg
        # Names reach the page through the phrased expressions too (a string literal is a kind's name, phrased
        # through the same function): Words gets escaped ones.
        self.words = Words(variant.deck, self.catalog, self.name)
        self.lines: list[str] = []
        layouts = [p.teams for p in variant.players_by_count.values()]
        if all(all(len(t) == 1 for t in teams) for teams in layouts):
            self.side = "player"
        elif all(all(len(t) > 1 for t in teams) for teams in layouts):
            self.side = "team"
        else:
            self.side = "mixed"

    # -- helpers ------------------------------------------------------------------------------------------

    def name(self, ident: str) -> str:
        """One of the rule file's names (a suit, a rank, a kind, a bonus, an award, a table) in the page's language,
        as Markdown that shows it as written (:func:`md_literal`); mechanics phrase their names through this."""
        return md_literal(self.texts.name(ident), code=False)

    def card(self, index: int) -> str:
        """A card in words, from the escaped names of its rank and suit (the catalog's ``card`` is the page's own)."""
        card = self.v.deck.cards[index]
        return self.msg("card", rank=self.name(card.rank.name), suit=self.name(card.suit.name))

    def cards(self, indexes: Sequence[int]) -> str:
        return self.words.join([self.card(c) for c in indexes]) if indexes else self.msg("nothing")

    def msg(self, key: str, /, **fields: Any) -> str:
        """The catalog's text for ``key``, else a plugin mechanic's own (mechanics phrase through the page)."""
        try:
            return self.catalog(key, **fields)
        except MissingMessage:
            text = mechanic_text(self.catalog.lang, key)
            if text is None:
                raise
            return text.format_map(fields)

    def side_msg(self, key: str, /, **fields: Any) -> str:
        """A sentence about the scoring sides: one text per kind of side (player, team, either), so that each
        language can inflect the word as its grammar needs."""
        return self.msg(f"{key}.{self.side}", **fields)

    def reason(self, key: str, written: str) -> str:
        """A reason the rule file gives, in the page's language when the file translates it, as Markdown."""
        return md_literal(self.texts.reason(key) or written)

    def plural(self, key: str, n: int, /, **fields: Any) -> str:
        """``key.one`` or ``key.other`` of the catalog."""
        return self.msg(f"{key}.one" if n == 1 else f"{key}.other", n=n, **fields)

    def points(self, value: Quantity) -> str:
        if isinstance(value, int):
            return self.plural("points", value)
        return self.msg("points.expr", x=self.words.number(value))

    def say(self, *lines: str) -> None:
        self.lines.extend(lines)

    def bullet(self, text: str) -> None:
        self.lines.append(f"- {text}")

    def heading(self, key: str) -> None:
        self.lines.extend(["", f"## {self.msg(key)}", ""])

    # -- the page -------------------------------------------------------------------------------------------

    def build(self) -> str:
        v, m, t = self.v, self.msg, self.texts
        # Every text the rule file wrote goes through md_literal: it must not make headings, tables or links.
        self.say(f"# {md_literal(t.title)}", "", f"*{self.subtitle()}*")
        self.untranslated()
        if t.description:
            self.say("", md_literal(t.description))
        self.objective()
        self.players()
        self.deck()
        self.deal()
        self.declarations()
        self.turn()
        self.builds()
        self.bonuses()
        self.end_of_deal()
        self.end_of_match()
        if t.notes:
            self.heading("h.notes")
            for note in t.notes:
                self.bullet(md_literal(note))
        if v.sources:
            self.heading("h.sources")
            for source in v.sources:
                self.bullet(md_literal(source))
        self.say("", "---", "", f"*{m('footer', name=md_literal(v.name, code=False))}*")
        return "\n".join(self.lines).strip() + "\n"

    def untranslated(self) -> None:
        """One note at the top naming what the rule file does not translate into the page's language."""
        note = untranslated_note(self.texts)
        if note:
            self.say("", f"> {note}")

    def subtitle(self) -> str:
        counts = list(self.v.player_counts)
        players = self.plural("players_n", counts[-1], counts=self.words.join([str(c) for c in counts]))
        return f"{players} · {match_short(self.v.match, self)}"

    def side_word(self, plural: bool = False) -> str:
        return self.msg(f"side.{self.side}{'.other' if plural else ''}")

    def objective(self) -> None:
        m = self.msg
        self.heading("h.objective")
        self.bullet(m("objective.capture") + (" " + m("objective.bonuses") if self.v.bonuses else ""))
        self.bullet(match_objective(self.v.match, self))

    def players(self) -> None:
        m = self.msg
        self.heading("h.players")
        for count, p in self.v.players_by_count.items():
            if all(len(t) == 1 for t in p.teams):
                self.bullet(m("players.individual", n=count))
            else:
                teams = [self.words.join([str(s + 1) for s in team]) for team in p.teams]
                opposite = all(len(t) == 2 and t[1] - t[0] == count // 2 and count == 2 * len(p.teams) for t in p.teams)
                layout = m("players.opposite") if opposite else ""
                self.bullet(
                    m("players.teams", n=count, k=len(p.teams), teams="; ".join(m("seats", s=t) for t in teams))
                    + layout
                )
        rules = self.v.players()
        self.bullet(m(f"players.order.{rules.order}") + " " + m("players.seats"))
        if 2 in self.v.player_counts:
            self.bullet(m("players.alternate"))
        first = rules.first_dealer
        self.bullet(m("players.first_random") if first is None else m("players.first_seat", seat=first + 1))
        if rules.rotation == "next":
            self.bullet(
                m("players.rotation_next") + (" " + m("players.rotation_two") if 2 in self.v.player_counts else "")
            )
        else:
            self.bullet(m("players.rotation_same"))
        if rules.lead_offset == 1:
            self.bullet(m("players.lead_after") + (" " + m("players.lead_two") if 2 in self.v.player_counts else ""))
        else:
            self.bullet(m("players.lead_dealer"))

    def deck(self) -> None:
        m = self.msg
        deck = self.v.deck
        self.heading("h.cards")
        suits = self.words.join([self.name(s.name) for s in deck.suits])
        self.bullet(m("deck.size", n=len(deck), suits=suits, s=len(deck.suits), r=len(deck.ranks)))
        if self.v.removed_ranks:
            ranks = [md_literal(r, code=False) for r in self.v.removed_ranks]  # as the file writes them
            self.bullet(m("deck.removed", ranks=self.words.join(ranks)))
        courts = [self.name(r.name) for r in deck.ranks if r.court]
        if courts:
            self.bullet(m("deck.courts", ranks=self.words.join(courts)))
        rank_tables = [t for t in deck.tables.values() if t.key == "rank"]
        tables = [self.name(t.name) for t in rank_tables]
        header = [m("col.rank"), m("col.value"), *([m("col.court")] if courts else []), *tables]
        self.say("", m("deck.values"), "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header))
        for i, r in enumerate(deck.ranks):
            row = [self.name(r.name), " / ".join(map(str, r.values or (r.value,)))]
            if courts:
                row.append(m("yes") if r.court else m("no"))
            row += [str(t.values[i]) for t in rank_tables]
            self.say("| " + " | ".join(row) + " |")
        for t in deck.tables.values():
            if t.key == "suit":
                items = [f"{self.name(s.name)} {t.values[i]}" for i, s in enumerate(deck.suits)]
            elif t.key == "card":
                items = [f"{self.card(i)} {val}" for i, val in enumerate(t.values) if val]
            else:
                continue
            self.say("")
            self.bullet(m("deck.table", table=self.name(t.name), items=", ".join(items)))
        if rank_tables:
            self.say("", m("deck.tables_note", tables=self.words.join(tables)))
        if any(r.values for r in deck.ranks):
            self.say("", m("deck.alt_values"))

    def deal(self) -> None:
        m = self.msg
        self.heading("h.deal")
        many = len(self.v.player_counts) > 1
        for count in self.v.player_counts:
            d = self.v.deal_rules(count)
            prefix = m("with_players", n=count) + " " if many else ""
            stock = len(self.v.deck) - d.table - count * d.hand
            if d.face_down:  # mechanics/facedown.py
                table_text = m("deal.table_face_down", n=d.table, down=d.face_down, up=d.table - d.face_down)
            else:
                table_text = self.plural("deal.table", d.table)
            text = m("deal.hands", hand=d.hand) + " " + table_text
            if d.hand_all:
                text += " " + m("deal.all")
            text += " " + (m("deal.stock", n=stock) if stock else m("deal.no_stock"))
            if stock and d.refill:
                text += " " + m("deal.refill", hand=d.hand)
            self.bullet(prefix + text)
        d = self.v.deal_rules()
        if d.redeal_when is not None:
            cond = self.words.condition(d.redeal_when)
            reason = self.reason("redeal", d.redeal_reason) if d.redeal_reason_written else ""
            self.bullet(m("deal.redeal", cond=cond) + (" " + m("deal.reason", reason=reason) if reason else ""))
        if d.replace_when is not None:  # mechanics/replace.py
            cond = self.words.card_filter(d.replace_when)
            reason = self.reason("replace", d.replace_reason) if d.replace_reason else ""
            self.bullet(m("deal.replace", mods=cond) + (" " + m("deal.reason", reason=reason) if reason else ""))

    def declarations(self) -> None:
        declarations = self.v.declarations
        if declarations is None:
            return
        self.heading("declare.title")
        for line in declarations.phrase(self):
            self.bullet(line)

    def builds(self) -> None:
        builds = self.v.builds
        if builds is None:
            return
        self.heading("builds.title")
        for line in builds.phrase(self):
            self.bullet(line)

    def turn(self) -> None:
        m = self.msg
        v = self.v
        self.heading("h.turn")
        self.bullet(m("turn.play"))
        tiers = v.capture.tiers
        free = len(tiers) == 1
        self.say("", m("turn.kinds_free" if free else "turn.kinds_priority"), "")
        for i, tier in enumerate(tiers, 1):
            for kind in tier:
                marker = "-" if free else f"{i}."
                self.say(f"{marker} **{self.name(kind.name)}**: {kind_text(kind, self)}")
        self.say("")
        if not free:
            for earlier, later in itertools.pairwise(tiers):
                self.bullet(
                    m(
                        "turn.priority",
                        later=self.words.join([f"**{self.name(k.name)}**" for k in later]),
                        earlier=self.words.join([f"**{self.name(k.name)}**" for k in earlier]),
                    )
                )
        elif len(tiers[0]) > 1:
            self.bullet(m("turn.no_priority"))
        self.bullet(m("turn.mandatory" if v.capture.mandatory else "turn.optional"))
        one_set = all(getattr(kind, "one_set", True) for tier in tiers for kind in tier)
        self.bullet(m("turn.choose" if one_set else "turn.choose_sets"))
        self.bullet(self.side_msg("turn.pile"))
        self.bullet(m("turn.no_capture"))
        self.example()

    def example(self) -> None:
        m = self.msg
        if example_room(self.v) is None:  # a deck too small to hold a hand for every seat besides the play
            return
        ex = find_example(self.v)
        self.say("", f"### {m('h.example')}", "")
        self.example_block(ex)
        if ex.excluded:
            # The same card once the cards of the first tier's captures are gone: the later tier opens.
            taken = {c for cap, _, _ in ex.moves for c in cap}
            rest = tuple(c for c in ex.table if c not in taken)
            if rest and self.v.capture.options(ex.played, rest):
                self.say("", m("example.without", cards=self.cards(sorted(taken))), "")
                self.example_block(_example_at(self.v, rest, ex.played))

    def example_block(self, ex: Example) -> None:
        m = self.msg
        self.say(m("example.position", table=self.cards(ex.table), played=self.card(ex.played)), "")
        for captured, kind, bonuses in ex.moves:
            if captured:
                line = m("example.takes", played=self.card(ex.played), cards=self.cards(captured))
                line += " " + m("example.kind", kind=self.name(kind)) if kind else ""
            else:
                line = m("example.stays", played=self.card(ex.played))
            for name, pts in bonuses:
                line += m("example.bonus", bonus=self.name(name), points=self.plural("points", pts))
            self.bullet(line)
        if len(ex.moves) > 1:
            self.say("", m("example.choose"))
        if ex.excluded:
            self.say("")
        for captured, kind in ex.excluded:
            excluded = m(
                "example.excluded", played=self.card(ex.played), cards=self.cards(captured), kind=self.name(kind)
            )
            self.bullet(excluded)

    def bonuses(self) -> None:
        m = self.msg
        bonuses = self.v.bonuses
        if not bonuses:
            return
        self.heading("h.bonuses")
        for bonus in bonuses:
            if bonus.trigger is not None:
                self.bullet(bonus.trigger.phrase(self))
            else:  # a bonus made by hand, not built from a rule file: nothing to phrase but its name
                self.bullet(f"**{self.name(bonus.name)}**")
        if len(bonuses) > 1:
            self.bullet(m("bonus.stack"))

    def end_of_deal(self) -> None:
        m = self.msg
        self.heading("h.end_of_deal")
        leftover = self.v.leftover
        if leftover == "last_capturer":  # the sentence names the side, inflected per kind of side
            self.bullet(self.side_msg("leftover.last_capturer"))
        elif leftover == "nobody":
            self.bullet(m("leftover.nobody"))
        else:
            self.bullet(m("leftover.other", spec=f"`leftover: {leftover}`"))
        if self.v.awards:
            self.bullet(self.side_msg("awards.intro"))
            for award in self.v.awards:
                self.say(f"  - {award_text(award, self)}")
        self.bullet(self.side_msg("awards.total"))

    def end_of_match(self) -> None:
        self.heading("h.end_of_match")
        for line in match_lines(self.v.match, self):
            self.bullet(line)
        # an instant win ends the match during a deal: the sentence must not contradict it
        instant = self.v.match.instant_win is not None
        self.bullet(self.msg("match.after_deal_instant" if instant else "match.after_deal"))


def render_markdown(variant: Variant, lang: str = "en") -> str:
    """The rules page of ``variant`` in Markdown, in language ``lang``."""
    return _Page(variant, VariantTexts(variant, lang)).build()


_CSS = """
:root { color-scheme: light; --ink: #1d232a; --muted: #5b6470; --line: #d9dee4; --accent: #8a2d1c; }
* { box-sizing: border-box; }
body { margin: 0; background: #fbf8f2; color: var(--ink);
  font: 17px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
main { max-width: 46rem; margin: 0 auto; padding: 1rem 1.1rem 3rem; }
h1 { font-size: 1.9rem; line-height: 1.2; margin: 0.6rem 0 0.2rem; color: var(--accent); }
h2 { font-size: 1.25rem; margin: 1.8rem 0 0.5rem; padding-bottom: 0.2rem; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.3rem 0 0.4rem; }
p, li { overflow-wrap: anywhere; }
ul, ol { padding-left: 1.3rem; }
li { margin: 0.25rem 0; }
em { color: var(--muted); }
code { font: 0.88em/1.4 ui-monospace, "DejaVu Sans Mono", monospace; background: #efe9de;
  padding: 0.05em 0.3em; border-radius: 4px; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 0.6rem 0; display: block; overflow-x: auto; max-width: 100%; }
th, td { border: 1px solid var(--line); padding: 0.3rem 0.6rem; text-align: left; white-space: nowrap; }
th { background: #f0ebe2; }
hr { border: 0; border-top: 1px solid var(--line); margin: 2rem 0 1rem; }
@media (max-width: 480px) { body { font-size: 16px; } h1 { font-size: 1.6rem; } main { padding: 0.6rem 0.8rem 2rem; } }
"""


def _markdown() -> MarkdownIt:
    """The Markdown renderer of the HTML page: CommonMark with tables, no raw HTML, and no images, links,
    autolinks or link reference definitions at all.

    The page promises no network: rule-file text is escaped already (:func:`md_literal`), and this is the second
    wall, for whatever Markdown reaches the page otherwise (a plugin mechanic's phrasing, an expression shown as
    written). The page's own texts (the catalogs) have no links to lose.
    """
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    return md.disable(["image", "link", "autolink", "reference"])


def render_html(variant: Variant, lang: str = "en") -> str:
    """The rules page as one self-contained HTML document: inline CSS, no scripts, no network, phone-sized."""
    body = _markdown().render(render_markdown(variant, lang))
    title = html.escape(" ".join(VariantTexts(variant, lang).title.split()))  # one line, as in the page's h1
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n{body}</main>\n</body>\n</html>\n"
    )


def write_docs(folder: str | Path, names: Sequence[str] | None = None, lang: str = "en") -> list[Path]:
    """Write ``<folder>/<name>.md`` for every built-in variant (or ``names``); returns the files written.

    This is what ``make docs`` runs; the generated pages are checked in and a test keeps them in step.
    """
    from piglia.spec import builtin_names, load_variant

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names or builtin_names():
        path = out / f"{name}.md"
        path.write_text(render_markdown(load_variant(name), lang), encoding="utf-8")
        written.append(path)
    return written
