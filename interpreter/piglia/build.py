"""Build a :class:`Variant` from schema-valid rule data: the semantic checks and the one-time compilation.

The schema has already said the data has the right shape; here we check what a schema cannot (names that
must exist, a deal that fits the deck, a team layout that fits the players), compile every expression
against its scope and precompute the tables the engine reads during play. Problems are collected, not
raised one at a time, so a user sees all of them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from piglia.cards import Deck, Rank, Suit, Table
from piglia.contexts import DEAL_SCOPE, CardEnv, all_scope_names
from piglia.costs import check_deal_cost
from piglia.dsl import Compiled, T, compile_expr, nodes
from piglia.dsl.compiler import CARD_ATTRIBUTES
from piglia.dsl.nodes import conjuncts
from piglia.errors import DslError, PigliaError, SpecError, did_you_mean
from piglia.mechanics.awards import Award, build_award
from piglia.mechanics.base import Quantity
from piglia.mechanics.bonuses import build_trigger
from piglia.mechanics.builds import Builds, build_builds
from piglia.mechanics.capture import CaptureKind, build_kind
from piglia.mechanics.declarations import Declarations, build_declarations
from piglia.mechanics.match import build_match, check_progress
from piglia.variant import Bonus, CaptureRules, DealRules, MatchRules, OpeningBonus, PlayerRules, Variant

if TYPE_CHECKING:
    from piglia.yamlpos import Path

__all__ = ["Reporter", "VariantBuilder"]

Expr = Callable[[Any], Any]
# The most cards a deck may have: four 52-card packs and more. The engine precomputes tables by card and by pair of
# cards (a capture filter is computed for every played card and table card: 65,536 pairs at this size).
MAX_DECK_CARDS = 256


class Reporter(Protocol):
    """Locates problems in the rule file(s)."""

    def at(self, path: Path, message: str, *, key: bool = False) -> SpecError:
        """The problem ``message`` located at ``path`` of the rule file (at its key rather than its value with
        ``key``)."""
        ...

    def at_offset(self, path: Path, offset: int, message: str) -> SpecError:
        """The problem ``message`` located ``offset`` characters into the text at ``path`` (a DSL error's column)."""
        ...

    def newest(self, *paths: Path) -> Path:
        """Of ``paths``, the first written by the file being checked (not inherited), else the first."""
        ...


class _Failed(Exception):
    """A part could not be built; its error is already recorded."""


def _const(value: int) -> Expr:
    return lambda _env: value


def _aggregate_of(term: nodes.Expr, func: str, name: str) -> bool:
    """Whether ``term`` is ``func(name)`` for a scope variable ``name``."""
    return (
        isinstance(term, nodes.Call)
        and term.func.id == func
        and len(term.args) == 1
        and isinstance(term.args[0], nodes.Name)
        and term.args[0].id == name
    )


# count(captured) OP n, as the bounds it sets on the count: (lowest, highest), None for no bound
_COUNT_BOUNDS: Mapping[str, Callable[[int], tuple[int, int | None]]] = {
    "==": lambda n: (n, n),
    ">=": lambda n: (n, None),
    ">": lambda n: (n + 1, None),
    "<=": lambda n: (0, n),
    "<": lambda n: (0, n - 1),
}
_FLIPPED = {"==": "==", ">=": "<=", ">": "<", "<=": ">=", "<": ">"}  # n OP count(captured), turned round


def _captured_bounds(terms: Sequence[nodes.Expr]) -> tuple[int, int | None]:
    """The bounds that terms ``count(captured) OP n`` (or ``n OP count(captured)``) of a condition's ``and``
    chain set on how many cards the play captures: the condition is false outside them."""
    lo, hi = 0, None
    for term in terms:
        if not isinstance(term, nodes.Compare):
            continue
        op, left, right = term.op, term.left, term.right
        if isinstance(left, nodes.IntLit) and op in _FLIPPED:
            op, left, right = _FLIPPED[op], right, left
        if op in _COUNT_BOUNDS and isinstance(right, nodes.IntLit) and _aggregate_of(left, "count", "captured"):
            low, high = _COUNT_BOUNDS[op](right.value)
            lo = max(lo, low)
            hi = high if hi is None else hi if high is None else min(hi, high)
    return lo, hi


class VariantBuilder:
    """Checks and compiles one variant's data; ``errors`` holds every problem found."""

    def __init__(self, data: Mapping[str, Any], where: Reporter) -> None:
        self.data = data
        self.where = where
        self.errors: list[SpecError] = []
        self.deck: Deck | None = None

    # -- helpers ---------------------------------------------------------------------------------------

    def fail(self, path: Path, message: str, *, key: bool = False) -> _Failed:
        """Record the problem ``message`` at ``path``; the marker returned (raised by the caller) stands for the
        part that could not be built."""
        self.errors.append(self.where.at(path, message, key=key))
        return _Failed()

    def expr(
        self,
        path: Path,
        text: str,
        scope: Mapping[str, T],
        expected: T | tuple[T, ...],
        *,
        bare_card: str | None = None,
    ) -> Expr:
        """Compile the expression at ``path``; on error record it (at the exact column) and raise _Failed."""
        return self.compiled(path, text, scope, expected, bare_card=bare_card).fn

    def compiled(
        self,
        path: Path,
        text: str,
        scope: Mapping[str, T],
        expected: T | tuple[T, ...],
        *,
        bare_card: str | None = None,
    ) -> Compiled:
        """As :meth:`expr`, with the names the expression reads."""
        assert self.deck is not None
        try:
            compiled = compile_expr(
                text,
                scope=scope,
                deck=self.deck,
                expected=expected,
                known_elsewhere=all_scope_names(),
                bare_card=bare_card,
                string_values={"kind": ("", *self.data.get("capture", {}).get("kinds", ()))},
            )
        except DslError as exc:
            self.errors.append(self.where.at_offset(path, exc.offset, exc.message))
            raise _Failed() from None
        except PigliaError as exc:  # a limit met while folding constants (a product past 18 digits, in a loop)
            raise self.fail(path, str(exc)) from None
        if bare_card is not None:
            # A card condition is asked of every card of the deck when the rules load (replace, wild, builds...):
            # asked here, one that cannot be evaluated on some card is the file's mistake, said where it is written.
            try:
                for c in range(len(self.deck)):
                    compiled.fn(CardEnv(c, c))
            except PigliaError as exc:
                raise self.fail(path, f"cannot be evaluated on every card: {exc}") from None
        return compiled

    def points(self, path: Path, value: Any, scope: Mapping[str, T]) -> Expr:
        """A points entry compiled: a whole number as a constant, an expression over ``scope`` as its callable."""
        if isinstance(value, int):
            return _const(value)
        return self.expr(path, value, scope, T.INT)

    def newest(self, *paths: Path) -> Path:
        """Of ``paths``, the first written by the file being checked (not inherited), else the first."""
        return self.where.newest(*paths)

    def quantity(self, path: Path, value: int | str, scope: Mapping[str, T]) -> Quantity:
        """A whole number as is, or the number expression at ``path`` compiled (for the mechanics' builders)."""
        if isinstance(value, int):
            return value
        return self.compiled(path, value, scope, T.INT)

    # -- the whole variant -----------------------------------------------------------------------------

    def build(self, *, sha256: str, source: str, probe: bool = True) -> Variant | None:
        """The compiled variant, or None when there were errors (see ``errors``). ``probe=False`` skips the sampled
        opening deals (:mod:`piglia.probe`): only for data this engine built cleanly before, probe included."""
        d = self.data
        try:
            self.deck = self.build_deck()
        except _Failed:
            return None
        parts: dict[str, Any] = {}
        for name, step in (
            ("players", self.build_players),
            ("deals", self.build_deals),
            ("capture", self.build_capture),
            ("bonuses", self.build_bonuses),
            ("awards", self.build_awards),
            ("match", self.build_match),
            ("declarations", self.build_declarations),
            ("builds", self.build_builds),
        ):
            try:
                parts[name] = step()
            except _Failed:
                parts[name] = None
        if not self.errors:
            with contextlib.suppress(_Failed):  # its error is recorded
                check_progress(
                    self,
                    d["match"],
                    parts["awards"],
                    parts["bonuses"],
                    d["deal"].get("opening") or {},
                    one_team=any(len(p.teams) == 1 for p in parts["players"].values()),
                )
        if self.errors:
            return None
        players: dict[int, PlayerRules] = parts["players"]
        variant = Variant(
            name=d["name"],
            title=d.get("title", d["name"]),
            description=d.get("description", ""),
            sources=tuple(d.get("sources", ())),
            deck=self.deck,
            player_counts=tuple(players),
            players_by_count=MappingProxyType(players),
            deals_by_count=MappingProxyType(parts["deals"]),
            capture=parts["capture"],
            bonuses=parts["bonuses"],
            leftover=d.get("leftover", "last_capturer"),
            awards=parts["awards"],
            match=parts["match"],
            rules=MappingProxyType(dict(d)),
            sha256=sha256,
            source=source,
            notes=tuple(" ".join(str(note).split()) for note in d.get("notes") or ()),
            removed_ranks=tuple(str(r) for r in d["deck"].get("remove_ranks") or ()),
            declarations=parts["declarations"],
            builds=parts["builds"],
        )
        try:  # what the expressions add up to over a deal (piglia.costs)
            check_deal_cost(variant, self.fail)
        except _Failed:
            return None
        if probe:
            from piglia.probe import probe_openings  # here: a remembered file skips it

            try:  # what a few random opening deals show (piglia.probe)
                probe_openings(variant, self.fail, newest=self.newest)
            except _Failed:
                return None
        return variant

    def build_builds(self) -> Builds | None:
        """The builds (``builds``), if the file allows them."""
        spec = self.data.get("builds")
        return None if spec is None else build_builds(self, spec)

    def build_declarations(self) -> Declarations | None:
        """The hand declarations (``declarations``), if the file has any."""
        spec = self.data.get("declarations")
        return None if spec is None else build_declarations(self, spec)

    # -- deck ------------------------------------------------------------------------------------------

    def build_deck(self) -> Deck:
        """The deck: suits, ranks (less ``remove_ranks``), their properties and value tables, each card once."""
        spec = self.data["deck"]
        removed = {str(r) for r in spec.get("remove_ranks", [])}
        suits: list[Suit] = []
        seen: dict[str, Path] = {}
        for i, s in enumerate(spec["suits"]):
            for attr in ("name", "id"):
                tag = f"suit {attr} {s[attr]!r}"
                if tag in seen:
                    self.fail(("deck", "suits", i, attr), f"{tag} is used twice")
                if attr == "name" and f"alias {s[attr]!r}" in seen:
                    self.fail(("deck", "suits", i, attr), f"{s[attr]!r} is already an alias")
                seen[tag] = ("deck", "suits", i)
            aliases = tuple(str(a) for a in s.get("aliases", ()))
            self.check_aliases(("deck", "suits", i), aliases, seen)
            suits.append(Suit(s["name"], s["id"], len(suits), MappingProxyType(dict(s.get("props", {}))), aliases))
        all_rank_names = [str(r["name"]) for r in spec["ranks"]]
        for i, r in enumerate(spec.get("remove_ranks", [])):
            if str(r) not in all_rank_names:
                hint = did_you_mean(str(r), all_rank_names) or f" (the ranks are {', '.join(all_rank_names)})"
                self.fail(("deck", "remove_ranks", i), f"unknown rank {r!r}{hint}")
        ranks: list[Rank] = []
        for i, r in enumerate(spec["ranks"]):
            name = str(r["name"])
            for attr in ("name", "id"):
                tag = f"rank {attr} {r[attr]!r}"
                if tag in seen:
                    self.fail(("deck", "ranks", i, attr), f"{tag} is used twice")
                if attr == "name" and f"alias {r[attr]!r}" in seen:
                    self.fail(("deck", "ranks", i, attr), f"{r[attr]!r} is already an alias")
                seen[tag] = ("deck", "ranks", i)
            if name in {s.name for s in suits} | {a for s in suits for a in s.aliases}:
                self.fail(("deck", "ranks", i, "name"), f"{name!r} names both a suit and a rank")
            aliases = tuple(str(a) for a in r.get("aliases", ()))
            self.check_aliases(("deck", "ranks", i), aliases, seen)
            if name in removed:
                # A table written for the deck may name a removed rank by an alias too; it is ignored alike.
                removed.update(aliases)
                continue
            ranks.append(
                Rank(
                    name,
                    str(r["id"]),
                    len(ranks),
                    int(r["value"]),
                    bool(r.get("court", False)),
                    MappingProxyType(dict(r.get("props", {}))),
                    aliases,
                    self.rank_values(i, r),
                )
            )
        if not ranks:
            raise self.fail(("deck", "remove_ranks"), "every rank is removed: the deck has no cards")
        if len(suits) * len(ranks) > MAX_DECK_CARDS:
            raise self.fail(
                self.where.newest(("deck", "ranks"), ("deck", "suits")),
                f"a deck of {len(suits)} suits of {len(ranks)} ranks has {len(suits) * len(ranks):,} cards; "
                f"the limit is {MAX_DECK_CARDS}",
            )
        self.check_props(spec, suits)
        if self.errors:
            raise _Failed()  # a suit or rank given twice would also make card ids collide: say it once
        ids: dict[str, str] = {}
        for s in suits:
            for r in ranks:
                cid = r.id + s.id
                if cid in ids:
                    raise self.fail(("deck",), f"card id {cid!r} spells both {ids[cid]} and {r.name} of {s.name}")
                ids[cid] = f"{r.name} of {s.name}"
        tables = [
            self.build_table(name, values, suits, ranks, removed) for name, values in spec.get("tables", {}).items()
        ]
        return Deck.build(suits, ranks, tables)

    def rank_values(self, i: int, r: Mapping[str, Any]) -> tuple[int, ...]:
        """A rank's alternative capture values (``values``), which must include its ``value``; () if none."""
        values = tuple(int(v) for v in r.get("values", ()))
        if values and int(r["value"]) not in values:
            self.fail(
                ("deck", "ranks", i, "values"), f"values {list(values)} must include the rank's value {r['value']}"
            )
        return values

    def check_aliases(self, path: Path, aliases: tuple[str, ...], seen: dict[str, Path]) -> None:
        """Aliases are names too: none may repeat a suit's or rank's name or another alias."""
        for j, alias in enumerate(aliases):
            for tag in (f"suit name {alias!r}", f"rank name {alias!r}", f"alias {alias!r}"):
                if tag in seen and seen[tag] != path:
                    self.fail((*path, "aliases", j), f"alias {alias!r} is already a name in the deck")
                    break
            seen[f"alias {alias!r}"] = path

    def check_props(self, spec: Mapping[str, Any], suits: list[Suit]) -> None:
        """A property a card could never be read by: named as a card's own attribute (``card.value`` is the
        rank's value, never a suit's property ``value``), or given to suits and to ranks alike (a card would have
        two values of it: the rank's was read, the suit's ignored)."""
        by_suit = {k for s in suits for k in s.props}
        for side, items in (("suits", spec["suits"]), ("ranks", spec["ranks"])):
            for i, item in enumerate(items):
                for prop in item.get("props", {}):
                    here = ("deck", side, i, "props", prop)
                    if prop in CARD_ATTRIBUTES:
                        self.fail(
                            here, f"{prop!r} is a card's own attribute (card.{prop}): name it otherwise", key=True
                        )
                    elif side == "ranks" and prop in by_suit:
                        self.fail(here, f"{prop!r} is a property of suits too: a card would have two values", key=True)

    def build_table(
        self, name: str, values: Mapping[str, int], suits: list[Suit], ranks: list[Rank], removed: set[str]
    ) -> Table:
        """The value table ``name`` (``deck.tables``): a value for every rank left in the deck."""
        path: Path = ("deck", "tables", name)
        # Keys may be aliases (a table written for Italian ranks read on a French deck): use the real names.
        real = {a: x.name for x in suits for a in x.aliases} | {a: x.name for x in ranks for a in x.aliases}
        renamed: dict[str, int] = {}
        for k, v in values.items():
            if k in removed:
                continue
            key_name = real.get(k, k)
            if key_name in renamed:
                self.fail((*path, k), f"table {name!r} gives {key_name!r} a value twice (by name and alias)", key=True)
            renamed[key_name] = v
        values = renamed
        rank_names = [r.name for r in ranks]
        suit_names = [s.name for s in suits]
        keys = [k for k in values if k not in removed]
        if keys and all(k in suit_names for k in keys):
            key, order = "suit", suit_names
        elif keys and all(k in [r.id + s.id for s in suits for r in ranks] for k in keys):
            key, order = "card", [r.id + s.id for s in suits for r in ranks]
        else:
            key, order = "rank", rank_names
            for k in keys:
                if k not in rank_names:
                    self.fail((*path, k), f"unknown rank {k!r}{did_you_mean(k, rank_names)}", key=True)
        missing = [k for k in order if k not in values]
        if missing:
            self.fail(path, f"table {name!r} gives no value for {key} {', '.join(map(repr, missing))}")
        return Table(name, key, tuple(int(values.get(k, 0)) for k in order))

    # -- players and deal ------------------------------------------------------------------------------

    def build_players(self) -> dict[int, PlayerRules]:
        """The player counts the variant allows, each with its teams."""
        spec = self.data["players"]
        counts = spec["count"] if isinstance(spec["count"], list) else [spec["count"]]
        layouts = spec.get("teams", "individual")
        out: dict[int, PlayerRules] = {}
        lpath: Path
        for n in counts:
            if isinstance(layouts, dict):
                if str(n) not in layouts:
                    raise self.fail(("players", "teams"), f"no team layout for {n} players")
                layout, lpath = layouts[str(n)], ("players", "teams", str(n))
            else:
                layout, lpath = layouts, ("players", "teams")
            teams = self.team_layout(n, layout, lpath)
            first = spec.get("first_dealer", "random")
            if isinstance(first, int) and first >= n:
                raise self.fail(("players", "first_dealer"), f"seat {first} does not exist with {n} players")
            team_of = [0] * n
            for t, seats in enumerate(teams):
                for seat in seats:
                    team_of[seat] = t
            out[n] = PlayerRules(
                count=n,
                teams=teams,
                team_of=tuple(team_of),
                first_dealer=None if first == "random" else int(first),
                rotation=spec.get("rotation", "next"),
                lead_offset=1 if spec.get("lead", "after_dealer") == "after_dealer" else 0,
                order=spec.get("order", "clockwise"),
            )
        return out

    def team_layout(self, n: int, layout: Any, path: Path) -> tuple[tuple[int, ...], ...]:
        """The teams of ``n`` seats in ``layout`` (``individual``, ``opposite`` or listed seats), checked."""
        if layout == "individual":
            return tuple((i,) for i in range(n))
        if layout == "opposite":
            if n < 4 or n % 2:
                raise self.fail(path, f"opposite partnerships need an even number of players, 4 or more (not {n})")
            half = n // 2
            return tuple((i, i + half) for i in range(half))
        teams = tuple(tuple(int(s) for s in team) for team in layout)
        seats = sorted(s for team in teams for s in team)
        if seats != list(range(n)):
            raise self.fail(path, f"the teams must list each of the seats 0..{n - 1} exactly once")
        return teams

    def build_deals(self) -> dict[int, DealRules]:
        """Per player count, how a deal is dealt: hand and table sizes, refills, redeals, replacement."""
        assert self.deck is not None
        spec = self.data["deal"]
        players = self.data["players"]
        counts = players["count"] if isinstance(players["count"], list) else [players["count"]]
        size = len(self.deck)
        table = int(spec["table"])
        refill = bool(spec.get("refill", False))
        redeal: Compiled | None = None
        if "redeal" in spec:
            redeal = self.compiled(("deal", "redeal", "when"), spec["redeal"]["when"], DEAL_SCOPE, T.BOOL)
        opening = self.build_opening(spec.get("opening", {}))
        face_down = int(spec.get("face_down", 0))
        if face_down > table:
            raise self.fail(("deal", "face_down"), f"{face_down} face-down cards, but only {table} go to the table")
        replace_when: Compiled | None = None
        replace: tuple[bool, ...] | None = None
        if "replace" in spec:
            replace_when = self.compiled(
                ("deal", "replace", "when"), spec["replace"]["when"], {"card": T.CARD}, T.BOOL, bare_card="card"
            )
            replace = tuple(bool(replace_when.fn(CardEnv(c, c))) for c in range(size))
        out: dict[int, DealRules] = {}
        for n in counts:
            if spec["hand"] == "all":
                if (size - table) % n:
                    raise self.fail(
                        self.where.newest(("deal", "hand"), ("deal", "table")),
                        f"{size - table} cards after the table do not split evenly among {n} players",
                    )
                hand = (size - table) // n
                if not hand:  # as `hand: 0` would, which the schema refuses: nobody would ever have a card to play
                    raise self.fail(
                        self.where.newest(("deal", "table"), ("deal", "hand")),
                        f"the table takes all {size} cards of the deck: no card is left for the hands",
                    )
            else:
                hand = int(spec["hand"])
            first = table + n * hand
            if first > size:
                raise self.fail(
                    self.where.newest(("deal", "hand"), ("deal", "table")),
                    f"the deal needs {first} cards ({table} on the table, {hand} to each of {n} players) "
                    f"but the deck has {size}",
                )
            stock = size - first
            if stock and not refill:
                raise self.fail(
                    self.where.newest(("deal", "refill"), ("deal", "hand"), ("deal", "table")),
                    f"{stock} cards would never be dealt with {n} players: set refill: true or deal more",
                )
            if refill and stock % (n * hand):
                raise self.fail(
                    self.where.newest(("deal", "hand"), ("deal", "table"), ("deal", "refill")),
                    f"the stock of {stock} cards cannot be dealt {hand} at a time to {n} players",
                )
            out[n] = DealRules(
                hand,
                table,
                refill,
                redeal.fn if redeal is not None else None,
                spec.get("redeal", {}).get("reason", "misdeal"),
                opening,
                hand_all=spec["hand"] == "all",
                redeal_when=redeal,
                redeal_reason_written="reason" in spec.get("redeal", {}),
                face_down=face_down,
                replace=replace,
                replace_when=replace_when,
                replace_reason=str(spec.get("replace", {}).get("reason", "")),
            )
        return out

    def build_opening(self, spec: Mapping[str, Any]) -> tuple[OpeningBonus, ...]:
        """The bonuses scored on the opening table (``deal.opening``), compiled."""
        out: list[OpeningBonus] = []
        failed = False
        for name, bspec in spec.items():
            path: Path = ("deal", "opening", name)
            try:
                when = self.expr((*path, "when"), bspec["when"], DEAL_SCOPE, T.BOOL)
                points = self.points((*path, "points"), bspec["points"], DEAL_SCOPE)
                take = self.expr((*path, "take"), bspec["take"], DEAL_SCOPE, T.CARDS) if "take" in bspec else None
            except _Failed:
                failed = True
                continue
            out.append(OpeningBonus(name, when, points, take))
        if failed:
            raise _Failed()
        return tuple(out)

    # -- capture ---------------------------------------------------------------------------------------

    def build_capture(self) -> CaptureRules:
        """The capture kinds, compiled by their mechanics, and their priority tiers."""
        assert self.deck is not None
        spec = self.data["capture"]
        kinds: dict[str, CaptureKind] = {}
        failed = False
        for name, kspec in spec["kinds"].items():
            try:
                kinds[name] = build_kind(self, name, kspec)
            except _Failed:
                failed = True
        priority = spec.get("priority", "free")
        if priority == "free":
            tiers_names = [list(spec["kinds"])]
        else:
            tiers_names = [[t] if isinstance(t, str) else list(t) for t in priority]
        named: list[str] = []
        for i, tier in enumerate(tiers_names):
            for j, kname in enumerate(tier):
                where: Path = (
                    ("capture", "priority", i) if isinstance(priority[i], str) else ("capture", "priority", i, j)
                )
                if kname not in spec["kinds"]:
                    gone: Path = ("capture", "kinds", kname)
                    if self.where.newest(gone, where) == gone:  # this file removed a kind the priority still uses
                        raise self.fail(
                            gone, f"capture.priority still lists {kname!r}: write a capture.priority without it"
                        )
                    raise self.fail(where, f"unknown capture kind {kname!r}{did_you_mean(kname, spec['kinds'])}")
                if kname in named:
                    raise self.fail(where, f"capture kind {kname!r} is listed twice")
                named.append(kname)
        for kname in spec["kinds"]:
            if kname not in named:
                # at the kind, not the priority: the priority may be inherited while the kind is new here
                tiers_text = ", ".join(t[0] if len(t) == 1 else f"[{', '.join(t)}]" for t in tiers_names)
                raise self.fail(
                    ("capture", "kinds", kname),
                    f"capture kind {kname!r} is not in capture.priority ({tiers_text}): add it to a tier",
                    key=True,
                )
        if failed:
            raise _Failed()
        tiers = tuple(tuple(kinds[k] for k in tier) for tier in tiers_names)
        return CaptureRules(tiers=tiers, mandatory=bool(spec.get("mandatory", True)))

    # -- bonuses, awards, match ------------------------------------------------------------------------

    def build_bonuses(self) -> tuple[Bonus, ...]:
        """The bonuses scored during play, compiled, in the rule file's order."""
        out: list[Bonus] = []
        failed = False
        for name, spec in self.data.get("bonuses", {}).items():
            try:
                trigger = build_trigger(self, name, spec)
            except _Failed:
                failed = True
                continue
            points = trigger.points
            reads = trigger.when.names | (points.names if isinstance(points, Compiled) else frozenset())
            fn = _const(points) if isinstance(points, int) else points.fn
            terms = conjuncts(trigger.when.ast)
            sweep = any(_aggregate_of(term, "empty", "table_after") for term in terms)  # the play empties the table
            lo, hi = _captured_bounds(terms)
            out.append(Bonus(name, trigger.when.fn, fn, trigger.on_play, reads, trigger, sweep, lo, hi))
        if failed:
            raise _Failed()
        return tuple(out)

    def build_awards(self) -> tuple[Award, ...]:
        """The end-of-deal awards, compiled by their forms, in the rule file's order."""
        out: list[Award] = []
        failed = False
        for name, spec in self.data.get("awards", {}).items():
            try:
                out.append(build_award(self, name, spec))
            except _Failed:
                failed = True
        if failed:
            raise _Failed()
        return tuple(out)

    def build_match(self) -> MatchRules:
        """How the match ends (targets, deal limits, instant wins): the match-end mechanics, compiled."""
        return build_match(self, self.data["match"])
