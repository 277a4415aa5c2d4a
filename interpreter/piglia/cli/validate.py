"""``piglia validate``: check rule files."""

from __future__ import annotations

import argparse
from typing import Any

from piglia.cli.common import HELP_FORMAT, unexpected
from piglia.errors import PigliaError
from piglia.probe import play_random
from piglia.spec import load_variant, resolution_notes, validate_file


def run(args: argparse.Namespace) -> int:
    """Print ``FILE: ok`` or one located message per problem; 1 if any file is bad."""
    bad = False
    for ref in args.files:
        try:
            errors = validate_file(ref)
        except PigliaError as exc:  # a user's error the loader does not locate (a plugin's fault, named): not ours
            bad = True
            print(f"{ref}: {exc}")
            continue
        except Exception as exc:  # whatever the loader raises, say it in one line and go on to the next file
            bad = True
            print(unexpected(ref, exc))
            continue
        if errors:
            bad = True
            for e in errors:
                print(e.format())
        else:
            print(f"{ref}: ok")
            for note in resolution_notes(ref):
                print(f"note: {note}")
            if args.play:
                report = play_random(load_variant(ref), args.play)
                print(f"{ref}: {report.summary()}")
                if report.error is not None or report.stopped:
                    bad = True
                    stopped = f"{report.stopped} match(es) reached the deal limit with no winner: a match may never end"
                    print(f"{ref}: {report.error or stopped}")
    return 1 if bad else 0


def _deals(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of deals, got {text!r}") from None
    if not 1 <= n <= 1_000_000:
        raise argparse.ArgumentTypeError(f"expected 1 to 1000000 deals, got {n}")
    return n


def register(sub: Any) -> None:
    """Add the command to the ``piglia`` parser."""
    v = sub.add_parser(
        "validate",
        help="check rule files",
        description="Check rule files: schema, names, expressions, deal sizes. Prints FILE: ok, or one "
        "FILE:LINE:COL: spec.path: message per problem; exits 1 if any file is bad.",
        epilog="examples:\n  piglia validate variants/*.yaml my-variant.yaml\n"
        "  piglia validate my-variant.yaml --play 200",
        formatter_class=HELP_FORMAT,
    )
    v.add_argument("files", nargs="+", metavar="FILE", help="rule files (or built-in names)")
    v.add_argument(
        "--play",
        type=_deals,
        default=0,
        metavar="N",
        help="also play N deals of random moves to catch what only play shows (an error in a match, a match "
        "that cannot end), and report the cost per deal",
    )
    v.set_defaults(run=run)
