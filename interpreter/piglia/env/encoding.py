"""Observations and actions: what an agent sees as numbers, and how an action index becomes a move.

Everything here reads one :class:`~piglia.state.SeatView` (what the acting seat may know) and the legal moves of
that seat: never another hand, never the stock order. The layout is documented in docs/rl.md; in short, with
``D`` cards in the deck, ``n`` seats and ``T`` teams, the observation is one float32 vector:

==============================  ========  =======================================================================
block                           size      meaning
==============================  ========  =======================================================================
card planes                     5 x D     one-hot location of every card as this seat knows it: own hand, table,
                                          own side's pile, other sides' piles, unseen (others' hands and stock)
extras                          3 x D     pile top (the table's top card, in variants whose rules read it:
                                          mechanics/pile.py); builds (a card in a build: 1 when its owner is
                                          on this seat's side, 0.5 otherwise: mechanics/builds.py); declared
                                          hands (the
                                          cards a declaration made public and still in a hand, any seat's:
                                          mechanics/declarations.py; another seat's are not in "unseen")
stock                           1         cards left in the stock / D
hand sizes                      n         cards in each seat's hand / cards dealt per hand, from this seat on
to move                         n         one-hot: which seat moves, counted from this seat (0 = this seat)
dealer                          n         one-hot: the dealer, counted from this seat
match totals                    T         each team's match total / match target, own team first
deal points                     T         each team's points so far this deal / match target, own team first
==============================  ========  =======================================================================

Actions are ``card * slots + choice`` with ``slots = 1 + capture_slots``: choice 0 lays the card on the table
without capturing; choices 1.. are that card's legal captures in canonical rank order (most cards first, then
by the captured cards' deck indexes). Captures ranked beyond the last slot are not offered (see
:meth:`Encoder.actions`); with the default 7 capture slots that is under 1% of turns in the variants with the
most capture choices and never in most built-in variants (docs/rl.md gives the measured rates).

Variants with builds (a rule file's ``builds`` section) have a second block after those: ``D * slots +
card * build_slots + choice`` is that card's build move number ``choice`` (build, increase or multiple build),
ranked by :func:`build_rank`; other variants have no such block, so their action numbers never move.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from gymnasium import spaces

from piglia.env.checks import MAX_SLOTS, integer
from piglia.moves import Move
from piglia.state import Game, SeatView

__all__ = [
    "DEFAULT_BUILD_SLOTS",
    "DEFAULT_CAPTURE_SLOTS",
    "Encoder",
    "Layout",
    "action_index",
    "build_rank",
    "capture_rank",
]

DEFAULT_CAPTURE_SLOTS = 7
DEFAULT_BUILD_SLOTS = 12
CARD_PLANES = ("hand", "table", "own_pile", "other_piles", "unseen")
EXTRA_PLANES = ("pile_top", "builds", "declared")
DEFAULT_SCALE = 11  # scores are divided by the match target; a match played for a number of deals uses 11


@dataclass(frozen=True)
class Layout:
    """Where each block of the observation vector starts and how long it is (``blocks[name] = (start, size)``)."""

    blocks: dict[str, tuple[int, int]]
    size: int

    def slice(self, name: str) -> slice:
        """The slice of the observation vector holding block ``name``."""
        start, size = self.blocks[name]
        return slice(start, start + size)


def action_index(action: object) -> int:
    """An action as the index it is: an int, a NumPy integer (or 0-d integer array) or a whole float.

    A fraction is a ValueError: int() alone would turn 2.5 into action 2 and play it, silently. A string, a bool
    or anything else that is not a number is a TypeError: float() would read " 120 " as action 120.
    """
    if isinstance(action, (bool, np.bool_)):  # True is 1 to Python, but an agent that sends it has a bug
        raise TypeError(f"action must be an integer index, not {action!r}")
    if isinstance(action, numbers.Integral):
        return int(action)
    if isinstance(action, np.ndarray) and action.ndim == 0:  # a 0-d array, as some policies return
        return action_index(action.item())
    if not isinstance(action, numbers.Real):  # a string above all: float(" 120 ") would be 120.0
        raise TypeError(f"action must be an integer index, not {action!r} ({type(action).__name__})")
    value = float(action)
    if not value.is_integer():
        raise ValueError(f"action {action!r} is not a whole number: actions are indexes 0, 1, ...")
    return int(value)


def capture_rank(move: Move) -> tuple[int, tuple[int, ...]]:
    """The canonical order of one card's captures: most cards taken first, then by the taken cards' deck indexes."""
    return (-len(move.captured), tuple(c.index for c in move.captured))


def build_rank(move: Move) -> tuple[int, int, tuple[int, ...]]:
    """The canonical order of one card's build moves: by announced value, then most table cards joined first,
    then by the joined cards' deck indexes."""
    return (move.value, -len(move.onto), tuple(c.index for c in move.onto))


class Encoder:
    """Observation vectors, action masks and the action <-> move mapping for one game (variant and player count).

    ``capture_slots`` is the number of capture choices per card and ``build_slots`` of build moves per card (each
    an integer from 1 to :data:`~piglia.env.checks.MAX_SLOTS`); the action space has ``deck size * (1 +
    capture_slots)`` actions, plus ``deck size * build_slots`` in a variant with builds.
    """

    def __init__(
        self, game: Game, capture_slots: int = DEFAULT_CAPTURE_SLOTS, build_slots: int = DEFAULT_BUILD_SLOTS
    ) -> None:
        capture_slots = integer("capture_slots", capture_slots, low=1, high=MAX_SLOTS)
        build_slots = integer("build_slots", build_slots, low=1, high=MAX_SLOTS)
        self.game = game
        self.deck_size = len(game.variant.deck)
        self.num_players = game.num_players
        self.num_teams = game.num_teams
        self.capture_slots = capture_slots
        self.slots = 1 + capture_slots
        # the build block exists only where the rules have builds: every other variant keeps its action numbers
        self.build_slots = build_slots if game.variant.builds is not None else 0
        self.build_base = self.deck_size * self.slots
        self.num_actions = self.build_base + self.deck_size * self.build_slots
        self.hand_size = max(1, game.deal_rules.hand)
        # The first extras plane marks the table's top card where the rules read it (a pile kind, a bonus on top).
        kinds = [k for tier in game.variant.capture.tiers for k in tier]
        self.pile_top = "top" in game.bonus_reads or any(getattr(k, "reads_top", False) for k in kinds)
        self.score_scale = float(game.variant.match.target or DEFAULT_SCALE)
        d, n, t = self.deck_size, self.num_players, self.num_teams
        sizes = [
            ("cards", len(CARD_PLANES) * d),
            ("extras", len(EXTRA_PLANES) * d),
            ("stock", 1),
            ("hand_sizes", n),
            ("to_move", n),
            ("dealer", n),
            ("totals", t),
            ("deal_points", t),
        ]
        blocks: dict[str, tuple[int, int]] = {}
        start = 0
        for name, size in sizes:
            blocks[name] = (start, size)
            start += size
        self.layout = Layout(blocks, start)
        low = np.zeros(start, dtype=np.float32)
        high = np.ones(start, dtype=np.float32)
        high[self.layout.slice("hand_sizes")] = d / self.hand_size
        # scores may be negative in a rule file with penalties and are not bounded by the target
        low[self.layout.slice("totals")] = low[self.layout.slice("deal_points")] = -np.inf
        high[self.layout.slice("totals")] = high[self.layout.slice("deal_points")] = np.inf
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.num_actions,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.num_actions)

    # -- observations ------------------------------------------------------------------------------------------

    def observation(self, view: SeatView) -> np.ndarray:
        """The observation vector of ``view``'s seat (see the module text for the layout)."""
        d, n, t = self.deck_size, self.num_players, self.num_teams
        obs = np.zeros(self.layout.size, dtype=np.float32)
        # card planes: plane p of card c is obs[p * d + c]
        for card in view.hand:
            obs[card.index] = 1.0
        for card in view.table:
            obs[d + card.index] = 1.0
        for team, pile in enumerate(view.piles):
            base = 2 * d if team == view.team else 3 * d
            for card in pile:
                obs[base + card.index] = 1.0
        for card in view.unseen:
            obs[4 * d + card.index] = 1.0
        # extras: the pile-top plane (variants whose rules read the top card); builds; declared hands
        extras = self.layout.blocks["extras"][0]
        if self.pile_top and view.table:
            obs[extras + view.table[-1].index] = 1.0
        team_of = self.game.team_of
        for build in view.builds:  # public; its cards are on the table plane too
            mark = 1.0 if team_of[build.owner] == view.team else 0.5
            for card in build.cards:
                obs[extras + d + card.index] = mark
        for cards in view.shown:  # public once declared: the view leaves them out of ``unseen``
            for card in cards:
                obs[extras + 2 * d + card.index] = 1.0
        at = self.layout.blocks["stock"][0]
        obs[at] = view.stock_size / d
        at += 1
        seat = view.seat
        for k in range(n):
            obs[at + k] = view.hand_sizes[(seat + k) % n] / self.hand_size
        at += n
        obs[at + (view.to_move - seat) % n] = 1.0
        at += n
        obs[at + (view.dealer - seat) % n] = 1.0
        at += n
        for k in range(t):
            obs[at + k] = view.totals[(view.team + k) % t] / self.score_scale
            obs[at + t + k] = view.deal_points[(view.team + k) % t] / self.score_scale
        return obs

    # -- actions -----------------------------------------------------------------------------------------------

    def actions(self, moves: Sequence[Move]) -> dict[int, Move]:
        """The action index of each legal move that has one: ``{action: move}``.

        Per card, laying it without a capture (when legal) is choice 0; its captures, ranked by
        :func:`capture_rank`, take choices 1 to ``capture_slots``. Captures ranked beyond the last slot get no
        action: they are not offered. Every card that may be played keeps at least one action, so an agent can
        always move, and the mapping is one to one on the moves it keeps.
        """
        by_card: dict[int, list[Move]] = {}
        builds: dict[int, list[Move]] = {}
        out: dict[int, Move] = {}
        for move in moves:
            if move.is_build:
                builds.setdefault(move.card.index, []).append(move)
            elif move.captured:
                by_card.setdefault(move.card.index, []).append(move)
            else:
                out[move.card.index * self.slots] = move
        for card, captures in by_card.items():
            base = card * self.slots + 1
            captures.sort(key=capture_rank)
            for k, move in enumerate(captures[: self.capture_slots]):
                out[base + k] = move
        for card, made in builds.items():  # build moves ranked beyond the last build slot are not offered
            base = self.build_base + card * self.build_slots
            made.sort(key=build_rank)
            for k, move in enumerate(made[: self.build_slots]):
                out[base + k] = move
        return out

    def mask(self, actions: dict[int, Move]) -> np.ndarray:
        """The action mask (int8, 1 for a legal action) of the mapping returned by :meth:`actions`."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if actions:
            mask[list(actions)] = 1
        return mask

    def no_actions(self) -> np.ndarray:
        """The all-zero mask of a seat that is not to move."""
        return np.zeros(self.num_actions, dtype=np.int8)

    def action_of(self, move: Move, moves: Sequence[Move]) -> int | None:
        """The action index of ``move`` among the legal ``moves``, or None if it has none (dropped or illegal)."""
        for action, candidate in self.actions(moves).items():
            if candidate == move:
                return action
        return None

    def describe(self, action: int) -> str:
        """An action index in words: ``7d lay`` or ``7d capture #2``."""
        if not 0 <= action < self.num_actions:
            return f"out of range 0..{self.num_actions - 1}"
        if action >= self.build_base:
            card, choice = divmod(action - self.build_base, self.build_slots)
            return f"{self.game.variant.deck.cards[card].id} build #{choice + 1}"
        card, choice = divmod(action, self.slots)
        name = self.game.variant.deck.cards[card].id
        return f"{name} lay" if choice == 0 else f"{name} capture #{choice}"
