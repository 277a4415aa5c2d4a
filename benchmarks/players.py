"""Strength of the built-in players: duplicate tournaments, written as JSON and as a markdown table.

    .venv/bin/python benchmarks/players.py VARIANT [--matches 400] [--workers 2] [--seed 1] [--seats N]
        [--pairs greedy,random ismcts:iterations=200:seconds=0,greedy] [--out benchmarks/results]
        [--timing M]
    .venv/bin/python benchmarks/players.py --combine RUN.json [RUN.json ...]
    .venv/bin/python benchmarks/players.py --paired RUN.json OTHER.json
    .venv/bin/python benchmarks/players.py VARIANT --decisions N [--pairs ismcts:seconds=0] [--trees BEFORE AFTER]

Each pair A,B is a `piglia tournament VARIANT --players A,B --matches N --seed S --workers W --json` run; the
JSON of each goes to OUT/players-VARIANT-A-vs-B.json and one markdown row per run is printed, with the points
per deal difference (A minus B) and its 95% interval over the duplicate pairs.

With ``--timing M`` it plays M matches of each pair in this process instead and prints A's time per decision
(mean and slowest, decisions with a single legal move left out; the mean also in this process's CPU time, which
does not grow when other programs share the cores) and B's in the same matches, so that the ratio holds
whatever else the machine is doing.

With ``--decisions N`` it times A alone on N fixed positions: the first N turns of seat 0 with more than one
legal move in greedy-against-greedy matches (match seeds SEED*1000, SEED*1000+1, ...), each decided by a fresh A
seeded with the position's number, and prints the CPU milliseconds of each decision as JSON (``--decisions 0``
builds the positions and warms the card weights only: the baseline that an instruction count subtracts). With
``--trees BEFORE AFTER`` it runs that in fresh processes, one per source tree (``PYTHONPATH=<tree>/interpreter``),
the trees taking turns for ``--rounds`` rounds, and prints each tree's median CPU time per decision and the ratio:

    git archive main | tar -x -C /tmp/ismcts-before
    .venv/bin/python benchmarks/players.py scopa --decisions 40 --pairs ismcts:seconds=0 \\
        --trees /tmp/ismcts-before . --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import piglia
from piglia.moves import Move
from piglia.players import make_player
from piglia.state import Game, SeatView
from piglia.stats import wilson
from piglia.tournament import pair_interval, tournament

DEFAULT_PAIRS = ["greedy,random", "ismcts:iterations=200:seconds=0,greedy"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant", nargs="?", help="a variant (not needed with --combine)")
    p.add_argument("--matches", type=int, default=400)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seats", type=int)
    p.add_argument("--pairs", nargs="+", default=DEFAULT_PAIRS)
    p.add_argument("--out", default=str(Path(__file__).parent / "results"))
    p.add_argument("--timing", type=int, metavar="M", help="time A's decisions over M matches instead")
    p.add_argument("--combine", nargs="+", metavar="JSON", help="pool runs of the same pair (other seeds) into one row")
    p.add_argument("--paired", nargs=2, metavar="JSON", help="two runs, same seed and B: the change in A's edge")
    p.add_argument("--decisions", type=int, metavar="N", help="time A alone on N fixed positions (CPU ms, JSON)")
    p.add_argument("--trees", nargs=2, type=Path, metavar="TREE", help="with --decisions: two source trees in turn")
    p.add_argument("--rounds", type=int, default=5, help="with --trees: rounds of one process per tree")
    args = p.parse_args()
    if args.combine or args.paired:
        try:
            combine(args.combine) if args.combine else paired(*args.paired)
        except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
            # a missing file, or one that is not a run of this script (no "pairs", no "players")
            p.error(f"cannot read the runs to compare: {type(e).__name__}: {e}")
        return
    if args.variant is None:
        p.error("give a variant (or --combine JSON files)")
    if args.trees:
        if args.decisions is None:
            p.error("--trees compares --decisions: give --decisions N")
        trees(args.trees, args.variant, args.pairs[0].split(",")[0], args.decisions, args.seed, args.rounds)
        return
    variant = piglia.load_variant(args.variant)
    if args.decisions is not None:
        print(json.dumps(decisions(variant, args.pairs[0].split(",")[0], args.decisions, args.seed)))
        return
    if args.timing:
        for pair in args.pairs:
            timing(variant, pair.split(","), args.timing, args.seed, args.seats)
        return
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(
        "| variant | A | B | matches | A win rate | 95% CI | A pts/deal | B pts/deal | A - B pts/deal (95% CI) "
        "| seconds |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for pair in args.pairs:
        a, b = pair.split(",")
        start = time.perf_counter()
        result = tournament(
            variant,
            (a, b),
            matches=args.matches,
            seed=args.seed,
            players=args.seats,
            workers=args.workers,
            keep_pairs=True,
        )
        data = result.as_dict()
        data["seconds"] = round(time.perf_counter() - start, 1)
        data["pairs"] = result.pairs  # per duplicate pair: A's points minus B's, deals (for --combine)
        slug = re.sub(r"[^A-Za-z0-9=.]+", "_", f"{variant.name}-{a}-vs-{b}-seed{args.seed}-{args.matches}")
        (out / f"players-{slug}.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        pa, pb = data["players"]
        low, high = pa["ci95"]
        diff = data["points_per_deal_difference"]
        dlow, dhigh = diff["ci95"]
        print(
            f"| {variant.name} | {a} | {b} | {data['matches']} | {pa['win_rate']:.1%} | {low:.1%} - {high:.1%} "
            f"| {pa['points_per_deal']:.2f} | {pb['points_per_deal']:.2f} "
            f"| {diff['value']:+.2f} ({dlow:+.2f} - {dhigh:+.2f}) | {data['seconds']} |",
            flush=True,
        )


def combine(files: list[str]) -> None:
    """One row from several runs of the same pair on different seeds: wins, draws and pairs pooled."""
    runs = [json.loads(Path(f).read_text(encoding="utf-8")) for f in files]
    pa = [r["players"][0] for r in runs]
    pb = [r["players"][1] for r in runs]
    matches = sum(r["matches"] for r in runs)
    deals = sum(r["deals"] for r in runs)
    score = sum(p["wins"] + p["draws"] / 2 for p in pa)
    low, high = wilson(score, matches)
    pairs = [(int(x), int(d)) for r in runs for x, d in r["pairs"]]
    value, dlow, dhigh = pair_interval(pairs)
    a_pts = sum(p["points_per_deal"] * r["deals"] for p, r in zip(pa, runs, strict=True)) / deals
    b_pts = sum(p["points_per_deal"] * r["deals"] for p, r in zip(pb, runs, strict=True)) / deals
    seeds = ",".join(str(r["seed"]) for r in runs)
    print(
        f"| {runs[0]['variant']} | {pa[0]['name']} | {pb[0]['name']} | {matches} (seeds {seeds}) "
        f"| {score / matches:.1%} "
        f"| {low:.1%} - {high:.1%} | {a_pts:.2f} | {b_pts:.2f} | {value:+.2f} ({dlow:+.2f} - {dhigh:+.2f}) "
        f"| {sum(r['seconds'] for r in runs):.0f} |"
    )


def paired(first: str, second: str) -> None:
    """Two runs with the same seed and the same player B (so the same shuffles, pair by pair): the mean change
    of A's points-a-deal edge over B from the second run to the first, with its 95% half-width. Comparing
    two versions of A on the same cards removes most of the luck of the deal."""
    a = json.loads(Path(first).read_text(encoding="utf-8"))["pairs"]
    b = json.loads(Path(second).read_text(encoding="utf-8"))["pairs"]
    n = min(len(a), len(b))
    diffs = [a[i][0] / a[i][1] - b[i][0] / b[i][1] for i in range(n) if a[i][1] and b[i][1]]
    if len(diffs) < 2:
        print("fewer than two pairs in common")
        return
    mean = sum(diffs) / len(diffs)
    sd = (sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)) ** 0.5
    print(f"{len(diffs)} pairs: {mean:+.2f} +- {1.96 * sd / len(diffs) ** 0.5:.2f} points a deal")


def timing(variant: piglia.Variant, pair: list[str], matches: int, seed: int, seats: int | None) -> None:
    """Play ``matches`` matches A against B in this process and print A's time per decision: wall-clock and
    this process's CPU time (the CPU time does not grow when other programs share the cores)."""
    game = Game(variant, seats)
    times: list[float] = []
    others: list[float] = []
    cpu: list[float] = []
    for k in range(matches):
        state = game.new_match(seed * 1000 + k, log=False)
        players = [make_player(pair[(s + k) % 2], k * 16 + s) for s in range(game.num_players)]
        while not state.over:
            seat = state.to_move
            moves = state.legal_moves()
            if len(moves) == 1:
                state.push(moves[0])
                continue
            start = time.perf_counter()
            start_cpu = time.process_time()
            move = players[seat].choose(state.view(seat), moves)
            mine = pair[(seat + k) % 2] == pair[0]
            (times if mine else others).append(time.perf_counter() - start)
            if mine:
                cpu.append(time.process_time() - start_cpu)
            state.push(move)
    mean = sum(times) / max(len(times), 1)
    other = sum(others) / max(len(others), 1)
    mean_cpu = sum(cpu) / max(len(cpu), 1)
    print(
        f"{variant.name} {pair[0]} (against {pair[1]}): {len(times)} decisions, {mean * 1000:.1f} ms on average "
        f"({mean_cpu * 1000:.1f} ms of CPU), slowest {max(times, default=0) * 1000:.0f} ms; {pair[1]} in the same "
        f"matches {other * 1000:.1f} ms (ratio {mean / max(other, 1e-9):.1f})",
        flush=True,
    )


def decisions(variant: piglia.Variant, spec: str, count: int, seed: int) -> list[float]:
    """CPU milliseconds of each of ``count`` decisions of player ``spec`` on fixed positions (see the module
    text): the same positions and seeds whatever the player's code, so two trees decide the same things."""
    from piglia.players.knowledge import card_weights

    game = Game(variant)
    positions: list[tuple[SeatView, list[Move]]] = []
    k = 0
    while len(positions) < count:
        state = game.new_match(seed * 1000 + k, log=False)
        greedy = [make_player("greedy", s) for s in range(game.num_players)]
        while not state.over and len(positions) < count:
            seat = state.to_move
            moves = state.legal_moves()
            if seat == 0 and len(moves) > 1:
                positions.append((state.view(seat), moves))
            state.push(greedy[seat].choose(state.view(seat), moves))
        k += 1
    card_weights(game)  # computed once per process (about 0.3 s): not part of a decision
    out = []
    for i, (view, moves) in enumerate(positions):
        player = make_player(spec, i)
        start = time.process_time()
        player.choose(view, moves)
        out.append((time.process_time() - start) * 1000)
    return out


def trees(paths: list[Path], variant: str, spec: str, count: int, seed: int, rounds: int) -> None:
    """Median CPU milliseconds per decision of each source tree, in fresh processes taking turns (A B, B A, ...),
    and the ratio of the first to the second."""
    script = str(Path(__file__).resolve())
    per_tree: list[list[float]] = [[] for _ in paths]
    for r in range(rounds):
        order = list(range(len(paths)))[:: 1 if r % 2 == 0 else -1]
        for t in order:
            env = {**os.environ, "PYTHONPATH": str(paths[t].resolve() / "interpreter")}
            cmd = [sys.executable, script, variant, "--decisions", str(count), "--seed", str(seed), "--pairs", spec]
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
            times = json.loads(out.splitlines()[-1])
            per_tree[t].append(sum(times) / len(times))
            print(f"round {r + 1} {paths[t]}: {per_tree[t][-1]:.1f} ms of CPU a decision", flush=True)
    medians = [statistics.median(x) for x in per_tree]
    for path, m in zip(paths, medians, strict=True):
        print(f"{variant} {spec}, {count} decisions: {path} {m:.1f} ms of CPU a decision (median of {rounds} rounds)")
    print(f"ratio {paths[0]} / {paths[1]}: {medians[0] / medians[1]:.2f}x")


if __name__ == "__main__":
    main()
