"""Mechanics are plugins: the schema comes from the registry, and a mechanic registered outside the package works.

The example plugin (tests/plugins/piglia_wild.py, found through its entry point in the ``piglia.mechanics``
group) adds a capture kind and an award form; a variant using them validates, simulates, replays and gets a
rules page with no edit inside interpreter/.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import piglia
from conftest import ROOT, piglia_env
from piglia.errors import SpecErrors
from piglia.mechanics import base as registry
from piglia.mechanics.schema import schema_text
from piglia.record import verify_lines
from piglia.rulespage import render_markdown
from piglia.simulate import simulate

PLUGINS = ROOT / "tests" / "plugins"


@pytest.fixture
def wild_file(tmp_path: Path) -> Path:
    # A copy per test: the variant cache keys on the file, and these tests load it with and without the plugin.
    return Path(shutil.copy(PLUGINS / "wild.yaml", tmp_path / "wild.yaml"))


@pytest.fixture
def plugin(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The example plugin installed (its .dist-info on sys.path) and loaded, then removed again."""
    before = {family: dict(found) for family, found in registry._REGISTRY.items()}
    monkeypatch.syspath_prepend(str(PLUGINS))
    registry.load_plugins(again=True)
    yield
    for family, found in registry._REGISTRY.items():
        for cls in [cls for key, cls in found.items() if before[family].get(key) is not cls]:
            registry.unregister_mechanic(cls)
    sys.modules.pop("piglia_wild", None)


def test_the_checked_in_schema_is_the_generated_one() -> None:
    # grammar/variant.schema.json is generated (make schema): it must say what the built-in registry says.
    checked_in = (ROOT / "grammar" / "variant.schema.json").read_text(encoding="utf-8")
    assert checked_in == schema_text(), "grammar/variant.schema.json is stale: run make schema"


def test_the_schema_enums_are_the_registry() -> None:
    schema = json.loads(schema_text())
    kinds = schema["properties"]["capture"]["properties"]["kinds"]["additionalProperties"]
    assert kinds["properties"]["type"]["enum"] == sorted(registry.mechanics("capture"))
    award = schema["properties"]["awards"]["additionalProperties"]["oneOf"][0]
    assert set(registry.mechanics("award")) <= set(award["properties"])
    # defaults are stated once, in the mechanics, and written into the schema from there
    sum_block = next(b["then"] for b in kinds["allOf"] if b["if"]["properties"]["type"]["const"] == "sum")
    assert sum_block["properties"]["min_cards"]["default"] == 1


def test_an_unregistered_kind_is_rejected_with_the_registered_ones_named(wild_file: Path) -> None:
    with pytest.raises(SpecErrors) as err:
        piglia.load_variant(wild_file)
    text = str(err.value)
    assert "'wild' is not one of all, match, pile, sets, sum" in text
    assert "unknown key 'fewest'" in text


def test_a_plugin_kind_and_award_validate_simulate_replay_and_are_phrased(plugin: None, wild_file: Path) -> None:
    assert "wild" in registry.mechanics("capture") and "fewest" in registry.mechanics("award")
    assert '"wild"' in schema_text()
    variant = piglia.load_variant(wild_file)
    # play: a re takes one table card by the wild kind only when neither match nor sum can take anything
    deck = variant.deck
    re_coins = deck.parse_card("Rd").index
    table = [deck.parse_card(c).index for c in ("Ac", "2s")]
    assert variant.capture.options(re_coins, table) == [((table[0],), "joker"), ((table[1],), "joker")]
    assert variant.capture.options(re_coins, [deck.parse_card("Rc").index, *table]) == [
        ((deck.parse_card("Rc").index,), "match")
    ]
    # the award: strictly fewest courts wins
    fewest = next(a for a in variant.awards if a.name == "fewest_courts")
    courts = [deck.parse_card(c).index for c in ("Fd", "Cd")]
    assert fewest.entries([tuple(courts), (table[0],)], 1) == [(1, 1)]
    assert fewest.entries([(courts[0],), (courts[1],)], 1) == [(None, 0)]
    # simulate, then replay the records against the variant
    out = io.StringIO()
    summary = simulate(variant, matches=20, seed=3, record=out)
    count, errors = verify_lines(out.getvalue().splitlines(), "wild.jsonl", variant=variant)
    assert errors == [] and count == summary.matches == 20
    plays = [json.loads(line) for line in out.getvalue().splitlines() if '"event":"play"' in line]
    # a re taking one card of another value: only the wild kind allows that
    wild_takes = [p for p in plays if p["card"][0] == "R" and len(p["captured"]) == 1 and p["captured"][0][0] != "R"]
    assert wild_takes, "the wild kind was never used in 20 matches"
    assert '"name":"fewest_courts"' in out.getvalue()
    # the rules page: each plugin mechanic phrases itself, with its own words
    page = render_markdown(variant)
    assert "**joker**: any 1 table card(s), whatever their values. Only played cards of rank re capture" in page
    assert (
        "**fewest_courts**: 1 point to the player for whom the number of cards that are courts in the pile "
        "is the lowest" in page
    )


def test_the_cli_finds_the_plugin_through_its_entry_point(wild_file: Path) -> None:
    env = piglia_env()
    env["PYTHONPATH"] = os.pathsep.join([str(PLUGINS), env["PYTHONPATH"]])

    def piglia_cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "piglia", *args], capture_output=True, text=True, env=env, timeout=120
        )

    assert piglia_cli("validate", str(wild_file)).returncode == 0
    schema = json.loads(piglia_cli("schema").stdout)
    assert (
        "wild"
        in schema["properties"]["capture"]["properties"]["kinds"]["additionalProperties"]["properties"]["type"]["enum"]
    )
    page = piglia_cli("rules", str(wild_file), "--lang", "it")
    assert page.returncode == 0 and "carte qualsiasi del tavolo" in page.stdout


def test_nothing_outside_mechanics_branches_on_a_mechanic_type() -> None:
    # The done-when of issue 10: no `kind == "sum"`, `"most" in spec`, `form == "holder"` outside mechanics/.
    # (The DSL's own functions sum() and all() are another thing of the same name: dsl/ is not scanned, and
    # `all` is left out, being also the deal's `hand: all`.)
    names = "|".join(["match", "sum", "most", "holder", "score"])
    branch = re.compile(
        rf"""(==|!=)\s*["']({names})["']|["']({names})["']\s+(not\s+)?in\b|\bin\s+\(["']({names})["']"""
    )
    offenders = []
    for path in (ROOT / "interpreter" / "piglia").rglob("*.py"):
        if "mechanics" in path.parts or "dsl" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if branch.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
