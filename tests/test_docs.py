"""The documentation's examples run, and the package ships what it needs."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import piglia
from conftest import ROOT


def has_rl_extra() -> bool:
    """Whether the piglia[rl] extra (pettingzoo, gymnasium, numpy) is installed."""
    try:
        for name in ("pettingzoo", "gymnasium", "numpy"):
            importlib.import_module(name)
    except ImportError:
        return False
    return True


def test_api_doc_examples_run() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 10


def test_docstring_examples_run() -> None:
    failed = 0
    for info in pkgutil.walk_packages(piglia.__path__, "piglia."):
        if info.name.endswith("__main__"):
            continue
        if info.name.startswith("piglia.env") and not has_rl_extra():
            continue  # the piglia[rl] extra is not installed: tests/test_env.py skips too
        module = importlib.import_module(info.name)
        failed += doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed
    assert failed == 0


def test_language_doc_covers_every_schema_key() -> None:
    text = (ROOT / "docs" / "language.md").read_text()
    from piglia.schema import schema as load_schema

    schema = load_schema()
    missing = [key for key in schema["properties"] if f"`{key}`" not in text and f"## {key}" not in text]
    assert missing == []


@pytest.mark.skipif(sys.platform == "win32", reason="uses the shell's pip")
def test_wheel_ships_grammar_schema_and_variants(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    wheel = next(tmp_path.glob("piglia-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "piglia/_data/grammar/dsl.lark" in names
    assert "piglia/_data/grammar/variant.schema.json" in names
    assert "piglia/_data/variants/scopa.yaml" in names
