"""How long the AI players take on positions far bigger than a built-in game's: one decision each, CPU seconds.

Four positions a valid rule file can reach:

- ``table30``: classic Scopa with a 30-card table of small values (every card of value 1-7 and two fanti; the
  hand holds re, cavallo and fante; the stock not empty): 2,676 legal moves, each with replies to value;
- ``misere34``: Scopa a perdere with optional capture, where nobody wants to capture and tables grow: every
  other card on the table (34), three in each hand (3, 6, 6 of three suits against 6, asso, re), the stock
  empty, so ismcts solves the deal's end: a full solve visits more than 3 million positions;
- ``plain25`` and ``plain34``: Escoba without its awards (``tests/variants/escoba-no-awards.yaml``), where no
  card is worth more than another and most moves are worth the same. ``plain25``: 22 cards of value 1-7 on the
  table and three small cards in each hand, after three placements (1 of oros, 1 of copas, 2 of oros; the seat of
  copas to move: 25 cards on the table, 4,334 legal moves, two plays of the other seat to read); ``plain34``:
  every other card on the table, 1-2-3 of oros against 1-2-rey of copas, the stock empty (3,044 moves).

A decision still going after ``--limit`` seconds of CPU (default 300) is stopped and shown as ``> LIMIT s``.

Each player decides once per position, in a fresh process per source tree (``--tree``, its ``interpreter/``
first on the path), the trees taking turns for ``--rounds`` rounds; the figure is the median CPU time of the
decision (the card weights are computed before the clock starts)::

    python benchmarks/big_positions.py                                        # this tree
    python benchmarks/big_positions.py --tree /tmp/before --tree . --rounds 3 # two trees in turn
    python benchmarks/big_positions.py --position plain25 --position table30  # only these positions
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from piglia.state import Game, State

PLAYERS = ["greedy", "ismcts", "ismcts:seconds=0"]
ROOT = Path(__file__).resolve().parent.parent
MISERE_OPTIONAL = ROOT / "tests" / "variants" / "misere-optional.yaml"  # the AI players' tests use it too
NO_AWARDS = ROOT / "tests" / "variants" / "escoba-no-awards.yaml"


def child(limit: float, only: list[str]) -> dict[str, float]:
    """One decision of each player on each position (those named in ``only``, if any), in this process: CPU
    seconds by ``position/player`` (``math.inf`` for a decision stopped after ``limit`` seconds)."""
    signal.signal(signal.SIGPROF, _stop)
    import piglia
    from piglia.players import make_player
    from piglia.players.knowledge import card_weights
    from piglia.state import Game
    from run import positions  # a script of benchmarks/, beside this one

    table30 = dict(positions())["30-card table of small values"]  # benchmarks/run.py's legal-move position
    misere = Game(piglia.load_variant(MISERE_OPTIONAL))
    ids = [c.id for c in misere.variant.deck.cards]
    hands = [["3c", "6b", "6d"], ["6c", "Ac", "Rc"]]
    rest = [c for c in ids if c not in {c for h in hands for c in h}]
    misere34 = misere.position(hands=hands, table=rest, to_move=0, last_capturer=0)
    plain = Game(piglia.load_variant(NO_AWARDS))
    ids = [c.id for c in plain.variant.deck.cards]
    hands = [["1o", "2o", "3o"], ["1c", "2c", "Rc"]]
    rest = [c for c in ids if c not in {c for h in hands for c in h}]
    plain34 = plain.position(hands=hands, table=rest, to_move=0, last_capturer=0)
    out: dict[str, float] = {}
    cases = (("table30", table30), ("misere34", misere34), ("plain25", plain25(plain)), ("plain34", plain34))
    for label, state in cases:
        if only and label not in only:
            continue
        card_weights(state.game)  # computed once per variant and process: not part of a decision
        moves = state.legal_moves()
        for name in PLAYERS:
            player = make_player(name, 1)
            start = time.process_time()
            signal.setitimer(signal.ITIMER_PROF, limit)  # CPU time: the machine's load does not bring it sooner
            try:
                player.choose(state.view(state.to_move), moves)
                out[f"{label}/{name}"] = time.process_time() - start
            except _Stopped:
                out[f"{label}/{name}"] = math.inf
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
    return out


def plain25(game: Game) -> State:
    """The ``plain25`` position of ``game`` (Escoba without awards, :data:`NO_AWARDS`; see the module text). The AI
    players' tests use it too."""
    ids = [c.id for c in game.variant.deck.cards]
    hands = [["1o", "2o", "3o"], ["1c", "2c", "3c"]]
    rest = [c for c in ids if c not in {c for h in hands for c in h}]
    table = [c for c in rest if c[0] in "1234567"][:22]
    state = game.position(
        hands=hands, table=table, stock=[c for c in rest if c not in table], to_move=0, last_capturer=0
    )
    for text in ("1o", "1c", "2o"):
        state.push({str(m): m for m in state.legal_moves()}[text])
    return state


class _Stopped(Exception):
    """A decision ran past the limit."""


def _stop(_signum: int, _frame: object) -> None:
    raise _Stopped


def _seconds(value: float, limit: float) -> str:
    return f"> {limit:g} s" if math.isinf(value) else f"{value:.2f} s"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", action="append", type=Path, help="a source tree (default: this one); repeat to compare")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--limit", type=float, default=300.0, help="CPU seconds after which a decision is stopped")
    p.add_argument("--position", action="append", default=[], help="only this position (repeat for more)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.limit, args.position)))
        return 0
    trees = args.tree or [ROOT]
    runs: dict[Path, list[dict[str, float]]] = {t: [] for t in trees}
    for r in range(args.rounds):
        for tree in trees if r % 2 == 0 else trees[::-1]:
            env = {**os.environ, "PYTHONPATH": str(tree.resolve() / "interpreter"), "PIGLIA_NO_CACHE": "1"}
            cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--limit", str(args.limit)]
            cmd += [f"--position={name}" for name in args.position]
            runs[tree].append(
                json.loads(subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout)
            )
    keys = list(runs[trees[0]][0])
    print("| position / player | " + " | ".join(str(t) for t in trees) + " |")
    print("|---|" + "---|" * len(trees))
    for key in keys:
        cells = [_seconds(statistics.median(run[key] for run in runs[t]), args.limit) for t in trees]
        print(f"| {key} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
