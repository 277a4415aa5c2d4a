"""The built-in rule files with a value changed: each is refused with located errors, or it validates and plays.

The random variants of test_properties.py are drawn from the Scopa branch of the language; these start from every
built-in file, whole (``extends`` applied), so the wider family's mechanics (builds, sets, a pile taken whole,
face-down cards, declarations, instant wins, misere ends) meet values their authors did not write: a flag turned
over, a number changed, an expression or a name moved from elsewhere in the files, a section emptied or taken out.
docs/language.md, "Guarantees and limits": a file that validates can be played, replayed and described, and the AI
players decide in it. For those, built-in files also swap whole sections (the combinations a scratch fuzz of
issue 14's twentieth and twenty-first passes found errors in: builds with declarations, builds under a misere end).
"""

from __future__ import annotations

import copy
import json
import random
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import piglia
from piglia.errors import LimitError
from piglia.players import make_player
from piglia.players.coach import advise
from piglia.rulespage import render_markdown
from piglia.spec import builtin_names, validate_file
from piglia.state import Game
from test_properties import check_points_add_up, play_checked, replays_clean

PROSE = ("name", "title", "description", "sources", "notes", "translations")
Path_ = tuple[str | int, ...]


@cache
def whole(name: str) -> dict[str, Any]:
    """A built-in rule file with ``extends`` applied, as plain data (no translations: their texts are prose)."""
    data: dict[str, Any] = json.loads(json.dumps(piglia.load_variant(name).rules, default=dict))
    data.pop("extends", None)
    data.pop("translations", None)
    return data


def leaves(data: Any, at: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    """Every value in ``data`` with its path, sections and lists included, the prose left out."""
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        if at or key not in PROSE:
            yield (*at, key), value
            yield from leaves(value, (*at, key))


@cache
def strings() -> list[str]:
    """Every short text the built-in files hold outside their prose: names, ids, expressions, choices."""
    found = {v for n in builtin_names() for _p, v in leaves(whole(n)) if isinstance(v, str) and len(v) < 120}
    return sorted(found)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, list[str], dict[str, Any]]:
    """A built-in file with one to three values changed, and what was changed (for the failure message)."""
    name = draw(st.sampled_from(builtin_names()))
    data = copy.deepcopy(whole(name))
    changes = []
    for _ in range(draw(st.integers(1, 3))):
        path, value = draw(st.sampled_from(list(leaves(data))))
        parent: Any = data
        for key in path[:-1]:
            parent = parent[key]
        new: Any
        if isinstance(value, bool):
            new = not value
        elif isinstance(value, int):
            # 36, 40, 52: most or all of a deck (a table that takes every card, or passes a kind's limit)
            new = draw(st.sampled_from([0, 1, 2, -1, value + 1, value - 1, 2 * value, 13, 36, 40, 52]))
        elif isinstance(value, str):
            new = draw(st.sampled_from([*strings(), "", "x"]))
        else:
            new = draw(st.sampled_from([None, "empty"]))  # None: the key or item taken out
            if new == "empty":
                new = type(value)()
        if new is None:
            if isinstance(parent, dict) or len(parent) > 1:  # a list keeps its last item
                parent.pop(path[-1])
        else:
            parent[path[-1]] = new
        changes.append(f"{'.'.join(map(str, path))} = {'(out)' if new is None else repr(new)[:40]}")
    return name, changes, data


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=mutated(), seed=st.integers(0, 2**32))
def test_a_changed_built_in_file_is_refused_where_it_is_wrong_or_plays(
    case: tuple[str, list[str], dict[str, Any]], seed: int
) -> None:
    name, changes, data = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{name}-changed.yaml"
        path.write_text(yaml.safe_dump({"name": f"{name}-changed", **data}, sort_keys=False, allow_unicode=True))
        errors = validate_file(str(path))
        for error in errors:  # located in the file: its name, a line and a column
            assert error.file.endswith(path.name) and error.line >= 1 and error.col >= 1, (changes, error.format())
        event("refused" if errors else "validated")
        if errors:
            return
        variant = piglia.load_variant(str(path))
    render_markdown(variant)
    game = Game(variant)
    rng = random.Random(seed)
    events = play_checked(game, seed, lambda moves: moves[rng.randrange(len(moves))])
    check_points_add_up(game, events)
    replays_clean(events, variant)


SECTIONS = ("deck", "players", "deal", "capture", "builds", "declarations", "bonuses", "leftover", "awards", "match")


@st.composite
def crossed(draw: st.DrawFn) -> tuple[str, list[str], dict[str, Any]]:
    """A built-in file with one to three of its sections taken from another built-in file, or taken out: rules
    that meet mechanics their authors never combined (builds under a misere end, declarations with builds)."""
    name, other = draw(st.lists(st.sampled_from(builtin_names()), min_size=2, max_size=2, unique=True))
    data = copy.deepcopy(whole(name))
    changes = []
    for _ in range(draw(st.integers(1, 3))):
        section = draw(st.sampled_from(SECTIONS))
        if section in whole(other):
            data[section] = copy.deepcopy(whole(other)[section])
            changes.append(f"{section} from {other}")
        elif section in data:
            del data[section]
            changes.append(f"{section} taken out")
    return name, changes, data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=st.one_of(crossed(), mutated()), seed=st.integers(0, 2**32), plies=st.integers(0, 80))
def test_the_ai_players_decide_under_changed_rules(
    case: tuple[str, list[str], dict[str, Any]], seed: int, plies: int
) -> None:
    """Under a file that validates, greedy and ismcts choose a legal move in any position random play reaches, and
    the coach rates every legal move (docs/language.md, "Guarantees and limits"). A limit of the engine may stop
    the game where the real position reaches it, never inside a decision: a position the players only imagine ends
    that line of their search."""
    name, changes, data = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{name}-changed.yaml"
        path.write_text(yaml.safe_dump({"name": f"{name}-changed", **data}, sort_keys=False, allow_unicode=True))
        if validate_file(str(path)):
            event("refused")
            return
        event("validated")
        game = Game(piglia.load_variant(str(path)))
    rng = random.Random(seed)
    state = game.new_match(seed, log=False)
    try:
        for _ in range(plies):
            if state.over:
                return
            moves = state.raw_moves()
            state.push_raw(moves[rng.randrange(len(moves))])
        if state.over:
            return
        moves_now = state.legal_moves()
    except LimitError:  # the real position passed a limit: the game stops with its message, as it should
        event("real limit")
        return
    view = state.view(state.current_seat)
    for spec in ("greedy", "ismcts:iterations=8:seconds=0"):
        player = make_player(spec, seed)
        move = player.choose(view, moves_now)
        assert move in moves_now, (changes, spec)
    if len(moves_now) <= 200:  # the coach values every move (a test's time, not a limit of the coach)
        advice = advise(view, moves_now, iterations=8, seed=seed)
        assert sorted(map(str, (a.move for a in advice))) == sorted(map(str, moves_now)), changes
        assert advice[0].why, changes
