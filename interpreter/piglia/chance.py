"""Chance: the phases of a match, and the outcomes of its chance steps (the shuffle and the refills).

A position is in one :class:`Phase`. In ``DEAL`` and ``REFILL`` nobody chooses: chance does (OpenSpiel's chance
node). :meth:`State.chance_outcome <piglia.state.State.chance_outcome>` gives the outcome a seed implies (a
:class:`DealOutcome` or a :class:`RefillOutcome`) and :meth:`State.push_chance <piglia.state.State.push_chance>`
applies any outcome given, the one a record shows when replaying. Cards in outcomes are deck indexes.

The shuffle of deal ``d``, attempt ``a`` of a match seeded ``s`` is :func:`deal_rng` ``(s, d, a)``: cards go one at a
time to each seat from the one after the dealer, then to the table; the rest is the stock, dealt from its first
card. An opening table the rules reject (a misdeal) is shuffled again with the next attempt.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "MAX_REDEALS",
    "DealOutcome",
    "Phase",
    "RefillOutcome",
    "deal_rng",
    "randbelow",
    "shuffle",
    "shuffle_deal",
]

MAX_REDEALS = 1000


class Phase(enum.Enum):
    """What happens next in a position."""

    DEAL = "deal"  # chance: the cards of a new deal (after any misdeals)
    REFILL = "refill"  # chance: hands dealt again from the stock
    DECLARE = "declare"  # reserved: hand declarations (games to come); no variant of today enters it
    MOVE = "move"  # the seat to move chooses one of the legal moves
    END = "end"  # the match is over: see State.outcome()


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """The cards of a deal: each seat's hand, the table, the stock in dealing order.

    ``misdeals`` are the opening tables rejected before this one (each redealt, as the rules say), in order.
    ``face_down`` are the table cards dealt face down (``table`` holds the face-up ones) and ``returned`` the
    opening cards sent under the stock and replaced (``deal.replace``), in order; both empty in most games.
    """

    hands: tuple[tuple[int, ...], ...]
    table: tuple[int, ...]
    stock: tuple[int, ...]
    misdeals: tuple[tuple[int, ...], ...] = ()
    face_down: tuple[int, ...] = ()
    returned: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RefillOutcome:
    """The cards dealt to each seat from the stock."""

    hands: tuple[tuple[int, ...], ...]


ChanceOutcome = DealOutcome | RefillOutcome


def deal_rng(seed: int, deal: int, attempt: int) -> random.Random:
    """The generator for one shuffle: a function of the match seed, the deal number and the redeal attempt."""
    return random.Random(f"piglia/{seed}/deal/{deal}/{attempt}")


# Per deck size: the (position, bound, bits) of each step of a shuffle, worked out once rather than per card.
_STEPS: dict[int, list[tuple[int, int, int]]] = {}


def _steps(size: int) -> list[tuple[int, int, int]]:
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = [(i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1)]
    return steps


def _shuffle(cards: list[int], rng: random.Random) -> None:
    """``rng.shuffle(cards)`` with its draws inlined (one C call per card instead of two Python calls)."""
    getrandbits = rng.getrandbits
    for i, n, k in _steps(len(cards)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _randbelow(rng: random.Random) -> Callable[[int], int]:
    """``rng.randrange`` for one positive argument, with its checks and its inner call inlined."""
    getrandbits = rng.getrandbits

    def draw(n: int) -> int:
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    return draw


def _same_as_library() -> bool:
    """Whether the inlined draws give exactly what this Python's ``random`` gives (they copy its algorithm; a
    Python that draws otherwise gets the library's own functions, so a seed deals the same cards everywhere)."""
    for seed in range(3):
        mine, theirs = list(range(52)), list(range(52))
        _shuffle(mine, random.Random(seed))
        random.Random(seed).shuffle(theirs)
        a, b = _randbelow(random.Random(seed)), random.Random(seed).randrange
        if mine != theirs or [a(n) for n in range(1, 60)] != [b(n) for n in range(1, 60)]:
            return False
    return True


if _same_as_library():
    shuffle, randbelow = _shuffle, _randbelow
else:  # pragma: no cover - a Python whose random module draws differently

    def shuffle(cards: list[int], rng: random.Random) -> None:
        """``rng.shuffle(cards)``."""
        rng.shuffle(cards)

    def randbelow(rng: random.Random) -> Callable[[int], int]:
        """``rng.randrange``."""
        return rng.randrange


def shuffle_deal(
    seed: int, deal: int, attempt: int, *, deck_size: int, players: int, dealer: int, hand: int, table: int
) -> tuple[list[list[int]], list[int], list[int]]:
    """The hands, table and stock of one shuffle (see the module text)."""
    cards = list(range(deck_size))
    shuffle(cards, deal_rng(seed, deal, attempt))
    hands: list[list[int]] = [[] for _ in range(players)]
    pos = hand * players
    for k in range(players):  # one card at a time from the seat after the dealer: seat k takes every n-th card
        hands[(dealer + 1 + k) % players] = cards[k:pos:players]
    return hands, cards[pos : pos + table], cards[pos + table :]
