"""``piglia play``: a person plays a variant in the terminal against AI players (and with AI partners)."""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from piglia.cli.common import HELP_FORMAT, UserError, load, out_console
from piglia.errors import PigliaError
from piglia.moves import Move
from piglia.players import Player, coach, make_player
from piglia.players.coach import Advice
from piglia.record import dump_event
from piglia.state import Event, Game, State

AI_KINDS = ["ismcts", "greedy", "random"]


def record_file(path_text: str | None, variant: str, seed: int) -> tuple[Path, IO[str]]:
    """Open the record file: the one asked for (never overwritten), or a new name in the current directory."""
    if path_text:
        path = Path(path_text)
        if path.exists():
            raise UserError(f"{path} exists; choose another name for --record")
        candidates = [path]
    else:
        stem = f"piglia-{variant}-{seed}"
        candidates = [Path(f"{stem}.jsonl"), *(Path(f"{stem}-{k}.jsonl") for k in range(2, 10_000))]
    for path in candidates:
        try:
            return path, path.open("x", encoding="utf-8")
        except FileExistsError:
            continue
        except OSError as exc:
            raise UserError(f"cannot write {path}: {exc.strerror}") from None
    raise UserError("no free record file name in the current directory; pass --record FILE")


class Session:
    """One match between a person at ``seat`` and AI players, shown on ``out`` and recorded to ``record``."""

    def __init__(
        self, state: State, seat: int, players: dict[int, Player], out: Console, record: IO[str], coach: bool = False
    ):
        self.state = state
        self.coach = coach  # advice before every turn of the person, and a review after every deal
        self.turns: list[tuple[int, list[Advice], Move]] = []  # the person's advised turns, for the review
        self.game: Game = state.game
        self.seat = seat
        self.players = players
        self.out = out
        self.record = record
        self.shown = 0  # events already shown and written
        self.cards = self.game.variant.deck.cards

    # -- names --------------------------------------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        if seat == self.seat:
            return "You"
        team_of = self.game.players.team_of
        role = "your partner" if team_of[seat] == team_of[self.seat] else "opponent"
        return f"Seat {seat} ({role}, {self.players[seat].name})"

    def team_name(self, team: int | None) -> str:
        if team is None:
            return "nobody"
        mine = team == self.game.players.team_of[self.seat]
        seats = ",".join(str(s) for s in self.game.players.teams[team])
        return f"team {team} ({'you' if mine else 'them'}; seats {seats})"

    def names(self, ids: list[str]) -> str:
        deck = self.game.variant.deck
        return ", ".join(deck.parse_card(c).name for c in ids) or "(empty)"

    # -- the events as they happen -----------------------------------------------------------------------

    def flush(self) -> None:
        """Show and record the events since the last flush."""
        events = self.state.events or []
        for event in events[self.shown :]:
            self.record.write(dump_event(event) + "\n")
            self.show(event)
        self.shown = len(events)
        self.record.flush()

    def show(self, e: Event) -> None:
        out = self.out
        kind = e["event"]
        if kind == "deal":
            out.print(f"\n[bold]Deal {e['deal']}[/] (dealer: seat {e['dealer']}). Table: {self.names(e['table'])}")
        elif kind == "misdeal":
            out.print(f"Misdeal ({e['reason']}): the cards are dealt again.")
        elif kind == "refill":
            out.print(f"New hands are dealt; {e['stock']} cards left in the stock.")
        elif kind == "play":
            deck = self.game.variant.deck
            move = Move(deck.parse_card(e["card"]), tuple(deck.parse_card(c) for c in e["captured"]))
            text = move.describe()
            bonuses = "".join(f"; {escape(b['name'])} +{b['points']}" for b in e["bonuses"])
            out.print(f"{self.seat_name(e['player'])}: {text}{bonuses}")
        elif kind == "deal_end":
            left = e["leftover"]
            if left["cards"]:
                out.print(f"Left on the table: {self.names(left['cards'])}, to {self.team_name(left['team'])}")
            table = Table("award", "won by", "points", title=f"End of deal {e['deal']}", title_justify="left")
            for a in e["awards"]:
                table.add_row(escape(a["name"]), self.team_name(a["team"]), str(a["points"]))
            out.print(table)
            points = ", ".join(f"{self.team_name(t)} {p}" for t, p in enumerate(e["points"]))
            totals = ", ".join(f"{self.team_name(t)} {p}" for t, p in enumerate(e["totals"]))
            out.print(f"Points this deal: {points}\nMatch score: {totals}")
            self.show_review(e["deal"])
        elif kind == "match_end":
            winner = e["winner"]
            if winner is None:
                out.print("[bold]The match is a draw.[/]")
            elif winner == self.game.players.team_of[self.seat]:
                out.print(f"[bold]You win the match[/] {'-'.join(map(str, e['totals']))}.")
            else:
                out.print(f"[bold]You lose the match[/] {'-'.join(map(str, e['totals']))}.")

    # -- the person's turn ------------------------------------------------------------------------------

    def show_position(self) -> None:
        s = self.state
        cards = self.cards
        my_team = self.game.players.team_of[self.seat]
        score = ", ".join(f"{self.team_name(t)} {p}" for t, p in enumerate(s.totals))
        piles = ", ".join(f"{self.team_name(t)} {len(p)} cards" for t, p in enumerate(s.piles))
        self.out.print(f"\nDeal {s.deal_no}. Match score: {score}")
        self.out.print(f"Piles: {piles}; stock: {len(s.stock)} cards. You are seat {self.seat}, team {my_team}.")
        self.out.print(f"Table: {', '.join(cards[c].name for c in s.table) or '(empty)'}")
        self.out.print(f"Your hand: {', '.join(cards[c].name for c in s.hands[self.seat])}")

    # -- the coach ------------------------------------------------------------------------------------------

    def show_advice(self, moves: list[Move]) -> list[Advice]:
        """The coach's estimate of every move, best first (see :mod:`piglia.players.coach`)."""
        advice = coach.advise(self.state.view(self.seat), moves, seed=self.state.seed * 16 + self.seat)
        table = Table("move", "points this deal", "one ply", "bonus risk", title="Coach", title_justify="left")
        for a in advice:
            table.add_row(
                f"{moves.index(a.move) + 1}) {a.move.describe()}",
                f"{a.value:+.2f}",
                f"{a.greedy:+.2f}",
                f"{a.risk:.0%}",
            )
        self.out.print(table)
        self.out.print(f"Best: {advice[0].move.describe()}: {escape(advice[0].why)}")
        return advice

    def show_review(self, deal: int) -> None:
        mistakes = coach.review([t for t in self.turns if t[0] == deal])
        if not any(t[0] == deal for t in self.turns):
            return
        if not mistakes:
            self.out.print("Coach: no move of yours this deal lost anything worth mentioning.")
        for m in mistakes:
            self.out.print(
                f"Coach: {m.played.move.describe()} lost {m.loss:.2f} points against {m.best.move.describe()}."
            )

    def ask(self, moves: list[Move]) -> Move | None:
        """The person's choice, asked until it is a valid one; None to stop."""
        self.out.print("Your moves:")
        for i, m in enumerate(moves, 1):
            self.out.print(f"  {i}) {m.describe()}")
        advice = self.show_advice(moves) if self.coach and len(moves) > 1 else None
        while True:
            answer = input(f"Your move [1-{len(moves)}, ? for the coach, q to quit]: ").strip()
            if answer.lower() in ("q", "quit", "exit"):
                return None
            if answer == "?":
                advice = self.show_advice(moves)
                continue
            chosen = self.read_move(answer, moves)
            if chosen is None:
                self.out.print(f"Please answer with a number from 1 to {len(moves)} (or ? for the coach, q to quit).")
                continue
            if advice is not None:
                self.turns.append((self.state.deal_no, advice, chosen))
            return chosen

    def read_move(self, answer: str, moves: list[Move]) -> Move | None:
        """The move an answer names (its number or its notation), or None."""
        if answer.isdigit() and 1 <= int(answer) <= len(moves):
            return moves[int(answer) - 1]
        try:
            move = Move.parse(answer, self.game.variant.deck)
        except PigliaError:
            return None
        return move if move in moves else None

    def run(self) -> bool:
        """Play to the end of the match; False if the person stopped early."""
        state = self.state
        self.flush()
        while not state.over:
            seat = state.to_move
            moves = state.legal_moves()
            if seat == self.seat:
                self.show_position()
                move = self.ask(moves)
                if move is None:
                    return False
            else:
                move = moves[0] if len(moves) == 1 else self.players[seat].choose(state.view(seat), moves)
            state.push(move)
            self.flush()
        return True


def run(args: argparse.Namespace) -> int:
    """Play one match in the terminal."""
    variant = load(args.variant)
    game = Game(variant, args.players)
    if not 0 <= args.seat < game.num_players:
        raise UserError(f"--seat must be from 0 to {game.num_players - 1}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    players = {s: make_player(args.opponents, seed * 16 + s) for s in range(game.num_players) if s != args.seat}
    path, record = record_file(args.record, variant.name, seed)
    out = out_console()
    if not out.is_terminal:
        out.width = 120  # plain text to a file or a pipe: wide enough that the tables do not fold
    out.print(f"[bold]{escape(variant.title)}[/], {game.num_players} players, seed {seed}; recording to {path}")
    session = Session(game.new_match(seed), args.seat, players, out, record, coach=args.coach)
    finished = False
    try:
        finished = session.run()
    except (EOFError, KeyboardInterrupt):
        out.print()
    finally:
        session.flush()
        record.close()
    if not finished:
        out.print(f"Game stopped; the record so far is in {path}")
    else:
        out.print(f"Record saved to {path} (check it with: piglia replay {path})")
    return 0


def register(sub: Any) -> None:
    """Add the command to the ``piglia`` parser."""
    s = sub.add_parser(
        "play",
        help="play a variant in the terminal against AI players",
        description="Play one match against AI players: you at --seat, the other seats (your partner too, "
        "in partnership games) played by --opponents. Answer with the number of a move (or its notation, "
        "e.g. '7d x 3c+4s'), or ? for the coach's view of every move; q, end of input or Ctrl-C stops "
        "and keeps the record so far. The match is "
        "recorded to --record FILE, or to a new piglia-VARIANT-SEED.jsonl in the current directory.",
        epilog="examples:\n  piglia play my-game.yaml\n  piglia play my-game.yaml --opponents greedy --seed 7\n"
        "  piglia play my-game.yaml --players 4 --seat 0",
        formatter_class=HELP_FORMAT,
    )
    s.add_argument("variant", metavar="VARIANT", help="a rule file or a built-in variant's name")
    s.add_argument("--players", type=int, help="number of players, where the variant allows several")
    s.add_argument("--seat", type=int, default=0, help="your seat, from 0 (default 0)")
    s.add_argument(
        "--opponents", default="ismcts", help="the AI for every other seat: ismcts (default), greedy, random"
    )
    s.add_argument("--seed", type=int, help="the match's seed (default: a random one, shown at the start)")
    s.add_argument("--record", metavar="FILE", help="record the match to FILE (default: a new file here)")
    s.add_argument(
        "--coach",
        action="store_true",
        help="before each of your moves, the AI's estimate of every move (also on request: answer ?), "
        "and after each deal the moves where you lost most",
    )
    s.set_defaults(run=run)
