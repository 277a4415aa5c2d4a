"""``piglia simulate``: random play with statistics."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import IO, Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from piglia.cli.common import HELP_FORMAT, UserError, err_console, load, out_console
from piglia.simulate import Summary, simulate
from piglia.variant import Variant


def open_new(path_text: str, *, force: bool) -> IO[str]:
    """Open a file for writing, refusing to overwrite an existing one unless forced."""
    path = Path(path_text)
    if path.exists() and not force:
        raise UserError(f"{path} exists; choose another name or pass --force to overwrite it")
    try:
        return path.open("w", encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from None


def run(args: argparse.Namespace) -> int:
    """Simulate and print the summary (or JSON)."""
    if args.deals is None and args.matches is None:
        args.deals = 1000
    variant = load(args.variant)
    if (args.deals is not None and args.deals < 1) or (args.matches is not None and args.matches < 1):
        raise UserError("--deals and --matches must be at least 1")
    record = open_new(args.record, force=args.force) if args.record else None
    start = time.perf_counter()
    options: dict[str, Any] = {
        "deals": args.deals,
        "matches": args.matches,
        "seed": args.seed,
        "players": args.players,
        "record": record,
    }
    try:
        if not args.json and sys.stderr.isatty():
            summary = _with_progress_bar(variant, args, start, options)
        else:
            summary = simulate(variant, **options)
    finally:
        if record is not None:
            record.close()
    elapsed = time.perf_counter() - start
    if args.json:
        data = summary.as_dict()
        data["seconds"] = round(elapsed, 3)
        print(json.dumps(data, indent=2))
    else:
        print_summary(summary, variant, elapsed, args.record)
    return 0


def _with_progress_bar(variant: Variant, args: argparse.Namespace, start: float, options: dict[str, Any]) -> Summary:
    total = args.deals or args.matches
    unit = "deals" if args.deals else "matches"
    with Progress(
        TextColumn(f"[bold]{variant.name}[/] {unit}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console(),
        transient=True,
    ) as bar:
        task = bar.add_task("simulate", total=total, rate="")

        def tick(deals: int, matches: int) -> None:
            done = deals if args.deals else matches
            rate = deals / max(time.perf_counter() - start, 1e-9)
            bar.update(task, completed=min(done, total), rate=f"{rate:,.0f} deals/s")

        return simulate(variant, progress=tick, **options)


def print_summary(summary: Summary, variant: Variant, elapsed: float, record: str | None) -> None:
    """The summary as tables (plain text when output is not a terminal)."""
    data = summary.as_dict()
    out = out_console()
    out.print(
        f"{variant.title}: {summary.matches:,} matches, {summary.deals:,} deals "
        f"({data['plays_per_deal']:.1f} plays per deal), seed {summary.seed}, random play, "
        f"{elapsed:.1f} s ({summary.deals / max(elapsed, 1e-9):,.0f} deals/s)"
    )
    wins = Table("team", "seats", "wins", "win rate", "95% CI", "points/deal", title="Matches", title_justify="left")
    for t in data["teams"]:
        low, high = t["ci95"]
        wins.add_row(
            str(t["team"]),
            ",".join(map(str, t["seats"])),
            f"{t['wins']:,}",
            f"{t['win_rate']:.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{t['points_per_deal']:.2f}",
        )
    out.print(wins)
    if summary.draws:
        out.print(f"draws: {summary.draws:,}")
    scoring = Table("name", "kind", "points/deal", "scored in", title="Points per deal", title_justify="left")
    for s in data["scoring"]:
        scoring.add_row(s["name"], s["kind"], f"{s['points_per_deal']:.3f}", f"{s['scored_in']:.1%} of deals")
    out.print(scoring)
    if record:
        out.print(f"records written to {record}")


def register(sub: Any) -> None:
    """Add the command to the ``piglia`` parser."""
    s = sub.add_parser(
        "simulate",
        help="simulate random play and print statistics",
        description="Play whole matches with uniformly random legal moves and summarise wins and points. "
        "With --deals N, matches are played until at least N deals are done.",
        epilog="examples:\n  piglia simulate my-game.yaml --deals 1000 --seed 1\n"
        "  piglia simulate my-game.yaml --matches 500 --record games.jsonl\n"
        "  piglia simulate my-game.yaml --deals 200 --json",
        formatter_class=HELP_FORMAT,
    )
    s.add_argument("variant", metavar="VARIANT", help="a rule file or a built-in variant's name")
    group = s.add_mutually_exclusive_group()
    group.add_argument("--deals", type=int, help="play whole matches until at least this many deals (default 1000)")
    group.add_argument("--matches", type=int, help="play this many matches")
    s.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed gives the same games")
    s.add_argument("--players", type=int, help="number of players, where the variant allows several")
    s.add_argument("--record", metavar="FILE", help="write every match's record to FILE (JSON Lines)")
    s.add_argument("--force", action="store_true", help="overwrite an existing --record file")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.set_defaults(run=run)
