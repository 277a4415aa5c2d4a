"""The capture table: an adaptive memo of captures, keyed by the classes of cards every kind treats alike.

Built from what the kinds say they read (``KindMechanic.signatures`` and ``reaches``); a variant whose kinds do
not say has none, and plays on the plain search (:mod:`piglia.capture_search`). See :class:`CaptureTable`.
"""

from __future__ import annotations

import statistics
import time
from collections import deque
from collections.abc import Callable, Collection, Hashable, Sequence
from operator import itemgetter
from typing import Any, cast

from piglia.capture_search import first_per_class, own_hook, plain_search, tier_finder
from piglia.dsl import Compiled
from piglia.mechanics.capture import Capture, CaptureKind, KindMechanic
from piglia.mechanics.conditions import TableEnv

__all__ = ["CaptureTable", "Remembered"]

Guard = tuple[Sequence[bool], Callable[[Any], Any]]  # a kind's `when`: (its played-card filter, the condition)
# One capture of a long list as the capture table keeps it: called on the table sorted by class, it gives the
# captured cards (unsorted), taken by position in C (see CaptureTable).
Taker = Callable[[Sequence[int]], Sequence[int]]
# A played class's captures on one table key, as the capture table keeps them: the positions of each (a tuple),
# or, for a long list, a Taker of each (see CaptureTable).
Remembered = tuple[tuple[int, ...], ...] | tuple[Taker, ...]


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
    """A kind's signatures, when they speak for its captures (:func:`own_hook`). A ``when`` reads the table in
    ways they do not say: the capture table keys its answers by the condition's outcome too (:class:`CaptureTable`),
    so they still hold for the kind behind it."""
    if not isinstance(kind, KindMechanic) or not own_hook(kind, "signatures"):
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
        # bits, and are made without calling _guard_bits, which found nothing to ask for them (an ace-only
        # condition cost that call for every card of every hand).
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
        finders = tuple(tier_finder(tier) for tier in tiers)
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
        """``caps`` as the memo keeps them (positions in class order, or takers): :meth:`_share`."""
        return self._share(_caps_at(caps, where))

    def _share(self, positions: Sequence[tuple[int, ...]]) -> Remembered:
        """Captures given by their positions as the memo keeps them (the positions, or takers), each one shared
        with every entry that holds the same: most keys' answers repeat (one capture of the first position...),
        and a learning memo holds a hundred thousand keys or more, which sharing keeps in less than half the
        memory."""
        found: Remembered
        if len(positions) < self.TAKERS_FROM:
            shared = self.positions
            found = tuple([shared.setdefault(p, p) for p in positions])
        else:
            takers = self.takers
            found = tuple([takers.get(p) or takers.setdefault(p, _taker(p)) for p in positions])
        return self.answers.setdefault(found, found)

    def export(self) -> dict[int, tuple[tuple[int, ...], ...]]:
        """The memo as plain data: each key's captures as their positions (a taker's too). What
        :mod:`piglia.memo_store` keeps between runs, and :meth:`absorb` learns back."""
        positions_of = {id(take): positions for positions, take in self.takers.items()}
        return {
            key: tuple([c if type(c) is tuple else positions_of[id(c)] for c in found])
            for key, found in self.memo.items()
        }

    def absorb(self, entries: dict[int, tuple[tuple[int, ...], ...]]) -> int:
        """Learn the ``entries`` (as :meth:`export` gives them, checked by the caller) the memo does not hold,
        up to its bound; returns how many. A memo switched off learns nothing: its tables are too varied."""
        if not self.on:
            return 0
        memo = self.memo
        room = self.MAX_ENTRIES - len(memo)
        added = 0
        long = self.TAKERS_FROM
        for key, positions in entries.items():
            if added >= room:
                break
            if key not in memo:
                # a short answer is kept as given: entries read back by marshal share equal answers already
                memo[key] = positions if len(positions) < long else self._share(positions)
                added += 1
        return added

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
            self.block_start = self._close_block(self.lookups - self.block_from)
            self.counting = True
            self.block_from = 0  # now the counting block's lookups
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
            now = self._close_block(self.block_from)
            self.counting = False
            if self.blocks:
                self.block_from, self.block_start = self.lookups, now
                self.due = min(self.WINDOW, self.lookups + self.DUEL_BLOCK)
            else:
                self._decide()
        return out

    def _close_block(self, lookups: int) -> int:
        """A duel block's end, after ``lookups`` lookups: its time a lookup kept, one block fewer to come. Returns
        the clock, which is the next block's start."""
        now = self.clock()
        self.timed.append((now - self.block_start) / lookups)
        self.blocks -= 1
        return now

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
        return first_per_class(hand, table, self.finders, self.played_class)


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
    saying = [kind if own_hook(kind, "reaches") else None for kind in kinds]  # None: a kind that does not say
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
