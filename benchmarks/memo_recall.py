"""What recalling the capture memo an earlier run kept (piglia.memo_store) saves a ``piglia simulate`` run.

    python benchmarks/memo_recall.py                                  # every built-in variant, 6,000 deals
    python benchmarks/memo_recall.py --variant escoba --deals 2000 --rounds 5 --workers 2
    python benchmarks/memo_recall.py --variant escoba --base /tmp/base    # and an older tree's run beside them

Each round runs, for every variant, ``python -m piglia simulate VARIANT --deals N --seed 1`` twice in fresh
processes, one after the other: *cold*, with a cache folder holding the loaded rule files but no kept memo (it is
deleted before each cold run), then *recalled*, with a cache folder where a run of the same size on another seed
(``--seed 2``, made once before the first round) kept its memo. Both print the same statistics (checked). The
figures are the medians over the rounds of each run's CPU time (user + system, from the child's resource usage,
its workers included) and of the ratio cold / recalled, taken round by round (the machine is shared and noisy).
With ``--base TREE`` (a source tree, as ``git archive`` gives it), each round also runs that tree's command first,
with a cache folder of its own, and the ratios base / cold and base / recalled are given too.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from startup import environment as startup_environment
from startup import run_once

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def environment(cache: Path, tree: Path = ROOT) -> dict[str, str]:
    """The child's environment as startup.py makes it (``tree`` first on the path, its own cache folder), with
    the cache on: the memo is kept there."""
    env = startup_environment(tree, cache, bytecode=True)
    env.pop("PIGLIA_NO_CACHE", None)
    return env


def command(variant: str, deals: int, seed: int, workers: int, *, json_out: bool = False) -> list[str]:
    args = ["-m", "piglia", "simulate", variant, "--deals", str(deals), "--seed", str(seed)]
    return [*args, "--workers", str(workers), *(["--json"] if json_out else [])]


def statistics_of(variant: str, deals: int, workers: int, cache: Path) -> dict[str, object]:
    """The run's statistics as ``--json`` prints them, its timing left out (it must not differ but in speed)."""
    out = subprocess.run(
        [sys.executable, *command(variant, deals, 1, workers, json_out=True)],
        env=environment(cache),
        capture_output=True,
        text=True,
        check=True,
        cwd=tempfile.gettempdir(),
    ).stdout
    data: dict[str, object] = json.loads(out)
    for key in ("seconds", "deals_per_second"):
        data.pop(key, None)
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", help="a built-in variant (repeatable; default: every one)")
    parser.add_argument("--deals", type=int, default=6000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--base", type=Path, help="an older source tree whose runs are timed beside them")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here too")
    args = parser.parse_args(argv)
    if args.variant:
        names = args.variant
    else:
        sys.path.insert(0, str(ROOT / "interpreter"))
        from piglia.spec import builtin_names

        names = builtin_names()
    work = Path(tempfile.mkdtemp(prefix="memo-recall-"))
    rows = []
    try:
        cold_cache, kept_cache, base_cache = work / "cold", work / "kept", work / "base"
        for name in names:
            if args.base:
                run_once(command(name, 1, 1, 1), environment(base_cache, args.base))
            run_once(command(name, 1, 1, 1), environment(cold_cache))  # the rule files loaded, no memo kept
            run_once(command(name, args.deals, 2, args.workers), environment(kept_cache))  # a memo kept
            same = statistics_of(name, args.deals, args.workers, kept_cache)
            shutil.rmtree(cold_cache / "capture-memo", ignore_errors=True)
            if same != statistics_of(name, args.deals, args.workers, cold_cache):
                raise SystemExit(f"{name}: the statistics differ with a recalled memo")
        cpu: dict[str, dict[str, list[float]]] = {n: {"base": [], "cold": [], "recalled": []} for n in names}
        for r in range(args.rounds):
            for name in names:
                if args.base:
                    base_env = environment(base_cache, args.base)
                    cpu[name]["base"].append(run_once(command(name, args.deals, 1, args.workers), base_env)[0])
                shutil.rmtree(cold_cache / "capture-memo", ignore_errors=True)
                cpu[name]["cold"].append(
                    run_once(command(name, args.deals, 1, args.workers), environment(cold_cache))[0]
                )
                recalled = run_once(command(name, args.deals, 1, args.workers), environment(kept_cache))[0]
                cpu[name]["recalled"].append(recalled)
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
        memo_folder = kept_cache / "capture-memo"
        print(f"piglia simulate VARIANT --deals {args.deals} --seed 1 --workers {args.workers}: CPU seconds, medians")
        base_head = " base | base / cold | base / recalled |" if args.base else ""
        print(f"| variant | cold | recalled | cold / recalled, by round: median (range) |{base_head}")
        print("|---|---|---|---|" + ("---|---|---|" if args.base else ""))
        for name in names:
            cold, warm, base = cpu[name]["cold"], cpu[name]["recalled"], cpu[name]["base"]
            ratios = [c / w for c, w in zip(cold, warm, strict=True)]
            row: dict[str, object] = {
                "variant": name,
                "cold": statistics.median(cold),
                "recalled": statistics.median(warm),
                "ratio": statistics.median(ratios),
                "ratios": ratios,
            }
            line = (
                f"| {name} | {statistics.median(cold):.2f} | {statistics.median(warm):.2f} | "
                f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}x - {max(ratios):.2f}x) |"
            )
            if base:
                over_cold = statistics.median([b / c for b, c in zip(base, cold, strict=True)])
                over_warm = statistics.median([b / w for b, w in zip(base, warm, strict=True)])
                row.update(base=statistics.median(base), base_over_cold=over_cold, base_over_recalled=over_warm)
                line += f" {statistics.median(base):.2f} | {over_cold:.2f}x | {over_warm:.2f}x |"
            rows.append(row)
            print(line)
        sizes = sorted(p.stat().st_size for p in memo_folder.glob("*.entry")) if memo_folder.exists() else []
        print(f"memos kept: {len(sizes)}, the biggest {max(sizes, default=0) / 1e6:.2f} MB")
        if args.out:
            tree = str(args.base) if args.base else None
            setup = {"deals": args.deals, "rounds": args.rounds, "workers": args.workers, "base": tree}
            args.out.write_text(json.dumps({**setup, "rows": rows}, indent=1) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
