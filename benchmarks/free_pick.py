"""How much of a random deal the legal-move pick costs: the same matches with the pick free, side by side.

Random play spends each turn in two parts: the pick (``CaptureRules.pick``: the legal moves counted, one drawn,
only that one built, the draw included) and everything else (applying the play, bonuses, refills, the deal's end
and its awards, the shuffle, the statistics). This instrument measures the second part alone. In one process it
warms the capture table's memo (``--warm`` matches, seeds as ``ab_trees.py`` warms), plays ``--matches`` matches
recording every answer of the pick, then times rounds in turn: the recorded matches with a pick that hands back
the recorded answers (a list iterator: free, next to anything else), which the script checks to count the same
deals, and the next matches of the seed with the real pick (on the recorded ones the capture table would answer
from what it learnt recording them, more often than in a simulation). With ``--split``, where the capture table's
memo has won its duel, a third pick asks the table for the hand's captures and draws, then hands back the recorded
answer: the table's lookups and the draw, on positions it has learnt (hits), apart from the rest of the pick. A
variant with builds plays through ``pick_raw`` and not the fused loop, and is left out.

The ratio ``free / real`` is the most any faster pick can buy that variant: with the pick costing nothing, a deal
costs what the rest costs. Issue 12 asks every variant for 2x its speed at the issue's start and classic Scopa for
about 2.9x: a row now at ``r`` times its start can reach ``r * free / real`` by the pick alone::

    python benchmarks/free_pick.py scopa escoba spazzino --rounds 5 --matches 300 --warm 1000 --split
    python benchmarks/free_pick.py            # every built-in variant without builds, each player count
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import piglia
from piglia.capture_table import CaptureTable
from piglia.simulate import Summary, _play_watched, match_seed
from piglia.state import Game
from piglia.stats import Watcher

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the other scripts, also when loaded from elsewhere
from ab_trees import configs  # a script of benchmarks/, found by the line above

Pick = Callable[[Sequence[int], Sequence[int], Callable[[int], int]], Any]


def _play(game: Game, first: int, count: int) -> int:
    """Matches ``first`` .. ``first + count - 1`` of seed 1 (as ``ab_trees.py`` plays them); their deals."""
    summary = Summary.empty(game, 1)
    watcher = Watcher(summary, game)
    for k in range(first, first + count):
        _play_watched(game, match_seed(1, k), watcher, None)
    return summary.deals


def _set_pick(game: Game, pick: Pick | None) -> None:
    """Make ``pick`` the variant's pick (play_out reads ``capture.pick`` once a match); None: its own again."""
    capture = game.variant.capture  # a frozen dataclass: set and deleted past its guard
    if pick is None:
        if "pick" in vars(capture):
            object.__delattr__(capture, "pick")
    else:
        object.__setattr__(capture, "pick", pick)


def _replay(answers: list[Any]) -> Pick:
    """A pick that hands back ``answers`` in turn, whatever it is asked."""
    nxt = iter(answers).__next__
    return lambda hand, table, draw: nxt()


def _asking(answers: list[Any], table: CaptureTable) -> Pick:
    """A pick that asks the capture table for the hand's captures and draws as the real pick would, then hands
    back ``answers`` in turn: what the table's lookups and the draw cost, without the rest of the pick."""
    nxt = iter(answers).__next__
    lookup = table.lookup

    def pick(hand: Sequence[int], on: Sequence[int], draw: Callable[[int], int]) -> Any:
        if on:  # the real pick asks nothing of an empty table
            lookup(hand, on)
        answer = nxt()
        if answer[0] > 1:
            draw(answer[0])
        return answer

    return pick


def measure(name: str, players: int, *, matches: int, warm: int, rounds: int, split: bool = False) -> dict[str, Any]:
    """Deals per second of CPU with the real pick and with a free one (medians of interleaved rounds), and the
    median of the rounds' ratios. With ``split``, where the capture table answers (its memo on once warm), the
    microseconds a deal of each part of the pick: the table's lookups with the draw, and the rest. The free and
    split picks replay the recorded matches; the real pick plays the next ``matches`` of the seed each round."""
    game = Game(piglia.load_variant(name), players)
    real: Pick = game.variant.capture.pick
    _play(game, 10**6, warm)
    memo = game.variant.capture.table
    # only a memo that has won its duel: one still duelling would count its blocks in lookups (the real pick asks
    # the counting instead), and leave the next rounds another memo
    split = split and memo is not None and memo.on and memo.settled
    answers: list[Any] = []

    def recording(hand: Sequence[int], table: Sequence[int], draw: Callable[[int], int]) -> Any:
        answer = real(hand, table, draw)
        answers.append(answer)
        return answer

    def timed(pick: Pick | None, first: int, deals: int | None) -> float:
        """Deals a second of CPU over matches ``first`` .. ``first + matches - 1``, checked to be ``deals``."""
        _set_pick(game, pick)
        gc.disable()
        try:
            start = time.process_time()
            played = _play(game, first, matches)
            spent = time.process_time() - start
        finally:
            gc.enable()
        if deals is not None and played != deals:
            raise AssertionError(f"{name}: {played} deals replayed, {deals} recorded")
        return played / spent

    with_real: list[float] = []
    with_free: list[float] = []
    with_asked: list[float] = []
    try:
        _set_pick(game, recording)
        deals = _play(game, 0, matches)
        for r in range(1, rounds + 1):
            # the real pick on matches of its own each round: on the recorded ones, the capture table would answer
            # from what it learnt recording them, more often than a simulation's table does
            with_real.append(timed(None, r * matches, None))
            with_free.append(timed(_replay(answers), 0, deals))
            if split:
                assert memo is not None
                with_asked.append(timed(_asking(answers, memo), 0, deals))
    finally:  # the variant is shared by the process (load_variant caches it): its pick is put back
        _set_pick(game, None)
    ratios = [f / r for f, r in zip(with_free, with_real, strict=True)]
    return {
        "variant": name,
        "players": players,
        "deals": deals,
        "real_deals_per_s": statistics.median(with_real),
        "free_deals_per_s": statistics.median(with_free),
        "free_over_real": statistics.median(ratios),
        "pick_share": 1 - 1 / statistics.median(ratios),
        # microseconds a deal: the whole pick, and (split) its table lookups with the draw, and the rest
        "pick_us": 1e6 / statistics.median(with_real) - 1e6 / statistics.median(with_free),
        "lookup_and_draw_us": 1e6 / statistics.median(with_asked) - 1e6 / statistics.median(with_free)
        if with_asked
        else None,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variants", nargs="*", help="name or name:players (default: every built-in variant)")
    p.add_argument("--matches", type=int, default=300)
    p.add_argument("--warm", type=int, default=400)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--split", action="store_true", help="also time the capture table's lookups and the draw alone")
    args = p.parse_args(argv)
    print(f"{'variant':<22} {'players':>7} {'deals':>6} {'real':>8} {'free':>8} {'free/real':>9} {'pick':>5}", end="")
    print(f" {'pick us':>8} {'lookups and draw us':>20}" if args.split else "")
    for name, players in configs(args.variants):
        if Game(piglia.load_variant(name), players).has_builds:
            print(f"{name:<22} {players:>7}  builds: played through pick_raw, not measured here")
            continue
        row = measure(name, players, matches=args.matches, warm=args.warm, rounds=args.rounds, split=args.split)
        line = (
            f"{name:<22} {players:>7} {row['deals']:>6} {row['real_deals_per_s']:>8,.0f} "
            f"{row['free_deals_per_s']:>8,.0f} {row['free_over_real']:>8.2f}x {row['pick_share']:>5.0%}"
        )
        if args.split:
            asked = row["lookup_and_draw_us"]
            line += f" {row['pick_us']:>8.1f} {'(no settled memo)' if asked is None else f'{asked:.1f}':>20}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
