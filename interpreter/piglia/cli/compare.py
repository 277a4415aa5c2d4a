"""``piglia compare A B``: the statistics of two variants side by side, the significant differences marked.

Each row compares one figure. Rates (win rates, how often an award scores, ...) use the two-proportion z-test with
a pooled proportion; means (points per deal, deal length, ...) use Welch's z-test on the two sample means (the
samples are large, so the normal approximation of the t distribution is exact enough). Both are two-sided. So that
a table of many rows does not cry wolf, the p-values are corrected with Holm's step-down method over the rows; a
difference is marked ``*`` when its corrected p-value is below 0.05 and ``**`` below 0.001.

Legal moves per turn are shown side by side but not tested: the turns of one deal are far from independent (a
big table gives many moves turn after turn), and a test that took them as independent would mark differences that
are not there, or miss some (its standard error was 0.16 to 1.16 times the one the deals' own spread gives).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from typing import Any

from rich.markup import escape
from rich.table import Table

from piglia import interrupt
from piglia.cli.common import HELP_FORMAT, UserError, at_least_one, load, out_console
from piglia.cli.simulate import add_run_options, number, print_summary, run_with_progress, workers_for
from piglia.stats import Summary
from piglia.variant import Variant

__all__ = ["Row", "compare_rows", "register"]

TEST_NOTE = (
    "two-sided tests: two-proportion z (pooled) for rates, Welch's z for means; p-values Holm-corrected over "
    "the rows; * p < 0.05, ** p < 0.001; legal moves per turn not tested (the turns of a deal are not independent)"
)


@dataclass
class Row:
    """One compared figure: its value in A and in B, B minus A, and the (corrected) p-value of the difference."""

    label: str
    a: float
    b: float
    kind: str  # "rate" or "mean"
    p: float = 1.0
    p_corrected: float = 1.0
    tested: bool = True  # False: shown side by side only (its samples are not independent; see the module text)

    @property
    def mark(self) -> str:
        if not self.tested:
            return ""
        return "**" if self.p_corrected < 0.001 else "*" if self.p_corrected < 0.05 else ""


def _p_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def _rate_row(label: str, a: tuple[int, int], b: tuple[int, int]) -> Row:
    (xa, na), (xb, nb) = a, b
    pa, pb = xa / max(na, 1), xb / max(nb, 1)
    row = Row(label, pa, pb, "rate")
    pooled = (xa + xb) / max(na + nb, 1)
    se = math.sqrt(pooled * (1 - pooled) * (1 / max(na, 1) + 1 / max(nb, 1)))
    row.p = _p_two_sided((pb - pa) / se) if se > 0 else (1.0 if pa == pb else 0.0)
    return row


def _mean_row(label: str, a: tuple[int, float, float], b: tuple[int, float, float]) -> Row:
    """From (n, sum, sum of squares) of each sample."""

    def moments(n: int, total: float, squares: float) -> tuple[float, float]:
        if n == 0:
            return 0.0, 0.0
        mean = total / n
        var = max(squares / n - mean * mean, 0.0) * n / max(n - 1, 1)
        return mean, var / n

    ma, va = moments(*a)
    mb, vb = moments(*b)
    row = Row(label, ma, mb, "mean")
    se = math.sqrt(va + vb)
    row.p = _p_two_sided((mb - ma) / se) if se > 0 else (1.0 if ma == mb else 0.0)
    return row


def _counter_sample(counts: dict[int, int]) -> tuple[int, float, float]:
    return (
        sum(counts.values()),
        float(sum(v * k for v, k in counts.items())),
        float(sum(v * v * k for v, k in counts.items())),
    )


def _holm(rows: list[Row]) -> None:
    """Holm's step-down correction over the tested rows."""
    order = sorted((i for i, r in enumerate(rows) if r.tested), key=lambda i: rows[i].p)
    running = 0.0
    m = len(order)
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * rows[i].p))
        rows[i].p_corrected = running


def compare_rows(a: Summary, b: Summary) -> list[Row]:
    """Every figure the two summaries share, compared, with Holm-corrected p-values."""
    rows: list[Row] = []
    for t in range(min(len(a.wins), len(b.wins))):
        rows.append(_rate_row(f"team {t}: win rate", (a.wins[t], a.matches), (b.wins[t], b.matches)))
        rows.append(
            _mean_row(
                f"team {t}: points per deal",
                (a.deals, a.points[t], a.points_squares[t]),
                (b.deals, b.points[t], b.points_squares[t]),
            )
        )
    rows.append(_rate_row("draws", (a.draws, a.matches), (b.draws, b.matches)))
    rows.append(
        _rate_row("deals won by the team that led", (a.leader_deal_wins, a.deals), (b.leader_deal_wins, b.deals))
    )
    rows.append(
        _rate_row("deals won by the dealer's team", (a.dealer_deal_wins, a.deals), (b.dealer_deal_wins, b.deals))
    )
    rows.append(
        _rate_row(
            "matches won by the team that led first",
            (a.first_leader_match_wins, a.matches),
            (b.first_leader_match_wins, b.matches),
        )
    )
    for name in (
        [n for n in a.by_name if n in b.by_name]
        + [n for n in b.by_name if n not in a.by_name]
        + [n for n in a.by_name if n not in b.by_name]
    ):
        sa = a.by_name.get(name)
        sb = b.by_name.get(name)
        pa = (a.deals, float(sa.points), float(sa.squares)) if sa else (a.deals, 0.0, 0.0)
        pb = (b.deals, float(sb.points), float(sb.squares)) if sb else (b.deals, 0.0, 0.0)
        rows.append(_mean_row(f"{name}: points per deal", pa, pb))
        rows.append(
            _rate_row(
                f"{name}: scored in (share of deals)",
                (sa.scored_in if sa else 0, a.deals),
                (sb.scored_in if sb else 0, b.deals),
            )
        )
    rows.append(_mean_row("plays per deal", _counter_sample(a.deal_length), _counter_sample(b.deal_length)))
    rows.append(_mean_row("deals per match", _counter_sample(a.match_length), _counter_sample(b.match_length)))
    moves = _mean_row("legal moves per turn", _counter_sample(a.branching), _counter_sample(b.branching))
    moves.tested = False
    rows.append(moves)
    rows.append(
        _rate_row(
            "deals decided by their last award",
            (a.decided_by_last_award, a.deals),
            (b.decided_by_last_award, b.deals),
        )
    )
    rows.append(_mean_row("lead changes per match", _counter_sample(a.lead_changes), _counter_sample(b.lead_changes)))
    rows.append(_mean_row("final margin", _counter_sample(a.margins), _counter_sample(b.margins)))
    _holm(rows)
    return rows


def run(args: argparse.Namespace) -> int:
    """Simulate both variants with the same seed and settings; print the comparison."""
    if args.deals is None and args.matches is None:
        args.deals = 10_000
    if (args.deals is not None and args.deals < 1) or (args.matches is not None and args.matches < 1):
        raise UserError("--deals and --matches must be at least 1")
    at_least_one(args.players, "--players")
    variants = [load(args.variant_a), load(args.variant_b)]
    workers = workers_for(args)
    summaries: list[Summary] = []
    start = time.perf_counter()
    for variant in variants:
        options: dict[str, Any] = {
            "deals": args.deals,
            "matches": args.matches,
            "seed": args.seed,
            "players": args.players,
            "workers": workers,
            "cluster": args.cluster,
        }
        summary = run_with_progress(variant, args, options, show=not args.json and sys.stderr.isatty())
        summaries.append(summary)
        if summary.interrupted and len(summaries) == 1:
            # Stopped while simulating A: B was not played. Keep what finished: A's statistics.
            if args.json:
                print(json.dumps({"a": summary.as_dict(), "b": None, "interrupted": True}, indent=2))
            else:
                print_summary(summary, variant, time.perf_counter() - start, None)
            print(
                f"piglia: interrupted while simulating A; its statistics above are those of the {summary.matches:,} "
                "matches finished; B was not simulated, nothing compared",
                file=sys.stderr,
            )
            return interrupt.exit_status()
    code = _print_comparison(args, variants, summaries)
    if summaries[1].interrupted:
        print(
            f"piglia: interrupted while simulating B; it is compared on the {summaries[1].matches:,} matches finished",
            file=sys.stderr,
        )
        return interrupt.exit_status()
    return code


def _print_comparison(args: argparse.Namespace, variants: list[Variant], summaries: list[Summary]) -> int:
    rows = compare_rows(*summaries)
    a, b = summaries
    if args.json:
        data = {
            "a": a.as_dict(),
            "b": b.as_dict(),
            "test": TEST_NOTE,
            "interrupted": b.interrupted,
            "rows": [
                {
                    "label": r.label,
                    "kind": r.kind,
                    "a": r.a,
                    "b": r.b,
                    "difference": r.b - r.a,
                    "p": r.p if r.tested else None,
                    "p_holm": r.p_corrected if r.tested else None,
                    "significant": r.tested and r.p_corrected < 0.05,
                }
                for r in rows
            ],
        }
        print(json.dumps(data, indent=2))
        return 0
    out = out_console()
    out.print(
        f"A = {variants[0].name}, B = {variants[1].name}: {a.deals:,} and {b.deals:,} deals "
        f"({a.matches:,} and {b.matches:,} matches{', B interrupted' if b.interrupted else ''}), seed {args.seed}, "
        "random play"
    )
    table = Table("figure", "A", "B", "B - A", "p (Holm)", "", title="Side by side", title_justify="left")
    for r in rows:
        if r.kind == "rate":
            a_text, b_text, diff = f"{r.a:.1%}", f"{r.b:.1%}", f"{(r.b - r.a) * 100:+.1f} pt"
        else:
            a_text, b_text, diff = number(r.a), number(r.b), ("+" if r.b >= r.a else "") + number(r.b - r.a)
        table.add_row(escape(r.label), a_text, b_text, diff, f"{r.p_corrected:.3g}" if r.tested else "-", r.mark)
    out.print(table)
    out.print(TEST_NOTE)
    return 0


def register(sub: Any) -> None:
    """Add the command to the ``piglia`` parser."""
    s = sub.add_parser(
        "compare",
        help="simulate two variants and compare their statistics",
        description="Simulate two variants with the same seed and settings and print their statistics side by "
        "side, marking the differences that are significant. " + TEST_NOTE[0].upper() + TEST_NOTE[1:] + ".",
        epilog="examples:\n  piglia compare base.yaml my-change.yaml --deals 20000\n"
        "  piglia compare base.yaml my-change.yaml --deals 100000 --json",
        formatter_class=HELP_FORMAT,
    )
    s.add_argument("variant_a", metavar="VARIANT_A", help="a rule file or a built-in variant's name")
    s.add_argument("variant_b", metavar="VARIANT_B", help="the variant to compare it with")
    add_run_options(s, default_deals=10_000)
    s.add_argument("--json", action="store_true", help="print both summaries and the comparison as JSON")
    s.set_defaults(run=run)
