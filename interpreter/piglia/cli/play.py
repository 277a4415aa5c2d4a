"""``piglia play``: a person plays a variant in the terminal against AI players (and with AI partners)."""

from __future__ import annotations

import argparse
import random
import shlex
import signal
import sys
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from types import FrameType
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from piglia.cli.common import HELP_FORMAT, UserError, at_least_one, load, out_console
from piglia.errors import LimitError, PigliaError
from piglia.events import RecordEvent, deal_piles
from piglia.locales import languages
from piglia.moves import Move
from piglia.players import Player, coach, make_player
from piglia.players.coach import Advice
from piglia.players.knowledge import play_bonuses
from piglia.reasons import refusal
from piglia.record import dump_event
from piglia.recordio import RecordFile, RecordWriteError
from piglia.spec import builtin_names
from piglia.state import Game, State
from piglia.texts import VariantTexts, untranslated_note

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
        if path.exists() or path.is_symlink():  # a link to a missing file is a name taken too
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
    if path_text is not None:  # created meanwhile
        raise UserError(f"{path_text} exists; choose another name for --record")
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
    """One match between a person at ``seat`` and AI players, shown on ``out`` and recorded to ``record``.

    Every word shown comes from the message catalog of ``lang`` and the variant's own translations
    (:class:`~piglia.texts.VariantTexts`): suit, rank, bonus and award names in that language.
    """

    def __init__(
        self,
        state: State,
        seat: int,
        players: dict[int, Player],
        out: Console,
        record: RecordFile,
        lang: str = "en",
        coach: bool = False,
    ):
        self.state = state
        self.coach = coach  # advice before every turn of the person, and a review after every deal
        self.turns: list[tuple[int, list[Advice], Move]] = []  # the person's advised turns, for the review
        self.game: Game = state.game
        self.seat = seat
        self.players = players
        self.out = out
        self.record = record
        self.written = 0  # events already written to the record
        self.shown = 0  # events already shown
        self.cards = self.game.variant.deck.cards
        self.texts = VariantTexts(self.game.variant, lang)
        self.msg = self.texts.msg

    # -- names --------------------------------------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        """ "You", "Opponent (greedy)" with two players, "Seat 2 (your partner, greedy)" with more."""
        m = self.msg
        if seat == self.seat:
            return m("play.you")
        ai = self.players[seat].name
        if self.game.num_players == 2:
            return m("play.opponent_ai", ai=ai)
        team_of = self.game.players.team_of
        key = "play.seat_partner" if team_of[seat] == team_of[self.seat] else "play.seat_opponent"
        return m(key, seat=seat, ai=ai)

    def team_name(self, team: int | None) -> str:
        """Who a team is for the person: "You" and "Opponent", "Your team" and "Opponents", or a seat."""
        m = self.msg
        if team is None:
            return m("play.nobody")
        teams = self.game.players.teams
        mine = team == self.game.players.team_of[self.seat]
        if all(len(t) == 1 for t in teams):
            if mine:
                return m("play.you")
            return m("play.opponent") if len(teams) == 2 else m("play.seat", seat=teams[team][0])
        if mine:
            return m("play.your_team")
        if len(teams) == 2:
            return m("play.opponents")
        return m("play.team", team=team, seats=",".join(str(s) for s in teams[team]))

    # Card and move names come from the rule file (its translations may name a suit "[blink]coppe"): every text
    # made of them is escaped here, where it is made, for the console that reads markup in what it prints.

    def card_list(self, cards: list[int]) -> str:
        return escape(", ".join(self.texts.card(c) for c in cards)) or self.msg("play.empty")

    def names(self, ids: list[str]) -> str:
        deck = self.game.variant.deck
        return self.card_list([deck.parse_card(c).index for c in ids])

    def describe(self, move: Move) -> str:
        """The move in words of the language: "7 of coins takes 3 of cups + 4 of swords" (markup escaped)."""
        return escape(self.texts.move(move))

    def bonus_list(self, bonuses: list[dict[str, Any]]) -> str:
        return "; ".join(f"{escape(self.texts.name(str(b['name'])))} +{b['points']}" for b in bonuses)

    def scores(self, points: list[int] | tuple[int, ...]) -> str:
        return ", ".join(f"{self.team_name(t)} {p}" for t, p in enumerate(points))

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

    def show(self, e: RecordEvent) -> None:
        out, m = self.out, self.msg
        kind = e["event"]
        if kind == "deal":
            dealer = self.seat_name(e["dealer"])
            out.print("\n" + m("play.deal", deal=e["deal"], dealer=dealer, table=self.names(e["table"])))
        elif kind == "misdeal":
            out.print(m("play.misdeal", reason=escape(self.texts.reason("redeal") or str(e["reason"]))))
        elif kind == "refill":
            out.print(m.plural("play.refill", e["stock"]))
        elif kind == "opening":  # the dealer's bonus on the table dealt, and the cards it took
            name = escape(self.texts.name(str(e["name"])))
            who = self.seat_name(e["player"])
            out.print(m("play.opening", who=who, name=name, points=e["points"], cards=self.names(e["captured"])))
        elif kind == "play":
            deck = self.game.variant.deck
            move = Move(deck.parse_card(e["card"]), tuple(deck.parse_card(c) for c in e["captured"]))
            if e.get("build") is not None:
                move = Move.build(move.card, tuple(deck.parse_card(c) for c in e["onto"]), e["build"])
            bonuses = self.bonus_list(e["bonuses"])
            said = self.describe(move)
            if e.get("face_down"):  # the face-down cards under the pile, now seen
                said += " " + m("play.face_down_taken", cards=self.names(e["face_down"]))
            out.print(f"{self.seat_name(e['player'])}: {said}" + (f"; {bonuses}" if bonuses else ""))
        elif kind == "declare":
            text = m(
                "play.declare",
                who=self.seat_name(e["player"]),
                name=escape(self.texts.name(str(e["name"]))),
                cards=self.names(e["cards"]),
                points=e["points"],
            )
            for wild, named in (e.get("named") or {}).items():
                text += " " + m("play.declare_wild", wild=self.names([wild]), named=self.names([named]))
            out.print(text)
        elif kind == "deal_end":
            left = e["leftover"]
            if left["cards"]:
                out.print(m("play.leftover", cards=self.names(left["cards"]), who=self.team_name(left["team"])))
            out.print(self.score_sheet(e))
            out.print(m("play.deal_points", points=self.scores(e["points"])))
            out.print(m("play.match_score", score=self.scores(e["totals"])))
            self.show_review(e["deal"])
        elif kind == "match_end":
            winner = e["winner"]
            score = "-".join(map(str, e["totals"]))
            if winner is None and e.get("reason") == "deal limit":  # stopped by match.max_deals, not drawn
                out.print(f"[bold]{m('play.deal_limit', score=score)}[/]")
            elif winner is None:
                out.print(f"[bold]{m('play.draw', score=score)}[/]")
            elif winner == self.game.players.team_of[self.seat]:
                out.print(f"[bold]{m('play.win', score=score)}[/]")
            else:
                out.print(f"[bold]{m('play.lose', score=score)}[/]")

    def score_sheet(self, e: RecordEvent) -> Table:
        """The end-of-deal sheet: each award, the counts behind it (cards 23-17), who won it, its points."""
        m = self.msg
        deck, players = self.game.variant.deck, self.game.players
        taken = deal_piles(self.state.events or [], players.team_of, len(players.teams), e["deal"])
        piles = [tuple(deck.parse_card(c).index for c in pile) for pile in taken]
        counts = {a.name: a.values(piles, e["deal"]) for a in self.game.variant.awards}
        table = Table(
            m("play.col.award"),
            m("play.col.counts"),
            m("play.col.won_by"),
            m("play.col.points"),
            title=m("play.deal_end", deal=e["deal"]),
            title_justify="left",
        )
        for a in e["awards"]:
            values = counts.get(a["name"])
            shown = "-".join("–" if v is None else str(v) for v in values) if values else ""
            name = escape(self.texts.name(str(a["name"])))
            table.add_row(name, shown, self.team_name(a["team"]), str(a["points"]))
        return folding(table)

    # -- the person's turn ------------------------------------------------------------------------------

    def show_position(self) -> None:
        s, m = self.state, self.msg
        running = [t + d for t, d in zip(s.totals, s.deal_points, strict=True)]
        score = m("play.score", deal=s.deal_no, score=self.scores(running))
        if any(s.deal_points):
            score += " " + m("play.score_deal", points=self.scores(s.deal_points))
        self.out.print("\n" + score)
        piles = ", ".join(f"{self.team_name(t)} {m.plural('play.cards', len(p))}" for t, p in enumerate(s.piles))
        self.out.print(m("play.piles", piles=piles, stock=m.plural("play.cards", len(s.stock))))
        table = m("play.table", cards=self.card_list(list(s.table)))
        if s.face_down:  # only how many: which cards they are is hidden from every player
            table += " " + m("play.face_down", n=len(s.face_down))
        self.out.print(table)
        view = s.view(self.seat)
        if view.builds:  # which table cards form builds, their values and owners (public)
            items = [
                m(
                    "play.build_multiple" if b.multiple else "play.build_item",
                    cards=escape(" + ".join(self.texts.card(c.index) for c in b.cards)),
                    value=b.value,
                    who=self.seat_name(b.owner),
                )
                for b in view.builds
            ]
            self.out.print(m("play.builds", builds="; ".join(items)))
        shown = [
            f"{self.seat_name(k)}: {self.card_list([c.index for c in cards])}"
            for k, cards in enumerate(view.shown)
            if cards and k != self.seat
        ]
        if shown:
            self.out.print(m("play.shown", cards="; ".join(shown)))
        self.out.print(m("play.hand", cards=self.card_list(list(s.hands[self.seat]))))

    def marks(self, move: Move) -> str:
        """What choosing ``move`` would do beyond the capture: clear the table, score bonuses (by name)."""
        m = self.msg
        state = self.state
        parts = []
        if move.captured and len(move.captured) == len(state.table):
            parts.append(m("play.mark_clears"))
        if self.game.variant.bonuses:
            scored = play_bonuses(state, move.raw)  # never what face-down cards would tell
            if scored:
                parts.append(self.bonus_list([{"name": name, "points": points} for name, points in scored]))
        return f"  [bold]★ {'; '.join(parts)}[/]" if parts else ""

    def thinking(self, text: str) -> AbstractContextManager[object]:
        """A spinner saying ``text`` while an AI player or the coach works, on a terminal only (piped output stays
        plain): the built-in games' decisions take a blink, but a big variant's can take seconds, and a silent
        terminal looks hung."""
        return self.out.status(escape(text)) if self.out.is_terminal else nullcontext()

    # -- the coach ------------------------------------------------------------------------------------------

    def show_advice(self, moves: list[Move]) -> list[Advice]:
        """The coach's estimate of every move, best first (see :mod:`piglia.players.coach`)."""
        m = self.msg
        with self.thinking(m("web.coach_thinking")):  # the web table's words: one sentence, two tables
            advice = coach.advise(self.state.view(self.seat), moves, seed=self.state.seed * 16 + self.seat)
        columns = (m("play.col.move"), m("play.col.value"), m("play.col.one_ply"), m("play.col.risk"))
        table = folding(Table(*columns, title=m("play.coach_title"), title_justify="left"))
        for a in advice:
            table.add_row(
                f"{moves.index(a.move) + 1}) {self.describe(a.move)}",
                f"{a.value:+.2f}",
                f"{a.greedy:+.2f}",
                f"{a.risk:.0%}",
            )
        self.out.print(table)
        why = coach.phrase(advice[0].because, self.texts)
        self.out.print(m("play.coach_best", move=self.describe(advice[0].move), why=escape(why)))
        return advice

    def show_review(self, deal: int) -> None:
        mistakes = coach.review([t for t in self.turns if t[0] == deal])
        if not any(t[0] == deal for t in self.turns):
            return
        if not mistakes:
            self.out.print(self.msg("play.coach_none"))
        for mistake in mistakes:
            played, best = self.describe(mistake.played.move), self.describe(mistake.best.move)
            self.out.print(self.msg("play.coach_lost", played=played, loss=f"{mistake.loss:.2f}", best=best))

    def ask(self, moves: list[Move]) -> Move | None:
        """The person's choice, asked until it is a valid one; None to stop."""
        m = self.msg
        self.out.print(m("play.moves"))
        for i, move in enumerate(moves, 1):
            self.out.print(f"  {i}) {self.describe(move)}{self.marks(move)}")
        advice = self.show_advice(moves) if self.coach and len(moves) > 1 else None
        while True:
            answer = read_answer(m("play.prompt", n=len(moves)) + " ").strip()
            if answer.lower() in ("q", "quit", "exit"):
                return None
            if answer == "?":  # the coach, on request
                advice = self.show_advice(moves)
                continue
            chosen: Move | str
            # ASCII digits only, and few: int() of thousands of digits is refused by Python, and '²' is a digit
            if answer.isascii() and answer.isdigit() and len(answer) <= 6 and 1 <= int(answer) <= len(moves):
                chosen = moves[int(answer) - 1]
            else:
                chosen = self.refusal(answer, moves)
            if isinstance(chosen, Move):
                if advice is not None:
                    self.turns.append((self.state.deal_no, advice, chosen))
                return chosen
            self.out.print(chosen)

    def refusal(self, answer: str, moves: list[Move]) -> Move | str:
        """The move a typed notation names, or why it is refused: the engine's reason for an illegal move, in the
        session's language (:mod:`piglia.reasons`, shared with the web table)."""
        m = self.msg
        if len(answer) > MAX_ANSWER_CHARS:
            return m("play.ask_again", n=len(moves))
        try:
            move = Move.parse(answer, self.game.variant.deck)
        except (PigliaError, ValueError):
            return m("play.ask_again", n=len(moves))
        if move in moves:
            return move
        reason = refusal(self.texts, self.state, move)
        if reason is None:
            return m("play.ask_again", n=len(moves))
        return m("play.illegal", reason=escape(reason), n=len(moves))

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
            elif len(moves) == 1:
                move = moves[0]
            else:
                with self.thinking(self.msg("web.waiting", who=self.seat_name(seat))):
                    move = self.players[seat].choose(state.view(seat), moves)
            state.play(move)  # never taken back: no undo entry a move
            self.flush()
        return True


def folding(table: Table) -> Table:
    """``table`` with its cells folded onto more lines where the terminal is narrow: cut to "c…", every cell of
    a 20-column terminal said nothing, and at 12 columns the score sheet was empty boxes."""
    for column in table.columns:
        column.overflow = "fold"
    return table


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
    texts = VariantTexts(variant, args.lang)
    m = texts.msg
    title = f"[bold]{escape(texts.title)}[/]"
    out.print(m("play.start", title=title, n=game.num_players, seed=seed, path=escape(str(path))))
    note = untranslated_note(texts)
    if note:  # said once, rather than mixing languages silently
        out.print(escape(note.replace("`", "")))
    session = Session(game.new_match(seed), args.seat, players, out, record, args.lang, coach=args.coach)
    finished = False
    problem = None
    old = {sig: signal.signal(sig, _stop_by_keyboard) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        finished = session.run()
    except (EOFError, KeyboardInterrupt):
        out.print()
    except RecordWriteError as exc:
        problem = str(exc)
    except LimitError as exc:  # the position passed one of the engine's limits: the match cannot go on
        problem = f"the match cannot go on: {exc}"
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
        out.print(m("play.stopped", path=escape(str(path))))
    else:
        out.print(m("play.saved", path=escape(str(path)), command=escape(replay_command(path, args.variant))))
    return 0


def replay_command(path: Path, variant: str) -> str:
    """The command that checks the record: a rule file is named with --variant (a record names its variant, and
    replay finds only a built-in, or a file of that very name beside it)."""
    command = f"piglia replay {shlex.quote(str(path))}"
    return command if variant in builtin_names() else f"{command} --variant {shlex.quote(variant)}"


def register(sub: Any) -> None:
    """Add the command to the ``piglia`` parser."""
    s = sub.add_parser(
        "play",
        help="play a variant in the terminal against AI players",
        description="Play one match against AI players: you at --seat, the other seats (your partner too, "
        "in partnership games) played by --opponents. Answer with the number of a move (or its notation, "
        "e.g. '7d x 3c+4s'; an illegal one is refused with the reason); q, end of input or Ctrl-C stops and keeps "
        "the record so far. Moves that clear the table or score a bonus are marked with what they score; the "
        "score shown before your turn includes this deal's bonuses; the end-of-deal sheet gives the counts behind "
        "each award. The match is recorded to --record FILE, or to a new piglia-VARIANT-SEED.jsonl in the "
        "current directory. --lang chooses the language of every word shown. Answer ? for the coach: every "
        "move with the AI's estimate (--coach: before every move, and a review after each deal).",
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
    s.add_argument("--lang", choices=languages(), default="en", help="language of the game's words (default: en)")
    s.set_defaults(run=run)
