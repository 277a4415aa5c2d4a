"""A plugin mechanic's fault is reported as the plugin's (mechanics/guard.py).

Every mechanic whose class is not Piglia's own is checked when a variant is built: an exception raised inside it,
or an answer that breaks its family's protocol (a capture that takes a card twice, an award for a team that does
not exist, a match won by team 7), becomes a :class:`~piglia.errors.PluginError` naming the mechanic (family and
key), its class and its module, with a non-zero exit from the command line and never "internal error". Piglia's own
mechanics are not wrapped. Each misbehaving plugin here is a small class registered for the test, then removed.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import piglia
from conftest import ROOT
from piglia.cli import main
from piglia.errors import PigliaError, PluginError
from piglia.mechanics import AwardForm, BonusTrigger, KindInputs, KindMechanic, MatchEnd, Page, register_mechanic
from piglia.mechanics import base as registry
from piglia.mechanics.capture import Capture, MatchKind, SumKind, register_capture_kind
from piglia.rulespage import render_markdown
from piglia.simulate import simulate
from piglia.state import Game

Register = Callable[..., None]


@pytest.fixture
def register() -> Iterator[Register]:
    """Register plugin classes for the test; every one registered is removed again afterwards."""
    registry.load_plugins()
    before = {family: dict(found) for family, found in registry._REGISTRY.items()}

    def add(*classes: type[Any]) -> None:
        for cls in classes:
            held = registry._REGISTRY[cls.family].get(cls.key)
            if held is not None and before[cls.family].get(cls.key) is not held:  # the test's previous one
                registry.unregister_mechanic(held)
            register_mechanic(cls)

    yield add
    for family, found in registry._REGISTRY.items():
        for cls in [cls for key, cls in found.items() if before[family].get(key) is not cls]:
            registry.unregister_mechanic(cls)


def rule_file(tmp_path: Path, text: str, name: str = "plugged.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


KIND_FILE = """\
name: plugged-kind
extends: scopa
capture:
  kinds:
    odd: {type: faulty}
  priority: [odd, match, sum]
"""

AWARD_FILE = """\
name: plugged-award
extends: scopa
awards:
  weird: {points: 1, faulty: count(pile)}
"""

BONUS_FILE = """\
name: plugged-bonus
extends: scopa
bonuses:
  ace: {points: 1, when: played.value == 1, on: faulty}
"""

MATCH_FILE = """\
name: plugged-match
extends: scopa
match:
  target: null
  faulty: 2
"""


def assert_theirs(message: str, key: str, cls: type[Any], *, family: str) -> None:
    """The message names the mechanic, its class and module, and does not call the fault Piglia's."""
    assert f"{family} {key!r}" in message
    assert f"plugin class {cls.__qualname__} in module {cls.__module__}" in message
    assert "internal error" not in message and "please report" not in message
    assert "Traceback" not in message


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``piglia ARGS`` in this process (where the test's plugin is registered): exit status, output and errors."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out + err


# -- capture kinds --------------------------------------------------------------------------------------------


class _Kind(KindMechanic):
    key = "faulty"
    summary = "A kind of the tests."
    messages = ("kind.faulty",)
    texts = {"en": {"kind.faulty": "one table card, oddly."}}  # noqa: RUF012 - as plugins write it

    def phrase(self, page: Page) -> str:
        return page.msg("kind.faulty")


def _kind(name: str, captures: Callable[[KindMechanic, int, Sequence[int]], Any]) -> type[KindMechanic]:
    return type(name, (_Kind,), {"captures": captures, "__module__": __name__})


def _pop(table: Any) -> list[Capture]:
    table.pop()  # a plugin bug: the engine's table changed under it (now a tuple it cannot change)
    return []


# Each misbehaving kind, with the words its fault is reported in.
BAD_KINDS: dict[str, tuple[Callable[[KindMechanic, int, Sequence[int]], Any], str]] = {
    "KTwice": (lambda self, p, t: [(min(t),) * 2] if len(t) > 1 else [], "twice: a capture lists each table card once"),
    "KForeign": (
        lambda self, p, t: [(next(c for c in range(40) if c not in t and c != p),)],
        "which is not on the table",
    ),
    "KPlayed": (lambda self, p, t: [(p,)], "which is not on the table"),
    "KRange": (lambda self, p, t: [(999,)], "card index 999"),
    "KEmpty": (lambda self, p, t: [()], "empty capture"),
    "KLists": (lambda self, p, t: sorted([c] for c in t), "a capture is a tuple"),
    "KBool": (lambda self, p, t: [(True,)], "holding bool True"),
    "KFloat": (lambda self, p, t: sorted((float(c),) for c in t), "holding float"),
    "KUnsortedCapture": (lambda self, p, t: [tuple(sorted(t, reverse=True))] if len(t) > 1 else [], "ascending"),
    "KUnsortedList": (lambda self, p, t: sorted(((c,) for c in t), reverse=True) if len(t) > 1 else [], "order"),
    "KDuplicate": (lambda self, p, t: sorted([(c,) for c in t] * 2), "twice: a kind lists each capture once"),
    "KNone": (lambda self, p, t: None, "returned NoneType None from captures"),
    "KGenerator": (lambda self, p, t: ((c,) for c in sorted(t)), "returned generator"),
    "KRaises": (lambda self, p, t: 1 // 0, "raised ZeroDivisionError in captures: integer division or modulo by zero"),
    "KMisuse": (
        lambda self, p, t: [(self.inputs.deck.parse_card("Zz").index,)],
        "PigliaError in captures: unknown card",
    ),
    "KMutates": (lambda self, p, t: _pop(t), "raised AttributeError in captures"),  # the table is not its own
}


@pytest.mark.parametrize("name", list(BAD_KINDS))
def test_a_misbehaving_kind_is_reported_as_the_plugins(register: Register, tmp_path: Path, name: str) -> None:
    captures, words = BAD_KINDS[name]
    cls = _kind(name, captures)
    register(cls)
    variant = piglia.load_variant(rule_file(tmp_path, KIND_FILE))
    with pytest.raises(PluginError) as err:
        simulate(variant, deals=20, seed=1)
    assert_theirs(str(err.value), "faulty", cls, family="capture kind")
    assert words in str(err.value)


def test_the_cli_reports_a_kinds_fault_as_the_plugins(
    register: Register, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cls = _kind("KTwice", BAD_KINDS["KTwice"][0])
    register(cls)
    path = str(rule_file(tmp_path, KIND_FILE))
    code, text = cli(capsys, "simulate", path, "--deals", "20", "--seed", "1")
    assert code == 1
    assert text.startswith("piglia: capture kind 'faulty'")
    assert_theirs(text, "faulty", cls, family="capture kind")
    # validate --play finds it in play, as the plugin's (not as an internal error)
    code, text = cli(capsys, "validate", path, "--play", "20")
    assert code == 1 and "takes the" in text and "twice" in text
    assert_theirs(text, "faulty", cls, family="capture kind")


def test_a_kind_whose_constructor_fails_is_named(
    register: Register, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def __init__(self: KindMechanic, inp: KindInputs) -> None:
        raise KeyError("max_cards")

    cls = type("KCtor", (_Kind,), {"__init__": __init__, "captures": lambda self, p, t: [], "__module__": __name__})
    register(cls)
    path = rule_file(tmp_path, KIND_FILE)
    with pytest.raises(PluginError) as err:
        piglia.load_variant(path)
    assert_theirs(str(err.value), "faulty", cls, family="capture kind")
    assert "raised KeyError in its constructor: 'max_cards'" in str(err.value)
    code, text = cli(capsys, "validate", str(path))
    assert code == 1
    assert text.startswith(f"{path}: capture kind 'faulty'")
    assert_theirs(text, "faulty", cls, family="capture kind")


def test_a_kinds_speed_hooks_and_phrasing_are_checked(register: Register, tmp_path: Path) -> None:
    def signatures(self: KindMechanic) -> Any:
        return [0] * 3, [0] * 3  # one per card of the deck, it should be

    def captures(self: KindMechanic, played: int, table: Sequence[int]) -> list[Capture]:
        return []

    cls = type("KSig", (_Kind,), {"captures": captures, "signatures": signatures, "__module__": __name__})
    register(cls)
    with pytest.raises(PluginError) as err:
        piglia.load_variant(rule_file(tmp_path, KIND_FILE))
    assert_theirs(str(err.value), "faulty", cls, family="capture kind")
    assert "one per card of the deck (40)" in str(err.value)

    def phrase(self: KindMechanic, page: Page) -> str:
        raise RuntimeError("no words")

    other = type("KPhrase", (_Kind,), {"captures": captures, "phrase": phrase, "__module__": __name__})
    register(other)
    variant = piglia.load_variant(rule_file(tmp_path, KIND_FILE, "again.yaml"))
    with pytest.raises(PluginError) as err:
        render_markdown(variant)
    assert_theirs(str(err.value), "faulty", other, family="capture kind")
    assert "raised RuntimeError in phrase: no words" in str(err.value)


def test_an_older_kind_builder_is_named_too(register: Register, tmp_path: Path) -> None:
    class OldTwice:
        def __init__(self, inp: KindInputs) -> None:
            self.inp = inp

        def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
            return [(min(table),) * 2] if len(table) > 1 else []

    register_capture_kind("faulty")(OldTwice)
    try:
        variant = piglia.load_variant(rule_file(tmp_path, KIND_FILE))
        with pytest.raises(PluginError) as err:
            simulate(variant, deals=20, seed=1)
    finally:
        registry.unregister_mechanic(registry.mechanics("capture")["faulty"])
    assert "capture kind 'faulty' (plugin class " in str(err.value) and "OldTwice in module" in str(err.value)
    assert "twice" in str(err.value)


def test_a_kind_is_never_asked_about_an_empty_table(register: Register, tmp_path: Path) -> None:
    # Cassino's builds list the captures of the loose cards, which may be none (every table card in a build):
    # docs/extending.md promises a kind that it is never asked about an empty table.
    def captures(self: KindMechanic, played: int, table: Sequence[int]) -> list[Capture]:
        if not table:
            raise AssertionError("asked about an empty table")
        return []

    register(type("KNoEmpty", (_Kind,), {"captures": captures, "__module__": __name__}))
    text = "name: plugged-cassino\nextends: cassino\ncapture:\n  kinds:\n    odd: {type: faulty}\n"
    text += "  priority: [[numbers, courts], odd]\n"
    game = Game(piglia.load_variant(rule_file(tmp_path, text)))
    rng = random.Random(1)
    for seed in range(30):  # the listing of legal moves (what players and replays use), turn by turn
        state = game.new_match(seed)
        while not state.is_terminal():
            state.play(rng.choice(state.legal_moves()))


def test_a_well_behaved_plugin_kind_still_plays_and_is_checked_only_on_its_own(
    register: Register, tmp_path: Path
) -> None:
    seen: list[Any] = []

    def captures(self: KindMechanic, played: int, table: Sequence[int]) -> list[Capture]:
        seen.append(table)
        if not self.inputs.played_ok[played]:
            return []
        return sorted((c,) for c in table if self.inputs.takes_ok[played][c] and c % 10 == 9)

    cls = type("KGood", (_Kind,), {"captures": captures, "__module__": __name__})
    register(cls)
    variant = piglia.load_variant(rule_file(tmp_path, KIND_FILE))
    out = io.StringIO()
    summary = simulate(variant, deals=30, seed=2, record=out)
    assert summary.deals >= 30 and seen
    assert all(isinstance(t, tuple) and t for t in seen)  # a copy it cannot change, never an empty table
    kind = variant.capture.tiers[0][0]
    assert isinstance(kind, cls) and type(kind).__name__ == "KGood"
    table = [0, 9, 19]
    assert variant.capture.options(10, table) == [((9,), "odd"), ((19,), "odd")]
    assert table == [0, 9, 19]
    # Piglia's own kinds are not wrapped: they run their own class's code
    builtin = [k for tier in variant.capture.tiers[1:] for k in tier]
    assert {type(k) for k in builtin} == {MatchKind, SumKind}
    assert "**odd**: one table card, oddly." in render_markdown(variant)


# -- award forms ----------------------------------------------------------------------------------------------


class _Award(AwardForm):
    key = "faulty"
    summary = "An award of the tests."
    properties = {"faulty": {"type": "string", "minLength": 1}}  # noqa: RUF012 - as plugins write it


def _award(name: str, entries: Callable[[AwardForm, Sequence[tuple[int, ...]], int], Any]) -> type[AwardForm]:
    return type(name, (_Award,), {"entries": entries, "__module__": __name__})


BAD_AWARDS: dict[str, tuple[Callable[[AwardForm, Sequence[tuple[int, ...]], int], Any], str]] = {
    "AEmpty": (lambda self, piles, deal: [], "a non-empty list of (team, points)"),
    "ANone": (lambda self, piles, deal: None, "returned NoneType None from entries"),
    "ABoolTeam": (lambda self, piles, deal: [(True, 1)], "team True"),
    "ATeam5": (lambda self, piles, deal: [(5, 1)], "team 5 from entries: a team is None or an index from 0 to 1"),
    "ATeamNeg": (lambda self, piles, deal: [(-1, 1)], "team -1"),
    "AFloat": (lambda self, piles, deal: [(0, 0.5)], "float 0.5 points"),
    "ABoolPoints": (lambda self, piles, deal: [(0, True)], "bool True points"),
    "ANonePoints": (lambda self, piles, deal: [(0, None)], "NoneType None points"),
    "AHuge": (lambda self, piles, deal: [(0, 10**5000)], "at most 18 digits"),
    "ANotPair": (lambda self, piles, deal: [0], "an entry is a pair"),
    "ARaises": (lambda self, piles, deal: dict[str, int]()["x"], "raised KeyError in entries: 'x'"),
}


@pytest.mark.parametrize("name", list(BAD_AWARDS))
def test_a_misbehaving_award_is_reported_as_the_plugins(register: Register, tmp_path: Path, name: str) -> None:
    entries, words = BAD_AWARDS[name]
    cls = _award(name, entries)
    register(cls)
    variant = piglia.load_variant(rule_file(tmp_path, AWARD_FILE))
    with pytest.raises(PluginError) as err:
        simulate(variant, deals=3, seed=1)
    assert_theirs(str(err.value), "faulty", cls, family="award form")
    assert words in str(err.value)


def test_a_good_award_scores_and_the_cli_reports_a_bad_one_as_the_plugins(
    register: Register, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a well-behaved award plays and scores as before
    def entries(self: AwardForm, piles: Sequence[tuple[int, ...]], deal: int) -> list[tuple[int | None, int]]:
        sizes = [len(p) for p in piles]
        return [(sizes.index(max(sizes)), 2)] if sizes.count(max(sizes)) == 1 else [(None, 0)]

    register(_award("AGood", entries))
    variant = piglia.load_variant(rule_file(tmp_path, AWARD_FILE, "good.yaml"))
    award = next(a for a in variant.awards if a.name == "weird")
    assert award.entries([(1, 2, 3), (4,)], 1) == [(0, 2)]
    assert award.entries([(1,), (4,)], 1) == [(None, 0)]
    out = io.StringIO()
    assert simulate(variant, deals=10, seed=1, record=out).deals >= 10
    assert '"name":"weird"' in out.getvalue()
    assert all(type(a).__module__.startswith("piglia.") for a in variant.awards if a.name != "weird")  # unwrapped
    code, text = cli(capsys, "simulate", str(rule_file(tmp_path, AWARD_FILE, "good-cli.yaml")), "--deals", "3")
    assert code == 0, text
    # a misbehaving one is reported as the plugin's
    cls = _award("AHuge", BAD_AWARDS["AHuge"][0])
    register(cls)
    code, text = cli(capsys, "simulate", str(rule_file(tmp_path, AWARD_FILE)), "--deals", "3")
    assert code == 1 and "at most 18 digits" in text
    assert_theirs(text, "faulty", cls, family="award form")


def test_an_awards_constructor_and_values_are_checked(
    register: Register, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def __init__(self: AwardForm, *args: Any) -> None:
        raise ValueError("boom")

    broken = type("ACtor", (_Award,), {"__init__": __init__, "__module__": __name__})
    register(broken)
    path = rule_file(tmp_path, AWARD_FILE)
    code, text = cli(capsys, "validate", str(path))
    assert code == 1 and "raised ValueError in its constructor: boom" in text
    assert_theirs(text, "faulty", broken, family="award form")

    def values(self: AwardForm, piles: Sequence[tuple[int, ...]], deal: int) -> list[int | None]:
        return [1, 2, 3, 4, 5]

    cls = type(
        "AValues", (_Award,), {"entries": lambda self, piles, deal: [(0, 1)], "values": values, "__module__": __name__}
    )
    register(cls)
    variant = piglia.load_variant(rule_file(tmp_path, AWARD_FILE, "again.yaml"))
    award = next(a for a in variant.awards if a.name == "weird")
    with pytest.raises(PluginError) as err:
        award.values([(), ()], 1)
    assert_theirs(str(err.value), "faulty", cls, family="award form")
    assert "one value per team (2)" in str(err.value)


# -- bonus triggers -------------------------------------------------------------------------------------------


class _Trigger(BonusTrigger):
    key = "faulty"
    summary = "A trigger of the tests."
    messages = ("bonus.faulty",)
    texts = {"en": {"bonus.faulty": "**{name}**: {points} when {cond}."}}  # noqa: RUF012 - as plugins write it


def test_a_good_trigger_scores_and_a_misbehaving_one_is_reported_as_the_plugins(
    register: Register, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a well-behaved trigger scores as before
    register(type("BGood", (_Trigger,), {"on_play": True, "__module__": __name__}))
    variant = piglia.load_variant(rule_file(tmp_path, BONUS_FILE, "good.yaml"))
    out = io.StringIO()
    assert simulate(variant, deals=10, seed=1, record=out).deals >= 10
    assert '"ace"' in out.getvalue()
    assert "**ace**: 1 point when" in render_markdown(variant)

    def __init__(self: BonusTrigger, *args: Any) -> None:
        raise ValueError("boom in the trigger")

    broken = type("BCtor", (_Trigger,), {"__init__": __init__, "__module__": __name__})
    register(broken)
    path = rule_file(tmp_path, BONUS_FILE)
    with pytest.raises(PluginError) as err:
        piglia.load_variant(path)
    assert_theirs(str(err.value), "faulty", broken, family="bonus trigger")
    code, text = cli(capsys, "validate", str(path))
    assert code == 1 and "raised ValueError in its constructor: boom in the trigger" in text
    assert_theirs(text, "faulty", broken, family="bonus trigger")

    # on_play written as a method (the engine reads it as a flag: a bound method is always true)
    method = type("BMethod", (_Trigger,), {"on_play": lambda self, captured: not captured, "__module__": __name__})
    register(method)
    with pytest.raises(PluginError) as err:
        piglia.load_variant(rule_file(tmp_path, BONUS_FILE, "method.yaml"))
    assert_theirs(str(err.value), "faulty", method, family="bonus trigger")
    assert "on_play = method" in str(err.value)

    def phrase(self: BonusTrigger, page: Page) -> str:
        raise RuntimeError("no words")

    mute = type("BPhrase", (_Trigger,), {"phrase": phrase, "__module__": __name__})
    register(mute)
    variant = piglia.load_variant(rule_file(tmp_path, BONUS_FILE, "mute.yaml"))
    with pytest.raises(PluginError) as err:
        render_markdown(variant)
    assert_theirs(str(err.value), "faulty", mute, family="bonus trigger")


# -- match ends -----------------------------------------------------------------------------------------------


class _End(MatchEnd):
    key = "faulty"
    summary = "A match end of the tests."
    properties = {"faulty": {"type": "integer", "minimum": 1}}  # noqa: RUF012 - as plugins write it


def _end(name: str, after_deal: Callable[[MatchEnd, Sequence[int], int], Any]) -> type[MatchEnd]:
    return type(name, (_End,), {"after_deal": after_deal, "__module__": __name__})


BAD_ENDS: dict[str, tuple[Callable[[MatchEnd, Sequence[int], int], Any], str]] = {
    "MBool": (lambda self, totals, deals: deals >= self.value, "returned bool False from after_deal"),
    "MTeam7": (lambda self, totals, deals: (True, 7), "the winner int 7"),
    "MTeamNeg": (lambda self, totals, deals: (True, -1), "the winner int -1"),
    "MTeamBool": (lambda self, totals, deals: (True, True), "the winner bool True"),
    "MOverInt": (lambda self, totals, deals: (1, 0), "over True or False"),
    "MGoesOnWon": (lambda self, totals, deals: (False, 0), "a match that goes on has no winner"),
    "MRaises": (lambda self, totals, deals: [][0], "raised IndexError in after_deal"),
}


@pytest.mark.parametrize("name", list(BAD_ENDS))
def test_a_misbehaving_match_end_is_reported_as_the_plugins(register: Register, tmp_path: Path, name: str) -> None:
    after_deal, words = BAD_ENDS[name]
    cls = _end(name, after_deal)
    register(cls)
    variant = piglia.load_variant(rule_file(tmp_path, MATCH_FILE))
    with pytest.raises(PluginError) as err:
        simulate(variant, matches=2, seed=1)
    assert_theirs(str(err.value), "faulty", cls, family="match end")
    assert words in str(err.value)


def test_a_good_match_end_ends_matches_and_the_cli_reports_a_bad_one(
    register: Register, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a well-behaved end ends matches as it says
    def after_deal(self: MatchEnd, totals: Sequence[int], deals: int) -> tuple[bool, int | None] | None:
        if deals < self.value:
            return None
        best = max(totals)
        return True, totals.index(best) if totals.count(best) == 1 else None

    register(_end("MGood", after_deal))
    summary = simulate(piglia.load_variant(rule_file(tmp_path, MATCH_FILE, "good.yaml")), matches=5, seed=1)
    assert summary.matches == 5 and summary.deals == 10  # each match ends after its 2 deals
    # a misbehaving one is reported as the plugin's
    cls = _end("MTeam7", BAD_ENDS["MTeam7"][0])
    register(cls)
    code, text = cli(capsys, "simulate", str(rule_file(tmp_path, MATCH_FILE)), "--matches", "2")
    assert code == 1 and "the winner int 7" in text
    assert_theirs(text, "faulty", cls, family="match end")

    def __init__(self: MatchEnd, b: Any, value: Any) -> None:
        raise TypeError("boom in the end")

    broken = type("MCtor", (_End,), {"__init__": __init__, "__module__": __name__})
    register(broken)
    code, text = cli(capsys, "validate", str(rule_file(tmp_path, MATCH_FILE, "again.yaml")))
    assert code == 1 and "raised TypeError in its constructor: boom in the end" in text
    assert_theirs(text, "faulty", broken, family="match end")


# -- a plugin that fails to load ------------------------------------------------------------------------------


def test_a_plugin_that_fails_to_load_is_reported_as_the_plugins(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "plugins" / "faulty"))
    monkeypatch.setitem(registry._state, "plugins_loaded", False)  # loaded again, by the command
    monkeypatch.delitem(sys.modules, "piglia_faulty_import", raising=False)
    path = rule_file(tmp_path, "name: plugged-none\nextends: scopa\n")  # a file not checked before in this process
    code, text = cli(capsys, "validate", str(path))
    assert code == 1, text
    assert f"{path}: the mechanics plugin 'faulty_import' (piglia_faulty_import) failed to load: ImportError" in text
    assert "internal error" not in text and "please report" not in text
    monkeypatch.setitem(registry._state, "plugins_loaded", False)
    with pytest.raises(PigliaError, match="failed to load"):
        piglia.load_variant(rule_file(tmp_path, "name: plugged-again\nextends: scopa\n", "again.yaml"))


def test_the_web_table_answers_a_plugins_fault_in_an_upload_as_json(register: Register) -> None:
    """An uploaded rule file whose plugin kind fails when built: the web table answered 500 text/plain (only the
    rule file's own errors were turned into answers); it answers 422 with the plugin's named fault."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its test client; httpx works the same
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from piglia.web.app import create_app

    def __init__(self: KindMechanic, inp: KindInputs) -> None:
        raise KeyError("max_cards")

    cls = type("KCtor", (_Kind,), {"__init__": __init__, "captures": lambda self, p, t: [], "__module__": __name__})
    register(cls)
    with TestClient(create_app(), raise_server_exceptions=False) as client:
        for route in ("/api/rules/check", "/api/games"):
            r = client.post(route, json={"rules": KIND_FILE, "rules_name": "plugged.yaml"})
            assert r.status_code == 422 and r.headers["content-type"].startswith("application/json"), r.text
            assert_theirs(r.json()["error"], "faulty", cls, family="capture kind")
