"""Classic Scopa (docs/RULES.md section 1) written by hand: the yardstick for the interpreter's overhead.

Nothing generic and no rule file: two players, a 40-card deck, match to 11, every rule in plain Python. It plays
uniformly random legal moves exactly as ``piglia.simulate.play_random_match`` does, and it deals, orders moves
and draws random numbers the same way, so for one seed it plays the very same match as the interpreter (a test
checks this). That makes the speed comparison fair: both do the same work, move for move.

Cards are ints ``suit * 10 + rank`` (suits coins, cups, swords, clubs; ranks asso, 2-7, fante, cavallo, re), the
interpreter's deck order for ``variants/scopa.yaml``.
"""

from __future__ import annotations

import random

VALUE = [r + 1 for _s in range(4) for r in range(10)]  # S1.4: asso 1 ... re 10
SUIT = [s for s in range(4) for _r in range(10)]
PRIMIERA = [21 if v == 7 else 18 if v == 6 else 16 if v == 1 else 10 if v >= 8 else 10 + v for v in VALUE]  # S3.4
COINS = 0
SETTEBELLO = 6  # the 7 of coins
RE = 10
TARGET = 11


def captures(card: int, table: list[int]) -> list[tuple[int, ...]]:
    """S2.2-S2.3: one card of equal value if any, else every group adding up to the card's value."""
    v = VALUE[card]
    singles: list[tuple[int, ...]] = [(t,) for t in sorted(table) if VALUE[t] == v]
    if singles:
        return singles
    cards = sorted(table, key=lambda c: (-VALUE[c], c))
    found: list[tuple[int, ...]] = []

    def search(start: int, remaining: int, chosen: list[int]) -> None:
        for j in range(start, len(cards)):
            c = cards[j]
            cv = VALUE[c]
            if cv == remaining:
                found.append(tuple(sorted([*chosen, c])))
            elif cv < remaining:
                search(j + 1, remaining - cv, [*chosen, c])

    search(0, v, [])
    found.sort()
    return found


def legal_moves(hand: list[int], table: list[int]) -> list[tuple[int, tuple[int, ...]]]:
    """S2.1-S2.4: every (card, captured) pair; a card that can capture must."""
    moves: list[tuple[int, tuple[int, ...]]] = []
    for card in hand:
        caps = captures(card, table)
        if caps:
            moves.extend((card, cap) for cap in caps)
        else:
            moves.append((card, ()))
    return moves


def primiera(pile: list[int]) -> int:
    """S3.4: the sum of each suit's best primiera value; -1 without all four suits."""
    best = [0, 0, 0, 0]
    for c in pile:
        p = PRIMIERA[c]
        if p > best[SUIT[c]]:
            best[SUIT[c]] = p
    return -1 if 0 in best else sum(best)


def shuffled(seed: int, deal_no: int) -> list[int]:
    """The deck of deal ``deal_no`` of the match seeded ``seed``, shuffled as the interpreter shuffles it."""
    attempt = 0
    while True:  # S1.3: three or four re on the table: the same dealer deals again
        deck = list(range(40))
        random.Random(f"piglia/{seed}/deal/{deal_no}/{attempt}").shuffle(deck)
        if sum(1 for c in deck[6:10] if VALUE[c] == RE) < 3:
            return deck
        attempt += 1


def play_match(seed: int) -> tuple[list[int], int, int]:
    """One match of random play: (final totals, winner, deals played)."""
    dealer = random.Random(f"piglia/{seed}/first-dealer").randrange(2)
    rng = random.Random(f"piglia/random-play/{seed}")
    totals = [0, 0]
    deal_no = 1
    while True:
        deck = shuffled(seed, deal_no)
        table = deck[6:10]
        hands: list[list[int]] = [[], []]
        for i in range(6):  # S1.1: one at a time, from the non-dealer
            hands[(dealer + 1 + i) % 2].append(deck[i])
        hands = [sorted(h) for h in hands]
        stock = deck[10:]
        piles: list[list[int]] = [[], []]
        points = [0, 0]
        last = -1
        player = 1 - dealer  # S1.2
        while True:
            moves = legal_moves(hands[player], table)
            card, cap = moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]
            hands[player].remove(card)
            if cap:
                for c in cap:
                    table.remove(c)
                piles[player].append(card)
                piles[player].extend(cap)
                last = player
                if not table and (stock or hands[0] or hands[1]):  # S3.1
                    points[player] += 1
            else:
                table.append(card)
            player = 1 - player
            if not hands[0] and not hands[1]:
                if not stock:
                    break
                new: list[list[int]] = [[], []]  # S2.7
                for i in range(6):
                    new[(dealer + 1 + i) % 2].append(stock.pop(0))
                hands = [sorted(h) for h in new]
        if last >= 0:  # S3.2
            piles[last].extend(table)
        counts = (len(piles[0]), len(piles[1])), (_coins(piles[0]), _coins(piles[1]))
        award(points, (*counts, (primiera(piles[0]), primiera(piles[1]))))
        points[0 if SETTEBELLO in piles[0] else 1] += 1
        winner = add_deal(totals, points)
        if winner is not None:
            return totals, winner, deal_no
        dealer = 1 - dealer  # S3.6
        deal_no += 1


def award(points: list[int], counts: tuple[tuple[int, int], ...]) -> None:
    """S3.3-S3.4: for each pair (seat 0's count, seat 1's), a point to the seat with more; none on a tie."""
    for a, b in counts:
        if a != b:
            points[0 if a > b else 1] += 1


def add_deal(totals: list[int], points: list[int]) -> int | None:
    """The deal's points added to the totals; the winner once a seat has TARGET or more and leads (S3.5), else None."""
    totals[0] += points[0]
    totals[1] += points[1]
    best = max(totals)
    return totals.index(best) if best >= TARGET and totals[0] != totals[1] else None


def _coins(pile: list[int]) -> int:
    return sum(1 for c in pile if SUIT[c] == COINS)
