"""``piglia rules``: a variant's rules page, generated from its rule file."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from piglia.cli.common import HELP_FORMAT, load
from piglia.locales import languages
from piglia.recordio import write_text
from piglia.rulespage import render_html, render_markdown


def run(args: argparse.Namespace) -> int:
    """Print the page, or write it to ``-o FILE`` (never over an existing file without ``--force``; whole or not at
    all: a temporary file renamed)."""
    variant = load(args.variant)
    page = render_html(variant, args.lang) if args.format == "html" else render_markdown(variant, args.lang)
    if args.output is None:
        sys.stdout.write(page)
        return 0
    write_text(args.output, page, force=args.force, option="--output")
    return 0


def register(sub: Any) -> None:
    """Add the command to the ``piglia`` parser."""
    r = sub.add_parser(
        "rules",
        help="print a variant's rules page (Markdown or HTML)",
        description="Print the rules of a variant in plain words, generated from its rule file: players, "
        "cards, the deal, a turn with a worked example computed by the engine, bonuses, awards, the end. "
        "Markdown by default; --format html gives one self-contained page readable on a phone.",
        epilog="examples:\n  piglia rules my-game.yaml\n  piglia rules my-game.yaml --lang it --format html -o r.html",
        formatter_class=HELP_FORMAT,
    )
    r.add_argument("variant", metavar="VARIANT", help="a built-in name or a rule file")
    r.add_argument("--format", choices=["md", "html"], default="md", help="output format (default: md)")
    r.add_argument("--lang", choices=languages(), default="en", help="language of the page (default: en)")
    r.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    r.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    r.set_defaults(run=run)
