"""Limits (issue 4): no rule file or expression can make Piglia use unbounded memory or time.

No test here is timed (speed is measured in benchmarks/): a limit is shown by a clean refusal, and work that
must finish is run in a thread with a generous bound so that a hang fails the test instead of the suite.
"""

from __future__ import annotations

import itertools
import resource
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import piglia_env, run_piglia
from piglia.errors import SpecError
from piglia.spec import MAX_FILE_BYTES, load_variant, validate_file
from piglia.yamlpos import load_yaml

R = TypeVar("R")
HANG = 120.0  # seconds: far beyond what any of these needs, only there to turn a hang into a failure


def finishes(fn: Callable[[], R]) -> R:
    """``fn()``, failing the test if it has not returned within ``HANG`` seconds."""
    box: list[R] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            box.append(fn())
        except BaseException as exc:  # handed to the test thread
            errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(HANG)
    assert not thread.is_alive(), "did not finish"
    if errors:
        raise errors[0]
    return box[0]


def test_a_rule_file_over_1_mib_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    filler = "# " + "x" * 98 + "\n"
    path.write_text("name: big\nextends: scopa\n" + filler * (MAX_FILE_BYTES // len(filler) + 1))
    assert path.stat().st_size > MAX_FILE_BYTES
    errors = validate_file(str(path))
    assert [e.message for e in errors] == ["the file is larger than 1024 KiB; rule files are small"]


def test_a_huge_file_is_refused_for_its_size_without_being_read_whole(tmp_path: Path) -> None:
    # A 2 GB file (sparse: no disk used) given by mistake is refused at its size. Piglia runs under a 700 MB
    # address-space limit: read whole, the file did not fit, and the refusal was "too large to be read" (reading
    # 3 GB took 9 GB of memory and 38 s).
    path = tmp_path / "dump.yaml"
    with path.open("wb") as fh:
        fh.truncate(2 << 30)

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (700 << 20, 700 << 20))

    for command in (["validate", str(path)], ["simulate", str(path), "--deals", "1"]):
        result = subprocess.run(
            [sys.executable, "-m", "piglia", *command],
            capture_output=True,
            text=True,
            env=piglia_env(),
            preexec_fn=limited,
            timeout=60,
        )
        said = result.stdout + result.stderr
        assert result.returncode == 1 and "the file is larger than 1024 KiB; rule files are small" in said, said


def test_a_rule_file_just_under_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "fine.yaml"
    filler = "# " + "x" * 98 + "\n"
    path.write_text("name: fine\nextends: scopa\n" + filler * (MAX_FILE_BYTES // len(filler) - 1))
    assert validate_file(str(path)) == []


@pytest.mark.parametrize("levels", [9, 30])
def test_billion_laughs_is_refused_without_expanding(levels: int) -> None:
    # 10 ** levels values if expanded: 10^30 could never fit in memory, so refusing it proves the bound
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, levels)]
    with pytest.raises(SpecError, match="too many values"):
        finishes(lambda: load_yaml("\n".join(lines) + "\n", "laughs.yaml"))


def test_a_flow_list_past_the_value_limit_is_refused_while_it_is_read() -> None:
    # half a million values in one flow list: composed whole (pure Python) before the count refused them, it took
    # 20 s and 370 MB; the composer now counts too, and stops at the value past the limit, on line 2
    text = "name: flow\nnotes: [" + ",".join(["a"] * 500_000) + "]\n"
    with pytest.raises(SpecError, match="holds too many values") as caught:
        load_yaml(text, "flow.yaml")
    assert caught.value.line == 2 and caught.value.col < 2 * 100_002 + 10


def _merge_lines(keys: int) -> int:
    """Python lines run by ``spec._merge`` (traced: a count, not a time) when a file of ``keys`` new awards
    extends one whose ``notes`` hold ``keys`` values."""
    from piglia import spec

    base = load_yaml("notes: [" + ",".join(["n"] * keys) + "]\nawards: {old: 1}\n", "base.yaml")
    layered = spec.Layered(dict(base.data), {}, base, ())
    spec._own(base, layered.data, (), layered.origin)
    doc = load_yaml("awards:\n" + "".join(f"  a{i}: {i}\n" for i in range(keys)) + "notes: [x]\n", "top.yaml")
    lines = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal lines
        lines += event == "line"
        return trace

    sys.settrace(trace)
    try:
        merged = spec._merge(layered, doc)
    finally:
        sys.settrace(None)
    assert merged.doc_for(("notes", 0)) is doc and ("notes", 1) not in merged.origin  # the old list forgotten
    assert merged.doc_for(("awards", "old")) is base and merged.doc_for(("awards", "a1")) is doc
    return lines


def test_extends_merges_in_time_linear_in_the_keys() -> None:
    # each replaced value used to scan every inherited path: 2,000 awards over 50,000 inherited values took 23 s
    # (12,000 awards, 90 s); forgetting a replaced value now walks only that value
    small, big = _merge_lines(1_000), _merge_lines(4_000)
    assert big < 5 * small  # four times the keys: four times the lines (quadratic: sixteen)


def test_deeply_nested_yaml_is_refused() -> None:
    text = "a: " + "[" * 200 + "]" * 200 + "\n"
    with pytest.raises(SpecError, match="nests deeper"):
        load_yaml(text, "deep.yaml")


def test_yaml_is_loaded_safely_no_tag_constructs_an_object(tmp_path: Path) -> None:
    for tag in ("!!python/object/apply:os.system [touch pwned]", "!!python/name:os.system", "!custom 1"):
        path = tmp_path / "tag.yaml"
        path.write_text(f"name: t\nextends: scopa\ntitle: {tag}\n")
        (error,) = validate_file(str(path))
        assert "is not allowed: rule files hold plain data" in error.message
        assert error.path == "title"
    assert not (tmp_path / "pwned").exists()


def test_deep_expression_nesting_in_a_rule_file_is_bounded(tmp_path: Path) -> None:
    deep = "(" * 500 + "1" + ")" * 500
    path = tmp_path / "deep.yaml"
    path.write_text(f"name: deep\nextends: scopa\nawards:\n  cards: {{points: 1, most: '{deep}'}}\n")
    (error,) = finishes(lambda: validate_file(str(path)))
    assert error.path == "awards.cards.most" and "nested too deeply" in error.message


SMALL_VALUES = """\
name: small-values
deck:
  suits: [{name: a, id: a}, {name: b, id: b}, {name: c, id: c}, {name: d, id: d},
          {name: e, id: e}, {name: f, id: f}, {name: g, id: g}, {name: h, id: h}]
  ranks:
    - {name: one, id: "1", value: 1}
    - {name: two, id: "2", value: 2}
    - {name: three, id: "3", value: 3}
    - {name: four, id: "4", value: 4}
    - {name: five, id: "5", value: 5}
    - {name: ten, id: T, value: 10}
players: {count: 2}
deal: {hand: 3, table: 0, refill: true}
capture:
  kinds:
    sum: {type: sum}
match: {deals: 1}
"""


def test_a_table_of_40_small_cards_lists_every_capture(tmp_path: Path) -> None:
    path = tmp_path / "small.yaml"
    path.write_text(SMALL_VALUES)
    variant = load_variant(str(path))
    deck = variant.deck
    table = [c.index for c in deck.cards if c.rank.value < 10]
    assert len(table) == 40
    played = deck.by_id["Ta"].index
    options = finishes(lambda: variant.capture.options(played, table))
    # oracle: the number of subsets of the table adding up to 10, by dynamic programming over the cards
    ways = [1] + [0] * 10
    for c in table:
        v = deck.value_of[c]
        for total in range(10, v - 1, -1):
            ways[total] += ways[total - v]
    assert len(options) == ways[10] == 64972
    assert len(set(options)) == len(options)
    assert all(sum(deck.value_of[c] for c in cap) == 10 for cap, _ in options)


def test_a_lone_surrogate_escape_is_refused_where_it_is_written(tmp_path: Path) -> None:
    # "\ud800" in a double-quoted YAML scalar is half a UTF-16 pair: no text can hold it, so it is refused at its
    # place (it used to end in an internal error when the rules were fingerprinted).
    path = tmp_path / "half.yaml"
    path.write_text('name: half\nextends: scopa\ntitle: "x\\ud800y"\n"k\\udfff": 1\n', encoding="utf-8")
    (error,) = validate_file(str(path))
    assert (error.line, error.col, error.path) == (3, 8, "title")
    assert "U+D800 is half of a UTF-16 pair" in error.message
    path.write_text('name: half\nextends: scopa\n"k\\udfff": 1\n', encoding="utf-8")
    (error,) = validate_file(str(path))
    assert (error.line, error.col) == (3, 1) and "U+DFFF" in error.message


def test_a_tournament_of_a_hundred_million_matches_starts_in_little_memory() -> None:
    # The matches are made as they are played: a list of them made first held all 10^8 before the first was played
    # ("out of memory" under a 2 GB limit, over 10 GB without one). Three matches are played, then the run stops.
    script = (
        "import resource, piglia\n"
        "resource.setrlimit(resource.RLIMIT_AS, (700 << 20, 700 << 20))\n"
        "from piglia.tournament import tournament\n"
        "def stop(done):\n"
        "    if done >= 3:\n"
        "        raise KeyboardInterrupt\n"
        "r = tournament(piglia.load_variant('scopa'), ('random', 'random'), matches=10**8, progress=stop)\n"
        "print(r.matches, r.interrupted)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=piglia_env(), timeout=120
    )
    assert result.returncode == 0 and result.stdout.split() == ["3", "True"], result.stderr[-2000:]


def test_a_yaml_number_of_more_than_18_digits_is_refused_at_its_place() -> None:
    # Past 4,300 digits (Python's int/str limit) PyYAML's own int() failed ("internal error"); where the schema sets
    # no range (points, a table's values, properties), 161 digits made a score no average turns into a float and
    # 4,300 one no record can write. A rule file's numbers have at most 18 digits, as its expressions' literals do
    # (tests/data/hostile/limit-number-digits.yaml).
    ok = "9" * 18
    assert load_yaml(f"a: {ok}\nb: -{ok}\n", "n.yaml").data == {"a": int(ok), "b": -int(ok)}
    for text in (f"a: {ok}9\n", f"a: -{ok}9\n", f"a: {'9' * 5000}\n"):
        with pytest.raises(SpecError, match=r"number too large \(more than 18 digits\)") as info:
            load_yaml(text, "n.yaml")
        assert (info.value.line, info.value.col) == (1, 4)


def test_a_key_or_a_name_too_long_is_refused_at_its_place(tmp_path: Path) -> None:
    # docs/language.md, "Guarantees and limits": a name is repeated wherever the rules page and the game speak of
    # it; one of 900 KB made an Italian rules page of 63 MB in a minute and a half (the hostile corpus's
    # limit-long-name.yaml: a translated name). Every key is a name: at most 64 characters, as the file's own names.
    with pytest.raises(SpecError, match=r"a key is at most 64 characters") as info:
        load_yaml(f"awards:\n  {'a' * 65}: {{points: 1}}\n", "k.yaml")
    assert (info.value.line, info.value.col) == (2, 3)
    assert load_yaml(f"{'a' * 64}: 1\n", "k.yaml").data == {"a" * 64: 1}
    suit = tmp_path / "suit.yaml"
    suit.write_text(f"name: x\nextends: scopa\ndeck:\n  suits:\n    - {{name: {'c' * 65}, id: d}}\n")
    problems = validate_file(str(suit))
    assert [p.format() for p in problems] == [f"{suit}:5:14: deck.suits[0].name: must be at most 64 characters, got 65"]
    # the variant's own name too: it makes the record's file name, and 300 characters validated, then `piglia play`
    # could not start ("File name too long")
    named = tmp_path / "named.yaml"
    named.write_text(f"name: {'n' * 65}\nextends: scopa\n")
    assert [p.format() for p in validate_file(str(named))] == [
        f"{named}:1:7: name: must be at most 64 characters, got 65"
    ]


def test_control_characters_in_rule_file_text_are_refused_where_they_are(tmp_path: Path) -> None:
    """A title, a description or a translated name holding ESC sequences validated, then `piglia play` and
    `piglia rules` wrote them to the terminal (a window title changed, the screen cleared). Tabs and line breaks
    stay text; YAML's escapes or raw bytes alike are found, in values and in keys."""
    rules = tmp_path / "ctrl.yaml"
    rules.write_text(
        'name: ctrl\nextends: scopa\ntitle: "Evil\\e]0;pwned\\a"\ndescription: "two\\tparts\\nand lines"\n'
        'translations:\n  en:\n    names: {coins: "co\\rins"}\nbonuses:\n  "x\\x9b": {points: 1, when: "false"}\n',
        encoding="utf-8",
    )
    found = [p.format() for p in validate_file(str(rules))]
    said = "which a terminal would act on: rule-file text is printable characters, tabs and line breaks"
    assert sorted(found) == [
        f"{rules}:3:8: title: holds the control character U+001B, {said}",
        f"{rules}:7:20: translations.en.names.coins: holds the control character U+000D, {said}",
        f"{rules}:9:3: bonuses.x\\x9b: holds the control character U+009B, {said}",  # the key shown escaped
    ]


def test_bidirectional_overrides_in_rule_file_text_are_refused_where_they_are(tmp_path: Path) -> None:
    """An override or an isolate (U+202E, U+2066) reorders the text shown around it: an expression could read as
    another on a terminal or a page. Refused in expressions and names; the marks right-to-left text needs stay."""
    rules = tmp_path / "bidi.yaml"
    rules.write_text(
        'name: bidi\nextends: scopa\nbonuses:\n  scopa: {points: 1, when: "empty(table_after) or \\u202e true"}\n'
        'translations:\n  en:\n    names: {coins: "co\\u2066ins", cups: "cu\\u200fps"}\n',
        encoding="utf-8",
    )
    found = sorted(p.format() for p in validate_file(str(rules)))
    said = "which reorders the text around it: rule-file text is printable characters, tabs and line breaks"
    assert found == [
        f"{rules}:4:28: bonuses.scopa.when: holds the control character U+202E, {said}",
        f"{rules}:7:20: translations.en.names.coins: holds the control character U+2066, {said}",
    ]


def test_a_product_past_18_digits_in_play_stops_the_run_with_its_message(tmp_path: Path) -> None:
    # validates (the piles are not known before play), then each deal's product of 16 pile counts passes 18
    # digits: the run stops with the limit's message, where it once ended in an OverflowError in the statistics
    product = " * ".join(["count(pile)"] * 16)
    path = tmp_path / "product.yaml"
    path.write_text(
        f'name: product\nextends: scopa\nawards:\n  cards:\n    most: null\n    points: null\n    score: "{product}"\n'
    )
    assert validate_file(str(path)) == []
    result = run_piglia("simulate", str(path), "--deals", "3", "--workers", "1")
    assert result.returncode == 1 and "a product in the rules' expressions passed 18 digits" in result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


@given(
    st.lists(st.lists(st.integers(0, 6), min_size=1, max_size=3), max_size=7),
    st.integers(1, 14),
    st.integers(0, 4),
    st.integers(0, 8),
)
def test_the_ways_to_make_a_need_are_counted_as_the_choices_of_values(
    alts: list[list[int]], need: int, lo: int, hi: int
) -> None:
    # docs/language.md, "Guarantees and limits": with alternative values, the ways a group of lo to hi cards adds
    # up to the need (one value of each card, values of 0 never in a sum) are counted before the search; brute force
    from piglia.mechanics.capture import count_choices

    positive = [sorted({a for a in vs if a > 0}) for vs in alts]
    expected = 0
    for size in range(max(lo, 0), min(hi, len(alts)) + 1):
        for group in itertools.combinations(range(len(alts)), size):
            expected += sum(1 for pick in itertools.product(*(positive[i] for i in group)) if sum(pick) == need)
    assert count_choices(alts, need, lo, hi) == expected


def test_a_rule_file_key_is_a_name(tmp_path: Path) -> None:
    """An empty key, one with a line break, a tab or a dot, or spaces at an end validated: a kind named ""
    scored as a placement, a line break broke the rules page's lists and the tables, and a dot made two paths of
    messages read alike (bonuses.a.b)."""
    for key in ['""', '"a.b"', '"a\\nb"', '"a\\tb"', '" a"', '"a "']:
        rules = tmp_path / "keys.yaml"
        rules.write_text(f'name: keys\nextends: scopa\nbonuses:\n  {key}: {{points: 1, when: "false"}}\n')
        found = [p.format() for p in validate_file(str(rules))]
        assert len(found) == 1 and found[0].startswith(f"{rules}:4:3: bonuses: ") and "is not a name" in found[0]
    rules.write_text('name: keys\nextends: scopa\nbonuses:\n  "two words": {points: 1, when: "false"}\n')
    assert validate_file(str(rules)) == []  # a name may have spaces inside


def test_a_number_is_limited_by_its_digits_however_it_is_written(tmp_path: Path) -> None:
    """0xFFFFFFFFFFFFFFFF is 18 signs but a 20-digit number: it passed the limit on a number's digits."""
    rules = tmp_path / "hex.yaml"
    rules.write_text("name: hex\nextends: scopa\nbonuses:\n  scopa: {points: 0xFFFFFFFFFFFFFFFF}\n")
    assert [p.format() for p in validate_file(str(rules))] == [
        f"{rules}:4:19: bonuses.scopa.points: number too large (more than 18 digits)"
    ]


def test_one_mistake_aliased_across_a_file_is_listed_a_bounded_number_of_times(tmp_path: Path) -> None:
    """One unknown name of 2,000 characters, aliased in 300 bonuses (YAML's &anchor and *alias): every alias was
    a problem listed whole, so a small file wrote megabytes of messages (149 MB for 15,000 aliases). The report
    lists at most 100 problems, then how many more there are; each quotes the long name cut."""
    name = "x" * 2_000
    bonuses = "".join(f"  b{i}: {{points: 1, when: *a}}\n" for i in range(1, 300))
    rules = tmp_path / "aliases.yaml"
    rules.write_text(f'name: aliases\nextends: scopa\nbonuses:\n  b0: {{points: 1, when: &a "{name}"}}\n{bonuses}')
    found = [p.format() for p in validate_file(str(rules))]
    assert len(found) == 101 and found[-1].endswith("and 200 more problems, not listed (mend these first)")
    assert all(len(line) < 400 for line in found) and all(":4:" in line for line in found[:-1])
