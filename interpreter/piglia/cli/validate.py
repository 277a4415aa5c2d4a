"""``piglia validate``: check rule files."""

from __future__ import annotations

import argparse
from typing import Any

from piglia.cli.common import HELP_FORMAT, unexpected
from piglia.spec import validate_file


def run(args: argparse.Namespace) -> int:
    """Print ``FILE: ok`` or one located message per problem; 1 if any file is bad."""
    bad = False
    for ref in args.files:
        try:
            errors = validate_file(ref)
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
    return 1 if bad else 0


def register(sub: Any) -> None:
    """Add the command to the ``piglia`` parser."""
    v = sub.add_parser(
        "validate",
        help="check rule files",
        description="Check rule files: schema, names, expressions, deal sizes. Prints FILE: ok, or one "
        "FILE:LINE:COL: spec.path: message per problem; exits 1 if any file is bad.",
        epilog="example:\n  piglia validate variants/*.yaml my-variant.yaml",
        formatter_class=HELP_FORMAT,
    )
    v.add_argument("files", nargs="+", metavar="FILE", help="rule files (or built-in names)")
    v.set_defaults(run=run)
