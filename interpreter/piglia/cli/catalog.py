"""``piglia list`` and ``piglia schema``: what is built in."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.markup import escape
from rich.table import Table

from piglia.cli.common import HELP_FORMAT, out_console
from piglia.errors import PigliaError
from piglia.mechanics.schema import schema_text
from piglia.recordio import write_text
from piglia.spec import builtin_names, load_variant


def run_list(args: argparse.Namespace) -> int:
    """A table of the built-in variants."""
    table = Table("name", "title", "players", box=None, pad_edge=False)
    for name in builtin_names():
        try:
            v = load_variant(name)
        except PigliaError:
            table.add_row(name, "(has errors: piglia validate it)", "")
            continue
        table.add_row(name, escape(v.title), ", ".join(map(str, v.player_counts)))
    out_console().print(table)
    return 0


def run_schema(args: argparse.Namespace) -> int:
    """Print the rule-file JSON Schema of the registered mechanics (or write it to ``-o FILE``)."""
    text = schema_text()
    if args.output is None:
        sys.stdout.write(text)
        return 0
    write_text(args.output, text, force=args.force, option="--output")  # whole or not at all (piglia.recordio)
    return 0


def register(sub: Any) -> None:
    """Add the commands to the ``piglia`` parser."""
    ls = sub.add_parser(
        "list",
        help="list the built-in variants",
        description="List the built-in variants.",
        epilog="example:\n  piglia list",
        formatter_class=HELP_FORMAT,
    )
    ls.set_defaults(run=run_list)
    sc = sub.add_parser(
        "schema",
        help="print the rule-file JSON Schema (built-in and plugin mechanics)",
        description="Print the JSON Schema of rule files (for editors: yaml-language-server), generated from the "
        "registered mechanics: the built-in ones and those of installed plugins (entry point group "
        "piglia.mechanics), so a plugin's capture kinds and award forms appear in it.",
        epilog="examples:\n  piglia schema > variant.schema.json\n"
        "  piglia schema -o grammar/variant.schema.json --force",
        formatter_class=HELP_FORMAT,
    )
    sc.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    sc.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    sc.set_defaults(run=run_schema)
