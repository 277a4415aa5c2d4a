"""How long listing legal captures takes on big tables (issue 4's limit: a 40-card table of small values).

Run: ``.venv/bin/python benchmarks/captures.py``. Prints the best of five timings for each case.
"""

from __future__ import annotations

import sys
import tempfile
import timeit
from functools import partial
from pathlib import Path

import piglia

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_limits import SMALL_VALUES  # noqa: E402  (the same variant the limit test uses)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "small.yaml"
        path.write_text(SMALL_VALUES)
        small = piglia.load_variant(str(path))
    scopa = piglia.load_variant("scopa")
    cases = []
    table = [c.index for c in small.deck.cards if c.rank.value < 10]
    cases.append(("40 cards of values 1-5, played 10", small, small.deck.by_id["Ta"].index, table))
    played = scopa.deck.by_id["Rd"].index
    cases.append(("scopa: 39 cards, played re (matches win)", scopa, played, [c for c in range(40) if c != played]))
    for label, variant, card, cards in cases:
        count = len(variant.capture.options(card, cards))
        best = min(timeit.repeat(partial(variant.capture.options, card, cards), number=1, repeat=5))
        print(f"{label:40s} {count:7d} captures  {best * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
