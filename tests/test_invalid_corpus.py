"""The corpus of broken rule files (tests/data/invalid): each has one mistake and one expected message.

Next to ``x.yaml`` is ``x.expected``: the exact line ``piglia validate`` must print for it, written as a user
would want to read it: ``FILE:LINE:COL: spec.path: message`` (no spec path for a problem with the whole file).
The first comment line of each file says what its mistake is.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, piglia_env
from piglia.cli import main
from piglia.spec import validate_file

CORPUS = ROOT / "tests" / "data" / "invalid"
FILES = sorted(CORPUS.glob("*.yaml"))
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?:(?P<path>[\w.\[\]-]+): )?(?P<message>.+)$")

# The kinds of mistake the corpus must cover (issue 4), by file-name prefix, with the least number of files each.
CATEGORIES = {
    "yaml-": 5,  # syntax (tab, indentation, unclosed quotes and brackets), tags, aliases
    "duplicate-": 2,
    "unknown-key-": 4,  # with a "did you mean"
    "wrong-": 5,  # wrong types and values the schema refuses
    "missing-": 3,  # required keys
    "empty": 1,
    "comments-only": 1,
    "not-a-mapping-": 2,
    "dsl-unknown-": 5,  # suits, ranks, cards, tables, functions named in expressions
    "unknown-award-": 1,  # an award (or any inherited key) removed by a misspelt name
    "unknown-kind-": 1,
    "dsl-syntax-": 4,
    "scope-": 3,  # names used where they are not in scope
    "type-": 3,  # a card compared to a number, and so on
    "deal-": 3,  # a deck too small for the deal, a stock that cannot be dealt
    "teams-": 2,  # a team layout that does not fit the players
    "extends-": 4,  # a missing variant or file, a cycle
    "award-": 3,  # no points, no form, two forms
}


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def expected_line(path: Path) -> str:
    lines = path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1, f"{path.name}: an .expected file holds exactly one line"
    return lines[0]


def test_the_corpus_is_large_and_covers_every_category() -> None:
    assert len(FILES) >= 40
    names = [p.stem for p in FILES]
    for prefix, least in CATEGORIES.items():
        assert sum(n.startswith(prefix) for n in names) >= least, prefix
    assert sorted(p.stem for p in CORPUS.glob("*.expected")) == sorted(names)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_expected_message_is_well_formed_and_points_into_a_file(path: Path) -> None:
    m = LINE.match(expected_line(path))
    assert m, expected_line(path)
    target = ROOT / m["file"]
    assert target.is_file(), m["file"]
    lines = target.read_text(encoding="utf-8").splitlines() or [""]
    line, col = int(m["line"]), int(m["col"])
    assert 1 <= line <= len(lines) and 1 <= col <= len(lines[line - 1]) + 1
    assert "Traceback" not in m["message"] and "tag:yaml.org" not in m["message"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_validate_prints_the_expected_line_and_exits_1(
    path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert [e.format() for e in validate_file(rel(path))] == [expected_line(path)]
    assert main(["validate", rel(path)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [expected_line(path)]
    assert err == ""


def test_the_real_command_on_the_whole_corpus() -> None:
    # One subprocess for all files keeps this fast; validate checks each file on its own and prints its line.
    result = subprocess.run(
        [sys.executable, "-m", "piglia", "validate", *map(rel, FILES)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=piglia_env(),
        timeout=300,
    )
    assert result.returncode == 1
    assert result.stdout.splitlines() == [expected_line(p) for p in FILES]
    assert result.stderr == ""
    assert "Traceback" not in result.stdout + result.stderr
