"""``piglia simulate``: random play with statistics, on all cores or on a Dask cluster."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from piglia import interrupt
from piglia.cli.common import HELP_FORMAT, UserError, at_least_one, err_console, load, out_console, refuse_existing
from piglia.recordio import RecordFile, RecordWriteError, write_file
from piglia.simulate import Summary, default_workers, simulate
from piglia.variant import Variant
from piglia.workers import check_workers

# Below this many deals a run stays in this process: starting worker processes costs more than they save
# (the results are the same either way: they depend only on the seed).
SMALL_RUN_DEALS = 3000


def plot_target(path_text: str | None, force: bool) -> tuple[str, str] | None:
    """The --plot file and its image format, checked before the run: matplotlib is there, it writes that format
    (the file's suffix; without one, PNG, to FILE.png as matplotlib names it), and the file does not exist
    (unless forced). None without --plot."""
    if path_text is None:
        return None
    if not path_text.strip():
        raise UserError("--plot needs a file name")
    try:
        from piglia.cli.plot import image_formats

        formats = image_formats()
    except ImportError:
        raise UserError("--plot needs matplotlib: pip install 'piglia[plot]'") from None
    suffix = Path(path_text).suffix.lower().removeprefix(".")
    if not suffix:
        path_text, suffix = path_text + ".png", "png"
    if suffix not in formats:
        known = ", ".join(f".{s}" for s in sorted(formats))
        raise UserError(f"--plot {path_text}: matplotlib cannot write .{suffix} files; end the name in one of {known}")
    refuse_existing(Path(path_text), force=force)
    return path_text, suffix


def workers_for(args: argparse.Namespace) -> int:
    """The number of worker processes: as asked (at most the cores), else all cores, except for small runs."""
    if args.workers is not None:
        if args.cluster is not None:
            return max(int(args.workers), 1)  # the cluster has its own workers: the option changes nothing there
        return check_workers(args.workers)
    size = args.deals if args.deals is not None else args.matches * 4
    return 1 if size < SMALL_RUN_DEALS else default_workers()


def run(args: argparse.Namespace) -> int:
    """Simulate and print the summary (or JSON)."""
    if args.deals is None and args.matches is None:
        args.deals = 1000
    variant = load(args.variant)
    if (args.deals is not None and args.deals < 1) or (args.matches is not None and args.matches < 1):
        raise UserError("--deals and --matches must be at least 1")
    at_least_one(args.players, "--players")
    plot = plot_target(args.plot, args.force)
    workers = workers_for(args)
    record = RecordFile.create(args.record, force=args.force) if args.record is not None else None
    start = time.perf_counter()
    options: dict[str, Any] = {
        "deals": args.deals,
        "matches": args.matches,
        "seed": args.seed,
        "players": args.players,
        "record": record,
        "workers": workers,
        "cluster": args.cluster,
    }
    kept_note = None
    try:
        summary = run_with_progress(variant, args, options, show=not args.json and sys.stderr.isatty())
    finally:
        if record is not None:
            try:
                record.close()
            except RecordWriteError as exc:
                kept_note = str(exc)
    elapsed = time.perf_counter() - start
    if args.json:
        data = summary.as_dict()
        data["seconds"] = round(elapsed, 3)
        print(json.dumps(data, indent=2))
    else:
        print_summary(summary, variant, elapsed, args.record if record is not None and record.error is None else None)
    if plot is not None:
        from piglia.cli.plot import plot_summary

        plot_file, image_format = plot
        # written as records are: a temporary file renamed, never over a file created meanwhile unless --force
        write_file(plot_file, plot_summary(summary, variant, image_format), force=args.force, option="--plot")
        if not args.json:
            out_console().print(f"plot written to {plot_file}")
    if record is not None and record.error is not None:
        print(f"piglia: {record.error}; the statistics above are those of the matches it holds", file=sys.stderr)
    elif summary.interrupted:
        print(
            f"piglia: interrupted; the statistics above are those of the {summary.matches:,} matches finished "
            f"({summary.deals:,} deals)",
            file=sys.stderr,
        )
    if kept_note is not None:
        print(f"piglia: {kept_note}", file=sys.stderr)
    if record is not None and (record.error is not None or kept_note is not None):
        return 1
    return interrupt.exit_status() if summary.interrupted else 0


def run_with_progress(variant: Variant, args: argparse.Namespace, options: dict[str, Any], *, show: bool) -> Summary:
    """Run the simulation, with a progress bar (deals per second, time left) when ``show``."""
    if not show:
        return simulate(variant, **options)
    # Imported here: the bar is drawn only on a terminal, and rich.progress costs a tenth of a small run's start.
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    total = args.deals or args.matches
    unit = "deals" if args.deals else "matches"
    start = time.perf_counter()
    with Progress(
        TextColumn(f"[bold]{variant.name}[/] {unit}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
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


def number(x: float, places: int = 3) -> str:
    """A mean as the tables print it: ``places`` decimals, or four significant digits when it is huge (a rule
    file's scores may run to 10^20, where a float's decimals are noise: 853333333333333377024.000)."""
    return f"{x:.{places}f}" if abs(x) < 1e9 else f"{x:.4g}"


def _ci(bounds: list[float | None], pct: bool = True) -> str:
    low, high = bounds
    if low is None or high is None:  # one deal tells nothing of the spread
        return "-"
    return f"{low:.1%}-{high:.1%}" if pct else f"{number(low)}-{number(high)}"


def print_summary(summary: Summary, variant: Variant, elapsed: float, record: str | None) -> None:
    """The summary as tables (plain text when output is not a terminal)."""
    from rich.markup import escape  # the title is the rule file's text, not the console's markup
    from rich.table import Table  # here: --json prints no table

    data = summary.as_dict()
    out = out_console()
    note = " (interrupted)" if summary.interrupted else ""
    out.print(
        f"{escape(variant.title)}: {summary.matches:,} matches, {summary.deals:,} deals{note} "
        f"({data['plays_per_deal']:.1f} plays per deal), seed {summary.seed}, random play, "
        f"{elapsed:.1f} s ({summary.deals / max(elapsed, 1e-9):,.0f} deals/s)"
    )
    wins = Table(
        "team", "seats", "wins", "win rate", "95% CI", "points/deal", "95% CI", title="Matches", title_justify="left"
    )
    for t in data["teams"]:
        wins.add_row(
            str(t["team"]),
            ",".join(map(str, t["seats"])),
            f"{t['wins']:,}",
            f"{t['win_rate']:.1%}",
            _ci(t["ci95"]),
            number(t["points_per_deal"]),
            _ci(t["points_per_deal_ci95"], pct=False),
        )
    out.print(wins)
    if summary.draws:
        out.print(f"draws: {summary.draws:,}")
    if summary.stopped:
        out.print(
            f"[bold]{summary.stopped:,} of them stopped undecided at the deal limit[/] (match.max_deals): "
            "those matches may never end under these rules"
        )
    first = data["first_player"]
    adv = Table("who", "won", "95% CI", title="First player and dealer", title_justify="left")
    adv.add_row(
        "deals: the team that led",
        f"{first['deals_won_by_leading_team']:.1%}",
        _ci(first["deals_won_by_leading_team_ci95"]),
    )
    adv.add_row(
        "deals: the dealer's team",
        f"{first['deals_won_by_dealer_team']:.1%}",
        _ci(first["deals_won_by_dealer_team_ci95"]),
    )
    adv.add_row("deals: tied", f"{first['tied_deals']:.1%}", "")
    adv.add_row(
        "matches: the team that led first",
        f"{first['matches_won_by_first_leading_team']:.1%}",
        _ci(first["matches_won_by_first_leading_team_ci95"]),
    )
    adv.add_row(
        "matches: the first dealer's team",
        f"{first['matches_won_by_first_dealer_team']:.1%}",
        _ci(first["matches_won_by_first_dealer_team_ci95"]),
    )
    out.print(adv)
    scoring = Table(
        "name", "kind", "points/deal", "95% CI", "scored in", "95% CI", title="Points per deal", title_justify="left"
    )
    for s in data["scoring"]:
        scoring.add_row(
            escape(s["name"]),
            s["kind"],
            number(s["points_per_deal"]),
            _ci(s["points_per_deal_ci95"], pct=False),
            f"{s['scored_in']:.1%} of deals",
            _ci(s["scored_in_ci95"]),
        )
    out.print(scoring)
    shape = Table("measure", "value", title="Shape of the game", title_justify="left")
    dl, ml, br = data["deal_length"], data["match_length"], data["branching"]
    flow, last = data["match_flow"], data["decided_by_last_award"]
    shape.add_row("plays per deal", f"{dl['mean']:.1f} (sd {dl['sd']:.1f})")
    shape.add_row("deals per match", f"{ml['mean']:.2f} (sd {ml['sd']:.2f})")
    shape.add_row(
        "legal moves per turn", f"{br['mean']:.2f} (sd {br['sd']:.2f}; max {br['max']}; forced {br['forced']:.1%})"
    )
    shape.add_row("deals decided by their last award", f"{last['deals']:.1%}")
    shape.add_row("matches decided by the last award of their last deal", f"{last['matches']:.1%}")
    shape.add_row("lead changes per match", f"{flow['lead_changes_per_match']:.2f}")
    shape.add_row(
        "final margin (points)", f"{number(flow['final_margin_mean'], 2)} (sd {number(flow['final_margin_sd'], 2)})"
    )
    shape.add_row(
        "matches won by the leader after deal 1",
        f"{flow['first_deal_leader_wins']:.1%} ({_ci(flow['first_deal_leader_wins_ci95'])})",
    )
    out.print(shape)
    if record:
        out.print(f"records written to {record}")


def add_run_options(s: argparse.ArgumentParser, default_deals: int = 1000) -> None:
    """The options simulate and compare share: how much to play, with which seed, on which machines."""
    group = s.add_mutually_exclusive_group()
    group.add_argument(
        "--deals", type=int, help=f"play whole matches until at least this many deals (default {default_deals:,})"
    )
    group.add_argument("--matches", type=int, help="play this many matches")
    s.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed gives the same games")
    s.add_argument("--players", type=int, help="number of players, where the variant allows several")
    s.add_argument(
        "--workers",
        type=int,
        help=f"worker processes, at most the number of cores (default: all cores; runs under {SMALL_RUN_DEALS:,} "
        "deals stay in one process); the results do not depend on it",
    )
    s.add_argument("--cluster", metavar="ADDRESS", help="run on a Dask distributed cluster (scheduler address)")


def register(sub: Any) -> None:
    """Add the command to the ``piglia`` parser."""
    s = sub.add_parser(
        "simulate",
        help="simulate random play and print statistics",
        description="Play whole matches with uniformly random legal moves and summarise wins, points, the first "
        "player's advantage, the shape of deals and matches. With --deals N, matches are played until at least N "
        "deals are done (a match that ends before any deal counts as one). Ctrl-C (or SIGTERM) stops the run within "
        "a second and prints the statistics of what finished; the record then holds the whole matches finished "
        "(it is written to a temporary file beside FILE and renamed at the end: see docs/records.md). A run of 200 "
        "deals or more starts from what earlier runs of the same rules learnt of their captures, kept in piglia's "
        "cache folder (PIGLIA_NO_CACHE=1 turns it off): only the speed changes, never the games.",
        epilog="examples:\n  piglia simulate my-game.yaml --deals 1000 --seed 1\n"
        "  piglia simulate my-game.yaml --deals 1000000 --workers 2\n"
        "  piglia simulate my-game.yaml --matches 500 --record games.jsonl\n"
        "  piglia simulate my-game.yaml --deals 20000 --plot game.png\n"
        "  piglia simulate my-game.yaml --deals 200 --json\n"
        "  piglia simulate my-game.yaml --deals 1000000 --cluster tcp://scheduler:8786",
        formatter_class=HELP_FORMAT,
    )
    s.add_argument("variant", metavar="VARIANT", help="a rule file or a built-in variant's name")
    add_run_options(s)
    s.add_argument("--record", metavar="FILE", help="write every match's record to FILE (JSON Lines)")
    s.add_argument(
        "--plot", metavar="FILE.png", help="draw the distributions to FILE.png (or .svg, .pdf...; needs matplotlib)"
    )
    s.add_argument("--force", action="store_true", help="overwrite an existing --record or --plot file")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.set_defaults(run=run)
