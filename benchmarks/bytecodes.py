"""Where a random deal's work goes, in Python bytecodes per deal and per function: a profile that does not depend
on how loaded the machine is (and, unlike ``instructions.py``, names the Python functions).

Plays ``--warm`` matches unmeasured (the capture table's warm-up), then ``--matches`` matches with every bytecode
counted (``sys.settrace`` with opcode events: slow, about 100 times a plain run), and prints the bytecodes per
deal of the functions that run most. ``--function NAME`` prints one function's bytecodes per deal line by line::

    python benchmarks/bytecodes.py scopa --matches 20 --warm 60
    python benchmarks/bytecodes.py scopa --matches 10 --function play_out

A bytecode is not a unit of time (a call into C counts as one), but a change that removes bytecodes from the
loop of every play shows here exactly, on any machine.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from types import FrameType
from typing import Any

import piglia
from piglia.simulate import Summary, _play_watched, match_seed
from piglia.state import Game
from piglia.stats import Watcher


def play(game: Game, seed: int, count: int) -> int:
    summary = Summary.empty(game, 1)
    watcher = Watcher(summary, game)
    for k in range(count):
        _play_watched(game, match_seed(seed, k), watcher, None)
    return summary.deals


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant")
    p.add_argument("--matches", type=int, default=20)
    p.add_argument("--warm", type=int, default=60)
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--function", help="count this function's bytecodes line by line")
    args = p.parse_args(argv)
    game = Game(piglia.load_variant(args.variant))
    play(game, 2, args.warm)
    by_function: Counter[tuple[str, str]] = Counter()
    by_line: Counter[tuple[str, int]] = Counter()  # (module, line); line -1: an instruction of no line

    def tracer(frame: FrameType, event: str, _arg: Any) -> Any:
        code = frame.f_code
        if args.function and code.co_name != args.function:
            return None
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        if event == "opcode":
            if args.function:
                line = frame.f_lineno
                by_line[code.co_filename.rsplit("/", 1)[-1], -1 if line is None else line] += 1
            else:
                by_function[code.co_filename.rsplit("/", 1)[-1], code.co_name] += 1
        return tracer

    sys.settrace(tracer)
    try:
        deals = play(game, 1, args.matches)
    finally:
        sys.settrace(None)
    total = sum(by_line.values()) + sum(by_function.values())
    print(f"{args.variant}: {deals} deals, {total // max(deals, 1):,} bytecodes a deal")
    for (module, line), n in sorted(by_line.items()):  # functions of that name in every module, by module
        print(f"{module}:{line:<6} {n / deals:10.1f}")
    for (module, function), n in by_function.most_common(args.top):
        print(f"{n / total:6.1%} {n // deals:8,} {module} {function}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
