"""A game in progress: one position of a match, what happens next in it, and the whole flow of deals.

:class:`Game` holds the immutable rules for a player count; :class:`State` is one position. ``state.phase``
says what happens next (:class:`~piglia.chance.Phase`): a deal or a refill (chance steps), a move, or the end.
Chance steps are explicit, as in OpenSpiel: in a chance phase :meth:`State.chance_outcome` gives the outcome the
seed implies and :meth:`State.push_chance` applies an outcome (a replay gives the record's). With ``auto_deal``
(the default) a state resolves chance by itself from its seed, so a loop of ``legal_moves``/``push`` plays a whole
match and a state is a function of the variant, the seed and the moves.

Players get immutable-style ``apply`` (a new state); search uses ``push`` and ``pop`` (undo, in place).
:meth:`State.outcome` says who won and why.

Inside, cards are deck indexes and the hot paths use precomputed tables (see :mod:`piglia.mechanics`).
Every event is logged as a typed record event (:mod:`piglia.events`), unless the state is made with
``log=False``: then no event is built at all, and what a statistician needs is still at hand, cheaply, in
``deal_scores`` (every bonus and award scored in the deal, as ``(name, team, points)``) and through ``observer``,
called once at the end of every deal.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from piglia import dealflow, interrupt
from piglia.cards import Card
from piglia.chance import ChanceOutcome, DealOutcome, Phase
from piglia.contexts import NO_PLAY, DealEnv, PlayInfo
from piglia.errors import IllegalMoveError, PigliaError
from piglia.events import FORMAT, Header, Play, RecordEvent
from piglia.mechanics import builds as builds_
from piglia.mechanics import declarations, facedown
from piglia.mechanics.builds import Build, TableBuild
from piglia.mechanics.capture import MAX_MOVES, MoveLimitError
from piglia.moves import BuildRaw, Move
from piglia.outcome import Outcome, Reason
from piglia.scoring import ScopeReads, score_play
from piglia.variant import Bonus, RawMove, Variant

__all__ = ["Game", "RawMove", "SeatView", "State"]

Event = dict[str, Any]  # a record event as its JSON object (the engine logs typed values: piglia.events)
Score = tuple[str, int | None, int]  # (bonus or award name, team or None for nobody, points)
MOVES_KEPT = 1 << 14  # Move objects a Game keeps for legal_moves (a few MB at most)


class Game:
    """The rules of a variant for a number of players: the factory of states."""

    def __init__(self, variant: Variant, players: int | None = None) -> None:
        count = variant.default_players if players is None else players  # 0 is a count to refuse, not "any"
        if count not in variant.player_counts:
            allowed = ", ".join(map(str, variant.player_counts))
            raise PigliaError(f"{variant.name} is played by {allowed} players, not {count}")
        self.variant = variant
        self.players = variant.players(count)
        self.deal_rules = variant.deal_rules(count)
        self.num_players = count
        self.num_teams = len(self.players.teams)
        # What every bonus of the variant reads: the engine builds only those parts of a play's scope.
        reads: frozenset[str] = frozenset().union(*(b.reads for b in variant.bonuses))
        self.bonus_reads = reads
        self.reads_kind = "kind" in reads
        self.bonus_on_play = any(b.on_play for b in variant.bonuses)  # else a placement scores no bonus
        # The bonuses that can score on a play, by how many cards it captures (0: a placement) and whether it may
        # leave the table empty (it captures at least as many cards as the table holds): most plays of most
        # games have none, and build no bonus scope (scoring.py).
        size = len(variant.deck)
        self.live_bonuses: tuple[tuple[tuple[Bonus, ...], tuple[Bonus, ...]], ...] = tuple(
            (
                tuple(b for b in variant.bonuses if b.may_score(n, False)),
                tuple(b for b in variant.bonuses if b.may_score(n, True)),
            )
            for n in range(size + 1)
        )
        # What those bonuses read, alike: a play builds only the parts of the scope that the bonuses it can score
        # read (scoring.py), not all that any bonus of the variant reads.
        self.live_reads: tuple[tuple[ScopeReads, ScopeReads], ...] = tuple(
            (ScopeReads.of(off), ScopeReads.of(on)) for off, on in self.live_bonuses
        )
        # Flags and tables the play loop reads, so that a play asks one attribute rather than a chain of them.
        self.has_bonuses = bool(variant.bonuses)
        self.team_of = self.players.team_of
        self.has_instant_win = variant.match.instant_win is not None
        self.declares = variant.declarations is not None
        self.has_builds = variant.builds is not None  # mechanics/builds.py lists the moves instead
        # Per card, the Move of each of its captures listed so far (``()``: the placement; a BuildRaw: a build).
        # Moves are immutable values: one object serves every position that has the move, and listing the moves
        # builds only those not met before (State.legal_moves).
        self.moves_made: list[dict[tuple[int, ...] | BuildRaw, Move]] = [{} for _ in range(len(variant.deck))]
        self.moves_kept = 0

    def forget_moves(self) -> None:
        """Drop the Moves kept for :meth:`State.legal_moves` (they are made again when next listed)."""
        for kept in self.moves_made:
            kept.clear()
        self.moves_kept = 0

    def new_match(self, seed: int, *, auto_deal: bool = True, log: bool = True) -> State:
        """The opening position of a match, dealt from ``seed`` (without ``auto_deal``: in the DEAL phase)."""
        return State(self, seed, auto_deal=auto_deal, log=log)

    def position(
        self,
        *,
        hands: Sequence[Sequence[str]],
        table: Sequence[str] = (),
        stock: Sequence[str] = (),
        piles: Sequence[Sequence[str]] | None = None,
        dealer: int = 0,
        to_move: int | None = None,
        totals: Sequence[int] | None = None,
        deal: int = 1,
        last_capturer: int = -1,
        seed: int = 0,
        log: bool = True,
        opening: bool = False,
        face_down: Sequence[str] = (),
        builds: Sequence[tuple[Sequence[str], int, int, bool]] = (),
    ) -> State:
        """A position set up by hand, with cards named by id: for examples, tests and teaching.

        The table is listed in the order its cards arrived (its last card is the top of the pile); ``face_down``
        are table cards lying face down under it. ``builds`` (variants with builds) are builds on the table, each
        ``(cards, value, owner seat, multiple)``; their cards join the table after ``table``. The stock is dealt
        from its first card. Cards not named anywhere are out of this deal. With ``opening``
        the position is the start of a deal, and the variant's opening bonuses (``deal.opening``) are applied to
        it; otherwise it may be any moment of a deal and they are not.
        """
        deck = self.variant.deck

        def ids(cards: Sequence[str]) -> list[int]:
            return [deck.parse_card(c).index for c in cards]

        state = State(self, seed, auto_deal=False, log=log)
        state.dealer = dealer
        state.deal_no = deal
        if totals is not None:
            state.totals = list(totals)
        dealflow.start_deal(
            state, [ids(h) for h in hands], ids(table), ids(stock), opening=False, face_down=ids(face_down)
        )
        if piles is not None:
            state.piles = [ids(p) for p in piles]
        if to_move is not None:
            state.to_move = to_move
        if builds and self.variant.builds is None:
            raise PigliaError(f"{self.variant.name} has no builds (a rule file's builds section): none can be set")
        for cards, value, owner, multiple in builds:
            indexes = ids(cards)
            state.table.extend(indexes)
            state.builds.append(Build(tuple(sorted(indexes)), value, owner, multiple))
        state.last_capturer = last_capturer
        if opening:
            dealflow.apply_opening(state)
            declarations.hand_dealt(state)
        return state

    def header(self, seed: int) -> Header:
        """The record header of a match of this game."""
        deck = self.variant.deck
        return Header(
            format=FORMAT,
            variant=self.variant.name,
            spec_sha256=self.variant.sha256,
            seed=seed,
            players=self.num_players,
            teams=[list(t) for t in self.players.teams],
            cards={c.id: {"rank": c.rank.name, "suit": c.suit.name} for c in deck.cards},
        )


@dataclass(frozen=True)
class SeatView:
    """What one seat may know: its own hand, the table, the piles, the history; never others' hands or the stock."""

    seat: int
    team: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    dealer: int
    to_move: int
    deal: int
    totals: tuple[int, ...]
    deal_points: tuple[int, ...]
    plays: tuple[tuple[int, Card, tuple[Card, ...]], ...]  # this deal: (seat, card, captured)
    unseen: tuple[Card, ...]  # cards this seat has not seen: others' hands, the stock, face-down table cards
    # the seat that captured last in this deal (-1: none yet); public, and not always in ``plays``: an opening
    # bonus that takes table cards counts as the dealer's capture
    last_capturer: int = -1
    # per seat, the cards of its hand that a declaration made public (mechanics.declarations); empty otherwise
    shown: tuple[tuple[Card, ...], ...] = ()
    # the rules being played: public knowledge, so that a player can reason about what moves are worth
    game: Game | None = field(default=None, repr=False, compare=False)
    face_down: int = 0  # how many table cards lie face down (never which: mechanics/facedown.py)
    # the builds on the table, public (mechanics/builds.py); their cards are in ``table`` too
    builds: tuple[TableBuild, ...] = ()


# The parts of a position that a move (and the chance steps it brings) changes: what ``pop`` restores.
_Snapshot = tuple[Any, ...]


class State:
    """One position of a match. Build it with :meth:`Game.new_match`."""

    __slots__ = (
        "_deal_pending",
        "_undo",
        "auto_deal",
        "builds",
        "carried",
        "deal_no",
        "deal_points",
        "deal_scores",
        "dealer",
        "end_reason",
        "events",
        "face_down",
        "game",
        "hands",
        "last_capturer",
        "observer",
        "over",
        "piles",
        "plays",
        "seed",
        "shown",
        "stock",
        "table",
        "to_move",
        "totals",
        "winner",
    )

    def __init__(self, game: Game, seed: int, *, auto_deal: bool = True, log: bool = True) -> None:
        self.game = game
        self.seed = seed
        self.auto_deal = auto_deal
        n = game.num_players
        self.events: list[RecordEvent] | None = [game.header(seed)] if log else None
        first = game.players.first_dealer
        self.dealer = random.Random(f"piglia/{seed}/first-dealer").randrange(n) if first is None else first
        self.deal_no = 1
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.table: list[int] = []
        self.face_down: list[int] = []  # table cards lying face down under the pile (mechanics/facedown.py)
        self.builds: list[Build] = []  # which table cards form builds (mechanics/builds.py)
        self.stock: list[int] = []
        self.piles: list[list[int]] = [[] for _ in range(game.num_teams)]
        self.totals = [0] * game.num_teams
        self.deal_points = [0] * game.num_teams
        self.last_capturer = -1
        self.plays: list[tuple[int, int, tuple[int, ...]]] = []
        self.to_move = 0
        self.over = False
        self.winner: int | None = None
        self.end_reason: tuple[Reason, str] | None = None
        self._deal_pending = True
        self.shown: list[tuple[int, ...]] = [() for _ in range(n)]  # declared hands (mechanics.declarations)
        self._undo: list[tuple[_Snapshot, Move | ChanceOutcome]] = []
        self.deal_scores: list[Score] = []
        self.carried: dict[str, int] = {}  # award name -> points carried over from tied deals (``tie: carry``)
        self.observer: Callable[[State], None] | None = None
        if auto_deal:
            self._resolve_chance()

    # -- copying -----------------------------------------------------------------------------------------

    def clone(self) -> State:
        """An independent copy of this position (with no undo history)."""
        other = State.__new__(State)
        other.game = self.game
        other.seed = self.seed
        other.auto_deal = self.auto_deal
        other.events = list(self.events) if self.events is not None else None
        other.dealer = self.dealer
        other.deal_no = self.deal_no
        other.hands = [list(h) for h in self.hands]
        other.table = list(self.table)
        other.face_down = list(self.face_down)
        other.builds = list(self.builds)
        other.stock = list(self.stock)
        other.piles = [list(p) for p in self.piles]
        other.totals = list(self.totals)
        other.deal_points = list(self.deal_points)
        other.last_capturer = self.last_capturer
        other.plays = list(self.plays)
        other.to_move = self.to_move
        other.over = self.over
        other.winner = self.winner
        other.end_reason = self.end_reason
        other._deal_pending = self._deal_pending
        other.shown = list(self.shown)
        other._undo = []
        other.deal_scores = list(self.deal_scores)
        other.carried = self.carried  # replaced, never changed in place
        other.observer = None  # a copy is another line of play: whoever watched this one did not ask for it
        return other

    # -- phases and chance ---------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """What happens next: a deal or a refill (chance), a move, or the end of the match."""
        if self.over:
            return Phase.END
        if self._deal_pending:
            return Phase.DEAL
        if self.stock and not any(self.hands):
            return Phase.REFILL
        return Phase.MOVE

    def is_chance_node(self) -> bool:
        """True when chance acts next (a deal or a refill), not a player."""
        return self.phase in (Phase.DEAL, Phase.REFILL)

    def chance_outcome(self, seed: int | None = None) -> ChanceOutcome:
        """The outcome of the chance step due now (see :mod:`piglia.chance`).

        With no ``seed``, the one the match's seed implies: the deal its shuffle gives (after any misdeals), or
        the refill from the top of the stock as it lies. With a ``seed``, another outcome drawn from it: the
        deal of that match seed, or the refill from the stock shuffled by it (a different line of chance, for
        search). Raises :class:`PigliaError` outside a chance phase.
        """
        return dealflow.chance_outcome(self, seed)

    def push_chance(self, outcome: ChanceOutcome) -> None:
        """Apply a chance outcome in place (checked: the cards must be there to deal); ``pop`` undoes it."""
        phase = self.phase
        snapshot = self._snapshot()
        if isinstance(outcome, DealOutcome):
            if phase is not Phase.DEAL:
                raise PigliaError("a deal is in progress" if phase is not Phase.END else "the match is over")
            dealflow.check_deal(self, outcome)
            dealflow.deal(self, outcome)
        else:
            if phase is not Phase.REFILL:
                raise PigliaError("no refill is due: the players still hold cards, or the stock is empty")
            dealflow.refill(self, outcome.hands)
        self._undo.append((snapshot, outcome))
        if self.auto_deal:
            self._resolve_chance()

    def apply_chance(self, outcome: ChanceOutcome) -> State:
        """The position after the chance ``outcome`` (a new state)."""
        nxt = self.clone()
        nxt.push_chance(outcome)
        return nxt

    def _resolve_chance(self) -> None:
        """Play the chance steps due now from the seed (``auto_deal``), without an undo entry of their own."""
        dealflow.resolve_chance(self)

    # -- dealing -------------------------------------------------------------------------------------------

    def _log(self, event: RecordEvent) -> None:
        if self.events is not None:
            self.events.append(event)

    def _ids(self, cards: Sequence[int]) -> list[str]:
        ids = self.game.variant.deck.cards
        return [ids[c].id for c in cards]

    def is_misdeal(self, table: Sequence[int]) -> bool:
        """Whether an opening table would be redealt under this variant's rules (S1.3)."""
        redeal = self.game.deal_rules.redeal
        return redeal is not None and bool(redeal(DealEnv(tuple(table), self.dealer)))

    # -- moves ---------------------------------------------------------------------------------------------

    def capture_options(self, card: int) -> list[tuple[tuple[int, ...], str]]:
        """The captures (with their kind) open to ``card`` on the current table."""
        if self.game.has_builds:
            return builds_.capture_options(self, card)
        return self.game.variant.capture.options(card, self.table)

    def raw_moves(self) -> list[RawMove]:
        """Legal moves as (card index, captured indexes), sorted; the engine's fast path."""
        if self.over or self._deal_pending:
            return []
        if self.game.has_builds:
            return builds_.raw_moves(self)
        capture = self.game.variant.capture
        hand = self.hands[self.to_move]
        mandatory = capture.mandatory
        out: list[RawMove] = []
        for card, caps in zip(hand, capture.hand_captures(hand, self.table), strict=True):
            if caps:
                if not mandatory:
                    out.append((card, ()))
                out += zip(repeat(card), caps)  # the (card, capture) pairs made in C
                if len(out) > MAX_MOVES:  # bounded memory: each card's captures are bounded, so is their sum
                    raise MoveLimitError(len(hand), len(self.table))
            else:
                out.append((card, ()))
        return out

    def is_legal(self, raw: RawMove) -> bool:
        """Whether ``raw`` is one of :meth:`raw_moves`, found by asking only about its own card: the captures of
        that card, not of the whole hand (what :meth:`push` checks before every move)."""
        if self.over or self._deal_pending:
            return False
        if self.game.has_builds or isinstance(raw, BuildRaw):  # a build's legality reads the whole hand
            return raw in self.raw_moves()
        card, captured = raw
        if card not in self.hands[self.to_move]:
            return False
        capture = self.game.variant.capture
        (caps,) = capture.hand_captures((card,), self.table)
        if captured:
            return tuple(captured) in caps
        return not caps or not capture.mandatory

    def pick_raw(self, draw: Callable[[int], int]) -> tuple[int, RawMove]:
        """The number ``n`` of legal moves, and the move at index ``draw(n)`` of :meth:`raw_moves` (``draw`` is not
        called when there is one move): random play, without building the moves it does not play."""
        if self.over or self._deal_pending:
            raise PigliaError("no move to pick: no player moves now")
        if self.game.has_builds:  # builds (mechanics/builds.py): counted where the kinds count in masks
            picked = builds_.pick(self, draw)
            if picked is not None:
                return picked
            moves = self.raw_moves()
            n = len(moves)
            return n, moves[draw(n)] if n > 1 else moves[0]
        return self.game.variant.capture.pick(self.hands[self.to_move], self.table, draw)

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move, sorted; empty when no player moves (chance, or the end)."""
        game = self.game
        made = game.moves_made
        if game.has_builds or self.over or self._deal_pending:
            listed: list[Move] = []
            for raw in self.raw_moves():
                card, taken = raw[0], raw if isinstance(raw, BuildRaw) else raw[1]
                listed.append(made[card].get(taken) or self._move(card, taken))
            return listed
        # raw_moves' listing, each capture looked up among the Moves of its card: on a big table, thousands of
        # captures are hashed alone rather than paired with their card first
        capture = game.variant.capture
        hand = self.hands[self.to_move]
        placements = not capture.mandatory
        moves: list[Move] = []
        for card, caps in zip(hand, capture.hand_captures(hand, self.table), strict=True):
            if placements or not caps:
                moves.append(made[card].get(()) or self._move(card, ()))
            if caps:
                got: list[Any] = list(map(made[card].get, caps))  # Moves, None for one not made yet
                if not all(got):  # (a Move is always true: checked in C)
                    got = [m or self._move(card, cap) for m, cap in zip(got, caps, strict=True)]
                moves += got
        if len(moves) > MAX_MOVES:  # as raw_moves would stop
            raise MoveLimitError(len(hand), len(self.table))
        return moves

    def _move(self, card: int, taken: tuple[int, ...] | BuildRaw) -> Move:
        """The Move of ``card`` taking ``taken`` (``()``: placed on the table; a :class:`BuildRaw`: that build),
        made once and kept by the Game for every position that has it (bounded by MOVES_KEPT)."""
        game = self.game
        cards = game.variant.deck.cards
        if isinstance(taken, BuildRaw):  # a build raw equals and hashes only as a build (moves.py)
            move = Move.build(cards[card], tuple([cards[c] for c in taken.onto]), taken.value)
        else:
            move = Move._sorted(cards[card], tuple([cards[c] for c in taken]))  # raw captures are in deck order
        if game.moves_kept >= MOVES_KEPT:  # bounded: forget them all, the common ones come back at once
            game.forget_moves()
        game.moves_made[card][taken] = move
        game.moves_kept += 1
        return move

    def apply(self, move: Move) -> State:
        """The position after ``move`` (a new state); raises :class:`IllegalMoveError` if the rules forbid it."""
        nxt = self.clone()
        nxt.push(move)
        return nxt

    def push(self, move: Move) -> None:
        """Play ``move`` in place (checked); :meth:`pop` takes it back."""
        raw = move.raw
        if not self.is_legal(raw):
            raise IllegalMoveError(self.why_illegal(raw))
        snapshot = self._snapshot()
        self.push_raw(raw)
        self._undo.append((snapshot, move))

    def play(self, move: Move) -> None:
        """Play ``move`` in place (checked), for good: no :meth:`pop` can take it back. The loop of a match that
        never takes back (a tournament, an environment, a table) keeps no undo entry, which would hold a copy
        of the position for every move of the match."""
        raw = move.raw
        if not self.is_legal(raw):
            raise IllegalMoveError(self.why_illegal(raw))
        self.push_raw(raw)

    def pop(self) -> Move | ChanceOutcome:
        """Take back the last :meth:`push` or :meth:`push_chance` (with the chance steps it brought about),
        restoring the position exactly; returns what was pushed. The ``observer`` is not called back."""
        if not self._undo:
            raise PigliaError("nothing to take back: no push since this state was made")
        snapshot, what = self._undo.pop()
        self._restore(snapshot)
        return what

    def _snapshot(self) -> _Snapshot:
        return (
            self.dealer,
            self.deal_no,
            [list(h) for h in self.hands],
            list(self.table),
            list(self.stock),
            [list(p) for p in self.piles],
            list(self.totals),
            list(self.deal_points),
            self.last_capturer,
            list(self.plays),
            self.to_move,
            self.over,
            self.winner,
            self.end_reason,
            self._deal_pending,
            list(self.deal_scores),
            self.carried,
            len(self.events) if self.events is not None else 0,
            list(self.face_down),
            list(self.shown),
            list(self.builds),
        )

    def _restore(self, s: _Snapshot) -> None:
        (
            self.dealer,
            self.deal_no,
            self.hands,
            self.table,
            self.stock,
            self.piles,
            self.totals,
            self.deal_points,
            self.last_capturer,
            self.plays,
            self.to_move,
            self.over,
            self.winner,
            self.end_reason,
            self._deal_pending,
            self.deal_scores,
            self.carried,
            logged,
            self.face_down,
            self.shown,
            self.builds,
        ) = s
        if self.events is not None:
            del self.events[logged:]

    def why_illegal(self, raw: RawMove) -> str:
        """Words for why a move is not legal here."""
        deck = self.game.variant.deck
        card, captured = raw
        name = deck.cards[card].name
        if self.over:
            return "the match is over"
        if self.is_chance_node():
            return "the cards are not dealt yet"
        if card not in self.hands[self.to_move]:
            return f"seat {self.to_move} does not hold the {name}"
        if self.game.has_builds:
            why = builds_.why_illegal(self, raw)
            if why is not None:
                return why
        options = self.capture_options(card)
        if not captured and options and self.game.variant.capture.mandatory:
            return f"the {name} must capture (capture is mandatory): {self._options_text(options)}"
        if captured and any(c not in self.table for c in captured):
            return f"{', '.join(deck.cards[c].name for c in captured if c not in self.table)} is not on the table"
        if options:
            return f"the {name} cannot take that; it can take {self._options_text(options)}"
        return f"the {name} cannot capture anything here"

    def _options_text(self, options: list[tuple[tuple[int, ...], str]]) -> str:
        deck = self.game.variant.deck
        return " or ".join("+".join(deck.cards[c].id for c in cap) for cap, _ in options)

    def push_raw(self, raw: RawMove) -> None:
        """Play a move given as indexes, unchecked (the caller took it from :meth:`raw_moves`) and with no undo
        entry: the fast path of simulations and of search on copies."""
        game = self.game
        if isinstance(raw, BuildRaw):  # a build move (mechanics/builds.py): only variants with builds list them
            builds_.push_build(self, raw)
            return
        card, captured = raw
        seat = self.to_move
        hands = self.hands
        table = self.table
        # This is the last card of the deal (the length test first: it is false on all plays but a few).
        last_play = len(hands[seat]) == 1 and not self.stock and sum(map(len, hands)) == 1
        logging = self.events is not None
        if captured:
            team = game.team_of[seat]
            # The kind of a capture is written in the record, and read by bonuses that ask for it.
            kind = self._kind_of(card, captured) if logging or game.reads_kind else ""
            hidden = facedown.taken_with(table, captured, self.face_down) if self.face_down else ()
            taken = (*captured, *hidden) if hidden else captured  # what the bonuses see as captured
            scored = score_play(self, card, taken, kind, team, last_play) if game.has_bonuses else []
            for name, points in scored:
                self.deal_points[team] += points
                self.deal_scores.append((name, team, points))
            hands[seat].remove(card)
            if len(captured) == len(table):
                table.clear()
            else:
                for c in captured:
                    table.remove(c)
            pile = self.piles[team]
            pile.append(card)
            pile.extend(taken)
            if hidden:
                self.face_down = []
            if self.builds:
                builds_.taken(self, captured)
            self.last_capturer = seat
        else:
            # A placement scores only bonuses ``on: play``: most plays of most variants build no scope at all.
            kind = ""
            hidden = ()
            team = game.team_of[seat]
            scored = score_play(self, card, (), "", team, last_play) if game.bonus_on_play else []
            for name, points in scored:
                self.deal_points[team] += points
                self.deal_scores.append((name, team, points))
            hands[seat].remove(card)
            table.append(card)
        # ``previous`` (what bonuses see of the play before) is read from here: no per-play object is built.
        self.plays.append((seat, card, captured))
        if logging:
            cards = game.variant.deck.cards
            self._log(
                Play(
                    self.deal_no,
                    seat,
                    cards[card].id,
                    [cards[c].id for c in captured],
                    kind or None,
                    [{"name": name, "points": points} for name, points in scored],
                    [cards[c].id for c in hidden] if hidden else None,
                )
            )
        self.to_move = (seat + 1) % game.num_players
        if captured and game.has_instant_win and dealflow.instant_win(self, team):
            return
        if not last_play:
            if game.declares:
                declarations.turn_begins(self)
            if self.auto_deal and self.stock and not any(hands):
                dealflow.refill_from_stock(self)
            return
        dealflow.end_deal(self)

    def play_out(self, draw: Callable[[int], int], branching: dict[int, int]) -> int:
        """Play uniformly random legal moves until the match ends: the very moves that ``push_raw(pick_raw(draw))``
        in a loop would play, with the same draws. ``branching[n]`` counts the turns that had ``n`` legal moves;
        returns the number of plays. Raises :class:`~piglia.interrupt.Interrupted` between moves when a stop
        was asked for (the match's turns are then not added to ``branching``: the caller drops the match).

        The fused loop of random simulation: for every play but a build's, and when no record is kept, the pick
        and the play are one step here, with the game's flags read once; builds go through :meth:`pick_raw` and
        :meth:`push_raw`, which this loop's fast step copies (``tests/test_play_out.py`` checks both agree on every
        built-in variant).
        """
        game = self.game
        if not self.auto_deal:
            raise PigliaError("play_out plays whole matches: the state must deal by itself (auto_deal)")
        pick = game.variant.capture.pick
        fast = not game.has_builds and self.events is None  # a record is written by push_raw
        on_play = game.bonus_on_play
        live = game.live_bonuses
        reads_kind = game.reads_kind
        # a seat declares only at its first card of a hand (declarations.turn_begins): a full hand, asked here
        declare_at = game.deal_rules.hand if game.declares else 0
        instant = game.has_instant_win
        team_of = game.team_of
        players = game.num_players
        stop = interrupt.STOP
        # Each turn's number of legal moves, added to ``branching`` once the match is over (an interrupted match
        # is dropped whole: its turns are not counted either). Appending it is the loop's cheapest record.
        counts: list[int] = []
        count = counts.append
        if not fast:  # builds, or a record to write: every play through pick_raw and push_raw
            while not self.over:
                if stop.signum is not None:  # interrupt.check(), without a call per move
                    raise interrupt.Interrupted
                n, move = self.pick_raw(draw)
                count(n)
                self.push_raw(move)
            return _tally(branching, counts)
        log = self.plays
        while not self.over:
            if stop.signum is not None:  # interrupt.check(), without a call per move
                raise interrupt.Interrupted
            hands = self.hands
            seat = self.to_move
            hand = hands[seat]
            table = self.table
            n, (card, captured) = pick(hand, table, draw)
            count(n)
            last_play = len(hand) == 1 and not self.stock and sum(map(len, hands)) == 1
            team = team_of[seat]
            if captured:
                # face-down cards under the table go with a capture (mechanics/facedown.py)
                hidden = facedown.taken_with(table, captured, self.face_down) if self.face_down else ()
                taken = (*captured, *hidden) if hidden else captured
                if live[len(taken)][len(taken) >= len(table)]:  # score_play's own first test
                    kind = self._kind_of(card, captured) if reads_kind else ""
                    for name, points in score_play(self, card, taken, kind, team, last_play):
                        self.deal_points[team] += points
                        self.deal_scores.append((name, team, points))
                hand.remove(card)
                if len(captured) == len(table):
                    table.clear()
                else:
                    for c in captured:
                        table.remove(c)
                pile = self.piles[team]
                pile.append(card)
                pile.extend(taken)
                if hidden:
                    self.face_down = []
                self.last_capturer = seat
            else:
                if on_play:
                    for name, points in score_play(self, card, (), "", team, last_play):
                        self.deal_points[team] += points
                        self.deal_scores.append((name, team, points))
                hand.remove(card)
                table.append(card)
            log.append((seat, card, captured))
            self.to_move = (seat + 1) % players
            if captured and instant and dealflow.instant_win(self, team):
                continue
            if last_play:
                dealflow.end_deal(self)
                log = self.plays  # a new deal, a new list of plays
                continue
            if declare_at and len(hands[self.to_move]) == declare_at:
                declarations.turn_begins(self)
            if self.stock and not any(hands):
                dealflow.refill_from_stock(self)
        return _tally(branching, counts)

    def _kind_of(self, card: int, captured: tuple[int, ...]) -> str:
        """The capture kind by which ``card`` takes ``captured`` here (builds taken whole: mechanics/builds.py)."""
        if self.game.has_builds:
            return builds_.kind_of(self, card, captured)
        return self.game.variant.capture.kind_of(card, self.table, captured)

    # -- end of a deal and of the match --------------------------------------------------------------------

    # -- reading the position ------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """True when the match is over."""
        return self.over

    def outcome(self) -> Outcome | None:
        """Who won the match and why (``None`` while it goes on)."""
        if not self.over or self.end_reason is None:
            return None
        reason, detail = self.end_reason
        return Outcome(self.winner, reason, tuple(self.totals), detail)

    @property
    def current_seat(self) -> int:
        """The seat to move."""
        return self.to_move

    @property
    def previous(self) -> PlayInfo:
        """The last play of this deal as bonuses see it (``previous``); card -1 and player -1 before the first."""
        if not self.plays:
            return NO_PLAY
        seat, card, captured = self.plays[-1]
        return tuple.__new__(PlayInfo, (card, captured, not captured, seat))  # in C (a bonus may read it every play)

    def bonus_points(self, raw: RawMove) -> int:
        """The bonus points the seat to move would score by playing ``raw`` (from :meth:`raw_moves`), without
        playing it: what :meth:`push_raw` adds to its team's deal points for the play's bonuses (the same
        scope builder and scorer). AI players use it to value moves cheaply (no copy of the position)."""
        game = self.game
        variant = game.variant
        card, captured = raw
        if not variant.bonuses or not (captured or game.bonus_on_play):
            return 0
        kind = self._kind_of(card, captured) if captured and game.reads_kind else ""
        team = game.players.team_of[self.to_move]
        last_play = not self.stock and sum(map(len, self.hands)) == 1
        if self.face_down:
            captured = (*captured, *facedown.taken_with(self.table, captured, self.face_down))
        return sum(points for _name, points in score_play(self, card, captured, kind, team, last_play))

    def returns(self) -> list[float]:
        """Per seat: 1 for a win, -1 for a loss, 0 for a draw or a match still going (OpenSpiel's convention);
        the same as ``outcome().returns(...)`` once the match is over."""
        outcome = self.outcome()
        if outcome is None:
            return [0.0] * self.game.num_players
        return outcome.returns(self.game.players.team_of)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see of this position."""
        cards = self.game.variant.deck.cards
        shown = tuple(tuple(c for c in s if c in h) for s, h in zip(self.shown, self.hands, strict=True))
        seen = (
            set(self.hands[seat]) | set(self.table) | {c for p in self.piles for c in p} | {c for s in shown for c in s}
        )
        return SeatView(
            seat=seat,
            team=self.game.players.team_of[seat],
            hand=tuple(cards[c] for c in self.hands[seat]),
            table=tuple(cards[c] for c in self.table),
            piles=tuple(tuple(cards[c] for c in p) for p in self.piles),
            hand_sizes=tuple(len(h) for h in self.hands),
            stock_size=len(self.stock),
            dealer=self.dealer,
            to_move=self.to_move,
            deal=self.deal_no,
            totals=tuple(self.totals),
            deal_points=tuple(self.deal_points),
            plays=tuple((s, cards[c], tuple(cards[x] for x in cap)) for s, c, cap in self.plays),
            unseen=tuple(c for c in cards if c.index not in seen),
            last_capturer=self.last_capturer,
            shown=tuple(tuple(cards[c] for c in s) for s in shown),
            game=self.game,
            face_down=len(self.face_down),
            builds=builds_.view_of(self) if self.builds else (),
        )

    @classmethod
    def from_view(
        cls,
        game: Game,
        view: SeatView,
        hands: Sequence[Sequence[int]],
        stock: Sequence[int],
        *,
        seed: int = 0,
        auto_deal: bool = False,
        face_down: Sequence[int] = (),
    ) -> State:
        """A full position consistent with ``view``, the hidden cards given: every seat's hand and the stock
        (and the face-down table cards, as many as the view counts).

        This is how a player imagines the position (a determinization): ``hands[view.seat]`` must be the
        seat's own hand, and the other hands and the stock must have the sizes the view shows. Without
        ``auto_deal`` the state does not refill or redeal by itself: its phase says when chance is due.
        """
        if sorted(hands[view.seat]) != sorted(c.index for c in view.hand):
            raise PigliaError("a position built from a view must give the seat its own hand")
        if [len(h) for h in hands] != list(view.hand_sizes) or len(stock) != view.stock_size:
            raise PigliaError("the hidden cards do not have the hand and stock sizes the view shows")
        if len(face_down) != view.face_down:
            raise PigliaError(f"the view counts {view.face_down} face-down table cards, not {len(face_down)}")
        state = cls(game, seed, auto_deal=False, log=False)
        state.auto_deal = auto_deal
        state.dealer = view.dealer
        state.deal_no = view.deal
        state.hands = [sorted(h) for h in hands]
        state.table = [c.index for c in view.table]
        state.builds = [Build(tuple(c.index for c in b.cards), b.value, b.owner, b.multiple) for b in view.builds]
        state.face_down = list(face_down)
        state.stock = list(stock)
        state.piles = [[c.index for c in p] for p in view.piles]
        state.totals = list(view.totals)
        state.deal_points = list(view.deal_points)
        state.plays = [(s, c.index, tuple(x.index for x in cap)) for s, c, cap in view.plays]
        state.last_capturer = view.last_capturer
        if view.shown:
            state.shown = [tuple(c.index for c in s) for s in view.shown]
            if any(not set(s) <= set(h) for s, h in zip(state.shown, state.hands, strict=True)):
                raise PigliaError("a position built from a view must give each seat the cards it has shown")
        state.to_move = view.to_move
        state._deal_pending = False
        return state

    def __repr__(self) -> str:
        deck = self.game.variant.deck
        return (
            f"<State {self.game.variant.name} deal {self.deal_no} seat {self.to_move} to move; "
            f"table {' '.join(deck.ids(self.table)) or '-'}; totals {self.totals}>"
        )


def _tally(branching: dict[int, int], counts: list[int]) -> int:
    """Add a match's turns (``counts``: each turn's number of legal moves) to ``branching``; the number of turns."""
    for n, times in Counter(counts).items():
        branching[n] = branching.get(n, 0) + times
    return len(counts)
