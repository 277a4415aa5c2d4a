"""The compiled, immutable rules of a variant (the "Game" object), as the engine uses them.

:func:`piglia.spec.load_variant` builds a :class:`Variant` from a rule file; nothing here reads YAML or
parses expressions. Everything the engine needs per play is precomputed: capture kinds with their filter
tables, bonus and award callables.
"""

from __future__ import annotations

import statistics
import time
from collections import deque
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter
from typing import Any, TypeVar, cast

from piglia.cards import Deck
from piglia.contexts import BONUS_SCOPE
from piglia.dsl import Compiled
from piglia.errors import PigliaError
from piglia.mechanics.awards import Award
from piglia.mechanics.bonuses import BonusTrigger
from piglia.mechanics.builds import Builds
from piglia.mechanics.capture import MAX_MOVES, Capture, CaptureKind, KindMechanic, MoveLimitError, as_cards
from piglia.mechanics.conditions import TableEnv
from piglia.mechanics.declarations import Declarations
from piglia.mechanics.match import MatchRules

__all__ = ["Bonus", "CaptureRules", "DealRules", "MatchRules", "OpeningBonus", "PlayerRules", "Variant"]

Expr = Callable[[Any], Any]
RawMove = tuple[int, tuple[int, ...]]  # (card, captured): the engine's move by deck indexes
# (played, table) -> its captures as bit masks over the deck, each once, in any collection (KindMechanic.masks)
Masks = Callable[[int, Sequence[int]], Collection[int]]
_Found = TypeVar("_Found", list[Capture], Collection[int])  # what a search answers per card
Guard = tuple[Sequence[bool], Callable[[Any], Any]]  # a kind's `when`: (its played-card filter, the condition)
# One capture of a long list as the capture table keeps it: called on the table sorted by class, it gives the
# captured cards (unsorted), taken by position in C (see CaptureTable).
Taker = Callable[[Sequence[int]], Sequence[int]]
# A played class's captures on one table key, as the capture table keeps them: the positions of each (a tuple),
# or, for a long list, a Taker of each (see CaptureTable).
Remembered = tuple[tuple[int, ...], ...] | tuple[Taker, ...]


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
    # A one-tier variant's search per played card (``straight[played]``): its finder, or, where one kind of a
    # two-kind tier gives the tier's captures for the card (``_alone``), that kind's own method, without the
    # merge's call around it. None with several tiers, or when some kind is not a KindMechanic (the deck's size
    # unknown).
    straight: tuple[Callable[[int, Sequence[int]], list[Capture]], ...] | None = field(
        init=False, repr=False, compare=False, default=None
    )
    # The capture table (see :class:`CaptureTable`), or None when some kind does not say what it reads.
    table: CaptureTable | None = field(init=False, repr=False, compare=False, default=None)
    # One function per tier, ``(played, table) -> captures as bit masks`` (``KindMechanic.masks``, or their
    # union for a tier of several kinds), when every kind gives its captures so: random play counts them and
    # builds only the capture it draws (see pick).
    counters: tuple[Masks, ...] | None = field(init=False, repr=False, compare=False, default=None)
    _straight_pick: tuple[Callable[[int, Sequence[int]], list[Capture]], ...] | None = field(
        init=False, repr=False, compare=False, default=None
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "finders", tuple(_finder(tier) for tier in self.tiers))
        if len(self.tiers) == 1 and all(isinstance(kind, KindMechanic) for kind in self.tiers[0]):
            (tier,) = self.tiers
            size = len(cast(KindMechanic, tier[0]).inputs.deck)
            object.__setattr__(self, "straight", _finder_by_card(tier, self.finders[0], size))
        object.__setattr__(self, "table", CaptureTable.build(self.tiers))
        counters = [_counter(tier) for tier in self.tiers]
        # Set on the instance either way: left to the class's default, every read of it in pick (each turn of a
        # simulation) missed the interpreter's attribute cache and took the generic lookup, 4% of a Pisti deal.
        ready = bool(counters) and all(c is not None for c in counters)
        object.__setattr__(self, "counters", tuple(c for c in counters if c is not None) if ready else None)
        memo, counted = self.table, self.counters
        if memo is not None and counted is not None:
            memo.rival = partial(_first_per_class, searches=counted, played_class=memo.played_class)
        # random play's way when there is neither a memo nor a count: each card searched straight (see pick)
        straight = self.straight if self.table is None and self.counters is None else None
        object.__setattr__(self, "_straight_pick", straight)

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        """The captures open to ``played`` on ``table``, ascending: those of the first tier that has any."""
        for find in self.finders:
            caps = find(played, table)
            if caps:
                return caps
        return []

    def hand_captures(self, hand: Sequence[int], table: Sequence[int]) -> list[list[Capture]]:
        """For each card of ``hand``, :meth:`captures` on ``table``: through the capture table when there is one
        (and it pays), else the plain search with a memo for the turn (cards of one class searched once)."""
        if not table:  # a capture takes table cards: an empty table offers none
            return [[] for _ in hand]
        memo = self.table
        if memo is not None:
            return memo.hand_captures(hand, table) if memo.on else memo.turn_captures(hand, table)
        # No class to share answers by: each card searched straight, without the bookkeeping of _first_per_class.
        straight = self.straight
        if straight is not None:
            return [straight[card](card, table) for card in hand]
        out: list[list[Capture]] = []
        for card in hand:
            caps: list[Capture] = []
            for search in self.finders:
                caps = search(card, table)
                if caps:
                    break
            out.append(caps)
        return out

    def hand_masks(self, hand: Sequence[int], table: Sequence[int]) -> list[Collection[int]] | None:
        """For each card of ``hand``, its captures on ``table`` as bit masks over the deck (each once, in any
        order; the caller never changes them): :meth:`hand_captures` counted, not listed. None when some kind
        does not give its captures so (``KindMechanic.masks``)."""
        if self.counters is None:
            return None
        memo = self.table
        return _first_per_class(hand, table, self.counters, memo.played_class if memo is not None else None)

    def pick(self, hand: Sequence[int], table: Sequence[int], draw: Callable[[int], int]) -> tuple[int, RawMove]:
        """The number ``n`` of legal moves of ``hand`` on ``table`` and the move at index ``draw(n)`` of their
        list (:meth:`State.raw_moves <piglia.state.State.raw_moves>`' order: by card, a placement first when
        capturing is optional or the card captures nothing, then its captures ascending); ``draw`` is not
        called when there is one move. Random play: the moves are counted, and only the one drawn is built
        (through the capture table, the captures of the cards not drawn are never built either)."""
        if not hand:
            raise PigliaError("no move to pick: no player moves now")
        if not table:  # nothing to take (a capture takes table cards): one placement per card
            n = len(hand)
            return n, (hand[draw(n) if n > 1 else 0], ())
        memo = self.table
        # Per card: its captures listed (a list), the memo's positions (a tuple), or (``masks``) its bit masks.
        found: Sequence[Any]
        masks = False
        straight = self._straight_pick
        if straight is not None:
            # hand_captures' straight search, inline: the commonest turn of such a game has no call to spare
            found = []
            for card in hand:
                found.append(straight[card](card, table))
        elif memo is not None and memo.on:
            if memo.counting:  # a duel's counting block (CaptureTable.DUEL_EVERY): counted as without the memo
                found = memo.counted(hand, table)
                masks = True
            else:
                found = memo.lookup(hand, table)
        elif self.counters is not None:
            # counted as masks (hand_masks, inline: a call a turn spared): only the drawn card's become captures
            found = _first_per_class(hand, table, self.counters, memo.played_class if memo is not None else None)
            masks = True
        else:
            found = self.hand_captures(hand, table)
        captures = sum(map(len, found))
        if not captures:  # no card captures: one placement per card (the commonest turn)
            n = len(hand)
            return n, (hand[draw(n) if n > 1 else 0], ())
        # Per card: its captures, and a placement too when capturing is optional or it captures nothing.
        extra = 0 if self.mandatory else 1
        n = captures + (len(hand) if extra else list(map(len, found)).count(0))
        if n > MAX_MOVES:  # where the listing of the moves would stop too
            raise MoveLimitError(len(hand), len(table))
        i = draw(n) if n > 1 else 0
        caps: Any  # what ``found`` holds for the card (above)
        for card, caps in zip(hand, found, strict=True):
            size = len(caps)
            if size:
                size += extra
                if i < size:
                    if i < extra:
                        return n, (card, ())
                    listed: Sequence[Capture]
                    if masks:  # bit masks over the deck: the card's captures, ascending
                        listed = sorted(map(as_cards, caps))
                    elif isinstance(caps, tuple):  # the memo's answer, in positions: build it now
                        assert memo is not None
                        listed = memo.cards_of(caps, table)
                    else:
                        listed = caps  # the plain search's list of captures
                    return n, (card, listed[i - extra])
            elif i < 1:
                return n, (card, ())
            else:
                size = 1
            i -= size
        raise AssertionError("unreachable: i < n")

    def options(self, played: int, table: Sequence[int]) -> list[tuple[Capture, str]]:
        """The captures open to ``played`` on ``table`` with the kind of each, from the first tier that has any.

        A capture reachable by two kinds of one tier is listed once, under the first kind.
        """
        for tier in self.tiers:
            if len(tier) == 1:  # one kind lists its captures ascending, each once: nothing to merge or sort
                kind = tier[0]
                caps = kind.captures(played, table)
                if caps:
                    name = kind.name
                    return [(cap, name) for cap in caps]
                continue
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


def _own_hook(kind: KindMechanic, hook: str) -> bool:
    """Whether a kind's optional speed hook (``signatures``, ``masks``) is given by the class that also defines
    its ``captures`` (a subclass that searches otherwise and says nothing gets the plain search)."""
    mro = type(kind).__mro__
    searcher = next(c for c in mro if "captures" in c.__dict__)
    return next((c for c in mro if hook in c.__dict__), None) is searcher


def _guard(kind: KindMechanic) -> Guard | None:
    """The ``when`` condition a kind's ``captures`` was wrapped in on the kind itself (mechanics/conditions.py),
    as (the kind's played-card filter, the condition); None when it was not wrapped."""
    if "captures" not in vars(kind):
        return None
    when = kind.inputs.exprs.get("when")
    if not isinstance(when, Compiled):  # wrapped some other way: what it reads is unknown
        raise _Unknown
    return kind.inputs.played_ok, when.fn


class _Unknown(Exception):
    """A kind's captures were wrapped in something other than its ``when``: no hook can speak for them."""


def _signatures(kind: CaptureKind) -> tuple[Sequence[Hashable], Sequence[Hashable]] | None:
    """A kind's signatures, when they speak for its captures (:func:`_own_hook`). A ``when`` reads the table in
    ways they do not say: the capture table keys its answers by the condition's outcome too (:class:`CaptureTable`),
    so they still hold for the kind behind it."""
    if not isinstance(kind, KindMechanic) or not _own_hook(kind, "signatures"):
        return None
    try:
        _guard(kind)
    except _Unknown:
        return None
    return kind.signatures()


class CaptureTable:
    """An adaptive memo of captures, driven by what the kinds say they read (``KindMechanic.signatures``).

    Table cards that every kind treats alike form a class, and so do played cards. A table is keyed by its class
    counts, packed in one int (a sum of per-card weights); captures are memoised per (played class, key) as
    positions in the table sorted by (class, card), which fit every table of that key. A long list (``TAKERS_FROM``
    captures or more: big tables) keeps each capture as a :data:`Taker` of its positions instead, an
    ``itemgetter`` that takes the cards from the sorted table in C: listing a big table's moves turns thousands of
    them into cards. Short lists stay plain tuples of ints, which the garbage collector stops tracking (a taker
    stays tracked, and a full collection walks the whole memo). A memo that misses too often (tables too varied:
    large ones) switches itself off and the plain search takes over, with a memo for the turn only. Kinds that
    say nothing (plugins, new kinds) leave the variant on the plain search.
    """

    WINDOW = 4096  # lookups between checks of the hit rate
    WARM_UP = 4  # windows not judged: an empty memo misses while it fills
    MIN_HIT_RATE = 0.6  # below this over a window, a memo that has stopped learning costs more than it saves
    # A memo still below FLAT_BELOW in its second window, having gained less than FLAT_RISE on its first, is not
    # learning: the tables are too varied for it (big tables of a four-player game stay near 24% from the first
    # window on), and it is given up then rather than after the warm-up. A learning memo gains far more (32% ->
    # 60% for the classic two-player game; docs/performance.md, issue 12's seventh pass).
    FLAT_BELOW = 0.3
    FLAT_RISE = 0.05
    # After the warm-up, a memo below MIN_HIT_RATE that still gains FLAT_RISE over RISE_SPAN windows is learning,
    # and kept: one whose tables are bigger fills more slowly (the fifteens of optional capture pass 60% at the
    # eighth window and settle near 85%, where the memo beats counting by 1.1-1.2x; issue 12's tenth pass).
    RISE_SPAN = 4
    # Then the memo stops growing: memory stays bounded (the biggest of the built-in variants', optional capture's
    # fifteens, holds about 100,000 keys after 40,000 deals, at a 99% hit rate; classic Scopa's, 10,000).
    MAX_ENTRIES = 1 << 17
    # Where random play can count in masks without the memo (CaptureRules.counters: its ``rival``), a miss, which
    # lists and remembers a card's captures, costs more than counting them, and whether the memo pays depends on
    # the game (a sum-to-15 game's beats counting from about 80% of hits; a twelve-card-hand game's, where counting
    # shares its work among the hand, loses at 85%). So after the warm-up, every DUEL_EVERY windows while it has
    # stopped learning, until it has won once, the memo is timed against counting: DUEL_BLOCKS blocks of
    # DUEL_BLOCK lookups, answered in turn by the memo and by counting, each on consecutive turns as in play
    # (counting carries what it read of one table to the next; alternating blocks see alike turns, where two
    # whole windows may not), each block timed whole, from its first turn to its last (all a turn costs, and
    # no clock read a turn). Slower by DUEL_MARGIN, the memo is switched off. Only the choice depends on the
    # clock: both give the same captures.
    DUEL_EVERY = 2
    DUEL_MARGIN = 1.1
    DUEL_BLOCK = 256
    DUEL_BLOCKS = 16  # half of them the memo's
    TAKERS_FROM = 8  # captures of one played class from which they are kept as takers (see above)

    def __init__(
        self,
        played_class: tuple[int, ...],
        table_class: tuple[int, ...],
        weight: tuple[int, ...],
        plain: Callable[[int, Sequence[int]], list[Capture]],
        finders: tuple[Callable[[int, Sequence[int]], list[Capture]], ...] = (),
        guards: tuple[Guard, ...] = (),
        span: tuple[int, ...] | None = None,
    ) -> None:
        self.played_class = played_class
        self.table_class = table_class
        self.weight = weight
        # Per played card, the weight of the first table class it cannot reach (see _by_reach): a table's key
        # modulo it keeps only the cards that can matter to the card's captures. None: every card may matter.
        self.span = span if span is not None else (sum(weight) + 1,) * len(weight)
        n = len(table_class)
        self.canon_key = tuple(table_class[c] * n + c for c in range(n))
        # Lookups as a list's bound __getitem__: a fast method, where a tuple's is a slot wrapper that costs
        # about 1.5 times the instructions per call (these run for every table card of every turn).
        self._weight_of = list(weight).__getitem__
        self._canon_of = list(self.canon_key).__getitem__
        self.plain = plain
        self.finders = finders
        self.played_classes = max(played_class) + 1
        # The kinds' `when` conditions: each one's outcome for the played card and the table is part of the key
        # (above every class-count key: one step past the largest), since a condition may read what no class says.
        self.guards = guards
        # Per card, whether some condition is asked of it (its kind may play it): the others' keys have no guard
        # bits, and are made without a call (an ace-only condition would otherwise be asked of every card).
        self.guarded = tuple(any(ok[c] for ok, _ in guards) for c in range(n)) if guards else ()
        self.guard_step = (sum(weight) + 1) * self.played_classes
        # Every attribute is set here, never added later nor deleted: either turns every attribute read of the
        # instance into a dict lookup (6% of a Scopa deal, measured when a duel swapped `lookup` on the instance).
        self.memo: dict[int, Remembered] = {}
        # Counting in masks, which random play uses without the memo (set by CaptureRules), and the duel's state.
        self.rival: Callable[[Sequence[int], Sequence[int]], list[Collection[int]]] | None = None
        self.counting = False  # a duel's counting block: pick asks counted, not lookup
        self.settled = False  # the memo has beaten its rival: no more duels
        # The process's CPU time: another process taking the core does not count against the block it lands in.
        self.clock = time.process_time_ns
        self.timed: list[float] = []  # a duel's nanoseconds a lookup, block by block, the memo's and counting's in turn
        self.blocks = 0  # a duel's blocks still to come, the current one included (0: no duel)
        self.block_start = 0  # the clock when the current block began
        self.block_from = 0  # the window's lookups when the current memo block began; a counting block's lookups
        self.due = self.WINDOW  # lookup counts the window's lookups and stops at this: the window's or block's end
        # one copy of each answer, of each capture in it and of each capture's taker (see _remember)
        self.answers: dict[Remembered, Remembered] = {}
        self.positions: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.takers: dict[tuple[int, ...], Taker] = {}
        self.on = True
        self.misses = 0  # in the current window (misses, not hits: the rarer of the two is the one counted)
        self.lookups = 0
        self.windows = 0
        self.rates: deque[float] = deque(maxlen=self.RISE_SPAN)  # the hit rates of the last windows judged

    @classmethod
    def build(cls, tiers: tuple[tuple[CaptureKind, ...], ...]) -> CaptureTable | None:
        """The capture table of these tiers, or None if some kind does not give its signatures."""
        sigs = [_signatures(kind) for tier in tiers for kind in tier]
        if not sigs or any(s is None for s in sigs):
            return None
        known = [s for s in sigs if s is not None]
        n = len(known[0][0])
        played = _classes([tuple(s[0][c] for s in known) for c in range(n)])
        table = _classes([tuple(s[1][c] for s in known) for c in range(n)])
        kinds = [kind for tier in tiers for kind in tier]
        table, reach = _by_reach(played, table, [cast(KindMechanic, kind) for kind in kinds])
        base = max(table.count(k) for k in set(table)) + 1  # a class count never carries into the next class
        weight = tuple(base ** table[c] for c in range(n))
        span = tuple(base ** reach[played[c]] for c in range(n))
        guards = tuple(g for kind in kinds if isinstance(kind, KindMechanic) and (g := _guard(kind)))
        finders = tuple(_finder(tier) for tier in tiers)
        return cls(played, table, weight, plain_search(tiers), finders, guards, span)

    def hand_captures(self, hand: Sequence[int], table: Sequence[int]) -> list[list[Capture]]:
        """:meth:`CaptureRules.hand_captures` through the memo: :meth:`lookup`, every answer built as cards."""
        if self.counting:  # the moves are listed, not counted, in the midst of a duel's counting block: called off
            self._call_off()
        canon: list[int] | None = None  # the table sorted by class, once a turn
        out: list[list[Capture]] = []
        for found in self.lookup(hand, table):
            if isinstance(found, list):  # a miss: the plain search's own list
                out.append(found)
            elif not found:
                out.append([])
            else:
                if canon is None:
                    canon = sorted(table, key=self._canon_of)
                out.append(_as_cards(found, canon))
        return out

    def lookup(self, hand: Sequence[int], table: Sequence[int]) -> list[list[Capture] | Remembered]:
        """For each card of ``hand``, its captures on ``table`` as the memo holds them (positions in the table
        sorted by class, or their takers: :meth:`cards_of` turns them into cards) or, where the memo had none, as
        the plain search's list (which the memo then learns). Counting them needs nothing more: random play
        builds only the captures of the card it draws."""
        played_class = self.played_class
        key = sum(map(self._weight_of, table))
        span = self.span
        classes = self.played_classes
        get = self.memo.get
        out: list[list[Capture] | Remembered] = []
        where: dict[int, int] | None = None  # each table card's position in class order, once a turn at most
        guarded = self.guarded
        for card in hand:
            # the counts of the classes the card can reach (the first ones: positions there are the same on every
            # table of that key), then its class
            k = key % span[card] * classes + played_class[card]
            if guarded and guarded[card]:
                k += self._guard_bits(card, table) * self.guard_step
            found: list[Capture] | Remembered | None = get(k)
            if found is None:
                self.misses += 1
                found = caps = self.plain(card, table)
                if len(self.memo) < self.MAX_ENTRIES:
                    if where is None:
                        where = {c: i for i, c in enumerate(sorted(table, key=self._canon_of))}
                    self.memo[k] = self._remember(caps, where)
            out.append(found)
        # the hit rate's bookkeeping, inline: this runs once a turn in every simulation
        self.lookups += len(hand)
        if self.lookups >= self.due:
            self._due()
        return out

    def _remember(self, caps: list[Capture], where: dict[int, int]) -> Remembered:
        """``caps`` as the memo keeps them (positions in class order, or takers), each one shared with every
        entry that holds the same: most keys' answers repeat (one capture of the first position...), and a
        learning memo holds a hundred thousand keys or more, which sharing keeps in less than half the memory."""
        found: Remembered
        if len(caps) < self.TAKERS_FROM:
            shared = self.positions
            found = tuple([shared.setdefault(p, p) for p in _caps_at(caps, where)])
        else:
            takers = self.takers
            found = tuple([takers.get(p) or takers.setdefault(p, _taker(p)) for p in _caps_at(caps, where)])
        return self.answers.setdefault(found, found)

    def _guard_bits(self, card: int, table: Sequence[int]) -> int:
        """Which of the kinds' ``when`` conditions hold for ``card`` on ``table``, as bits (a condition is asked
        only of the cards its kind may play, as the wrapped search asks it)."""
        bits = 0
        env: TableEnv | None = None
        for i, (played_ok, test) in enumerate(self.guards):
            if played_ok[card]:
                if env is None:
                    env = TableEnv(card, tuple(table))
                if test(env):
                    bits |= 1 << i
        return bits

    def cards_of(self, found: Remembered, table: Sequence[int]) -> list[Capture]:
        """The captures, as cards of ``table``, that the memo's ``found`` stands for."""
        return _as_cards(found, sorted(table, key=self._canon_of))

    def _judge(self) -> None:
        """Judge the memo's hit rate over the last WINDOW lookups (after a warm-up): below MIN_HIT_RATE, unless
        it is still learning, it costs more than it saves and is switched off for good; so it is at the second
        window if it learns next to nothing. Where it has a rival, so it is when a duel finds it slower (see
        DUEL_EVERY), and a duel starts here."""
        self.windows += 1
        rate = 1 - self.misses / self.lookups
        past = self.rates  # oldest first: at most RISE_SPAN windows ago
        gain = rate - past[0] if past else 0.0
        flat = self.windows == 2 and rate < self.FLAT_BELOW and gain < self.FLAT_RISE
        learning = gain >= self.FLAT_RISE
        judged = self.windows > self.WARM_UP
        if flat or (judged and rate < self.MIN_HIT_RATE and not learning):
            self._switch_off()
        elif (
            self.rival is not None
            and judged
            and not self.settled
            and not learning  # a memo still learning is left to learn: timed now, it would be judged too soon
            and self.windows % self.DUEL_EVERY == 0
            and not self.blocks  # not in a duel already
        ):
            self.timed = []
            self.blocks, self.block_from, self.block_start = self.DUEL_BLOCKS, 0, self.clock()
        past.append(rate)
        self.misses = self.lookups = 0

    def _due(self) -> None:
        """The window's end (judge it), or a duel's memo block's end (counting answers the next block)."""
        if self.blocks and not self.counting and self.lookups - self.block_from >= self.DUEL_BLOCK:
            self.timed.append((self.clock() - self.block_start) / (self.lookups - self.block_from))
            self.blocks -= 1
            self.counting = True
            self.block_from = 0  # now the counting block's lookups
            self.block_start = self.clock()
        if self.lookups >= self.WINDOW:
            in_block = self.blocks and not self.counting  # a memo block that goes on into the next window
            carried = self.lookups - self.block_from
            self._judge()
            if in_block and self.blocks:
                self.block_from = -carried
        memo_block = self.blocks and not self.counting
        self.due = min(self.WINDOW, self.block_from + self.DUEL_BLOCK) if memo_block else self.WINDOW

    def counted(self, hand: Sequence[int], table: Sequence[int]) -> list[Collection[int]]:
        """In a duel's counting block, in place of :meth:`lookup` (see :meth:`CaptureRules.pick`): the captures
        of ``hand`` on ``table`` as counting gives them, bit masks (:meth:`CaptureRules.hand_masks`). The memo is
        not asked, and learns nothing; at the block's end, the memo answers the next, or the duel is decided."""
        assert self.rival is not None
        out = self.rival(hand, table)
        self.block_from += len(hand)
        if self.block_from >= self.DUEL_BLOCK:
            self.timed.append((self.clock() - self.block_start) / self.block_from)
            self.blocks -= 1
            self.counting = False
            if self.blocks:
                self.block_from, self.block_start = self.lookups, self.clock()
                self.due = min(self.WINDOW, self.lookups + self.DUEL_BLOCK)
            else:
                self._decide()
        return out

    def _decide(self) -> None:
        """A duel's end: the median, over its pairs of blocks, of the memo's time a lookup against counting's (a
        block that a pause of the machine lands in, a collection of the garbage, is one pair of eight)."""
        timed = self.timed
        ratio = statistics.median(memo / max(rival, 1.0) for memo, rival in zip(timed[::2], timed[1::2], strict=True))
        self.due = self.WINDOW
        if ratio < 1:
            self.settled = True
        elif ratio > self.DUEL_MARGIN:
            self._switch_off()

    def _call_off(self) -> None:
        """End a duel undecided: the memo answers again (a duel times random play's counting, which listing the
        moves does not use; a listing that met a counting block would otherwise never end it)."""
        self.counting = False
        self.blocks = 0
        self.due = self.WINDOW

    def _switch_off(self) -> None:
        self.on = False
        self._call_off()
        self.memo = {}
        self.answers, self.positions, self.takers = {}, {}, {}

    def turn_captures(self, hand: Sequence[int], table: Sequence[int]) -> list[list[Capture]]:
        """The plain search, once per played class of the hand (the memo of one turn)."""
        return _first_per_class(hand, table, self.finders, self.played_class)


def _first_per_class(
    hand: Sequence[int],
    table: Sequence[int],
    searches: Sequence[Callable[[int, Sequence[int]], _Found]],
    played_class: Sequence[int] | None,
) -> list[_Found]:
    """For each card of ``hand``, the first non-empty answer of ``searches`` (one per priority tier) on ``table``,
    else the last tier's empty one. Cards of one played class (``played_class``; None: every card its own) are
    searched once and share the answer. The innermost loop of a simulation: the searches are called here, not
    through another call."""
    seen: dict[int, _Found] = {}
    get = seen.get
    out: list[_Found] = []
    if played_class is not None and len(searches) == 1:  # one tier, cards in classes: the commonest case, lean
        (search,) = searches
        for card in hand:
            pc = played_class[card]
            found = get(pc)
            if found is None:
                found = seen[pc] = search(card, table)
            out.append(found)
        return out
    for card in hand:
        pc = card if played_class is None else played_class[card]
        found = get(pc)
        if found is None:
            for search in searches:
                found = search(card, table)
                if found:
                    break
            assert found is not None  # a variant has one tier at least
            seen[pc] = found
        out.append(found)
    return out


def _caps_at(caps: list[Capture], where: dict[int, int]) -> list[tuple[int, ...]]:
    """Each capture of ``caps`` as the positions of its cards (``where``: each table card's position)."""
    return [tuple([where[c] for c in cap]) for cap in caps]


def _taker(positions: Sequence[int]) -> Taker:
    """The memo's form of one capture: an ``itemgetter`` of its positions that always answers a sequence (one
    position is taken as a slice: ``itemgetter(p)`` would answer the card alone)."""
    if len(positions) == 1:
        (p,) = positions
        return itemgetter(slice(p, p + 1))
    return itemgetter(*positions)


def _as_cards(found: Remembered, canon: list[int]) -> list[Capture]:
    """The captures the memo's ``found`` stands for (positions or takers, never empty), as cards of the table
    sorted by class (``canon``), ascending."""
    first: Any = found[0]
    if type(first) is tuple:
        if len(found) == 1 and len(first) == 1:  # random play's commonest answer: one capture of one card
            return [(canon[first[0]],)]
        card_at = canon.__getitem__
        return sorted([tuple(sorted(map(card_at, pos))) for pos in found])  # type: ignore[arg-type]
    return sorted([tuple(sorted(take(canon))) for take in found])  # type: ignore[operator]  # a long list's takers


def plain_search(tiers: tuple[tuple[CaptureKind, ...], ...]) -> Callable[[int, Sequence[int]], list[Capture]]:
    """The plain search over ``tiers`` as a function of (played, table)."""
    finders = tuple(_finder(tier) for tier in tiers)

    def search(played: int, table: Sequence[int]) -> list[Capture]:
        for find in finders:
            caps = find(played, table)
            if caps:
                return caps
        return []

    return search


def _by_reach(
    played: tuple[int, ...], table: tuple[int, ...], kinds: list[KindMechanic]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The table classes numbered so that what a played class can reach (``KindMechanic.reaches``) is the first
    ones: the classes more played classes reach come first (in a sum game, the low values). Returns the table
    classes renumbered and, per played class, how many of the first classes cover all it reaches (all of them
    where a kind does not say). A table's key taken modulo that many classes' weight is then the key of the
    cards that can matter to the class (``CaptureTable.lookup``)."""
    n, classes = len(table), max(table) + 1
    reached: list[set[int]] = [set() for _ in range(max(played) + 1)]
    saying = [kind if _own_hook(kind, "reaches") else None for kind in kinds]  # None: a kind that does not say
    for p in range(n):
        for kind in saying:
            mask = kind.reaches(p) if kind is not None else None
            reached[played[p]] |= set(range(classes)) if mask is None else {table[c] for c in range(n) if mask >> c & 1}
    by = sorted(range(classes), key=lambda k: (-sum(k in r for r in reached), k))
    new = {old: i for i, old in enumerate(by)}
    return tuple(new[k] for k in table), tuple(max((new[k] + 1 for k in r), default=0) for r in reached)


def _classes(signatures: list[tuple[Hashable, ...]]) -> tuple[int, ...]:
    """Class ids (0, 1, ...) in order of first appearance: equal signatures, equal ids."""
    ids: dict[tuple[Hashable, ...], int] = {}
    return tuple(ids.setdefault(s, len(ids)) for s in signatures)


def _masks_of(kind: CaptureKind) -> Masks | None:
    """A kind's ``masks``, when they speak for its captures (:func:`_own_hook`) and no ``when`` wraps them (the
    masks would skip the condition)."""
    if not isinstance(kind, KindMechanic) or "captures" in vars(kind):
        return None
    return kind.masks if _own_hook(kind, "masks") else None


def _says_singles(kind: CaptureKind) -> bool:
    """Whether a kind's ``singles`` speak for its captures: given by the class that defines its ``captures``
    (:func:`_own_hook`), and no ``when`` wraps them (they would skip the condition)."""
    return isinstance(kind, KindMechanic) and "captures" not in vars(kind) and _own_hook(kind, "singles")


def _alone(tier: tuple[CaptureKind, ...]) -> list[int] | None:
    """For a tier of two kinds, per played card: 2 when the first kind's captures are all among the second's on
    every table (the second alone gives the tier's captures), 1 the other way round, 0 when both must be asked;
    None when a kind does not say (:meth:`~piglia.mechanics.capture.KindMechanic.singles`)."""
    first, second = tier
    if not (_says_singles(first) and _says_singles(second)):
        return None
    assert isinstance(first, KindMechanic) and isinstance(second, KindMechanic)
    out = []
    for played in range(len(first.inputs.deck)):
        exact_a, within_a = first.singles(played)
        exact_b, within_b = second.singles(played)
        if exact_a is not None and not exact_a & ~within_b:
            out.append(2)
        elif exact_b is not None and not exact_b & ~within_a:
            out.append(1)
        else:
            out.append(0)
    return out if any(out) else None


def _counter(tier: tuple[CaptureKind, ...]) -> Masks | None:
    """A tier's captures as bit masks (a capture of two kinds is one mask: counted once), or None when some kind
    does not give them."""
    found = [_masks_of(kind) for kind in tier]
    if any(f is None for f in found):
        return None
    masks = [f for f in found if f is not None]
    if len(masks) == 1:
        return masks[0]
    if len(masks) == 2:  # the common free tier (a match kind and a sum kind): no loop over the kinds
        first, second = masks
        return _merged2(tier, first, second, lambda a, b: {*a, *b})  # a capture of both kinds is one mask

    def merged(played: int, table: Sequence[int]) -> Collection[int]:
        out: Collection[int] = ()
        for f in masks:
            m = f(played, table)
            if m:
                out = {*out, *m} if out else m
        return out

    return merged


def _merged2(
    tier: tuple[CaptureKind, ...],
    first: Callable[[int, Sequence[int]], _Found],
    second: Callable[[int, Sequence[int]], _Found],
    union: Callable[[_Found, _Found], _Found],
) -> Callable[[int, Sequence[int]], _Found]:
    """The search of a tier of two kinds from each kind's (``first``, ``second``: their listings or their masks):
    for each played card, the one kind that gives the tier's answer alone (:func:`_alone`), else both, joined by
    ``union`` when both answer."""
    alone = _alone(tier)

    def merged2(played: int, table: Sequence[int]) -> _Found:
        who = alone[played] if alone is not None else 0
        if who == 2:  # the first kind's captures are all among the second's
            return second(played, table)
        if who == 1:
            return first(played, table)
        a = first(played, table)
        b = second(played, table)
        if not a:
            return b
        if not b:
            return a
        return union(a, b)

    return merged2


def _finder_by_card(
    tier: tuple[CaptureKind, ...], finder: Callable[[int, Sequence[int]], list[Capture]], size: int
) -> tuple[Callable[[int, Sequence[int]], list[Capture]], ...]:
    """A tier's search per played card of a deck of ``size``: ``finder`` (the tier's :func:`_finder`), or the one
    kind's own method where that kind alone gives the tier's captures of the card (:func:`_alone`)."""
    alone = _alone(tier) if len(tier) == 2 else None
    if alone is None:
        return (finder,) * size
    first, second = tier[0].captures, tier[1].captures
    return tuple(second if who == 2 else first if who == 1 else finder for who in alone)


def _finder(tier: tuple[CaptureKind, ...]) -> Callable[[int, Sequence[int]], list[Capture]]:
    if len(tier) == 1:
        return tier[0].captures
    if len(tier) == 2:  # the common free tier (a match kind and a sum kind): no lists of lists
        # each list is ascending and unique; together they may share captures
        return _merged2(tier, tier[0].captures, tier[1].captures, lambda a, b: sorted({*a, *b}))

    def merged(played: int, table: Sequence[int]) -> list[Capture]:
        lists = [caps for caps in [kind.captures(played, table) for kind in tier] if caps]
        if len(lists) <= 1:
            return lists[0] if lists else []  # one kind's list is ascending and unique already: no merge
        found: set[Capture] = set()
        for caps in lists:
            found.update(caps)
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
    # What ``when`` says of the plays it can hold for, read from the terms its ``and`` joins: only a play that
    # leaves the table empty (``empty(table_after)``), only one that captures from ``captured_min`` to
    # ``captured_max`` cards (``count(captured) >= 2``...; None: no most). Other plays are not checked at all.
    needs_empty_table: bool = False
    captured_min: int = 0
    captured_max: int | None = None

    def may_score(self, captured: int, empties_table: bool) -> bool:
        """Whether this bonus can score on a play that captures ``captured`` cards (0: a placement) and may
        (``empties_table``) or cannot leave the table empty; False says its condition cannot hold."""
        if not (captured or self.on_play) or captured < self.captured_min:
            return False
        if self.captured_max is not None and captured > self.captured_max:
            return False
        return empties_table or not self.needs_empty_table


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
    face_down: int = 0  # of the ``table`` opening cards, how many are dealt face down (mechanics/facedown.py)
    replace: tuple[bool, ...] | None = None  # per card: sent under the stock from the opening table (replace.py)
    replace_when: Compiled | None = field(default=None, compare=False, repr=False)
    replace_reason: str = ""  # as written, for the rules page ("" when none was written)


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
    builds: Builds | None = None  # builds that live across turns (mechanics.builds), if any

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
