"""``piglia list`` and ``piglia schema``: what is built in."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.table import Table

from piglia.cli.common import HELP_FORMAT, out_console
from piglia.errors import PigliaError
from piglia.resources import data_dir
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
        table.add_row(name, v.title, ", ".join(map(str, v.player_counts)))
    out_console().print(table)
    return 0


def run_schema(args: argparse.Namespace) -> int:
    """Print the rule-file JSON Schema."""
    sys.stdout.write((data_dir("grammar") / "variant.schema.json").read_text(encoding="utf-8"))
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
        help="print the rule-file JSON Schema",
        description="Print the JSON Schema of rule files (for editors: yaml-language-server).",
        epilog="example:\n  piglia schema > variant.schema.json",
        formatter_class=HELP_FORMAT,
    )
    sc.set_defaults(run=run_schema)
