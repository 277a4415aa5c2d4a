"""Strength of the built-in players: duplicate tournaments, written as JSON and as a markdown table.

    .venv/bin/python benchmarks/players.py VARIANT [--matches 400] [--workers 2] [--seed 1] [--seats N]
        [--pairs greedy,random ismcts:iterations=200:seconds=0,greedy] [--out benchmarks/results]

Each pair A,B is a `piglia tournament VARIANT --players A,B --matches N --seed S --workers W --json` run; the
JSON of each goes to OUT/players-VARIANT-A-vs-B.json and one markdown row per run is printed.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

import piglia
from piglia.tournament import tournament

DEFAULT_PAIRS = ["greedy,random", "ismcts:iterations=200:seconds=0,greedy"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant")
    p.add_argument("--matches", type=int, default=400)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seats", type=int)
    p.add_argument("--pairs", nargs="+", default=DEFAULT_PAIRS)
    p.add_argument("--out", default=str(Path(__file__).parent / "results"))
    args = p.parse_args()
    variant = piglia.load_variant(args.variant)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print("| variant | A | B | matches | A win rate | 95% CI | A pts/deal | B pts/deal | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for pair in args.pairs:
        a, b = pair.split(",")
        start = time.perf_counter()
        result = tournament(
            variant, (a, b), matches=args.matches, seed=args.seed, players=args.seats, workers=args.workers
        )
        data = result.as_dict()
        data["seconds"] = round(time.perf_counter() - start, 1)
        slug = re.sub(r"[^A-Za-z0-9=.]+", "_", f"{variant.name}-{a}-vs-{b}")
        (out / f"players-{slug}.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        pa, pb = data["players"]
        low, high = pa["ci95"]
        print(
            f"| {variant.name} | {a} | {b} | {data['matches']} | {pa['win_rate']:.1%} | {low:.1%} - {high:.1%} "
            f"| {pa['points_per_deal']:.2f} | {pb['points_per_deal']:.2f} | {data['seconds']} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
