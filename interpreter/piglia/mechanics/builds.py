"""Builds: table cards gathered into one unit, with a value and an owner, that lives across turns (``builds:``).

A rule file with a ``builds`` section lets a player, instead of capturing or leaving a card, play a card onto
table cards as a **build** announced with a value that the player still holds a card for:

* **build**: the played card and some loose table cards (at least one) add up to the value;
* **increase** (``increase: true``): the played card, some loose cards (maybe none) and one single build add up
  to a higher value; the build becomes the player's;
* **multiple build** (``multiple: true``): the played card and some loose cards split into groups each adding up
  to the value, together with one build of that value or, without one, at least two groups; a multiple build is
  never increased.

A build is taken whole, and only by a played card of its value: a capture by such a card takes every build of
its value with it, together with what the capture kinds let it take from the loose cards (builds alone, when no
kind makes it take a loose card: :meth:`~piglia.mechanics.capture.KindMechanic.forced`). Two builds are never
merged. The owner's obligation: a player who owns a build may not leave a card (trail), and every move must
leave a player holding a card of the value of every build they own. Only cards the ``cards`` condition allows
(by default, cards of a value above 0) are played onto builds or gathered into them.

.. code-block:: yaml

    builds:
      cards: not court      # which cards take part in builds (and whose values are announced)
      increase: true        # a single build may be raised to a higher value
      multiple: true        # builds of several groups of one value

The cards of a build stay in ``State.table`` (so that a sweep, the leftover and every view count them);
``State.builds`` says which table cards form which build. Builds are public: :attr:`SeatView.builds`.
A build move is a :class:`~piglia.moves.Move` with ``action == "build"`` (notation ``3c on 4s+2h = 9``), raw
form :class:`~piglia.moves.BuildRaw`; the record's ``play`` event gives its ``build`` value and ``onto`` cards.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from piglia.cards import Card
from piglia.contexts import CardEnv
from piglia.dsl import Compiled, T
from piglia.errors import LimitError
from piglia.events import Play
from piglia.mechanics import declarations
from piglia.mechanics.base import BuildContext, Page
from piglia.mechanics.capture import MAX_MOVES, Capture, MoveLimitError, as_cards, count_subsets
from piglia.mechanics.sets import DEFAULT_LIMIT, UNION_STEPS, SearchTooLong, _grown, _sum_groups, unions
from piglia.moves import BuildRaw

if TYPE_CHECKING:
    from piglia.state import RawMove, State
    from piglia.variant import Variant

__all__ = [
    "BUILDS_KIND",
    "MESSAGES",
    "SCHEMA",
    "Build",
    "Builds",
    "TableBuild",
    "build_builds",
    "capture_options",
    "kind_of",
    "loose",
    "owed_cards",
    "push_build",
    "raw_moves",
    "taken",
    "why_illegal",
]

BUILDS_KIND = "builds"  # the record's capture kind of a capture that takes builds and no loose card

# The catalog keys the rules page uses for builds.
MESSAGES = ("builds.title", "builds.intro", "builds.increase", "builds.multiple", "builds.owner", "builds.cards")

SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "description": "Builds: a player may play a card onto table cards as a build announced with a value they "
    "hold a card of; a build is taken whole, only by a card of its value, and binds its owner (no trailing, "
    "keep a card of its value).",
    "properties": {
        "cards": {
            "type": "string",
            "minLength": 1,
            "description": "Which cards take part in builds: played onto them, gathered into them, announced as "
            "their value (a card condition; default: every card of a value above 0).",
        },
        "increase": {
            "type": "boolean",
            "default": True,
            "description": "A single build may be raised to a higher value, by its owner or another player.",
        },
        "multiple": {
            "type": "boolean",
            "default": True,
            "description": "Multiple builds: several groups of one value built together (never increased).",
        },
    },
    "additionalProperties": False,
}


class Build(NamedTuple):
    """A build on the table: its cards (deck indexes, ascending), value, owner (a seat) and whether it is a
    multiple build."""

    cards: tuple[int, ...]
    value: int
    owner: int
    multiple: bool


class TableBuild(NamedTuple):
    """A build as a seat sees it (:attr:`piglia.state.SeatView.builds`): its cards, value, owner, multiple."""

    cards: tuple[Card, ...]
    value: int
    owner: int
    multiple: bool


@dataclass(frozen=True)
class Builds:
    """The compiled ``builds`` section."""

    ok: tuple[bool, ...]  # per card: may it take part in builds?
    increase: bool
    multiple: bool
    top: int  # the highest value a build can have (that of a card that may take part in builds)
    cards: Compiled | None = None  # the condition as written (for the rules page)
    # the last turn's pool of loose cards (_BuildPool), and the last one whose groups were listed: the next
    # turn's groups are made from those, as the table changes by a card or a few; a cache, not part of the rules
    last: list[_BuildPool | None] = field(default_factory=lambda: [None, None], compare=False, repr=False)

    def phrase(self, page: Page) -> list[str]:
        """The rules-page lines of the builds section."""
        lines = [page.msg("builds.intro")]
        if self.increase:
            lines.append(page.msg("builds.increase"))
        if self.multiple:
            lines.append(page.msg("builds.multiple"))
        lines.append(page.msg("builds.owner"))
        if self.cards is not None:
            lines.append(page.msg("builds.cards", mods=page.words.card_filter(self.cards)))
        return lines


def build_builds(b: BuildContext, spec: Mapping[str, Any]) -> Builds:
    """Check and compile ``builds``."""
    deck = b.deck
    assert deck is not None
    values = deck.value_of
    cond: Compiled | None = None
    ok = tuple(v > 0 for v in values)
    if "cards" in spec:
        cond = b.compiled(("builds", "cards"), spec["cards"], {"card": T.CARD}, T.BOOL, bare_card="card")
        ok = tuple(o and bool(cond.fn(CardEnv(c, c))) for c, o in enumerate(ok))
    if not any(ok):
        raise b.fail(("builds", "cards") if "cards" in spec else ("builds",), "no card of the deck can be built with")
    top = max(v for v, o in zip(values, ok, strict=True) if o)
    return Builds(ok, bool(spec.get("increase", True)), bool(spec.get("multiple", True)), top, cond)


# -- play time ---------------------------------------------------------------------------------------------


def _rules(state: State) -> Builds:
    rules = state.game.variant.builds
    assert rules is not None
    return rules


def loose(state: State) -> list[int]:
    """The table cards in no build, in table order."""
    if not state.builds:
        return state.table
    inside = {c for b in state.builds for c in b.cards}
    return [c for c in state.table if c not in inside]


def _forced(state: State, card: int, table: Sequence[int]) -> bool:
    """Whether some capture kind makes ``card`` take a loose card with every capture (so builds alone are not a
    capture)."""
    for tier in state.game.variant.capture.tiers:
        for kind in tier:
            forced = getattr(kind, "forced", None)
            if forced is not None and forced(card, table):
                return True
    return False


def capture_options(state: State, card: int) -> list[tuple[Capture, str]]:
    """The captures (with their kind) open to ``card``: the kinds' captures of loose cards, each with every
    build of the card's value, and those builds alone unless a kind forces a loose card."""
    rules = _rules(state)
    table = loose(state)
    options = state.game.variant.capture.options(card, table)
    if not state.builds or not rules.ok[card]:
        return options
    value = state.game.variant.deck.value_of[card]
    mine = tuple(c for b in state.builds if b.value == value for c in b.cards)
    if not mine:
        return options
    out = [(tuple(sorted((*cap, *mine))), name) for cap, name in options]
    if not _forced(state, card, table):
        out.append((tuple(sorted(mine)), BUILDS_KIND))
    out.sort()
    return out


def _with_builds(state: State, card: int, table: Sequence[int], caps: list[Capture]) -> list[Capture]:
    """:func:`capture_options` without the kinds' names: the captures of loose cards ``caps`` with the builds."""
    if not state.builds or not _rules(state).ok[card]:
        return caps
    value = state.game.variant.deck.value_of[card]
    mine = tuple(c for b in state.builds if b.value == value for c in b.cards)
    if not mine:
        return caps
    out = [tuple(sorted((*cap, *mine))) for cap in caps]
    if not _forced(state, card, table):
        out.append(tuple(sorted(mine)))
    return out


def kind_of(state: State, card: int, captured: Capture) -> str:
    """The kind by which ``card`` takes ``captured`` (``""`` if none does)."""
    for cap, name in capture_options(state, card):
        if cap == captured:
            return name
    return ""


# Most groups a pool lists (a table's groups adding up to at most the highest build value): real tables have a few
# dozen. Past it (many low cards, or a card of a huge value that every group stays under), the groups of each
# total asked are searched for instead, as the sets' sums are.
MAX_POOL_GROUPS = 20_000


class _BuildPool:
    """The loose cards a build may take on a table (those the rules allow, as a bit mask over the deck) and their
    groups by total (bit masks over the deck too), the same for every card of a hand. The groups are every group
    of those cards adding up to at most the highest value a build can have, listed once when first asked and
    made from the last table's (:func:`_pool`): a turn changes the table by a card or a few, so the groups of
    the cards placed are added and those holding the cards taken dropped, not searched again (past
    MAX_POOL_GROUPS, each total is searched for). Each total's groups and each value's unions of groups (a
    multiple build's further groups) are worked out once a table."""

    __slots__ = ("_by_total", "_kept", "_pairs", "_tried", "_unions", "mask", "top", "values")

    def __init__(self, mask: int, top: int, values: Sequence[int], kept: list[_BuildPool | None]) -> None:
        self.mask = mask
        self.top = top
        self.values = values
        # the rules' pools kept between turns (Builds.last): the last one, and the last whose groups were listed
        self._kept = kept
        self._pairs: list[tuple[int, int]] | None = None  # (total, group) of every group, the empty one too
        self._tried = False  # whether the groups were listed (or found to be too many)
        self._by_total: dict[int, set[int]] = {}
        self._unions: dict[int, set[int] | None] = {}

    def _groups(self) -> list[tuple[int, int]] | None:
        """Every group with its total (None when there are more than MAX_POOL_GROUPS)."""
        if self._tried:
            return self._pairs
        self._tried = True
        base = self._kept[1]
        if base is not None and base._pairs is not None:
            pairs, add = base._pairs, self.mask & ~base.mask
            removed = base.mask & ~self.mask
            if removed:
                pairs = [p for p in pairs if not p[1] & removed]
        else:
            pairs, add = [(0, 0)], self.mask
        values, top = self.values, self.top
        while add:
            if len(pairs) > MAX_POOL_GROUPS:
                return None
            low = add & -add
            add ^= low
            card = low.bit_length() - 1
            pairs, _ = _grown(pairs, 1, card, (values[card],), top)
        if len(pairs) > MAX_POOL_GROUPS:
            return None
        self._pairs = pairs
        self._kept[1] = self
        return pairs

    def groups(self, need: int) -> set[int]:
        """The groups (masks) adding up to ``need``; the empty group when ``need`` is 0. Callers never change
        the set returned."""
        if need == 0:
            return {0}
        if need < 0 or need > self.top:
            return set()
        found = self._by_total.get(need)
        if found is None:
            pairs = self._groups()
            if pairs is not None:
                found = {m for t, m in pairs if t == need}
            else:  # too many groups to list: those of this total, searched for (over positions, then cards)
                cards = as_cards(self.mask)
                vals = [self.values[c] for c in cards]
                # counted first, as a sum kind's captures are: each group is a build, a legal move of its own
                count = count_subsets(vals, need, 1, len(vals))
                if count > MAX_MOVES:
                    raise LimitError(
                        f"builds: {count:,} groups of the {len(cards)} loose cards on the table add up to {need}, "
                        f"each a build: more than the limit of {MAX_MOVES:,} legal moves in one position "
                        "(builds.cards: keep low cards out of builds, or deal a smaller table)"
                    )
                groups = _sum_groups([(v,) for v in vals], need, 1, len(vals))
                found = {sum(1 << cards[i] for i in as_cards(m)) for m in groups}
            self._by_total[need] = found
        return found

    def unions(self, value: int) -> set[int] | None:
        """Every non-empty union of disjoint groups adding up to ``value`` (a multiple build's further groups);
        None when there are more than the sets' limit. Callers never change the set returned."""
        if value in self._unions:
            return self._unions[value]
        whole = self.groups(value)
        try:
            more = unions(sorted(whole), DEFAULT_LIMIT) if whole else set()
        except SearchTooLong:
            raise LimitError(
                f"builds.multiple: {len(whole):,} groups of the loose cards on the table add up to {value}, too many "
                f"to combine into multiple builds within {UNION_STEPS:,} steps (builds.cards: keep low cards out "
                "of builds, or deal a smaller table)"
            ) from None
        self._unions[value] = more
        return more


def _pool(state: State, table: Sequence[int]) -> _BuildPool:
    """The pool of the loose cards ``table`` (:class:`_BuildPool`): the last one when they are the same."""
    rules = _rules(state)
    ok = rules.ok
    mask = 0
    for c in table:
        if ok[c]:
            mask |= 1 << c
    kept = rules.last
    last = kept[0]
    if last is not None and last.mask == mask:
        return last
    pool = kept[0] = _BuildPool(mask, rules.top, state.game.variant.deck.value_of, kept)
    return pool


def _too_many_multiples(state: State, card: int, value: int) -> LimitError:
    deck = state.game.variant.deck
    return LimitError(
        f"builds.multiple: the {deck.cards[card].name} could make more than {DEFAULT_LIMIT} multiple "
        f"builds of {value} on a table of {len(state.table)} cards ({' '.join(deck.ids(state.table))})"
    )


def _build_options(state: State, card: int, held: set[int], pool: _BuildPool) -> list[tuple[tuple[int, ...], int]]:
    """Every (onto cards, value) build ``card`` may make, ``held`` being the values of the rest of the hand and
    ``pool`` the loose cards a build may take (worked out once a turn: :class:`_BuildPool`)."""
    rules = _rules(state)
    values = state.game.variant.deck.value_of
    pv = values[card]
    found: set[tuple[tuple[int, ...], int]] = set()
    groups_of = pool.groups
    cards = as_cards  # a group's cards, ascending
    for v in sorted(held):
        if v > pv:
            for mask in groups_of(v - pv):  # a total above 0: never the empty group
                found.add((cards(mask), v))
        if rules.increase:
            for b in state.builds:
                if not b.multiple and b.value < v and v - pv - b.value >= 0:
                    for mask in groups_of(v - pv - b.value):
                        found.add((tuple(sorted((*cards(mask), *b.cards))), v))
        if rules.multiple and pv <= v:
            heads = groups_of(v - pv)  # the played card's own group
            if not heads:
                continue
            more = pool.unions(v)  # further groups of the value, from loose cards
            if more is None:
                raise _too_many_multiples(state, card, v)
            bases = [b for b in state.builds if b.value == v]
            for h in heads:
                for u in more:
                    if not h & u:
                        found.add((cards(h | u), v))
                for b in bases:
                    found.add((tuple(sorted((*cards(h), *b.cards))), v))
                    for u in more:
                        if not h & u:
                            found.add((tuple(sorted((*cards(h | u), *b.cards))), v))
    return sorted(found, key=lambda o: (o[1], o[0]))


def _count_builds(state: State, card: int, held: set[int], pool: _BuildPool, need: int) -> int:
    """How many of :func:`_build_options` cover ``need`` (the bit mask of the first cards of the mover's builds
    that this move must take in), counted without listing them: random play lists only the drawn card's.

    Every option is a distinct set of cards for its value, so each is counted once: different groups are different
    loose cards, a build's cards are in no group (builds are not loose), and a multiple build's groups add up to
    more than a single build's group of the same value. Only the unions of a multiple build's groups may repeat
    (one set split two ways), so those are counted as a set. ``need`` holds builds' first cards only: an option
    of loose cards alone covers it only when it is empty, one onto a build only when it is within that build."""
    rules = _rules(state)
    pv = state.game.variant.deck.value_of[card]
    groups_of = pool.groups
    builds = state.builds
    n = 0
    for v in sorted(held):  # in _build_options' order, so that a limit stops at the same value
        if v > pv and not need:
            n += len(groups_of(v - pv))
        if rules.increase:
            for b in builds:
                if not b.multiple and b.value < v and v - pv - b.value >= 0 and _covers(b.cards, need):
                    n += len(groups_of(v - pv - b.value))
        if rules.multiple and pv <= v:
            heads = groups_of(v - pv)
            if not heads:
                continue
            more = pool.unions(v)
            if more is None:
                raise _too_many_multiples(state, card, v)
            spread = len({h | u for h in heads for u in more if not h & u}) if more else 0
            if not need:
                n += spread
            for b in builds:
                if b.value == v and _covers(b.cards, need):
                    n += len(heads) + spread
    return n


def raw_moves(state: State) -> list[RawMove]:
    """The legal moves of a variant with builds: captures, trails and builds, each keeping the owner's
    obligations; in the order of :class:`~piglia.moves.Move` (card, what it takes, builds before plays)."""
    rules = _rules(state)
    values = state.game.variant.deck.value_of
    ok = rules.ok
    seat = state.to_move
    hand = state.hands[seat]
    owned = [b for b in state.builds if b.owner == seat]
    table = loose(state)
    out: list[tuple[tuple[int, tuple[int, ...], int, int, tuple[int, ...]], RawMove]] = []
    # the kinds' captures of the loose cards, by the engine's fast path (no kind names: they are not moves)
    lists = state.game.variant.capture.hand_captures(hand, table)
    pool = _pool(state, table)  # the loose cards a build may take, for every card's builds
    for i, card in enumerate(hand):
        rest = hand[:i] + hand[i + 1 :]
        held = {values[c] for c in rest if ok[c]}
        # (a seat owning no build keeps every move: the tests of what its builds still need are skipped)
        for cap in _with_builds(state, card, table, lists[i]):
            if not owned or all(b.value in held for b in owned if b.cards[0] not in cap):
                out.append(((card, cap, 1, 0, ()), (card, cap)))
        if not owned:
            out.append(((card, (), 1, 0, ()), (card, ())))
        if ok[card] and held:
            for onto, value in _build_options(state, card, held, pool):
                if not owned or all(b.value in held for b in owned if b.cards[0] not in onto):
                    out.append(((card, (), 0, value, onto), BuildRaw(card, onto, value)))
        if len(out) > MAX_MOVES:
            raise MoveLimitError(len(hand), len(state.table))
    out.sort(key=_sort_key)
    return list(map(_move_of, out))


def pick(state: State, draw: Callable[[int], int]) -> tuple[int, RawMove] | None:
    """:func:`raw_moves`' number of moves ``n`` and its move at index ``draw(n)`` (``draw`` not called when there
    is one), the moves of the cards not drawn counted rather than listed: their captures as bit masks, never as
    sorted card tuples, and no sort of the whole list. None when the kinds do not count in masks (the caller
    lists the moves then).

    :func:`raw_moves` orders a card's moves as builds (by value, then the cards built on), the trail, then the
    captures ascending; a move is kept when it covers each build of the mover's own that the rest of the hand
    could no longer take (its first card is in what the move takes or builds on)."""
    rules = _rules(state)
    values = state.game.variant.deck.value_of
    ok = rules.ok
    seat = state.to_move
    hand = state.hands[seat]
    table = loose(state)
    found = state.game.variant.capture.hand_masks(hand, table)
    if found is None:
        return None
    owned = [b for b in state.builds if b.owner == seat]
    pool = _pool(state, table)  # as in raw_moves
    # per card (the hand is kept in card order, as raw_moves sorts): its captures (masks), whether it may trail,
    # its builds counted (only the drawn card's are listed), the values the rest of the hand holds, and the first
    # cards of the mover's builds that only this move can still cover (each must be in it)
    per_card: list[tuple[int, Collection[int], bool, int, set[int], int]] = []
    n = 0
    for i, card in enumerate(hand):
        rest = hand[:i] + hand[i + 1 :]
        held = {values[c] for c in rest if ok[c]}
        need = 0
        for b in owned:
            if b.value not in held:
                need |= 1 << b.cards[0]
        caps = _masks_with_builds(state, card, table, found[i])
        if need:
            caps = [m for m in caps if m & need == need]
        builds = _count_builds(state, card, held, pool, need) if ok[card] and held else 0
        n += len(caps) + builds + (not owned)
        if n > MAX_MOVES:
            raise MoveLimitError(len(hand), len(state.table))
        per_card.append((card, caps, not owned, builds, held, need))
    k = draw(n) if n > 1 else 0
    for card, caps, trail, builds, held, need in per_card:
        if k < builds:
            options = _build_options(state, card, held, pool)
            if need:
                options = [o for o in options if _covers(o[0], need)]
            onto, value = options[k]
            return n, BuildRaw(card, onto, value)
        k -= builds
        if trail:
            if k == 0:
                return n, (card, ())
            k -= 1
        if k < len(caps):
            return n, (card, sorted(map(as_cards, caps))[k])
        k -= len(caps)
    raise AssertionError("unreachable: k < n")


def _masks_with_builds(state: State, card: int, table: Sequence[int], masks: Collection[int]) -> Collection[int]:
    """:func:`_with_builds` on captures given as bit masks over the deck."""
    if not state.builds or not _rules(state).ok[card]:
        return masks
    value = state.game.variant.deck.value_of[card]
    mine = 0
    for b in state.builds:
        if b.value == value:
            for c in b.cards:
                mine |= 1 << c
    if not mine:
        return masks
    out = [m | mine for m in masks]
    if not _forced(state, card, table):
        out.append(mine)
    return out


def _covers(cards: tuple[int, ...], need: int) -> bool:
    """Whether ``cards`` hold every card of the bit mask ``need``."""
    got = 0
    for c in cards:
        got |= 1 << c
    return got & need == need


_sort_key = itemgetter(0)  # raw_moves' (sort key, move) pairs
_move_of = itemgetter(1)


def taken(state: State, captured: Sequence[int]) -> None:
    """A capture took ``captured``: the builds among them leave the table."""
    gone = set(captured)
    state.builds = [b for b in state.builds if b.cards[0] not in gone]


def push_build(state: State, raw: BuildRaw) -> None:
    """Play the build move ``raw`` (unchecked: the caller took it from :func:`raw_moves`)."""
    from piglia import dealflow  # the deal's flow builds on the mechanics: imported when first played
    from piglia.scoring import score_play

    game = state.game
    variant = game.variant
    values = variant.deck.value_of
    card, onto, value = raw[0], raw.onto, raw.value
    seat = state.to_move
    team = game.players.team_of[seat]
    used = set(onto)
    base = next((b for b in state.builds if b.cards[0] in used), None)
    # on a build of the same value: a multiple build; on a lower one: an increase; else new, multiple if more
    single_total = values[card] + sum(values[c] for c in onto)
    multiple = base.value == value if base is not None else single_total != value
    last_play = not state.stock and sum(map(len, state.hands)) == 1
    scored = score_play(state, card, (), "", team, last_play) if game.bonus_on_play else []
    for name, points in scored:
        state.deal_points[team] += points
        state.deal_scores.append((name, team, points))
    state.hands[seat].remove(card)
    state.table.append(card)
    state.builds = [b for b in state.builds if b is not base]
    state.builds.append(Build(tuple(sorted((card, *onto))), value, seat, multiple))
    state.plays.append((seat, card, ()))
    if state.events is not None:
        cards = variant.deck.cards
        state._log(
            Play(
                state.deal_no,
                seat,
                cards[card].id,
                [],
                None,
                [{"name": name, "points": points} for name, points in scored],
                None,
                value,
                [cards[c].id for c in onto],
            )
        )
    state.to_move = (seat + 1) % game.num_players
    if not last_play:
        if variant.declarations is not None:
            declarations.turn_begins(state)
        if state.auto_deal and state.stock and not any(state.hands):
            dealflow.refill_from_stock(state)
        return
    dealflow.end_deal(state)


def why_illegal(state: State, raw: RawMove) -> str | None:
    """Words for why a move of a variant with builds is not legal (None: the generic reasons apply)."""
    deck = state.game.variant.deck
    seat = state.to_move
    card = raw[0]
    if card not in state.hands[seat]:
        return None
    owned = [b for b in state.builds if b.owner == seat]
    if isinstance(raw, BuildRaw):
        return (
            f"the {deck.cards[card].name} cannot build {raw.value} on "
            f"{'+'.join(deck.cards[c].id for c in raw.onto)}: a build needs loose cards (or one build) that make "
            "the value with it, a card of that value kept in the hand, and leaves every build you own covered"
        )
    if not raw[1] and owned:
        return "you own a build: you may not leave a card on the table (capture, build or increase instead)"
    if owned:
        return "every build you own must stay covered by a card of its value in your hand"
    return None


def owed_cards(
    variant: Variant,
    builds: Sequence[TableBuild],
    seat: int,
    unseen: list[int],
    shown: Sequence[Sequence[int]] | None = None,
) -> dict[int, list[int]]:
    """For a player imagining the hidden hands: per other seat that owns builds, one card of ``unseen`` of each
    owned build's value (its owner must hold one), taken out of ``unseen`` (the first such card in its order).
    None is owed for a build whose owner's ``shown`` cards (shown by a declaration, known to be in its hand)
    already hold one."""
    rules = variant.builds
    if rules is None:
        return {}
    values = variant.deck.value_of
    out: dict[int, list[int]] = {}
    for b in builds:
        if b.owner == seat:
            continue
        have = out.setdefault(b.owner, [])
        known = shown[b.owner] if shown else ()
        if any(values[c] == b.value for c in have) or any(rules.ok[c] and values[c] == b.value for c in known):
            continue
        pick = next((c for c in unseen if rules.ok[c] and values[c] == b.value), None)
        if pick is not None:
            have.append(pick)
            unseen.remove(pick)
    return out


def view_of(state: State) -> tuple[TableBuild, ...]:
    """The builds as a seat sees them (public)."""
    cards = state.game.variant.deck.cards
    return tuple(TableBuild(tuple(cards[c] for c in b.cards), b.value, b.owner, b.multiple) for b in state.builds)
