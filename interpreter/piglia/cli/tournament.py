"""``piglia tournament``: two players, duplicate matches, win rates with confidence intervals."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from piglia import interrupt
from piglia.cli.common import HELP_FORMAT, UserError, at_least_one, err_console, load, out_console
from piglia.players import make_player
from piglia.tournament import TournamentResult, tournament
from piglia.workers import check_workers


def run(args: argparse.Namespace) -> int:
    """Play the tournament and print the standings (or JSON)."""
    names = [n.strip() for n in args.players.split(",")]
    if len(names) != 2 or not all(names):
        raise UserError("--players takes two players separated by a comma, e.g. --players greedy,random")
    if args.matches < 1:
        raise UserError("--matches must be at least 1")
    check_workers(args.workers)
    at_least_one(args.players_count, "--seats")
    variant = load(args.variant)
    for name in names:
        make_player(name)
    start = time.perf_counter()
    options: dict[str, Any] = {
        "matches": args.matches,
        "seed": args.seed,
        "players": args.players_count,
        "workers": args.workers,
    }
    total = (args.matches + 1) // 2 * 2
    if not args.json and sys.stderr.isatty():
        with Progress(
            TextColumn(f"[bold]{variant.name}[/] {names[0]} vs {names[1]}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=err_console(),
            transient=True,
        ) as bar:
            task = bar.add_task("matches", total=total)
            result = tournament(
                variant, (names[0], names[1]), progress=lambda n: bar.update(task, completed=n), **options
            )
    else:
        result = tournament(variant, (names[0], names[1]), **options)
    elapsed = time.perf_counter() - start
    if args.json:
        data = result.as_dict()
        data["seconds"] = round(elapsed, 3)
        print(json.dumps(data, indent=2))
    else:
        print_result(result, elapsed)
    if result.interrupted:
        print(
            f"piglia: interrupted; the standings above are those of the {result.matches:,} matches finished",
            file=sys.stderr,
        )
        return interrupt.exit_status()
    return 0


def print_result(result: TournamentResult, elapsed: float) -> None:
    """The standings as tables (plain text when output is not a terminal)."""
    data = result.as_dict()
    out = out_console()
    if not out.is_terminal:
        out.width = 120  # plain text to a file or a pipe: wide enough that the tables do not fold
    note = " (interrupted)" if result.interrupted else ""
    out.print(
        f"{result.variant}: {result.matches:,} matches{note} ({result.matches // 2:,} duplicate pairs), "
        f"{result.deals:,} deals, {result.players} seats, seed {result.seed}, {elapsed:.1f} s"
    )
    table = Table("player", "matches", "wins", "losses", "draws", "win rate", "95% CI", "points/deal")
    for p in data["players"]:
        low, high = p["ci95"]
        table.add_row(
            escape(p["name"]),
            f"{p['matches']:,}",
            f"{p['wins']:,}",
            f"{p['losses']:,}",
            f"{p['draws']:,}",
            f"{p['win_rate']:.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{p['points_per_deal']:.2f}",
        )
    out.print(table)
    diff = data["points_per_deal_difference"]
    low, high = diff["ci95"]
    interval = f"{low:+.3f} to {high:+.3f}" if low is not None and high is not None else "too few pairs to tell"
    first, second = (escape(p["name"]) for p in data["players"])
    out.print(
        f"points per deal, {first} minus {second}: {diff['value']:+.3f} (95% CI {interval}, "
        f"over {diff['pairs']:,} duplicate pairs)"
    )
    names = sorted({k for p in data["players"] for k in p["awards_per_deal"]})
    awards = Table("points per deal", *[escape(p["name"]) for p in data["players"]], title_justify="left")
    for name in names:  # bonus and award names are the rule file's text, shown as written
        awards.add_row(escape(name), *[f"{p['awards_per_deal'].get(name, 0.0):.3f}" for p in data["players"]])
    out.print(awards)


def register(sub: Any) -> None:
    """Add the command to the ``piglia`` parser."""
    s = sub.add_parser(
        "tournament",
        help="play two players against each other, duplicate format",
        description="Play matches in pairs on the same shuffles with the seats swapped, and report each "
        "player's win rate with a 95% confidence interval, points per deal and points per award, and the "
        "points per deal difference with a 95% interval over the duplicate pairs. "
        "Players: random, greedy, ismcts (options as ismcts:iterations=200:seconds=0), or module:Class.",
        epilog="examples:\n  piglia tournament my-game.yaml --players greedy,random --matches 200\n"
        "  piglia tournament my-game.yaml --players ismcts:iterations=200:seconds=0,greedy --workers 2 --json",
        formatter_class=HELP_FORMAT,
    )
    s.add_argument("variant", metavar="VARIANT", help="a rule file or a built-in variant's name")
    s.add_argument("--players", required=True, metavar="A,B", help="the two players, comma-separated")
    s.add_argument("--matches", type=int, default=100, help="matches to play, rounded up to pairs (default 100)")
    s.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed gives the same games")
    s.add_argument(
        "--workers", type=int, default=1, help="processes to play in parallel, at most the number of cores (default 1)"
    )
    s.add_argument("--seats", dest="players_count", type=int, help="number of seats, where the variant allows several")
    s.add_argument("--json", action="store_true", help="print the result as JSON")
    s.set_defaults(run=run)
