"""Matches in progress on the web table: one :class:`GameSession` per match, kept in a bounded :class:`GameStore`.

A session is one person at one seat against AI players (their partner too, at four seats). The AI seats play
by themselves, synchronously, right after the match starts and after each of the person's moves, until it is
the person's turn again or the match is over: a session is a function of its rules, seed and the person's
moves, which keeps tests deterministic. Ids are unguessable (``secrets.token_urlsafe``); the store holds at
most ``max_games`` sessions and forgets one unused for ``max_age`` seconds.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from piglia.errors import IllegalMoveError, PigliaError
from piglia.moves import Move
from piglia.players import Player, coach, make_player
from piglia.reasons import illegal_reason
from piglia.state import Game, State
from piglia.texts import VariantTexts
from piglia.variant import Variant

__all__ = ["AI_PLAYERS", "GameSession", "GameStore", "MoveRefused", "NotYourTurn"]

# The strengths a web client may choose: built-in names only (a module:Class name would import code).
AI_PLAYERS = ("greedy", "ismcts", "random")


class MoveRefused(PigliaError):
    """A move the rules do not allow, or one that cannot be read; the message says why."""


class NotYourTurn(PigliaError):
    """A move sent when it is not the person's turn, or after the match ended."""


@dataclass
class GameSession:
    """One match: the full state (kept on the server), the person's seat and the AI players of the others."""

    id: str
    variant: Variant
    state: State
    seat: int
    players: dict[int, Player]
    opponents: str
    lang: str
    uploaded: bool = False
    created: float = field(default_factory=time.monotonic)
    used: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    coach_iterations: int = coach.DEFAULT_ITERATIONS
    turn: int = 0  # the person's moves so far: the coach's advice is kept for the turn it was asked on
    advice: tuple[int, list[coach.Advice]] | None = None
    # why the match stopped before its end: the message of the engine's limit its position passed (a position
    # offering more moves, captures or builds than the engine lists, which only some uploaded rules reach)
    stopped: str | None = None
    # per turn the coach advised: (deal, the advice, the move the person then played), for the deal's review
    coached: list[tuple[int, list[coach.Advice], Move]] = field(default_factory=list)
    # each finished deal's score sheet by (deal, language): final once the deal is over, and built from every event
    # of the match, so building all of them again on every answer grew with deals times events
    sheets: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict, repr=False)

    @cached_property
    def texts(self) -> VariantTexts:
        """The variant's words in the match's language: names, title, the reasons for refusing a move."""
        return VariantTexts(self.variant, self.lang)

    def texts_in(self, lang: str | None) -> VariantTexts:
        """The variant's words in ``lang`` (a language with a catalog), or in the match's language for None: a
        page may change its language during a match."""
        return self.texts if lang is None or lang == self.lang else VariantTexts(self.variant, lang)

    @property
    def game(self) -> Game:
        """The rules for this match's player count."""
        return self.state.game

    def advance(self) -> None:
        """Let the AI seats play until it is the person's turn or the match is over. A position past one of the
        engine's limits stops the match there (:attr:`stopped`), its turn's moves unlisted."""
        state = self.state
        try:
            while not state.is_terminal() and state.current_seat != self.seat:
                seat = state.current_seat
                moves = state.legal_moves()
                move = moves[0] if len(moves) == 1 else self.players[seat].choose(state.view(seat), moves)
                state.play(move)  # a table never takes back: no undo entry a move
            if not state.is_terminal():
                state.raw_moves()  # the person's turn: its moves must be listable too
        except PigliaError as exc:  # a limit, or a rule the engine cannot go on with (redeals that never end)
            self.stopped = str(exc)

    def play(self, move: int | str, lang: str | None = None) -> Move:
        """Play the person's move, given by its index in the legal moves or by its notation; then the AIs'.

        A move the rules do not allow is refused with the engine's reason in ``lang`` (default: the match's)."""
        state = self.state
        if state.is_terminal():
            raise NotYourTurn("the match is over")
        if self.stopped is not None:
            raise NotYourTurn(f"the match has stopped: {self.stopped}")
        if state.current_seat != self.seat:
            raise NotYourTurn(f"it is seat {state.current_seat}'s turn, not yours")
        moves = state.legal_moves()
        if isinstance(move, int):
            if not 0 <= move < len(moves):
                raise MoveRefused(f"no legal move {move}: the legal moves are numbered 0 to {len(moves) - 1}")
            chosen = moves[move]
        else:
            try:
                chosen = Move.parse(move, self.variant.deck)
            except PigliaError as exc:
                raise MoveRefused(str(exc)) from None
        deal = state.deal_no
        try:
            state.play(chosen)
        except IllegalMoveError as exc:
            raise MoveRefused(illegal_reason(self.texts_in(lang), state, chosen, exc)) from None
        except PigliaError as exc:  # a limit met in playing it (a bonus's score past 18 digits): the match stops here
            self.stopped = str(exc)
            return chosen
        if self.advice is not None and self.advice[0] == self.turn:
            self.coached.append((deal, self.advice[1], chosen))
        self.turn += 1
        self.advice = None
        self.advance()
        return chosen

    def advise(self) -> list[coach.Advice]:
        """The coach's advice on the person's turn (:func:`piglia.players.coach.advise`, from the seat's view
        only): every legal move with its estimate, best first. Worked out once per turn; the same match gives the
        same advice. The move then played is kept for the deal's :meth:`review`."""
        state = self.state
        if state.is_terminal() or state.current_seat != self.seat or self.stopped is not None:
            raise NotYourTurn("the coach advises on your turn")
        if self.advice is None or self.advice[0] != self.turn:
            view, moves = state.view(self.seat), state.legal_moves()
            advice = coach.advise(view, moves, iterations=self.coach_iterations, seed=state.seed + self.turn)
            self.advice = (self.turn, advice)
        return self.advice[1]

    def review(self, deal: int, top: int = 3) -> list[coach.Mistake]:
        """The moves of ``deal`` the coach advised on where the person lost the most against its best move."""
        return coach.review([t for t in self.coached if t[0] == deal], top=top)


class GameStore:
    """The sessions in memory: bounded in number and in idle time, thread-safe."""

    def __init__(
        self,
        *,
        max_games: int = 200,
        max_age: float = 6 * 3600,
        clock: Callable[[], float] = time.monotonic,
        coach_iterations: int = coach.DEFAULT_ITERATIONS,
    ) -> None:
        self.max_games = max_games
        self.max_age = max_age
        self.clock = clock
        self.coach_iterations = coach_iterations  # the coach's search budget on each turn it is asked
        self._games: OrderedDict[str, GameSession] = OrderedDict()  # least recently used first
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._games)

    def create(
        self,
        variant: Variant,
        *,
        players: int | None,
        seat: int,
        opponents: str,
        seed: int | None,
        lang: str,
        uploaded: bool = False,
    ) -> GameSession:
        """Start a match (the AIs play up to the person's first turn) and keep it; :class:`PigliaError` if the
        request does not fit the rules (a player count the variant does not allow, a seat out of range...)."""
        if opponents not in AI_PLAYERS:
            raise PigliaError(f"unknown opponents {opponents!r}; choose one of: {', '.join(AI_PLAYERS)}")
        game = Game(variant, players)
        if not 0 <= seat < game.num_players:
            raise PigliaError(f"seat must be from 0 to {game.num_players - 1}")
        if seed is None:
            seed = secrets.randbelow(1_000_000_000)
        ais = {s: make_player(opponents, seed * 16 + s) for s in range(game.num_players) if s != seat}
        now = self.clock()
        session = GameSession(
            id=secrets.token_urlsafe(16),
            variant=variant,
            state=game.new_match(seed),
            seat=seat,
            players=ais,
            opponents=opponents,
            lang=lang,
            uploaded=uploaded,
            created=now,
            used=now,
            coach_iterations=self.coach_iterations,
        )
        session.advance()
        with self._lock:
            self._expire(now)
            while len(self._games) >= self.max_games:
                self._games.popitem(last=False)  # the least recently used match makes room
            self._games[session.id] = session
        return session

    def get(self, game_id: str) -> GameSession | None:
        """The session with this id, if it is still kept; using it keeps it alive."""
        now = self.clock()
        with self._lock:
            self._expire(now)
            session = self._games.get(game_id)
            if session is not None:
                session.used = now
                self._games.move_to_end(game_id)
            return session

    def _expire(self, now: float) -> None:
        stale = [k for k, s in self._games.items() if now - s.used > self.max_age]
        for k in stale:
            del self._games[k]

    def stats(self) -> dict[str, Any]:
        """How many matches are kept, and the bounds."""
        return {"games": len(self._games), "max_games": self.max_games, "max_age": self.max_age}
