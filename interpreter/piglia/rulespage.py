"""Rules pages: a variant's resolved rules read back in plain words, as Markdown or one self-contained HTML page.

The page has the shape of the source pages (objective, players, cards, the deal, a turn with an example,
bonuses, the end of the deal, the end of the match) and is generated only from the compiled :class:`Variant`:
its ``rules`` mapping (extends applied) for what the author wrote, its compiled parts for what the engine does.
Conditions are phrased by :class:`piglia.dsl.words.Words`; the worked example is found and played by the engine.
Every word comes from a message catalog (:mod:`piglia.locales`).
"""

from __future__ import annotations

import html
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from piglia.contexts import AWARD_SCOPE, BONUS_SCOPE, CARD_SCOPE, DEAL_SCOPE, PLAYED_SCOPE
from piglia.dsl.words import Words
from piglia.locales import Catalog
from piglia.state import Game
from piglia.texts import VariantTexts
from piglia.variant import Variant

__all__ = ["Example", "find_example", "render_html", "render_markdown", "write_docs"]

# How many random (played card, table) positions the example search looks at: enough to find one that shows
# the capture priority on any deck of the family, few enough to stay well under a second.
_EXAMPLE_TRIES = 1500


@dataclass(frozen=True)
class Example:
    """A worked turn: the table, the played card, the engine's legal moves for it and what each scores."""

    table: tuple[int, ...]
    played: int
    moves: tuple[tuple[tuple[int, ...], str, tuple[tuple[str, int], ...]], ...]  # (captured, kind, bonuses)
    excluded: tuple[tuple[tuple[int, ...], str], ...]  # captures a later priority tier would allow


def _captures_by_kind(variant: Variant, played: int, table: Sequence[int]) -> dict[str, list[tuple[int, ...]]]:
    return {k.name: k.captures(played, table) for tier in variant.capture.tiers for k in tier}


def find_example(variant: Variant, *, table_size: int | None = None, seed: str = "piglia-rules-example") -> Example:
    """A deterministic, instructive turn: priority at work if the rules have any, else a choice of captures.

    The candidates are random; the moves are the engine's ``legal_moves()`` of a position built with
    :meth:`Game.position`, and the bonuses are what the engine scores when each move is applied.
    """
    deck = variant.deck
    rng = random.Random(seed)
    size = table_size or min(max(variant.deal_rules().table, 3), 5)
    best: tuple[int, tuple[int, ...], int] | None = None
    for _ in range(_EXAMPLE_TRIES):
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
        if move.card.index != played:
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


class _Page:
    """Builds the Markdown of one variant's page in one language."""

    def __init__(self, variant: Variant, texts: VariantTexts) -> None:
        self.v = variant
        self.texts = texts
        self.msg: Catalog = texts.msg
        self.name = texts.name
        self.words = Words(variant.deck, texts.msg, texts.name)
        self.rules: Mapping[str, Any] = variant.rules
        self.lines: list[str] = []
        layouts = [p.teams for p in variant.players_by_count.values()]
        if all(all(len(t) == 1 for t in teams) for teams in layouts):
            self.side = "player"
        elif all(all(len(t) > 1 for t in teams) for teams in layouts):
            self.side = "team"
        else:
            self.side = "mixed"

    # -- helpers ------------------------------------------------------------------------------------------

    def card(self, index: int) -> str:
        return self.texts.card(index)

    def cards(self, indexes: Sequence[int]) -> str:
        return self.words.join([self.card(c) for c in indexes]) if indexes else self.msg("nothing")

    def points(self, value: Any, scope: Mapping[str, Any]) -> str:
        if isinstance(value, int):
            return self.msg.plural("points", value)
        return self.msg("points.expr", x=self.words.number(value, scope))

    def say(self, *lines: str) -> None:
        self.lines.extend(lines)

    def bullet(self, text: str) -> None:
        self.lines.append(f"- {text}")

    def heading(self, key: str) -> None:
        self.lines.extend(["", f"## {self.msg(key)}", ""])

    # -- the page -------------------------------------------------------------------------------------------

    def build(self) -> str:
        v, m, t = self.v, self.msg, self.texts
        self.say(f"# {t.title}", "", f"*{self.subtitle()}*")
        self.untranslated()
        if t.description:
            self.say("", t.description)
        self.objective()
        self.players()
        self.deck()
        self.deal()
        self.turn()
        self.bonuses()
        self.end_of_deal()
        self.end_of_match()
        notes = t.notes
        if notes:
            self.heading("h.notes")
            for note in notes:
                self.bullet(note)
        if v.sources:
            self.heading("h.sources")
            for source in v.sources:
                self.bullet(" ".join(str(source).split()))
        self.say("", "---", "", f"*{m('footer', name=v.name)}*")
        return "\n".join(self.lines).strip() + "\n"

    def untranslated(self) -> None:
        """One note at the top naming what the rule file does not translate into the page's language."""
        m = self.msg
        missing = self.texts.missing()
        if not missing:
            return
        texts = ("title", "description", "notes", "reasons")
        parts = [m(f"untranslated.{key}") for key in texts if key in missing]
        names = [f"`{n}`" for n in missing if n not in texts]
        if names:
            parts.append(m.plural("untranslated.names", len(names), names=", ".join(names)))
        self.say("", f"> {m('untranslated', items=self.words.join(parts))}")

    def side_msg(self, key: str, **fields: Any) -> str:
        """A sentence about the scoring sides: one text per kind of side (player, team, either), so that each
        language can inflect the word as its grammar needs."""
        return self.msg(f"{key}.{self.side}", **fields)

    def subtitle(self) -> str:
        m = self.msg
        counts = list(self.v.player_counts)
        players = m.plural("players_n", counts[-1], counts=self.words.join([str(c) for c in counts]))
        return f"{players} · {self.match_short()}"

    def match_short(self) -> str:
        match = self.v.match
        m = self.msg
        if match.target is not None and match.deals is not None:
            return m("match.short_both", target=match.target, deals=match.deals)
        if match.target is not None:
            return m("match.short_target", target=match.target)
        return m.plural("match.short_deals", match.deals or 1)

    def objective(self) -> None:
        m = self.msg
        self.heading("h.objective")
        self.bullet(m("objective.capture") + (" " + m("objective.bonuses") if self.v.bonuses else ""))
        match = self.v.match
        if match.target is not None:
            self.bullet(self.side_msg("objective.target", target=match.target))
        else:
            self.bullet(self.side_msg("objective.deals"))

    def players(self) -> None:
        m = self.msg
        spec = self.rules["players"]
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
        order = spec.get("order", "clockwise")
        self.bullet(m(f"players.order.{order}") + " " + m("players.seats"))
        if 2 in self.v.player_counts:
            self.bullet(m("players.alternate"))
        first = spec.get("first_dealer", "random")
        self.bullet(m("players.first_random") if first == "random" else m("players.first_seat", seat=int(first) + 1))
        rotation = spec.get("rotation", "next")
        if rotation == "next":
            self.bullet(
                m("players.rotation_next") + (" " + m("players.rotation_two") if 2 in self.v.player_counts else "")
            )
        else:
            self.bullet(m("players.rotation_same"))
        if spec.get("lead", "after_dealer") == "after_dealer":
            self.bullet(m("players.lead_after") + (" " + m("players.lead_two") if 2 in self.v.player_counts else ""))
        else:
            self.bullet(m("players.lead_dealer"))

    def deck(self) -> None:
        m = self.msg
        deck = self.v.deck
        self.heading("h.cards")
        suits = self.words.join([self.name(s.name) for s in deck.suits])
        self.bullet(m("deck.size", n=len(deck), suits=suits, s=len(deck.suits), r=len(deck.ranks)))
        removed = self.rules["deck"].get("remove_ranks") or []
        if removed:
            self.bullet(m("deck.removed", ranks=self.words.join([str(r) for r in removed])))
        courts = [self.name(r.name) for r in deck.ranks if r.court]
        if courts:
            self.bullet(m("deck.courts", ranks=self.words.join(courts)))
        rank_tables = [t for t in deck.tables.values() if t.key == "rank"]
        header = [
            m("col.rank"),
            m("col.value"),
            *([m("col.court")] if courts else []),
            *(self.name(t.name) for t in rank_tables),
        ]
        self.say("", m("deck.values"), "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header))
        for i, r in enumerate(deck.ranks):
            row = [self.name(r.name), str(r.value)]
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
            self.say("", m("deck.tables_note", tables=self.words.join([self.name(t.name) for t in rank_tables])))

    def deal(self) -> None:
        m = self.msg
        self.heading("h.deal")
        spec = self.rules["deal"]
        many = len(self.v.player_counts) > 1
        for count in self.v.player_counts:
            d = self.v.deal_rules(count)
            prefix = m("with_players", n=count) + " " if many else ""
            stock = len(self.v.deck) - d.table - count * d.hand
            text = m("deal.hands", hand=d.hand) + " " + m.plural("deal.table", d.table)
            if spec["hand"] == "all":
                text += " " + m("deal.all")
            text += " " + (m("deal.stock", n=stock) if stock else m("deal.no_stock"))
            if stock and d.refill:
                text += " " + m("deal.refill", hand=d.hand)
            self.bullet(prefix + text)
        redeal = spec.get("redeal")
        if redeal:
            cond = self.words.condition(redeal["when"], DEAL_SCOPE)
            reason = self.texts.reason("redeal")
            self.bullet(m("deal.redeal", cond=cond) + (" " + m("deal.reason", reason=reason) if reason else ""))

    def turn(self) -> None:
        m = self.msg
        v = self.v
        spec = self.rules["capture"]
        self.heading("h.turn")
        self.bullet(m("turn.play"))
        tiers = v.capture.tiers
        free = len(tiers) == 1
        self.say("", m("turn.kinds_free" if free else "turn.kinds_priority"), "")
        for i, tier in enumerate(tiers, 1):
            for kind in tier:
                marker = "-" if free else f"{i}."
                self.say(f"{marker} **{self.name(kind.name)}**: {self.kind_text(kind.name, spec['kinds'][kind.name])}")
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
        self.bullet(m("turn.choose"))
        self.bullet(self.side_msg("turn.pile"))
        self.bullet(m("turn.no_capture"))
        self.example()

    def kind_text(self, name: str, spec: Mapping[str, Any]) -> str:
        m = self.msg
        w = self.words
        kind = spec.get("type")
        if kind == "match":
            text = m(f"kind.match_{spec.get('by', 'value')}")
        elif kind == "sum":
            target = spec.get("target")
            target_text = m("kind.sum_played_value") if target is None else w.number(target, PLAYED_SCOPE)
            text = m("kind.sum_with_played" if spec.get("include_played") else "kind.sum", target=target_text)
            if "min_cards" in spec:
                text += " " + m("kind.min_cards", n=spec["min_cards"])
            if "max_cards" in spec:
                text += " " + m("kind.max_cards", n=spec["max_cards"])
            if "cards" not in spec and "played" not in spec and any(r.court for r in self.v.deck.ranks):
                text += " " + m("kind.courts_in_sums")
        elif kind == "all":
            text = m("kind.all")
        else:
            options = ", ".join(f"{k}: {val}" for k, val in spec.items() if k not in ("played", "cards"))
            text = m("kind.other", spec=f"`{options}`")
        if "played" in spec:
            text += " " + m("kind.played", mods=w.card_filter(spec["played"], PLAYED_SCOPE))
        if "cards" in spec:
            text += " " + m("kind.cards", mods=w.card_filter(spec["cards"], CARD_SCOPE))
        return text

    def example(self) -> None:
        m = self.msg
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
                line += m("example.bonus", bonus=self.name(name), points=self.msg.plural("points", pts))
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
        spec = self.rules.get("bonuses") or {}
        if not spec:
            return
        self.heading("h.bonuses")
        for name, b in spec.items():
            on = "play" if b.get("on") == "play" else "capture"
            when = self.words.condition(b["when"], BONUS_SCOPE)
            self.bullet(m(f"bonus.{on}", name=self.name(name), points=self.points(b["points"], BONUS_SCOPE), cond=when))
        if len(spec) > 1:
            self.bullet(m("bonus.stack"))

    def end_of_deal(self) -> None:
        m = self.msg
        self.heading("h.end_of_deal")
        leftover = self.rules.get("leftover", "last_capturer")
        if leftover in ("last_capturer", "nobody"):
            self.bullet(self.side_msg(f"leftover.{leftover}"))
        else:
            self.bullet(m("leftover.other", spec=f"`leftover: {leftover}`"))
        awards = self.rules.get("awards") or {}
        if awards:
            self.bullet(self.side_msg("awards.intro"))
            for name, a in awards.items():
                self.say(f"  - {self.award_text(name, a)}")
        self.bullet(self.side_msg("awards.total"))

    def award_text(self, name: str, a: Mapping[str, Any]) -> str:
        m = self.msg
        w = self.words
        side_msg = self.side_msg
        name = self.name(name)
        if "most" in a:
            items = a["most"] if isinstance(a["most"], list) else [a["most"]]
            values = [w.number(x, AWARD_SCOPE) for x in items]
            text = side_msg("award.most", name=name, points=self.points(a["points"], AWARD_SCOPE), value=values[0])
            for value in values[1:]:
                text += " " + m("award.tiebreak", value=value)
            if a.get("tie", "none") == "each":
                tie_points = self.points(a.get("tie_points", a["points"]), AWARD_SCOPE)
                text += " " + side_msg("award.tie_each", points=tie_points)
            else:
                text += " " + m("award.tie_none")
        elif "holder" in a:
            holder = self.v.deck.parse_card(a["holder"]) if " of " not in str(a["holder"]) else None
            card = self.card(holder.index) if holder else w.number(a["holder"], {})
            text = side_msg("award.holder", name=name, points=self.points(a["points"], AWARD_SCOPE), card=card)
        elif "score" in a:
            text = side_msg("award.score", name=name, value=w.number(a["score"], AWARD_SCOPE))
        else:
            shown = ", ".join(f"{k}: {val}" for k, val in a.items())
            text = m("award.other", name=name, spec=f"`{shown}`")
        if "eligible" in a:
            text += " " + side_msg("award.eligible", cond=w.condition(a["eligible"], AWARD_SCOPE))
        return text

    def end_of_match(self) -> None:
        m = self.msg
        match = self.v.match
        self.heading("h.end_of_match")
        if match.target is not None:
            self.bullet(self.side_msg("match.target", target=match.target))
            if match.deals is not None:
                self.bullet(m.plural("match.or_deals", match.deals))
        elif match.deals is not None:
            self.bullet(m.plural("match.deals", match.deals))
        self.bullet(m("match.after_deal"))


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


def render_html(variant: Variant, lang: str = "en") -> str:
    """The rules page as one self-contained HTML document: inline CSS, no scripts, no network, phone-sized."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = md.render(render_markdown(variant, lang))
    title = html.escape(VariantTexts(variant, lang).title)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n{body}</main>\n</body>\n</html>\n"
    )


def write_docs(folder: str | Path, names: Sequence[str] | None = None, lang: str = "en") -> list[Path]:
    """Write ``<folder>/<name>.md`` for every built-in variant (or ``names``); returns the files written.
    A language other than English is written as ``<name>.<lang>.md``.

    This is what ``make docs`` runs; the generated pages are checked in and a test keeps them in step.
    """
    from piglia.spec import builtin_names, load_variant

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names or builtin_names():
        path = out / (f"{name}.md" if lang == "en" else f"{name}.{lang}.md")
        path.write_text(render_markdown(load_variant(name), lang), encoding="utf-8")
        written.append(path)
    return written
