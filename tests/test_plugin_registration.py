"""A plugin's mistakes are refused as the plugin's, and installing a plugin never changes the built-in rules.

Registration refuses a key another class holds and declarations that are wrong, naming the class; a plugin that
fails to load fails every time and leaves nothing of itself registered; the cache keys stamp every file of a
plugin's package; and the code of docs/extending.md runs as written. The registry is global: every test leaves it
as it found it (the ``registry`` fixture).
"""

from __future__ import annotations

import importlib
import re
import shutil
import sys
import textwrap
import types
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

import piglia
from conftest import ROOT
from piglia.cli import main
from piglia.errors import PigliaError, SpecErrors
from piglia.mechanics import AwardForm, KindMechanic, MatchEnd, Mechanic, register_mechanic
from piglia.mechanics import base as registry
from piglia.mechanics.base import mechanics, unregister_mechanic
from piglia.rulespage import render_markdown
from piglia.simulate import simulate
from piglia.spec import engine_stamp

PLUGINS = ROOT / "tests" / "plugins"
FIXTURES = PLUGINS / "registration"


@pytest.fixture
def registry_kept(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Whatever a test registers or imports is removed again: the registry and the loaded flag as found."""
    before = {family: dict(found) for family, found in registry._REGISTRY.items()}
    modules = set(sys.modules)
    loaded = registry._state["plugins_loaded"]
    yield
    for family, found in registry._REGISTRY.items():
        for cls in [cls for key, cls in found.items() if before[family].get(key) is not cls]:
            unregister_mechanic(cls)
        assert found == before[family], f"the {family} registry is not as it was"
    for name in set(sys.modules) - modules:
        if name.startswith(("piglia_reg", "reg_memo")):
            del sys.modules[name]
    monkeypatch.undo()  # the plugin folders off sys.path before the registry looks for plugins again
    registry._state["plugins_loaded"] = loaded


def _kind(key: Any, name: str = "", **attrs: Any) -> type[KindMechanic]:
    def captures(self: KindMechanic, played: int, table: Sequence[int]) -> list[tuple[int, ...]]:
        return sorted((c,) for c in table)

    return type(
        name or f"Kind_{key}", (KindMechanic,), {"key": key, "summary": "A test kind.", "captures": captures, **attrs}
    )


# -- 1. a key another class holds ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("family", "key", "held"), [("capture", "sum", "SumKind"), ("match", "target", "TargetEnd")])
def test_a_key_held_by_a_builtin_is_refused_naming_both_classes(
    registry_kept: None, family: str, key: str, held: str
) -> None:
    builtin = mechanics(family)[key]
    if family == "capture":
        mine: type[Mechanic] = _kind(key)
    else:
        mine = type("MyTarget", (MatchEnd,), {"key": key, "properties": {key: {"type": "integer"}}})
    with pytest.raises(PigliaError) as err:
        register_mechanic(mine)
    assert mine.__qualname__ in str(err.value) and held in str(err.value) and repr(key) in str(err.value)
    assert mechanics(family)[key] is builtin
    # the built-in rules are as they were: Scopa's sum kind is still the built-in one
    scopa = piglia.load_variant("scopa")
    assert any(type(kind).__name__ == "SumKind" for tier in scopa.capture.tiers for kind in tier)


def test_a_key_held_by_another_plugin_is_refused_and_the_same_class_again_is_harmless(
    registry_kept: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = register_mechanic(_kind("reg_first"))
    assert register_mechanic(first) is first  # the same class again: nothing changes
    second = _kind("reg_first", name="Second")
    with pytest.raises(PigliaError, match=r"Second.*'reg_first'.*already taken.*Kind_reg_first"):
        register_mechanic(second)
    assert mechanics("capture")["reg_first"] is first
    # a module imported twice (run again): a new object of the same class, registered again without complaint
    (tmp_path / "piglia_reg_twice.py").write_text(
        "from piglia.mechanics import KindMechanic, register_mechanic\n\n\n"
        "@register_mechanic\nclass Twice(KindMechanic):\n    key = 'reg_twice'\n\n"
        "    def captures(self, played, table):\n        return []\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    once = importlib.import_module("piglia_reg_twice").Twice
    del sys.modules["piglia_reg_twice"]
    again = importlib.import_module("piglia_reg_twice").Twice
    assert again is not once and mechanics("capture")["reg_twice"] is again


def test_a_plugin_taking_a_builtin_key_stops_every_command_with_its_name(
    registry_kept: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(FIXTURES / "clash"))
    registry._state["plugins_loaded"] = False  # as in a new process: the registry looks for plugins when asked
    assert main(["schema"]) == 1
    err = capsys.readouterr().err
    assert "reg_clash" in err and "MySum" in err and "SumKind" in err and "'sum'" in err
    assert "Traceback" not in err and "internal error" not in err
    assert "reg_clash" not in str(registry._REGISTRY["capture"]["sum"])


# -- 2. declarations checked at registration ------------------------------------------------------------------------


class NotAKind(Mechanic):
    family = "capture"
    key = "reg_wrongbase"


class NotAnAward(Mechanic):
    family = "award"
    key = "reg_wrongbase"
    properties: ClassVar[Mapping[str, Any]] = {"reg_wrongbase": {"type": "string"}}


def _award(key: str, properties: Mapping[str, Any]) -> type[AwardForm]:
    return type(f"Award_{key}", (AwardForm,), {"key": key, "properties": properties})


BAD = {
    "not the family's base (capture)": (NotAKind, "must derive from piglia.mechanics.KindMechanic"),
    "not the family's base (award)": (NotAnAward, "must derive from piglia.mechanics.AwardForm"),
    "an empty key": (_kind(""), "non-empty string"),
    "a key that is not a string": (_kind(5), "non-empty string"),
    "properties a list": (_kind("reg_bad", properties=["max_cards"]), "properties must be a mapping"),
    "a property not a mapping": (_kind("reg_bad", properties={"n": "integer"}), r"properties\['n'\] must be"),
    "a Python set": (_kind("reg_bad", properties={"mode": {"enum": {"fast", "slow"}}}), "a set"),
    "a key that is not a string, deep": (_kind("reg_bad", properties={"n": {"enum": {1: 2}}}), "the key 1"),
    "not JSON Schema": (_kind("reg_bad", properties={"n": {"type": "integr"}}), "not valid JSON Schema"),
    "a bad pattern": (_kind("reg_bad", properties={"s": {"type": "string", "pattern": "([a-z"}}), "regex"),
    "a default of no property": (_kind("reg_bad", properties={"n": {"type": "integer"}}, defaults={"m": 1}), "'m'"),
    "a kind's type": (_kind("reg_bad", properties={"type": {"type": "integer"}}), "'type' is the kind's selector"),
    "a kind's played": (_kind("reg_bad", properties={"played": {"type": "integer"}}), "'played'"),
    "an award's points": (_award("points", {"points": {"type": "integer"}}), "'points'"),
    "another form's tie": (
        _award("reg_lowest", {"reg_lowest": {"type": "string"}, "tie": {"type": "integer"}}),
        "'tie' is already a property of the award form 'most'",
    ),
    "a form without its key": (_award("reg_form", {"other": {"type": "string"}}), "its own key 'reg_form'"),
    "a match end without its key": (
        type("Lead", (MatchEnd,), {"key": "reg_lead", "properties": {"margin": {"type": "integer"}}}),
        "its own key 'reg_lead'",
    ),
    "texts a set": (_kind("reg_bad", texts={"en": {"k": "v"}, "it": {...}}), "texts must map"),
    "a condition of no property": (_kind("reg_bad", conditions={"on_x": {}}), "conditions names 'on_x'"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_wrong_declarations_are_refused_naming_the_class(registry_kept: None, case: str) -> None:
    cls, message = BAD[case]
    before = {family: dict(mechanics(family)) for family in registry.FAMILIES}
    with pytest.raises(PigliaError, match=message) as err:
        register_mechanic(cls)
    assert f"mechanic {cls.__module__}.{cls.__qualname__}" in str(err.value)
    assert {family: dict(mechanics(family)) for family in registry.FAMILIES} == before


def test_a_refused_award_property_leaves_the_builtin_variants_as_they_were(registry_kept: None) -> None:
    # A form's own `tie` merged over `most`'s broke basra.yaml (its tie: carry became "expected a whole number").
    with pytest.raises(PigliaError):
        register_mechanic(_award("reg_lowest", {"reg_lowest": {"type": "string"}, "tie": {"type": "integer"}}))
    assert piglia.load_variant("basra").name


# -- 3. a plugin that fails to load ---------------------------------------------------------------------------------


def test_a_failing_plugin_fails_every_time_and_leaves_nothing_registered(
    registry_kept: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(FIXTURES / "failing"))
    asked: list[Any] = [lambda: registry.load_plugins(again=True), lambda: mechanics("capture"), registry.generation]
    for ask in asked:  # every time it is asked for, not only the first
        with pytest.raises(PigliaError, match=r"the mechanics plugin 'reg_half' \(piglia_reg_half\) failed to load"):
            ask()
        assert "reg_half" not in registry._REGISTRY["capture"]  # nothing of the half-loaded plugin
        assert "reg_after" in registry._REGISTRY["capture"]  # the other plugin is loaded all the same


# -- 4. the cache keys stamp every file of a plugin's package -----------------------------------------------------


def test_the_engine_stamp_changes_when_a_helper_module_of_a_plugin_package_changes(
    registry_kept: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "reg_memo"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from piglia.mechanics import KindMechanic, register_mechanic\n"
        "from reg_memo import rule\n\n\n"
        "@register_mechanic\nclass NearKind(KindMechanic):\n    key = 'reg_near'\n\n"
        "    def captures(self, played, table):\n"
        "        return sorted((c,) for c in table if rule.close(played, c))\n",
        encoding="utf-8",
    )
    helper = package / "rule.py"
    helper.write_text("DIST = 1\n\n\ndef close(a, b):\n    return abs(a - b) == DIST\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    kind = importlib.import_module("reg_memo").NearKind
    before = engine_stamp()
    assert before is not None and str(helper) in before
    helper.write_text("DIST = 12\n\n\ndef close(a, b):\n    return abs(a - b) == DIST\n", encoding="utf-8")
    # the stamp is worked out once per set of registered mechanics: a new process (here, the set registered
    # again) sees the helper changed, and keys its caches (the variant cache, the capture memo) apart
    unregister_mechanic(kind)
    register_mechanic(kind)
    after = engine_stamp()
    assert after is not None and after != before


# -- 5. docs/extending.md -----------------------------------------------------------------------------------------


def _doc_blocks(text: str) -> list[str]:
    """The Python code blocks of a Markdown page, in order (those indented in a list item too)."""
    return [textwrap.dedent(code) for code in re.findall(r"^ *```python\n(.*?)^ *```", text, re.M | re.S)]


def test_the_extending_doc_examples_run_as_written(registry_kept: None, tmp_path: Path) -> None:
    text = (ROOT / "docs" / "extending.md").read_text(encoding="utf-8")
    blocks = _doc_blocks(text)
    assert len(blocks) >= 2
    module = types.ModuleType("extending_doc")
    sys.modules[module.__name__] = module  # as a plugin's module would be: dataclasses and typing look it up
    try:
        for code in blocks:  # one page: each block runs after those before it, in one module
            exec(compile(code, "docs/extending.md", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    assert {"wild", "at_most"} <= set(mechanics("capture")) and "fewest" in mechanics("award")
    # the page's variant plays with the page's classes, and each phrases itself
    variant = piglia.load_variant(shutil.copy(PLUGINS / "wild.yaml", tmp_path / "wild.yaml"))
    assert simulate(variant, matches=3, seed=1).matches == 3
    page = render_markdown(variant)
    assert "any 1 table card(s), whatever their values" in page and "fewest_courts" in page
    assert "carte qualsiasi del tavolo" in render_markdown(variant, lang="it")
    # the KindOptionError example: reported at the key it names
    bad = tmp_path / "at_most.yaml"
    bad.write_text(
        "extends: scopa\ncapture:\n  kinds:\n    few: {type: at_most, min_cards: 2}\n  priority: [match, sum, few]\n",
        encoding="utf-8",
    )
    with pytest.raises(SpecErrors, match=r"at_most\.yaml:4:\d+: capture\.kinds\.few\.min_cards: min_cards \(2\)"):
        piglia.load_variant(bad)


def test_the_extending_doc_names_the_registered_kinds_once() -> None:
    text = (ROOT / "docs" / "extending.md").read_text(encoding="utf-8")
    said = re.findall(r"'wild' is not one of ([a-z, ]+)`", text.split("Without the plugin", 1)[1])
    assert said[:1] == [", ".join(sorted(mechanics("capture")))]
    assert len(re.findall(r"capture\.kinds\.joker\.type: 'wild' is not one of", text)) == 1
