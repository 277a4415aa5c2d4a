"""``piglia replay``: check game records against the rules."""

from __future__ import annotations

import argparse
from typing import Any

from piglia.cli.common import HELP_FORMAT, load
from piglia.record import verify_file


def run(args: argparse.Namespace) -> int:
    """Print each discrepancy as ``FILE:LINE: what is wrong``, or ``FILE: ok``; 1 if any."""
    variant = load(args.variant) if args.variant else None
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


def register(sub: Any) -> None:
    """Add the command to the ``piglia`` parser."""
    r = sub.add_parser(
        "replay",
        help="check game records against the rules",
        description="Replay records and check every move, bonus, award, total and the winner. Prints "
        "FILE:LINE: what is wrong for each discrepancy; exits 1 if any.",
        epilog="example:\n  piglia replay games.jsonl\n  piglia replay --variant my-variant.yaml games.jsonl",
        formatter_class=HELP_FORMAT,
    )
    r.add_argument("records", nargs="+", metavar="RECORD", help="record files")
    r.add_argument("--variant", metavar="VARIANT", help="the rule file the records were played with")
    r.set_defaults(run=run)
