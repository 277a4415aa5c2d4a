"""Draw a simulation's distributions with matplotlib (the optional ``plot`` extra); no command of its own."""

from __future__ import annotations

from typing import Any

from piglia.stats import Summary
from piglia.variant import Variant

__all__ = ["plot_summary"]


def _bars(ax: Any, counts: dict[str, int], label: str, offset: float = 0.0, width: float = 0.8) -> None:
    """A share per whole value, the bar centred ``offset`` off the value's tick; whole-number ticks only (the
    values are counts: a tick at 2.5 deals means nothing)."""
    from matplotlib.ticker import MaxNLocator

    total = max(sum(counts.values()), 1)
    xs = [int(k) + offset for k in counts]
    ax.bar(xs, [v / total for v in counts.values()], width=width, label=label)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def image_formats() -> dict[str, str]:
    """The file formats matplotlib writes, by suffix without the dot (png: "Portable Network Graphics"...)."""
    from matplotlib.backend_bases import FigureCanvasBase

    return dict(FigureCanvasBase.get_supported_filetypes())


def plot_summary(summary: Summary, variant: Variant, image_format: str = "png") -> bytes:
    """Points per deal, award and bonus frequencies, match length and legal moves per turn, in one image (the
    file's bytes: the caller writes them without replacing a file it may not)."""
    import io

    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    data = summary.as_dict()
    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    fig.suptitle(f"{variant.title}: {summary.deals:,} deals, {summary.matches:,} matches, seed {summary.seed}")

    ax = axes[0][0]
    teams = data["teams"]
    width = 0.8 / max(len(teams), 1)
    for i, t in enumerate(teams):
        # the teams' bars side by side, the group centred on the value's tick
        offset = (i - (len(teams) - 1) / 2) * width
        _bars(ax, t["deal_points"], f"team {t['team']} (seats {','.join(map(str, t['seats']))})", offset, width)
    ax.set_title("Points per deal")
    ax.set_xlabel("points in a deal")
    ax.set_ylabel("share of deals")
    ax.legend()

    ax = axes[0][1]
    scoring = data["scoring"]
    ys = range(len(scoring))
    ax.barh([y - 0.2 for y in ys], [s["scored_in"] for s in scoring], height=0.4, label="scored in (share of deals)")
    ax.barh([y + 0.2 for y in ys], [s["points_per_deal"] for s in scoring], height=0.4, label="points per deal")
    ax.set_yticks(list(ys), [s["name"] for s in scoring])
    ax.invert_yaxis()
    ax.set_title("Awards and bonuses")
    ax.legend(loc="best")  # where it hides the fewest bars (the default for axes; said, as it matters here)

    ax = axes[1][0]
    _bars(ax, data["match_length"]["counts"], "matches")
    ax.set_title(f"Match length (mean {data['match_length']['mean']:.2f} deals)")
    ax.set_xlabel("deals in a match")
    ax.set_ylabel("share of matches")

    ax = axes[1][1]
    _bars(ax, data["branching"]["counts"], "turns")
    ax.set_title(f"Legal moves per turn (mean {data['branching']['mean']:.2f})")
    ax.set_xlabel("legal moves")
    ax.set_ylabel("share of turns")

    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format=image_format, dpi=100)
    plt.close(fig)
    return out.getvalue()
