"""Shared helpers for the tests, in one place: positions and piles written with card ids, rule files, records, and
the ``piglia`` command run as a user runs it. Test modules import them (``from conftest import ...``)."""

from __future__ import annotations

import atexit
import importlib.util
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import piglia
from piglia.mechanics.capture import Capture
from piglia.simulate import match_seed
from piglia.state import Game, State
from piglia.variant import CaptureRules, Variant

ROOT = Path(__file__).resolve().parent.parent

# The tests (and the commands they run, which inherit it) use a cache of loaded rule files of their own, empty at the
# start of the session, never the user's (piglia.diskcache); xdist's workers inherit the controller's.
if "PIGLIA_CACHE_DIR" not in os.environ:
    os.environ["PIGLIA_CACHE_DIR"] = tempfile.mkdtemp(prefix="piglia-test-cache-")
    atexit.register(shutil.rmtree, os.environ["PIGLIA_CACHE_DIR"], True)


def load_benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/<name>.py`` as a module (benchmarks/ is not a package), registered in
    ``sys.modules`` under ``bench_<name>``, where its dataclasses look their module up."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[f"bench_{name}"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def scopa() -> Variant:
    return piglia.load_variant("scopa")


def moves_of(state: State, card: str | None = None) -> set[str]:
    """The legal moves in notation (captured ids in alphabetical order), optionally only those playing ``card``."""
    out = set()
    for m in state.legal_moves():
        if card is None or m.card.id == card:
            taken = "+".join(sorted(c.id for c in m.captured))
            out.add(f"{m.card.id} x {taken}" if taken else m.card.id)
    return out


def position(variant: Variant, **kwargs: object) -> State:
    """A hand-made position of ``variant`` (see :meth:`Game.position`)."""
    players = kwargs.pop("players", None)
    return Game(variant, players if isinstance(players, int) else None).position(**kwargs)  # type: ignore[arg-type]


def award_entries(variant: Variant, piles: Sequence[Sequence[str]]) -> dict[str, list[tuple[int | None, int]]]:
    """Each award's (team, points) entries for piles given by card id."""
    deck = variant.deck
    idx = [tuple(deck.parse_card(c).index for c in pile) for pile in piles]
    return {a.name: a.entries(idx, 1) for a in variant.awards}


def all_cards(variant: Variant) -> list[str]:
    return [c.id for c in variant.deck.cards]


def play(state: State, text: str) -> State:
    """The position after the move written in notation (``7d x 3c+4s``, or ``7d`` to place it)."""
    from piglia.moves import Move

    return state.apply(Move.parse(text, state.game.variant.deck))


def bonuses_of_last_play(state: State) -> dict[str, int]:
    """The bonuses scored by the last play, by name."""
    plays = [e for e in state.events or [] if e["event"] == "play"]
    return {b["name"]: b["points"] for b in plays[-1]["bonuses"]}


def events_of(state: State, kind: str) -> list[dict[str, Any]]:
    """The logged events of one kind, as their record JSON objects."""
    return [e.to_json() for e in state.events or [] if e.event == kind]


# -- rule files ---------------------------------------------------------------------------------------------


def write_variant(tmp_path: Path, text: str, name: str = "v.yaml") -> Path:
    """A rule file in ``tmp_path`` (``text`` dedented, so tests can indent it)."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def with_target(folder_factory: pytest.TempPathFactory, base: str, target: int) -> Variant:
    """Built-in variant ``base`` with its match played to ``target``: the same rules in shorter matches (a target of
    1 makes a match one deal), for tests that simulate hundreds of matches."""
    folder = folder_factory.mktemp(f"{base}-{target}")
    text = f"name: {base}-to-{target}\nextends: {base}\nmatch: {{target: {target}}}\n"
    return piglia.load_variant(write_variant(folder, text))


# -- records ------------------------------------------------------------------------------------------------


def record_lines(variant: Variant, seed: int) -> list[str]:
    """The record of one random match, as JSON lines."""
    from piglia.record import write_events
    from piglia.simulate import play_random_match

    out = io.StringIO()
    write_events(play_random_match(Game(variant), seed), out)
    return out.getvalue().splitlines()


def record_errors(lines: list[str], variant: Variant | None = None) -> list[tuple[int, str]]:
    """What replaying the record finds wrong: (line, message) pairs."""
    from piglia.record import verify_lines

    _, errors = verify_lines(lines, "rec.jsonl", variant=variant)
    return [(e.line, e.message) for e in errors]


def edit_event(lines: list[str], i: int, change: Callable[[dict[str, Any]], Any]) -> list[str]:
    """The record with event ``i`` changed in place by ``change``."""
    event = json.loads(lines[i])
    change(event)
    return [*lines[:i], json.dumps(event), *lines[i + 1 :]]


# -- the command --------------------------------------------------------------------------------------------


def piglia_env() -> dict[str, str]:
    """The environment for ``python -m piglia`` from this checkout (no debug tracebacks)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "interpreter")}
    env.pop("PIGLIA_DEBUG", None)
    return env


def run_piglia(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``piglia ARGS`` in a subprocess, as a user runs it: its output and exit status."""
    return subprocess.run(
        [sys.executable, "-m", "piglia", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=piglia_env(),
        timeout=300,
    )


def hide_differently(state: State, seat: int, rng: random.Random) -> State:
    """The same position with the cards ``seat`` cannot see (other hands, the stock) dealt out another way."""
    other = state.clone()
    hidden = [c for s, h in enumerate(other.hands) if s != seat for c in h] + list(other.stock)
    rng.shuffle(hidden)
    pos = 0
    for s, h in enumerate(other.hands):
        if s != seat:
            other.hands[s] = sorted(hidden[pos : pos + len(h)])
            pos += len(h)
    other.stock = hidden[pos:]
    return other


def endgames(game: Game, rng: random.Random, seeds: int = 40) -> Iterator[tuple[int, State]]:
    """(seed, position) with the stock empty and five cards left in the hands of the first deal, reached by random
    play from each seed's match; the position stops at the deal's end (where the solver stops)."""
    for seed in range(seeds):
        state = game.new_match(seed, log=False)
        while state.stock or sum(len(h) for h in state.hands) > 5:
            moves = state.raw_moves()
            state.push_raw(moves[rng.randrange(len(moves))])
        if state.over or state.deal_no != 1:
            continue
        state.auto_deal = False  # the deal's end is where the solver stops
        yield seed, state


def minimax_to_deal_end(state: State, team: int, leaf: Callable[[State], float]) -> float:
    """Plain minimax over every line to the deal's end (no pruning), ``team``'s seats maximising: the finished
    deal is worth ``leaf`` of it (the endgame solvers' tests compare against this)."""
    from piglia.chance import Phase

    if state.phase in (Phase.DEAL, Phase.END):
        return leaf(state)
    values = []
    for move in state.legal_moves():
        after = state.clone()
        after.push(move)
        values.append(minimax_to_deal_end(after, team, leaf))
    return max(values) if state.game.players.team_of[state.to_move] == team else min(values)


def plain_moves(rules: CaptureRules, hand: Sequence[int], table: Sequence[int]) -> list[tuple[int, Capture]]:
    """``State.raw_moves`` of a variant without builds, from the plain captures of each card."""
    out: list[tuple[int, Capture]] = []
    for card in hand:
        caps = rules.captures(card, table)
        if caps and not rules.mandatory:
            out.append((card, ()))
        out += [(card, cap) for cap in caps] if caps else [(card, ())]
    return out


def play_positions(variant: Variant, seed: int, count: int) -> list[tuple[list[int], list[int]]]:
    """(hand, table) of the seat to move, over random play of ``variant`` (tables as the play leaves them)."""
    game = Game(variant, variant.player_counts[-1])
    rng = random.Random(seed)
    out: list[tuple[list[int], list[int]]] = []
    k = 0
    while len(out) < count:
        state = game.new_match(match_seed(seed, k), log=False)
        k += 1
        while not state.over and len(out) < count:
            table = builds_loose(state)
            out.append((list(state.hands[state.to_move]), list(table)))
            moves = state.raw_moves()
            state.push_raw(moves[rng.randrange(len(moves))])
    return out


def builds_loose(state: State) -> list[int]:
    from piglia.mechanics.builds import loose

    return loose(state) if state.game.has_builds else state.table
