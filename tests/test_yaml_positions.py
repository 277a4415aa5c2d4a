"""Errors inside an expression point at their line and column in the file, whatever the YAML style of its scalar.

An expression's error comes at an offset of its text (the scalar's value); piglia.yamlpos maps it back to the source,
where escapes, folded line breaks, blank lines, block indentation and indicators make the value differ from the text
written. Each case below writes one mistake at a known place, in one style, with each kind of line break.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import piglia
from piglia.errors import SpecError, SpecErrors

HEAD = ["name: t", "extends: scopa", "bonuses:", "  scopa:", "    points: 1"]
NAME = "bonuses.scopa.when: unknown name 'last_plya' (did you mean 'last_play'?)"
PAREN = "bonuses.scopa.when: missing ')'"

# (id, the lines after HEAD, or the whole file when it starts with "name:", line, column, the error)
CASES = [
    ("plain", ["    when: empty(table_after) and not last_plya"], 6, 38, NAME),
    ("plain-continued", ["    when: empty(table_after)", "      and", "", "      not last_plya"], 9, 11, NAME),
    ("plain-blank-lines", ["    when: empty(table_after)", "", "", "", "      and not last_plya"], 10, 15, NAME),
    ("plain-end", ["    when: empty(table_after", "      and not last_play"], 7, 24, PAREN),
    (
        "plain-in-flow",
        [*HEAD[:3], "  scopa: {points: 1, when: empty(table_after)", "    and not last_plya}"],
        5,
        13,
        NAME,
    ),
    ("single-quoted", ["    when: '\"it''s\" == \"x\" or not last_plya'"], 6, 34, NAME),
    ("single-quoted-blank-line", ["    when: 'empty(table_after)", "", "      and not last_plya'"], 8, 15, NAME),
    ("double-quoted-escapes", ['    when: "empty(table_after) and \\u0020 \\t not last_plya"'], 6, 49, NAME),
    ("double-quoted-escaped-break", ['    when: "empty(table_after)\\', '      and not last_plya"'], 7, 15, NAME),
    (
        "double-quoted-escapes-continued",
        ['    when: "empty(table_after) and', '      \\u0020\\u0020\\u0020\\u0020 not last_plya"'],
        7,
        36,
        NAME,
    ),
    ("double-quoted-blank-lines", ['    when: "empty(table_after)', "", "", '      and not last_plya"'], 9, 15, NAME),
    ("double-quoted-end", ['    when: "empty(table_after', '      and not last_play"'], 7, 24, PAREN),
    ("double-quoted-tagged", ['    when: !!str "empty(table_after) and not last_plya"'], 6, 45, NAME),
    ("double-quoted-anchored", ['    when: &w "empty(table_after) and not last_plya"'], 6, 42, NAME),
    ("literal", ["    when: |", "      empty(table_after)", "      and not last_plya"], 8, 15, NAME),
    ("literal-end", ["    when: |", "      empty(table_after", "      and not last_play"], 8, 24, PAREN),
    ("literal-keep-end", ["    when: |+", "      empty(table_after", "      and not last_play", "", ""], 8, 24, PAREN),
    ("literal-strip-end", ["    when: |-", "      empty(table_after", "      and not last_play"], 8, 24, PAREN),
    (
        "literal-comment",
        ["    when: |  # a comment", "      empty(table_after)", "      and not last_plya"],
        8,
        15,
        NAME,
    ),
    ("literal-indent-2", ["    when: |2", "        empty(table_after)", "        and not last_plya"], 8, 17, NAME),
    ("literal-indent-4", ["    when: |4", "          empty(table_after)", "          and not last_plya"], 8, 19, NAME),
    ("literal-strip-indent", ["    when: |-2", "        empty(table_after)", "        and not last_plya"], 8, 17, NAME),
    ("literal-blank-line", ["    when: |", "      empty(table_after)", "", "      and not last_plya"], 9, 15, NAME),
    ("literal-leading-blank", ["    when: |", "", "      empty(table_after)", "      and not last_plya"], 9, 15, NAME),
    ("literal-more-indented", ["    when: |", "      empty(table_after)", "        and not last_plya"], 8, 17, NAME),
    ("folded", ["    when: >", "      empty(table_after)", "      and not last_plya"], 8, 15, NAME),
    ("folded-end", ["    when: >", "      empty(table_after", "      and not last_play"], 8, 24, PAREN),
    (
        "folded-more-indented",
        ["    when: >", "      empty(table_after)", "        and true", "      and not last_plya"],
        9,
        15,
        NAME,
    ),
    ("folded-blank-line", ["    when: >-", "      empty(table_after)", "", "      and not last_plya"], 9, 15, NAME),
]
BREAKS = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}


def write(tmp_path: Path, lines: list[str], newline: str) -> Path:
    """The rule file, its lines ended by ``newline``, byte for byte."""
    path = tmp_path / "v.yaml"
    path.write_bytes(newline.join(lines).encode("utf-8") + newline.encode())
    return path


def located(path: Path) -> list[str]:
    """Every error of ``piglia.load_variant`` as FILE:LINE:COL: PATH: MESSAGE."""
    with pytest.raises((SpecError, SpecErrors)) as caught:
        piglia.load_variant(str(path))
    exc = caught.value
    if isinstance(exc, SpecErrors):
        return [e.format() for e in exc.errors]
    assert isinstance(exc, SpecError)
    return [exc.format()]


@pytest.mark.parametrize("newline", BREAKS.values(), ids=list(BREAKS))
@pytest.mark.parametrize(("lines", "line", "col", "error"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_an_expression_error_is_located_in_every_scalar_style(
    tmp_path: Path, lines: list[str], line: int, col: int, error: str, newline: str
) -> None:
    path = write(tmp_path, lines if lines[0].startswith("name:") else [*HEAD, *lines], newline)
    assert located(path) == [f"{path}:{line}:{col}: {error}"]


def test_the_cases_point_where_the_mistake_is_written() -> None:
    """The expected places are right: each names the column of the mistake (or the end) in its own line."""
    for name, lines, line, col, error in CASES:
        full = lines if lines[0].startswith("name:") else [*HEAD, *lines]
        text = full[line - 1]
        if error == NAME:
            assert text[col - 1 :].startswith("last_plya"), name
        else:
            assert text[: col - 1].endswith("last_play") and not text[col - 1 :].strip(' "'), name


@pytest.mark.parametrize("newline", BREAKS.values(), ids=list(BREAKS))
def test_a_control_character_is_located_whatever_ends_the_lines(tmp_path: Path, newline: str) -> None:
    path = write(tmp_path, ["name: t", "extends: scopa", 'title: "ab\0c"'], newline)
    assert located(path) == [f"{path}:3:11: the control character U+0000 is not allowed in a rule file"]


@pytest.mark.parametrize("newline", BREAKS.values(), ids=list(BREAKS))
def test_one_file_many_styles(tmp_path: Path, newline: str) -> None:
    """Errors in several scalars of one file, each at its own place."""
    lines = [
        *HEAD,
        "    when: >",
        "      empty(table_after)",  # 7
        "      and not last_plya",  # 8
        "  other:",
        "    points: 1",
        '    when: "count(captured) > 1 and \\',  # 11
        '      lastx"',  # 12
        "  third:",
        "    points: 1",
        "    when: 'count(captured)",  # 15
        "",
        "      > 2 and lasty'",  # 17
    ]
    path = write(tmp_path, lines, newline)
    assert located(path) == [
        f"{path}:8:15: {NAME}",
        f"{path}:12:7: bonuses.other.when: unknown name 'lastx'",
        f"{path}:17:15: bonuses.third.when: unknown name 'lasty' (did you mean 'last_play'?)",
    ]
