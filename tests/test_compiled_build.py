"""The optional compiled build (issue 12): ``interpreter/hatch_build.py`` compiles the hot modules into a standard
wheel when it can, stays pure Python and says why when it cannot, and the compiled modules play exactly what the
source plays.

``make test-compiled`` runs the whole suite again in a venv holding the compiled wheel, with
``PIGLIA_EXPECT_COMPILED=1``: the seeded tests there (golden records, ismcts's moves and playouts, the rules) pin the
compiled path to the source's results, and the last tests here compare the two directly on every built-in variant.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

import piglia
from piglia.buildinfo import compiled_modules, describe

ROOT = Path(__file__).resolve().parent.parent
EXPECT_COMPILED = os.environ.get("PIGLIA_EXPECT_COMPILED") == "1"

needs_hatchling = pytest.mark.skipif(
    importlib.util.find_spec("hatchling") is None or importlib.util.find_spec("Cython") is None,
    reason="the build hook's tests need hatchling and Cython (the dev extra)",
)


def configured_modules() -> list[str]:
    """The modules pyproject.toml asks the build to compile, as dotted names."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    paths = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["modules"]
    return sorted(p.removesuffix(".py").replace("/", ".") for p in paths)


def hook_module() -> Any:
    spec = importlib.util.spec_from_file_location("piglia_hatch_build", ROOT / "interpreter" / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeApp:
    """hatchling's application, as far as the hook uses it: what it displays is kept."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def display_info(self, text: str) -> None:
        self.lines.append(text)

    def display_warning(self, text: str) -> None:
        self.lines.append(text)


def run_hook(version: str, modules: list[str]) -> tuple[dict[str, Any], FakeApp, Any]:
    hook_cls = hook_module().CompiledBuildHook
    app = FakeApp()
    hook = hook_cls(str(ROOT), {"modules": modules}, None, None, str(ROOT / "dist"), "wheel", app)
    data: dict[str, Any] = {"pure_python": True, "infer_tag": False, "force_include": {}}
    hook.initialize(version, data)
    hook.finalize(version, data, "")
    return data, app, hook


def test_every_configured_module_exists() -> None:
    for name in configured_modules():
        assert (ROOT / "interpreter" / (name.replace(".", "/") + ".py")).is_file(), name


@needs_hatchling
def test_pure_reasons() -> None:
    pure_reason = hook_module().pure_reason
    assert pure_reason({"PIGLIA_PURE": "1"}) == "PIGLIA_PURE is set"
    assert "no C compiler" in pure_reason({"CC": "/nonexistent/cc"})
    assert pure_reason({"PIGLIA_PURE": "0", "CC": sys.executable}) is None  # any program found will do here


@needs_hatchling
def test_an_editable_build_never_compiles() -> None:
    data, app, _ = run_hook("editable", ["piglia/chance.py"])
    assert data == {"pure_python": True, "infer_tag": False, "force_include": {}}
    assert app.lines == []


@needs_hatchling
def test_a_build_whose_compiler_fails_is_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", "false")  # found, and fails on every file
    monkeypatch.delenv("PIGLIA_PURE", raising=False)
    data, app, hook = run_hook("standard", ["piglia/chance.py"])
    assert data == {"pure_python": True, "infer_tag": False, "force_include": {}}
    assert any("compiling failed, the build is pure Python" in line for line in app.lines)
    assert not hook._work.exists()  # the work folder is removed


@needs_hatchling
def test_a_build_without_a_compiler_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", "/nonexistent/cc")
    data, app, _ = run_hook("standard", ["piglia/chance.py"])
    assert data["pure_python"] is True and data["force_include"] == {}
    assert app.lines == ["piglia: pure-Python build (no C compiler (/nonexistent/cc not found))"]


@needs_hatchling
def test_a_standard_build_compiles_into_the_wheel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PIGLIA_PURE", raising=False)
    monkeypatch.delenv("CC", raising=False)
    if hook_module().pure_reason() is not None:
        pytest.skip(f"this machine cannot compile: {hook_module().pure_reason()}")
    hook_cls = hook_module().CompiledBuildHook
    app = FakeApp()
    hook = hook_cls(str(ROOT), {"modules": ["piglia/chance.py"]}, None, None, str(ROOT / "dist"), "wheel", app)
    data: dict[str, Any] = {"pure_python": True, "infer_tag": False, "force_include": {}}
    hook.initialize("standard", data)
    try:
        assert data["pure_python"] is False and data["infer_tag"] is True
        [(built, inside)] = data["force_include"].items()
        assert Path(built).is_file()
        assert inside.startswith("piglia/chance.") and inside.endswith((".so", ".pyd"))
        # nothing generated beside the checkout's sources
        assert not list((ROOT / "interpreter" / "piglia").glob("chance.*.so"))
        assert not (ROOT / "interpreter" / "piglia" / "chance.c").exists()
    finally:
        hook.finalize("standard", data, "")
    assert not Path(built).exists()


def test_version_says_how_it_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "piglia", "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == describe()
    assert out.startswith("piglia ") and ("modules compiled" in out) == bool(compiled_modules())


@pytest.mark.skipif(EXPECT_COMPILED, reason="the compiled build's venv")
def test_the_checkout_runs_its_source() -> None:
    """An extension module left beside a .py file of the checkout would run instead of it, stale."""
    assert compiled_modules() == []


@pytest.mark.skipif(not EXPECT_COMPILED, reason="only in the compiled build's venv (make test-compiled)")
def test_the_wheel_runs_compiled() -> None:
    assert compiled_modules() == configured_modules()
    assert Path(piglia.__file__).resolve().parent != ROOT / "interpreter" / "piglia"


# A fresh process runs ``matches`` random matches of a variant and prints their summary, less its timing.
SUMMARY = """
import json, sys
import piglia
from piglia.simulate import Summary, _play_watched, match_seed
from piglia.state import Game
from piglia.stats import Watcher
name, players, matches = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = Game(piglia.load_variant(name), players=players or None)
summary = Summary.empty(game, 1)
watcher = Watcher(summary, game)
for k in range(matches):
    _play_watched(game, match_seed(7, k), watcher, None)
out = summary.as_dict()
out.pop("seconds", None)
print(json.dumps(out, sort_keys=True))
"""


def summary_of(name: str, source: bool) -> str:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if source:  # the checkout's modules first on the path: every module from its .py file
        env["PYTHONPATH"] = str(ROOT / "interpreter")
    run = subprocess.run(
        [sys.executable, "-c", SUMMARY, name, "0", "12"], env=env, capture_output=True, text=True, check=True
    )
    return run.stdout


@pytest.mark.skipif(not EXPECT_COMPILED, reason="only in the compiled build's venv (make test-compiled)")
@pytest.mark.parametrize("name", sorted(p.stem for p in (ROOT / "variants").glob("*.yaml")))
def test_compiled_plays_what_the_source_plays(name: str) -> None:
    compiled, source = summary_of(name, source=False), summary_of(name, source=True)
    assert json.loads(compiled) == json.loads(source)
