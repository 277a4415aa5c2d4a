"""The ``piglia`` command: validate, simulate, replay, list, schema.

The CLI only calls the API and formats what it returns. Every user error is one clear message and a non-zero
exit, never a traceback (set ``PIGLIA_DEBUG=1`` to see one for an internal error).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from piglia.errors import PigliaError, SpecError, SpecErrors
from piglia.record import verify_file
from piglia.resources import data_dir
from piglia.simulate import Summary, simulate
from piglia.spec import builtin_names, load_variant, validate_file
from piglia.variant import Variant

__all__ = ["main"]


def _out() -> Console:
    return Console(highlight=False, soft_wrap=True)


def _err() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def _load(ref: str) -> Variant:
    try:
        return load_variant(ref)
    except SpecErrors as exc:
        raise _UserError("\n".join(e.format() for e in exc.errors)) from None
    except SpecError as exc:
        raise _UserError(exc.format()) from None


class _UserError(Exception):
    """A message for the user, already formatted; exit 1."""


# -- commands -------------------------------------------------------------------------------------------


def cmd_validate(args: argparse.Namespace) -> int:
    bad = False
    for ref in args.files:
        errors = validate_file(ref)
        if errors:
            bad = True
            for e in errors:
                print(e.format())
        else:
            print(f"{ref}: ok")
    return 1 if bad else 0


def cmd_list(args: argparse.Namespace) -> int:
    table = Table("name", "title", "players", box=None, pad_edge=False)
    for name in builtin_names():
        try:
            v = load_variant(name)
        except PigliaError:
            table.add_row(name, "(has errors: piglia validate it)", "")
            continue
        table.add_row(name, v.title, ", ".join(map(str, v.player_counts)))
    _out().print(table)
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    sys.stdout.write((data_dir("grammar") / "variant.schema.json").read_text(encoding="utf-8"))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    variant = _load(args.variant)
    if (args.deals is not None and args.deals < 1) or (args.matches is not None and args.matches < 1):
        raise _UserError("--deals and --matches must be at least 1")
    record = None
    if args.record:
        path = Path(args.record)
        if path.exists() and not args.force:
            raise _UserError(f"{path} exists; choose another name or pass --force to overwrite it")
        record = path.open("w", encoding="utf-8")
    start = time.perf_counter()
    show_bar = not args.json and sys.stderr.isatty()
    try:
        if show_bar:
            total = args.deals or args.matches
            unit = "deals" if args.deals else "matches"
            with Progress(
                TextColumn(f"[bold]{variant.name}[/] {unit}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=_err(),
                transient=True,
            ) as bar:
                task = bar.add_task("simulate", total=total, rate="")

                def tick(deals: int, matches: int) -> None:
                    done = deals if args.deals else matches
                    rate = deals / max(time.perf_counter() - start, 1e-9)
                    bar.update(task, completed=min(done, total), rate=f"{rate:,.0f} deals/s")

                summary = simulate(
                    variant,
                    deals=args.deals,
                    matches=args.matches,
                    seed=args.seed,
                    players=args.players,
                    record=record,
                    progress=tick,
                )
        else:
            summary = simulate(
                variant,
                deals=args.deals,
                matches=args.matches,
                seed=args.seed,
                players=args.players,
                record=record,
            )
    finally:
        if record is not None:
            record.close()
    elapsed = time.perf_counter() - start
    if args.json:
        data = summary.as_dict()
        data["seconds"] = round(elapsed, 3)
        print(json.dumps(data, indent=2))
    else:
        _print_summary(summary, variant, elapsed, args.record)
    return 0


def _print_summary(summary: Summary, variant: Variant, elapsed: float, record: str | None) -> None:
    data = summary.as_dict()
    out = _out()
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


def cmd_replay(args: argparse.Namespace) -> int:
    variant = _load(args.variant) if args.variant else None
    bad = False
    for path in args.records:
        count, errors = verify_file(path, variant=variant)
        for e in errors:
            print(str(e))
        if errors:
            bad = True
        else:
            print(f"{path}: ok ({count} record{'s' if count != 1 else ''} replayed)")
    return 1 if bad else 0


# -- argument parsing -----------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    p = argparse.ArgumentParser(
        prog="piglia",
        description="Piglia: write a capture card game's rules in YAML; validate, simulate and replay it.",
        epilog="examples:\n  piglia list\n  piglia validate variants/*.yaml\n  piglia simulate scopa --deals 1000",
        formatter_class=fmt,
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    v = sub.add_parser(
        "validate",
        help="check rule files",
        description="Check rule files: schema, names, expressions, deal sizes. Prints FILE: ok, or one "
        "FILE:LINE:COL: spec.path: message per problem; exits 1 if any file is bad.",
        epilog="example:\n  piglia validate variants/*.yaml my-variant.yaml",
        formatter_class=fmt,
    )
    v.add_argument("files", nargs="+", metavar="FILE", help="rule files (or built-in names)")
    v.set_defaults(run=cmd_validate)

    s = sub.add_parser(
        "simulate",
        help="simulate random play and print statistics",
        description="Play whole matches with uniformly random legal moves and summarise wins and points. "
        "With --deals N, matches are played until at least N deals are done.",
        epilog="examples:\n  piglia simulate scopa --deals 1000 --seed 1\n"
        "  piglia simulate my-variant.yaml --matches 500 --record games.jsonl\n"
        "  piglia simulate scopa --deals 200 --json",
        formatter_class=fmt,
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
    s.set_defaults(run=cmd_simulate)

    r = sub.add_parser(
        "replay",
        help="check game records against the rules",
        description="Replay records and check every move, bonus, award, total and the winner. Prints "
        "FILE:LINE: what is wrong for each discrepancy; exits 1 if any.",
        epilog="example:\n  piglia replay games.jsonl\n  piglia replay --variant my-variant.yaml games.jsonl",
        formatter_class=fmt,
    )
    r.add_argument("records", nargs="+", metavar="RECORD", help="record files")
    r.add_argument("--variant", metavar="VARIANT", help="the rule file the records were played with")
    r.set_defaults(run=cmd_replay)

    ls = sub.add_parser(
        "list",
        help="list the built-in variants",
        description="List the built-in variants.",
        epilog="example:\n  piglia list",
        formatter_class=fmt,
    )
    ls.set_defaults(run=cmd_list)

    sc = sub.add_parser(
        "schema",
        help="print the rule-file JSON Schema",
        description="Print the JSON Schema of rule files (for editors: yaml-language-server).",
        epilog="example:\n  piglia schema > variant.schema.json",
        formatter_class=fmt,
    )
    sc.set_defaults(run=cmd_schema)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    if getattr(args, "command", None) == "simulate" and args.deals is None and args.matches is None:
        args.deals = 1000
    try:
        code: int = args.run(args)
        return code
    except _UserError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except PigliaError as exc:
        print(f"piglia: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("piglia: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: say so in one line unless asked for the traceback
        if os.environ.get("PIGLIA_DEBUG"):
            raise
        print(
            f"piglia: internal error: {type(exc).__name__}: {exc} (PIGLIA_DEBUG=1 shows a traceback)",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    sys.exit(main())
