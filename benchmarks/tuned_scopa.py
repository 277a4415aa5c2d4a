"""Classic Scopa (docs/RULES.md section 1) tuned by hand: how fast pure Python gets on the interpreter's own deals.

``hand_scopa.py`` is the straightforward yardstick; this is the tuned one, in the representation issue 12 names
(cards as ints, the table's values as one packed int kept up to date move by move, the number of captures of a
value memoised by that key, the piles as bit masks, the awards from them at the deal's end) and nothing generic.
It plays uniformly random legal moves with the same deals and the same draws as ``piglia.simulate``, so for one
seed it plays the very same match as the interpreter and as ``hand_scopa.py`` (``tests/test_tuned_scopa.py``
checks this): what it measures is what the representation and specialisation alone buy, with the deals kept.

Cards are ints ``suit * 10 + rank`` (suits coins, cups, swords, clubs; ranks asso, 2-7, fante, cavallo, re), the
interpreter's deck order for ``variants/scopa.yaml``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hand_scopa import add_deal, award, shuffled  # the deal and its end are the same in both yardsticks

VALUE = [r + 1 for _s in range(4) for r in range(10)]  # S1.4: asso 1 ... re 10
SUIT = [s for s in range(4) for _r in range(10)]
SHIFT = 3  # bits per value in the table's key: at most four cards of a value
WEIGHT = [1 << (SHIFT * (VALUE[c] - 1)) for c in range(40)]  # a card's share of the table's key
# the bits of the key a card of each value reads: the counts of its own value and the values below (S2.2, S2.3)
READS = [0] + [(1 << (SHIFT * v)) - 1 for v in range(1, 11)]
COINS_MASK = (1 << 10) - 1  # bits 0-9: the coins (S3.3)
SETTEBELLO_BIT = 1 << 6  # the 7 of coins
# S3.4: the best primiera value of each suit's 10-bit slice of a pile's mask, worked out once for every slice
_PRIMIERA_OF_RANK = [16, 12, 13, 14, 15, 18, 21, 10, 10, 10]
BEST_OF_SLICE = [max((_PRIMIERA_OF_RANK[r] for r in range(10) if s >> r & 1), default=0) for s in range(1024)]


def _count(key: int, v: int) -> int:
    """The number of captures (S2.2-S2.3) of a card of value ``v`` on a table whose counts by value are ``key``."""
    counts = [(key >> (SHIFT * (u - 1))) & 7 for u in range(1, 11)]
    if counts[v - 1]:  # S2.3: a card of equal value must be taken, one of them
        return counts[v - 1]
    total = 0

    def ways(u: int, remaining: int, product: int) -> None:  # values taken from u down, each 0..count times
        nonlocal total
        if remaining == 0:
            total += product
            return
        if u == 0:
            return
        c = counts[u - 1]
        for k in range(min(c, remaining // u) + 1):
            # choose k of the c cards of value u: C(c, k) ways
            ways(u - 1, remaining - k * u, product * _binom(c, k))

    ways(v - 1, v, 1)
    return total


def _binom(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def _nth_capture(card: int, table: list[int], i: int) -> tuple[int, ...]:
    """The ``i``-th capture of ``card`` on ``table`` in the interpreter's order (ascending): only the card drawn's,
    found by a search that stops there."""
    v = VALUE[card]
    singles = sorted(t for t in table if VALUE[t] == v)
    if singles:  # S2.3: one card of equal value
        return (singles[i],)
    smaller = sorted(t for t in table if VALUE[t] < v)
    # S2.2: groups adding up to v; a depth-first search over the cards ascending gives them in ascending order
    # (no group that adds up extends to another: values are positive)
    chosen: list[int] = []
    left = [i]

    def search(start: int, remaining: int) -> tuple[int, ...] | None:
        for j in range(start, len(smaller)):
            c = smaller[j]
            cv = VALUE[c]
            if cv == remaining:  # (never with nothing chosen: every card here is below v)
                if not left[0]:
                    return (*chosen, c)
                left[0] -= 1
            elif cv < remaining:
                chosen.append(c)
                found = search(j + 1, remaining - cv)
                if found is not None:
                    return found
                chosen.pop()
        return None

    found = search(0, v)
    assert found is not None, "the count said there were more"
    return found


def play_match(seed: int, memo: dict[int, int] | None = None) -> tuple[list[int], int, int]:
    """One match of random play: (final totals, winner, deals played). ``memo`` (key -> number of captures)
    may be shared between matches, as a long simulation would."""
    counts: dict[int, int] = {} if memo is None else memo
    dealer = random.Random(f"piglia/{seed}/first-dealer").randrange(2)
    rng = random.Random(f"piglia/random-play/{seed}")
    getrandbits = rng.getrandbits
    totals = [0, 0]
    deal_no = 1
    while True:
        deck = shuffled(seed, deal_no)  # the deals are the interpreter's: see the module text
        table = deck[6:10]
        first = 1 - dealer
        hands = [sorted(deck[first:6:2]), sorted(deck[1 - first : 6 : 2])]  # S1.1: one at a time, from `first`
        key = WEIGHT[table[0]] + WEIGHT[table[1]] + WEIGHT[table[2]] + WEIGHT[table[3]]
        next_card = 10
        piles = [0, 0]
        points = [0, 0]
        last = -1
        player = first  # S1.2
        left = 36  # plays left in the deal
        while left:
            left -= 1
            hand = hands[player]
            # the number of legal moves: per card its captures, or one placement (S2.4: capture is mandatory)
            n = 0
            sizes = []
            for card in hand:
                k = (key & READS[VALUE[card]]) << 4 | VALUE[card]
                size = counts.get(k)
                if size is None:
                    size = counts[k] = _count(key & READS[VALUE[card]], VALUE[card])
                sizes.append(size)
                n += size or 1
            if n > 1:  # rng.randrange(n), inlined as piglia.chance.randbelow does
                b = n.bit_length()
                i = getrandbits(b)
                while i >= n:
                    i = getrandbits(b)
            else:
                i = 0
            j = 0
            for size in sizes:
                width = size or 1
                if i < width:
                    break
                i -= width
                j += 1
            card = hand.pop(j)
            if sizes[j]:
                cap = _nth_capture(card, table, i)
                for c in cap:
                    table.remove(c)
                    key -= WEIGHT[c]
                    piles[player] |= 1 << c
                piles[player] |= 1 << card
                last = player
                if not table and left:  # S3.1 (not on the deal's last play)
                    points[player] += 1
            else:
                table.append(card)
                key += WEIGHT[card]
            player = 1 - player
            if not hands[player] and left and not hands[1 - player]:  # S2.7: three more cards each
                block = deck[next_card : next_card + 6]
                next_card += 6
                hands = [sorted(block[first:6:2]), sorted(block[1 - first : 6 : 2])]
        if last >= 0:  # S3.2
            for c in table:
                piles[last] |= 1 << c
        a, b = piles
        coins = (a & COINS_MASK).bit_count(), (b & COINS_MASK).bit_count()
        award(points, ((a.bit_count(), b.bit_count()), coins, (_primiera(a), _primiera(b))))  # S3.3, S3.4
        points[0 if a & SETTEBELLO_BIT else 1] += 1
        winner = add_deal(totals, points)
        if winner is not None:
            return totals, winner, deal_no
        dealer = 1 - dealer  # S3.6
        deal_no += 1


def _primiera(pile: int) -> int:
    """S3.4: the sum of each suit's best primiera value; -1 without all four suits."""
    a = BEST_OF_SLICE[pile & 1023]
    b = BEST_OF_SLICE[pile >> 10 & 1023]
    c = BEST_OF_SLICE[pile >> 20 & 1023]
    d = BEST_OF_SLICE[pile >> 30 & 1023]
    return a + b + c + d if a and b and c and d else -1
