"""A game in progress: one position of a match, its legal moves, and the whole flow of deals.

:class:`Game` holds the immutable rules for a player count; :class:`State` is one position. ``apply`` returns
the next state; the in-place ``push`` is what simulation loops use. Chance (the shuffle) lives only in
dealing: with ``auto_deal`` a state deals itself from its seed, so a state is a function of the variant, the
seed and the moves; without it (replaying a record) the deals are supplied from outside.

Inside, cards are deck indexes and the hot paths use precomputed tables (see :mod:`piglia.mechanics`).
Every event (deal, refill, play, deal end, match end) is logged in the record format, unless the state is made
with ``log=False``: then no event is built at all, and what a statistician needs is still at hand, cheaply, in
``deal_scores`` (every bonus and award scored in the deal, as ``(name, team, points)``) and through ``observer``,
called once at the end of every deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from piglia.cards import Card
from piglia.contexts import NO_PLAY, AwardEnv, BonusEnv, DealEnv, PlayInfo
from piglia.errors import IllegalMoveError, PigliaError
from piglia.moves import Move
from piglia.variant import Variant

__all__ = ["Game", "SeatView", "State"]

MAX_REDEALS = 1000
Event = dict[str, Any]
RawMove = tuple[int, tuple[int, ...]]  # (played card, captured cards ascending)
Score = tuple[str, int | None, int]  # (bonus or award name, team or None for nobody, points)


def deal_rng(seed: int, deal: int, attempt: int) -> random.Random:
    """The generator for one shuffle: a function of the match seed, the deal number and the redeal attempt."""
    return random.Random(f"piglia/{seed}/deal/{deal}/{attempt}")


class Game:
    """The rules of a variant for a number of players: the factory of states."""

    def __init__(self, variant: Variant, players: int | None = None) -> None:
        count = players or variant.default_players
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
        self.reads_table_before = "table_before" in reads or self.reads_kind
        self.reads_table_after = "table_after" in reads
        self.reads_hand = "hand" in reads
        self.reads_pile = "pile" in reads
        self.bonus_on_play = any(b.on_play for b in variant.bonuses)  # else a placement scores no bonus

    def new_match(self, seed: int, *, auto_deal: bool = True, log: bool = True) -> State:
        """The opening position of a match, dealt from ``seed`` (unless ``auto_deal`` is off)."""
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
    ) -> State:
        """A position set up by hand, with cards named by id: for examples, tests and teaching.

        The stock is dealt from its first card. Cards not named anywhere are out of this deal. With ``opening``
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
        state.start_deal([ids(h) for h in hands], ids(table), ids(stock), opening=False)
        if piles is not None:
            state.piles = [ids(p) for p in piles]
        if to_move is not None:
            state.to_move = to_move
        state.last_capturer = last_capturer
        if opening:
            state.apply_opening()
        return state

    def header(self, seed: int) -> Event:
        """The record header of a match of this game."""
        deck = self.variant.deck
        return {
            "event": "header",
            "format": "piglia-record/1",
            "variant": self.variant.name,
            "spec_sha256": self.variant.sha256,
            "seed": seed,
            "players": self.num_players,
            "teams": [list(t) for t in self.players.teams],
            "cards": {c.id: {"rank": c.rank.name, "suit": c.suit.name} for c in deck.cards},
        }


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
    unseen: tuple[Card, ...]  # cards this seat has not seen: others' hands and the stock
    # the rules being played: public knowledge, so that a player can reason about what moves are worth
    game: Game | None = field(default=None, repr=False, compare=False)


class State:
    """One position of a match. Build it with :meth:`Game.new_match`."""

    __slots__ = (
        "auto_deal",
        "deal_no",
        "deal_points",
        "deal_scores",
        "dealer",
        "events",
        "game",
        "hands",
        "last_capturer",
        "needs_deal",
        "observer",
        "over",
        "piles",
        "plays",
        "previous",
        "seed",
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
        self.events: list[Event] | None = [game.header(seed)] if log else None
        first = game.players.first_dealer
        self.dealer = random.Random(f"piglia/{seed}/first-dealer").randrange(n) if first is None else first
        self.deal_no = 1
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.table: list[int] = []
        self.stock: list[int] = []
        self.piles: list[list[int]] = [[] for _ in range(game.num_teams)]
        self.totals = [0] * game.num_teams
        self.deal_points = [0] * game.num_teams
        self.last_capturer = -1
        self.previous: PlayInfo = NO_PLAY
        self.plays: list[tuple[int, int, tuple[int, ...]]] = []
        self.to_move = 0
        self.over = False
        self.winner: int | None = None
        self.needs_deal = True
        self.deal_scores: list[Score] = []
        self.observer: Callable[[State], None] | None = None
        if auto_deal:
            self._deal_from_seed()

    # -- copying -----------------------------------------------------------------------------------------

    def clone(self) -> State:
        """An independent copy of this position."""
        other = State.__new__(State)
        other.game = self.game
        other.seed = self.seed
        other.auto_deal = self.auto_deal
        other.events = list(self.events) if self.events is not None else None
        other.dealer = self.dealer
        other.deal_no = self.deal_no
        other.hands = [list(h) for h in self.hands]
        other.table = list(self.table)
        other.stock = list(self.stock)
        other.piles = [list(p) for p in self.piles]
        other.totals = list(self.totals)
        other.deal_points = list(self.deal_points)
        other.last_capturer = self.last_capturer
        other.previous = self.previous
        other.plays = list(self.plays)
        other.to_move = self.to_move
        other.over = self.over
        other.winner = self.winner
        other.needs_deal = self.needs_deal
        other.deal_scores = list(self.deal_scores)
        other.observer = None  # a copy is another line of play: whoever watched this one did not ask for it
        return other

    # -- dealing -------------------------------------------------------------------------------------------

    def _log(self, event: Event) -> None:
        if self.events is not None:
            self.events.append(event)

    def _ids(self, cards: Sequence[int]) -> list[str]:
        ids = self.game.variant.deck.cards
        return [ids[c].id for c in cards]

    def shuffled_deal(self, attempt: int) -> tuple[list[list[int]], list[int], list[int]]:
        """The hands, table and stock that the seed gives for the current deal's ``attempt``-th shuffle.

        Cards go one at a time to each seat from the one after the dealer, then to the table; the rest is the
        stock, dealt from its first card.
        """
        rules = self.game.deal_rules
        n = self.game.num_players
        cards = list(range(len(self.game.variant.deck)))
        deal_rng(self.seed, self.deal_no, attempt).shuffle(cards)
        hands: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(rules.hand):
            for k in range(n):
                hands[(self.dealer + 1 + k) % n].append(cards[pos])
                pos += 1
        return hands, cards[pos : pos + rules.table], cards[pos + rules.table :]

    def _deal_from_seed(self) -> None:
        for attempt in range(MAX_REDEALS):
            hands, table, stock = self.shuffled_deal(attempt)
            if self.is_misdeal(table):
                if self.events is None:
                    continue
                self._log(
                    {
                        "event": "misdeal",
                        "deal": self.deal_no,
                        "dealer": self.dealer,
                        "table": self._ids(table),
                        "reason": self.game.deal_rules.redeal_reason,
                    }
                )
                continue
            self.start_deal(hands, table, stock)
            return
        raise PigliaError(
            f"deal.redeal.when: the redeal condition held on {MAX_REDEALS} shuffles in a row; it almost always holds"
        )

    def is_misdeal(self, table: Sequence[int]) -> bool:
        """Whether an opening table would be redealt under this variant's rules (S1.3)."""
        redeal = self.game.deal_rules.redeal
        return redeal is not None and bool(redeal(DealEnv(tuple(table), self.dealer)))

    def start_deal(
        self, hands: Sequence[Sequence[int]], table: Sequence[int], stock: Sequence[int], *, opening: bool = True
    ) -> None:
        """Begin the current deal with these hands, table and stock (the stock's first card is dealt first).

        Then the opening bonuses of the variant are applied, unless ``opening`` is false.
        """
        if not self.needs_deal:
            raise PigliaError("a deal is in progress")
        self.hands = [sorted(h) for h in hands]
        self.table = list(table)
        self.stock = list(stock)
        self.piles = [[] for _ in self.piles]
        self.deal_points = [0] * len(self.deal_points)
        self.last_capturer = -1
        self.previous = NO_PLAY
        self.plays = []
        self.deal_scores = []
        self.needs_deal = False
        self.to_move = (self.dealer + self.game.players.lead_offset) % self.game.num_players
        if self.events is not None:
            self._log(
                {
                    "event": "deal",
                    "deal": self.deal_no,
                    "dealer": self.dealer,
                    "hands": [self._ids(h) for h in self.hands],
                    "table": self._ids(self.table),
                    "stock": len(self.stock),
                }
            )
        if opening:
            self.apply_opening()

    def apply_opening(self) -> None:
        """Score the opening bonuses (``deal.opening``) on the table as dealt, for the dealer's team.

        Each one that holds is logged as an ``opening`` event; the cards it takes go to the dealer's team and
        count as the dealer's capture (for the leftover). Bonuses are checked in order, each on the table that
        the ones before it left.
        """
        bonuses = self.game.deal_rules.opening
        if not bonuses:
            return
        dealer = self.dealer
        team = self.game.players.team_of[dealer]
        for bonus in bonuses:
            env = DealEnv(tuple(self.table), dealer)
            if not bonus.when(env):
                continue
            points = int(bonus.points(env))
            taken: list[int] = []
            if bonus.take is not None:
                wanted = set(bonus.take(env))
                taken = sorted(c for c in self.table if c in wanted)
                self.table = [c for c in self.table if c not in wanted]
                self.piles[team].extend(taken)
                if taken:
                    self.last_capturer = dealer
            self.deal_points[team] += points
            self.deal_scores.append((bonus.name, team, points))
            self._log(
                {
                    "event": "opening",
                    "deal": self.deal_no,
                    "player": dealer,
                    "name": bonus.name,
                    "points": points,
                    "captured": self._ids(taken),
                }
            )
            if taken and self._instant_win(team):
                return

    def _instant_win(self, team: int) -> bool:
        """End the match at once if ``team``'s pile meets the variant's ``match.instant_win`` condition."""
        match = self.game.variant.match
        if match.instant_win is None or self.over:
            return False
        if not match.instant_win(AwardEnv(tuple(self.piles[team]), team, self.deal_no)):
            return False
        self.over = True
        self.winner = team
        self._log({"event": "match_end", "totals": list(self.totals), "winner": team, "reason": match.instant_reason})
        return True

    def refill(self, hands: Sequence[Sequence[int]] | None = None) -> None:
        """Deal the hands again from the stock: from its top, or (replaying) these given cards."""
        n = self.game.num_players
        size = self.game.deal_rules.hand
        if hands is None:
            new: list[list[int]] = [[] for _ in range(n)]
            for _ in range(size):
                for k in range(n):
                    new[(self.dealer + 1 + k) % n].append(self.stock.pop(0))
        else:
            new = [list(h) for h in hands]
            taken = [c for h in new for c in h]
            missing = set(taken) - set(self.stock)
            if missing or len(set(taken)) != len(taken):
                raise PigliaError("the refill deals cards that are not in the stock")
            if any(len(h) != size for h in new):
                raise PigliaError(f"a refill deals {size} cards to each player")
            self.stock = [c for c in self.stock if c not in set(taken)]
        self.hands = [sorted(h) for h in new]
        if self.events is None:
            return
        self._log(
            {
                "event": "refill",
                "deal": self.deal_no,
                "hands": [self._ids(h) for h in self.hands],
                "stock": len(self.stock),
            }
        )

    # -- moves ---------------------------------------------------------------------------------------------

    def capture_options(self, card: int) -> list[tuple[tuple[int, ...], str]]:
        """The captures (with their kind) open to ``card`` on the current table."""
        return self.game.variant.capture.options(card, self.table)

    def raw_moves(self) -> list[RawMove]:
        """Legal moves as (card index, captured indexes), sorted; the engine's fast path."""
        if self.over or self.needs_deal:
            return []
        capture = self.game.variant.capture
        finders = capture.finders  # capture.captures, inlined: this is the innermost loop of a simulation
        table = self.table
        mandatory = capture.mandatory
        out: list[RawMove] = []
        for card in self.hands[self.to_move]:
            caps = None
            for find in finders:
                caps = find(card, table)
                if caps:
                    break
            if caps:
                if not mandatory:
                    out.append((card, ()))
                out += [(card, cap) for cap in caps]
            else:
                out.append((card, ()))
        return out

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move, sorted; empty when the match is over."""
        cards = self.game.variant.deck.cards
        make = Move._sorted  # raw moves list captured cards in deck order already
        return [make(cards[c], tuple([cards[t] for t in cap])) for c, cap in self.raw_moves()]

    def apply(self, move: Move) -> State:
        """The position after ``move``; raises :class:`IllegalMoveError` if the rules do not allow it."""
        nxt = self.clone()
        nxt.push(move)
        return nxt

    def push(self, move: Move) -> None:
        """Play ``move`` in place (checked)."""
        raw = (move.card.index, tuple(c.index for c in move.captured))
        if raw not in self.raw_moves():
            raise IllegalMoveError(self.why_illegal(raw))
        self.push_raw(raw)

    def why_illegal(self, raw: RawMove) -> str:
        """Words for why a move is not legal here."""
        deck = self.game.variant.deck
        card, captured = raw
        name = deck.cards[card].name
        if self.over:
            return "the match is over"
        if card not in self.hands[self.to_move]:
            return f"seat {self.to_move} does not hold the {name}"
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
        """Play a move given as indexes, unchecked: the caller took it from :meth:`raw_moves`."""
        game = self.game
        variant = game.variant
        card, captured = raw
        seat = self.to_move
        team = game.players.team_of[seat]
        hand = self.hands[seat]
        hand.remove(card)
        table = self.table
        bonuses = variant.bonuses if captured or game.bonus_on_play else ()
        table_before = tuple(table) if bonuses and game.reads_table_before else ()
        if captured:
            for c in captured:
                table.remove(c)
            pile = self.piles[team]
            pile.append(card)
            pile.extend(captured)
            self.last_capturer = seat
        else:
            table.append(card)
        last_play = not self.stock and not any(self.hands)
        scored: list[dict[str, Any]] = []
        if bonuses:
            # Only what some bonus reads is built; the rest of the scope stays empty (nobody looks at it).
            kind = variant.capture.kind_of(card, table_before, captured) if captured and game.reads_kind else ""
            env = BonusEnv(
                card,
                captured,
                table_before,
                tuple(table) if game.reads_table_after else (),
                self.previous,
                last_play,
                seat,
                team,
                kind,
                tuple(hand) if game.reads_hand else (),
                tuple(self.piles[team]) if game.reads_pile else (),
                self.deal_no,
            )
            logging = self.events is not None
            for bonus in bonuses:
                if (captured or bonus.on_play) and bonus.when(env):
                    points = int(bonus.points(env))
                    self.deal_points[team] += points
                    self.deal_scores.append((bonus.name, team, points))
                    if logging:
                        scored.append({"name": bonus.name, "points": points})
        self.previous = PlayInfo(card, captured, not captured, seat)
        self.plays.append((seat, card, captured))
        if self.events is not None:
            cards = variant.deck.cards
            self.events.append(
                {
                    "event": "play",
                    "deal": self.deal_no,
                    "player": seat,
                    "card": cards[card].id,
                    "captured": [cards[c].id for c in captured],
                    "bonuses": scored,
                }
            )
        self.to_move = (seat + 1) % game.num_players
        if captured and variant.match.instant_win is not None and self._instant_win(team):
            return
        if not last_play:
            if self.stock and not any(self.hands) and self.auto_deal:
                self.refill()
            return
        self._end_deal()

    # -- end of a deal and of the match --------------------------------------------------------------------

    def _end_deal(self) -> None:
        game = self.game
        variant = game.variant
        leftover_team: int | None = None
        leftover = list(self.table)
        if leftover and variant.leftover == "last_capturer" and self.last_capturer >= 0:
            leftover_team = game.players.team_of[self.last_capturer]
            self.piles[leftover_team].extend(leftover)
            self.table = []
        piles = [tuple(p) for p in self.piles]
        scores = self.deal_scores
        first_award = len(scores)  # bonuses come first in deal_scores, then the awards
        for award in variant.awards:
            for team, points in award.entries(piles, self.deal_no):
                scores.append((award.name, team, points))
                if team is not None:
                    self.deal_points[team] += points
        for t, points in enumerate(self.deal_points):
            self.totals[t] += points
        over, winner = variant.match.winner(self.totals, self.deal_no)
        if self.events is not None:
            awards = [{"name": n, "team": t, "points": p} for n, t, p in scores[first_award:]]
            self._log(
                {
                    "event": "deal_end",
                    "deal": self.deal_no,
                    "leftover": {"team": leftover_team, "cards": self._ids(leftover)},
                    "awards": awards,
                    "points": list(self.deal_points),
                    "totals": list(self.totals),
                }
            )
        # An instant win by the leftover still closes the deal (awards, totals) before the match ends.
        if leftover_team is not None and self._instant_win(leftover_team):
            if self.observer is not None:
                self.observer(self)
            return
        if over:
            self.over = True
            self.winner = winner
            end: Event = {"event": "match_end", "totals": list(self.totals), "winner": winner}
            reason = variant.match.stop_reason(self.totals, self.deal_no)  # the deal limit (match.max_deals)
            self._log({**end, "reason": reason} if reason else end)
        if self.observer is not None:
            self.observer(self)
        if over:
            return
        if game.players.rotation == "next":
            self.dealer = (self.dealer + 1) % game.num_players
        self.deal_no += 1
        self.needs_deal = True
        if self.auto_deal:
            self._deal_from_seed()

    # -- reading the position ------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """True when the match is over."""
        return self.over

    @property
    def needs_refill(self) -> bool:
        """True when every hand is empty and the stock must be dealt (only without ``auto_deal``)."""
        return not self.over and not self.needs_deal and bool(self.stock) and not any(self.hands)

    @property
    def current_seat(self) -> int:
        """The seat to move."""
        return self.to_move

    def bonus_points(self, raw: RawMove) -> int:
        """The bonus points the seat to move would score by playing ``raw`` (from :meth:`raw_moves`), without
        playing it: what :meth:`push_raw` adds to its team's deal points for the play's bonuses. AI players
        use it to value moves cheaply (no copy of the position)."""
        game = self.game
        variant = game.variant
        card, captured = raw
        if not variant.bonuses or not (captured or game.bonus_on_play):
            return 0
        seat = self.to_move
        team = game.players.team_of[seat]
        table = self.table
        hand = [c for c in self.hands[seat] if c != card]
        table_after = tuple(c for c in table if c not in captured) if captured else (*table, card)
        kind = variant.capture.kind_of(card, table, captured) if captured and game.reads_kind else ""
        pile: tuple[int, ...] = ()
        if game.reads_pile:
            pile = (*self.piles[team], card, *captured) if captured else tuple(self.piles[team])
        env = BonusEnv(
            card,
            captured,
            tuple(table) if game.reads_table_before else (),
            table_after if game.reads_table_after else (),
            self.previous,
            not self.stock and not hand and not any(h for s, h in enumerate(self.hands) if s != seat),
            seat,
            team,
            kind,
            tuple(hand) if game.reads_hand else (),
            pile,
            self.deal_no,
        )
        total = 0
        for bonus in variant.bonuses:
            if (captured or bonus.on_play) and bonus.when(env):
                total += int(bonus.points(env))
        return total

    def returns(self) -> list[float]:
        """Per seat: 1 for a win, -1 for a loss, 0 for a draw or a match still going (OpenSpiel's convention)."""
        if not self.over or self.winner is None:
            return [0.0] * self.game.num_players
        return [1.0 if t == self.winner else -1.0 for t in self.game.players.team_of]

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see of this position."""
        cards = self.game.variant.deck.cards
        seen = set(self.hands[seat]) | set(self.table) | {c for p in self.piles for c in p}
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
            game=self.game,
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
    ) -> State:
        """A full position consistent with ``view``, the hidden cards given: every seat's hand and the stock.

        This is how a player imagines the position (a determinization): ``hands[view.seat]`` must be the
        seat's own hand, and the other hands and the stock must have the sizes the view shows. Without
        ``auto_deal`` the state does not refill or redeal by itself (see :attr:`needs_refill`).
        """
        if sorted(hands[view.seat]) != sorted(c.index for c in view.hand):
            raise PigliaError("a position built from a view must give the seat its own hand")
        if [len(h) for h in hands] != list(view.hand_sizes) or len(stock) != view.stock_size:
            raise PigliaError("the hidden cards do not have the hand and stock sizes the view shows")
        state = cls(game, seed, auto_deal=False, log=False)
        state.auto_deal = auto_deal
        state.dealer = view.dealer
        state.deal_no = view.deal
        state.hands = [sorted(h) for h in hands]
        state.table = [c.index for c in view.table]
        state.stock = list(stock)
        state.piles = [[c.index for c in p] for p in view.piles]
        state.totals = list(view.totals)
        state.deal_points = list(view.deal_points)
        state.plays = [(s, c.index, tuple(x.index for x in cap)) for s, c, cap in view.plays]
        state.last_capturer = next((s for s, _c, cap in reversed(state.plays) if cap), -1)
        if state.plays:
            seat, card, captured = state.plays[-1]
            state.previous = PlayInfo(card, captured, not captured, seat)
        state.to_move = view.to_move
        state.needs_deal = False
        return state

    def __repr__(self) -> str:
        deck = self.game.variant.deck
        return (
            f"<State {self.game.variant.name} deal {self.deal_no} seat {self.to_move} to move; "
            f"table {' '.join(deck.ids(self.table)) or '-'}; totals {self.totals}>"
        )
