"""Piglia's speed, measured side by side in one run: ``make bench`` (or ``python benchmarks/run.py``).

1. Random deals per second, one process, for every built-in variant (the statistics fast path that
   ``piglia simulate --workers 1`` uses: no event built, no record written).
2. The interpreter against ``hand_scopa.py``, classic Scopa written by hand, and ``tuned_scopa.py``, the same tuned
   by hand (the table's values in one packed key, captures counted, piles as bit masks), on the very same matches
   (same seeds, same deals, same moves): the ratios of time per deal.
3. Listing the legal moves of fixed positions, among them a 30-card table of small values; the hand engine on the
   same positions for comparison.
4. The DSL's compiled conditions and scores against the same thing written as a Python function.

The machine may be shared and noisy, so every comparison is interleaved (A, B, A, B, ...) and repeated, and the
figures reported are medians. ``--quick`` runs fewer rounds; ``--json`` prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import hand_scopa  # noqa: E402
import piglia  # noqa: E402
import tuned_scopa  # noqa: E402
from piglia.contexts import NO_PLAY, AwardEnv, BonusEnv  # noqa: E402
from piglia.simulate import Summary, _play_watched, match_seed  # noqa: E402
from piglia.spec import builtin_names  # noqa: E402
from piglia.state import Game, State  # noqa: E402
from piglia.stats import Watcher  # noqa: E402


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        model = platform.processor()
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


def _repeat(fn: Callable[[], Any], n: int) -> Any:
    """``fn()`` called ``n`` times; the last result."""
    return [fn() for _ in range(n)][-1]


def _each(fn: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    """``fn`` applied to every item."""
    return [fn(x) for x in items]


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Seconds one call takes (garbage collection paused, as timeit does), and what it returned."""
    gc.disable()
    try:
        start = time.perf_counter()
        result = fn()
        return time.perf_counter() - start, result
    finally:
        gc.enable()


# -- 1 and 2: deals per second ---------------------------------------------------------------------------------


def interpreter_deals(game: Game, seed: int, first: int, count: int) -> int:
    """Play matches ``first`` .. ``first + count - 1`` of a run as ``piglia simulate --workers 1`` does."""
    summary = Summary.empty(game, seed)
    watcher = Watcher(summary, game)
    for k in range(first, first + count):
        _play_watched(game, match_seed(seed, k), watcher, None)
    return summary.deals


def hand_deals(seed: int, first: int, count: int) -> int:
    return sum(hand_scopa.play_match(match_seed(seed, k))[2] for k in range(first, first + count))


def tuned_deals(memo: dict[int, int], seed: int, first: int, count: int) -> int:
    # one memo for the whole run, as the interpreter's Game keeps its capture table's
    return sum(tuned_scopa.play_match(match_seed(seed, k), memo)[2] for k in range(first, first + count))


def bench_variants(rounds: int, matches: int, names: list[str] | None = None) -> list[dict[str, Any]]:
    out = []
    for name in names or builtin_names():
        variant = piglia.load_variant(name)
        rates = []
        for players in variant.player_counts:
            game = Game(variant, players)
            samples = []
            for r in range(rounds):
                seconds, deals = timed(partial(interpreter_deals, game, 1, r * matches, matches))
                samples.append(deals / seconds)
            rates.append({"players": players, "deals_per_second": statistics.median(samples)})
        out.append({"variant": name, "by_players": rates})
    return out


def bench_hand(rounds: int, matches: int) -> dict[str, Any]:
    game = Game(piglia.load_variant("scopa"))
    memo: dict[int, int] = {}
    interp, hand, tuned, ratios, tuned_ratios = [], [], [], [], []
    for r in range(rounds):
        # The same matches for all three (same seeds): equal work, move for move.
        first = r * matches
        t_hand, d_hand = timed(partial(hand_deals, 2, first, matches))
        t_interp, d_interp = timed(partial(interpreter_deals, game, 2, first, matches))
        t_tuned, d_tuned = timed(partial(tuned_deals, memo, 2, first, matches))
        assert d_hand == d_interp == d_tuned, "the hand engines and the interpreter played different matches"
        interp.append(d_interp / t_interp)
        hand.append(d_hand / t_hand)
        tuned.append(d_tuned / t_tuned)
        ratios.append((t_interp / d_interp) / (t_hand / d_hand))
        tuned_ratios.append((t_interp / d_interp) / (t_tuned / d_tuned))
    return {
        "rounds": rounds,
        "matches_per_round": matches,
        "interpreter_deals_per_second": statistics.median(interp),
        "hand_deals_per_second": statistics.median(hand),
        "tuned_deals_per_second": statistics.median(tuned),
        "time_per_deal_ratio": statistics.median(ratios),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
        "tuned_time_per_deal_ratio": statistics.median(tuned_ratios),
        "tuned_ratio_min": min(tuned_ratios),
        "tuned_ratio_max": max(tuned_ratios),
    }


# -- 3: legal moves --------------------------------------------------------------------------------------------


def positions() -> list[tuple[str, State]]:
    game = Game(piglia.load_variant("scopa"))
    opening = game.new_match(5, log=False)
    middle = game.position(
        hands=[["7d", "5c", "Rs"], ["3b", "4b", "Cc"]],
        table=["2d", "3c", "4s", "5b", "Ab", "Fs"],
        stock=["6d", "6c", "6s", "6b"],
        dealer=1,
        log=False,
    )
    small = [f"{r}{s}" for s in "dcsb" for r in "A234567"] + ["Fc", "Fs"]  # every card of value 1-7, two 8s
    big = game.position(
        hands=[["Rd", "Cd", "Fd"], ["Rc", "Cc", "Fb"]],
        table=small,
        stock=["Rs", "Rb", "Cs", "Cb"],
        dealer=1,
        log=False,
    )
    return [
        ("opening deal (seed 5)", opening),
        ("6 cards on the table", middle),
        ("30-card table of small values", big),
    ]


def bench_moves(rounds: int) -> list[dict[str, Any]]:
    out = []
    for label, state in positions():
        hand_cards, table = list(state.hands[state.to_move]), list(state.table)
        interp, hand, public = [], [], []
        reps = 1 if len(table) > 20 else 2000
        for _ in range(rounds):
            t_i, moves = timed(partial(_repeat, state.raw_moves, reps))
            t_h, hand_moves = timed(partial(_repeat, partial(hand_scopa.legal_moves, hand_cards, table), reps))
            t_p, _ = timed(partial(_repeat, state.legal_moves, reps))
            interp.append(t_i / reps)
            hand.append(t_h / reps)
            public.append(t_p / reps)
        assert sorted(hand_moves) == moves, label
        out.append(
            {
                "position": label,
                "table_cards": len(table),
                "moves": len(moves),
                "raw_moves_ms": statistics.median(interp) * 1000,
                "legal_moves_ms": statistics.median(public) * 1000,
                "hand_ms": statistics.median(hand) * 1000,
            }
        )
    return out


# -- 4: the DSL against Python ---------------------------------------------------------------------------------


def bench_dsl(rounds: int) -> list[dict[str, Any]]:
    variant = piglia.load_variant("scopa")
    deck = variant.deck
    suit_of = deck.suit_of
    primiera_table = deck.tables["primiera"]
    coins = deck.suit_by_name["coins"].index
    prim = [primiera_table.of_card(deck, c) for c in range(len(deck))]
    # Piles and plays from real games, so that the inputs look like those of a simulation.
    game = Game(variant)
    piles: list[tuple[int, ...]] = []
    plays: list[BonusEnv] = []
    for k in range(40):
        state = game.new_match(match_seed(3, k), log=False)
        while not state.over and state.deal_no == 1:
            moves = state.raw_moves()
            card, captured = moves[len(moves) // 2]
            before = tuple(state.table)
            state.push_raw((card, captured))
            last = not state.stock and not any(state.hands) if state.deal_no == 1 else True
            plays.append(BonusEnv(card, captured, before, tuple(state.table), NO_PLAY, last, 0, 0, "", (), (), 1))
            piles.extend(tuple(p) for p in state.piles)
    award_envs = [AwardEnv(p, 0, 1) for p in piles]
    scopa = variant.bonuses[0].when
    awards = {a.name: a for a in variant.awards}
    cards_most = awards["coins"].most_fns[0]  # type: ignore[attr-defined]
    primiera = awards["primiera"]

    def scopa_py(env: BonusEnv) -> bool:
        return not env.table_after and not env.last_play

    def coins_py(env: AwardEnv) -> int:
        return sum(1 for c in env.pile if suit_of[c] == coins)

    def primiera_py(env: AwardEnv) -> int:
        best = [0, 0, 0, 0]
        for c in env.pile:
            p = prim[c]
            s = suit_of[c]
            if p > best[s]:
                best[s] = p
        return sum(best)

    def eligible_py(env: AwardEnv) -> bool:
        return len({suit_of[c] for c in env.pile}) == 4

    cases: list[tuple[str, str, Callable[[Any], Any], Callable[[Any], Any], list[Any]]] = [
        ("bonus scopa", "empty(table_after) and not last_play", scopa, scopa_py, plays),
        ("award coins", "count(pile where suit == coins)", cards_most, coins_py, award_envs),
        (
            "award primiera (score)",
            "sum(max(primiera[c.rank] for c in pile where c.suit == s) for s in suits)",
            primiera.most_fns[0],  # type: ignore[attr-defined]
            primiera_py,
            award_envs,
        ),
        (
            "award primiera (eligible)",
            "all(any(c.suit == s for c in pile) for s in suits)",
            primiera.eligible_fn,  # type: ignore[attr-defined]
            eligible_py,
            award_envs,
        ),
    ]
    out = []
    for label, text, dsl, py, envs in cases:
        for env in envs:
            assert dsl(env) == py(env), (label, env)
        t_dsl, t_py = [], []
        for _ in range(rounds):
            a, _ = timed(partial(_each, dsl, envs))
            b, _ = timed(partial(_each, py, envs))
            t_dsl.append(a / len(envs))
            t_py.append(b / len(envs))
        out.append(
            {
                "expression": label,
                "dsl": text,
                "inputs": len(envs),
                "dsl_us": statistics.median(t_dsl) * 1e6,
                "python_us": statistics.median(t_py) * 1e6,
                "ratio": statistics.median(a / b for a, b in zip(t_dsl, t_py, strict=True)),
            }
        )
    return out


# -- report ------------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="fewer rounds (a smoke test, noisier)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--variants", help="only the deals/s of these variants (comma-separated), side by side")
    args = p.parse_args(argv)
    rounds, matches = (3, 30) if args.quick else (9, 120)
    if args.variants:
        rates = bench_variants(max(rounds // 2, 2), matches, args.variants.split(","))
        table = Table("variant", "players", "deals/s", title="Deals/s, one process", title_justify="left")
        for v in rates:
            for r in v["by_players"]:
                table.add_row(v["variant"], str(r["players"]), f"{r['deals_per_second']:,.0f}")
        Console(highlight=False).print(table)
        return 0
    figures: dict[str, Any] = {"machine": machine(), "command": "make bench  (python benchmarks/run.py)"}
    figures["hand_vs_interpreter"] = bench_hand(rounds, matches)
    figures["variants"] = bench_variants(max(rounds // 2, 2), matches)
    figures["legal_moves"] = bench_moves(rounds)
    figures["dsl"] = bench_dsl(rounds)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    report(figures)
    return 0


def report(f: dict[str, Any]) -> None:
    out = Console(highlight=False, soft_wrap=True)
    m = f["machine"]
    out.print(
        f"{m['cpu']}, {m['cores']} cores, {m['implementation']} {m['python']}; load average at start "
        f"{', '.join(f'{x:.2f}' for x in (m['load_average'] or []))}. Medians of interleaved rounds."
    )
    h = f["hand_vs_interpreter"]
    t = Table("engine", "deals/s", title="Classic Scopa, random play, one process", title_justify="left")
    t.add_row("Piglia interpreter (scopa.yaml)", f"{h['interpreter_deals_per_second']:,.0f}")
    t.add_row("hand-written Scopa (benchmarks/hand_scopa.py)", f"{h['hand_deals_per_second']:,.0f}")
    t.add_row(
        "time per deal, interpreter / hand",
        f"{h['time_per_deal_ratio']:.2f}x (rounds from {h['ratio_min']:.2f}x to {h['ratio_max']:.2f}x)",
    )
    t.add_row("Scopa tuned by hand (benchmarks/tuned_scopa.py)", f"{h['tuned_deals_per_second']:,.0f}")
    t.add_row(
        "time per deal, interpreter / tuned",
        f"{h['tuned_time_per_deal_ratio']:.2f}x (rounds from {h['tuned_ratio_min']:.2f}x to "
        f"{h['tuned_ratio_max']:.2f}x)",
    )
    out.print(t)
    t = Table("variant", "players", "deals/s", title="Every built-in variant, one process", title_justify="left")
    for v in f["variants"]:
        for r in v["by_players"]:
            t.add_row(v["variant"], str(r["players"]), f"{r['deals_per_second']:,.0f}")
    out.print(t)
    t = Table(
        "position", "table", "moves", "raw_moves", "legal_moves", "hand", title="Legal moves", title_justify="left"
    )
    for r in f["legal_moves"]:
        t.add_row(
            r["position"],
            str(r["table_cards"]),
            f"{r['moves']:,}",
            _ms(r["raw_moves_ms"]),
            _ms(r["legal_moves_ms"]),
            _ms(r["hand_ms"]),
        )
    out.print(t)
    t = Table("expression", "DSL", "Python", "DSL / Python", title="Compiled DSL vs Python", title_justify="left")
    for r in f["dsl"]:
        t.add_row(r["expression"], f"{r['dsl_us']:.2f} µs", f"{r['python_us']:.2f} µs", f"{r['ratio']:.2f}x")
    out.print(t)


def _ms(ms: float) -> str:
    return f"{ms:.3f} ms" if ms < 10 else f"{ms:.1f} ms"


if __name__ == "__main__":
    sys.exit(main())
