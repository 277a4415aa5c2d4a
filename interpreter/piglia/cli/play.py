"""``piglia play``: a person plays a variant in the terminal against AI players (and with AI partners)."""

from __future__ import annotations

import argparse
import random
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from piglia.cli.common import HELP_FORMAT, UserError, at_least_one, load, out_console
from piglia.errors import PigliaError
from piglia.moves import Move
from piglia.players import Player, make_player
from piglia.record import dump_event
from piglia.recordio import RecordFile, RecordWriteError
from piglia.state import Event, Game, State

AI_KINDS = ["ismcts", "greedy", "random"]
# The longest answer read: a move's notation is short; a longer line is refused, not read into memory whole.
MAX_ANSWER_CHARS = 1000


def record_file(path_text: str | None, variant: str, seed: int) -> tuple[Path, RecordFile]:
    """Open the record file: the one asked for (never overwritten), or a new name in the current directory.

    The record is written as the match goes, one whole flushed line per event (see :mod:`piglia.recordio`).
    """
    if path_text is not None:
        if not path_text.strip():
            raise UserError("--record needs a file name")
        path = Path(path_text)
        if path.exists():
            raise UserError(f"{path} exists; choose another name for --record")
        candidates = [path]
    else:
        stem = f"piglia-{variant}-{seed}"
        candidates = [Path(f"{stem}.jsonl"), *(Path(f"{stem}-{k}.jsonl") for k in range(2, 10_000))]
    for path in candidates:
        try:
            return path, RecordFile.create_live(path)
        except FileExistsError:
            continue
    raise UserError("no free record file name in the current directory; pass --record FILE")


def read_answer(prompt: str) -> str:
    """One answer from standard input (``EOFError`` at its end), never longer than :data:`MAX_ANSWER_CHARS`."""
    if sys.stdin.isatty():
        answer = input(prompt)  # a terminal: line editing; its lines are short
    else:
        print(prompt, end="", flush=True)
        answer = sys.stdin.readline(MAX_ANSWER_CHARS + 1)
        if not answer:
            raise EOFError
        if len(answer) > MAX_ANSWER_CHARS:
            while answer and not answer.endswith("\n"):  # skip the rest of that line, a bounded piece at a time
                answer = sys.stdin.readline(MAX_ANSWER_CHARS + 1)
            return "?" * (MAX_ANSWER_CHARS + 1)
    return answer[: MAX_ANSWER_CHARS + 1]


def _stop_by_keyboard(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # SIGTERM or a closed terminal: stop as Ctrl-C does, keeping the record so far


class Session:
    """One match between a person at ``seat`` and AI players, shown on ``out`` and recorded to ``record``."""

    def __init__(self, state: State, seat: int, players: dict[int, Player], out: Console, record: RecordFile):
        self.state = state
        self.game: Game = state.game
        self.seat = seat
        self.players = players
        self.out = out
        self.record = record
        self.written = 0  # events already written to the record
        self.shown = 0  # events already shown
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
        """Record, then show, the events since the last flush."""
        self.write_new()
        events = self.state.events or []
        while self.shown < len(events):
            event = events[self.shown]
            self.shown += 1  # counted first: a display that fails (a closed pipe) is not retried
            self.show(event)

    def write_new(self) -> None:
        """Write the events not yet written, each once, as whole lines (showing them may fail; this must not)."""
        events = self.state.events or []
        while self.written < len(events):
            self.record.write(dump_event(events[self.written]) + "\n")
            self.written += 1

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

    def ask(self, moves: list[Move]) -> Move | None:
        """The person's choice, asked until it is a valid one; None to stop."""
        self.out.print("Your moves:")
        for i, m in enumerate(moves, 1):
            self.out.print(f"  {i}) {m.describe()}")
        while True:
            answer = read_answer(f"Your move [1-{len(moves)}, q to quit]: ").strip()
            if answer.lower() in ("q", "quit", "exit"):
                return None
            # ASCII digits only, and few: int() of thousands of digits is refused by Python, and '²' is a digit
            if answer.isascii() and answer.isdigit() and len(answer) <= 6 and 1 <= int(answer) <= len(moves):
                return moves[int(answer) - 1]
            try:
                move = Move.parse(answer, self.game.variant.deck) if len(answer) <= MAX_ANSWER_CHARS else None
            except (PigliaError, ValueError):
                move = None
            if move in moves:
                return move
            self.out.print(f"Please answer with a number from 1 to {len(moves)} (or q to quit).")

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
    if sys.stdin is None or sys.stdin.closed:
        raise UserError("piglia play reads your moves from standard input, which is closed")
    at_least_one(args.players, "--players")
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
    session = Session(game.new_match(seed), args.seat, players, out, record)
    finished = False
    problem = None
    old = {sig: signal.signal(sig, _stop_by_keyboard) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        finished = session.run()
    except (EOFError, KeyboardInterrupt):
        out.print()
    except RecordWriteError as exc:
        problem = str(exc)
    except (BrokenPipeError, SystemExit):  # the display is gone (``| head``): stop, keep the record
        out.quiet = True
        problem = "the output was closed; game stopped"
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        try:
            session.write_new()
        except RecordWriteError as exc:
            problem = str(exc)
        record.close()
    if problem is not None:
        print(f"piglia: {problem}; the record so far is in {path}", file=sys.stderr)
        return 1
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
        "e.g. '7d x 3c+4s'); q, end of input or Ctrl-C stops and keeps the record so far. The match is "
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
    s.set_defaults(run=run)
