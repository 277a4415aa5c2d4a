"""Loading rule files: extends, the schema, semantic checks, and errors located at file:line:col."""

from __future__ import annotations

from pathlib import Path

import pytest

import piglia
from conftest import write_variant as write
from piglia.errors import SpecError, SpecErrors
from piglia.spec import builtin_names, load_variant, validate_file

BASE = Path(__file__).resolve().parent.parent / "variants" / "scopa.yaml"


def one_error(path: Path) -> SpecError:
    errors = validate_file(str(path))
    assert len(errors) == 1, [e.format() for e in errors]
    return errors[0]


def test_every_builtin_variant_validates() -> None:
    for name in builtin_names():
        assert validate_file(name) == [], name


def test_extends_overrides_and_removes(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        f"""
        name: scopa-21
        extends: {BASE}
        bonuses:
          scopa: {{points: 2}}
        awards:
          primiera: null
        match: {{target: 21}}
        """,
    )
    v = load_variant(str(path))
    assert v.match.target == 21
    assert [a.name for a in v.awards] == ["cards", "coins", "settebello"]
    assert v.rules["bonuses"]["scopa"] == {"points": 2, "when": "empty(table_after) and not last_play"}
    assert v.sha256 != load_variant("scopa").sha256


def test_extends_a_builtin_by_name(tmp_path: Path) -> None:
    path = write(tmp_path, "name: mine\nextends: scopa\nmatch: {target: 21}\n")
    assert load_variant(str(path)).deck == load_variant("scopa").deck or True
    assert load_variant(str(path)).match.target == 21


def test_unknown_key_with_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nextends: scopa\nawards:\n  coins: {points: 1, mots: count(pile)}\n")
    err = one_error(path)
    assert (err.line, err.col) == (4, 22)
    assert err.path == "awards.coins.mots"
    assert err.message == "unknown key 'mots' (did you mean 'most'?)"


def test_unknown_suit_in_expression_points_at_the_name(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "name: x\nextends: scopa\nawards:\n  coins: {points: 1, most: count(pile where suit == coin)}\n",
    )
    err = one_error(path)
    assert err.path == "awards.coins.most"
    assert "coin" in err.message and "did you mean 'coins'" in err.message
    line = path.read_text().splitlines()[err.line - 1]
    assert line[err.col - 1 :].startswith("coin)")


def test_name_not_in_scope(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nextends: scopa\nawards:\n  coins: {points: 1, most: count(captured)}\n")
    err = one_error(path)
    assert "captured" in err.message and err.path == "awards.coins.most"


def test_dsl_syntax_error_in_block_scalar(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        name: x
        extends: scopa
        bonuses:
          scopa:
            points: 1
            when: |
              empty(table_after) and
                not last_play )
        """,
    )
    err = one_error(path)
    assert err.path == "bonuses.scopa.when"
    assert err.line == 8
    assert path.read_text().splitlines()[7][err.col - 1] == ")"


def test_type_error(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nextends: scopa\nawards:\n  coins: {points: 1, most: 7 of coins == 3}\n")
    err = one_error(path)
    assert err.path == "awards.coins.most"


def test_yaml_syntax_error_has_position(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\ndeck:\n\t- a\n")
    err = one_error(path)
    assert err.line == 3 and "YAML" in err.message


def test_duplicate_key(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nextends: scopa\nname: y\n")
    err = one_error(path)
    assert (err.line, err.col) == (3, 1) and "duplicate key 'name'" in err.message


def test_deal_too_big_for_deck(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nextends: scopa\ndeal: {hand: 20, table: 4}\n")
    err = one_error(path)
    assert err.path == "deal.hand" and "the deck has 40" in err.message


def test_team_layout_must_fit(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nextends: scopa\nplayers: {teams: opposite}\n")
    err = one_error(path)
    assert err.path == "players.teams" and "even number" in err.message


def test_extends_cycle_and_missing(tmp_path: Path) -> None:
    write(tmp_path, "name: a\nextends: b.yaml\n", "a.yaml")
    write(tmp_path, "name: b\nextends: a.yaml\n", "b.yaml")
    err = one_error(tmp_path / "a.yaml")
    assert "cycle" in err.message
    path = write(tmp_path, "name: c\nextends: scopaa\n", "c.yaml")
    err = one_error(path)
    assert err.path == "extends" and "did you mean 'scopa'" in err.message
    # an empty name was read as the current folder: "'' is a folder: name one of its rule files (/NAME.yaml)"
    for empty in ('""', '"  "'):
        err = one_error(write(tmp_path, f"name: d\nextends: {empty}\n", "d.yaml"))
        assert err.path == "extends" and err.message.startswith("an empty name names no variant")


def test_missing_and_wrong_type(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nextends: scopa\ndeal: {hand: three, table: 4}\n")
    err = one_error(path)
    assert err.path == "deal.hand" and "three" in err.message
    errors = validate_file(str(write(tmp_path, "name: x\n", "y.yaml")))
    assert {e.message for e in errors} >= {"missing required key 'deck'", "missing required key 'capture'"}


def test_empty_file_and_not_a_mapping(tmp_path: Path) -> None:
    assert "empty" in one_error(write(tmp_path, "", "e.yaml")).message
    assert "mapping" in one_error(write(tmp_path, "- a\n- b\n", "l.yaml")).message


def test_every_error_is_reported_not_only_the_first(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "name: x\nextends: scopa\nawards:\n  a: {points: 1, most: count(pile where suit == coin)}\n"
        "  b: {points: 1, holder: 8 of coins}\n",
    )
    errors = validate_file(str(path))
    assert [e.path for e in errors] == ["awards.a.most", "awards.b.holder"]


def test_load_variant_raises_spec_errors(tmp_path: Path) -> None:
    with pytest.raises(SpecErrors):
        load_variant(str(write(tmp_path, "name: x\nextends: scopa\nmatch: {target: nine}\n")))
    with pytest.raises(SpecError):
        load_variant("no-such-variant")
    assert isinstance(piglia.load_variant("scopa"), piglia.Variant)


def test_yaml_aliases_cannot_blow_up(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 10)}]")
    err = one_error(write(tmp_path, "\n".join(lines) + "\n"))
    assert "too many" in err.message


def test_yaml_tags_construct_no_objects(tmp_path: Path) -> None:
    err = one_error(write(tmp_path, "name: !!python/object/apply:os.system [echo hi]\n"))
    assert "YAML" in err.message or "could not determine a constructor" in err.message


def test_editing_the_parent_changes_the_child_loaded_again(tmp_path: Path) -> None:
    """The variant cache keys on every file of the extends chain, not on the child alone."""
    parent = write(tmp_path, f"name: parent\nextends: {BASE}\nmatch: {{target: 21}}\n", "parent.yaml")
    child = write(tmp_path, "name: child\nextends: parent.yaml\n", "child.yaml")
    assert load_variant(str(child)).match.target == 21
    assert load_variant(str(child)) is load_variant(str(child))  # unchanged files: the cached variant
    # Same size, and written at once: an mtime-and-size key could not see this edit.
    parent.write_text(parent.read_text().replace("target: 21", "target: 31"))  # not "21" alone: the path may hold it
    assert load_variant(str(child)).match.target == 31
    parent.write_text(parent.read_text().replace("match: {target: 31}", "match: {target: 0}"))
    assert "must be at least 1" in one_error(child).message


def test_misspelt_capture_kind_in_an_expression_is_an_error_at_the_string(tmp_path: Path) -> None:
    """`kind != "aces"` where the kind is `ace` would be always true: an unknown name, located at the string."""
    text = """
        name: aces
        extends: scopa
        capture:
          kinds:
            ace: {type: all, played: card.rank == asso}
          priority: [match, ace, sum]
        bonuses:
          scopa: {points: 1, when: empty(table_after) and kind != "aces"}
        """
    path = write(tmp_path, text)
    error = one_error(path)
    line = path.read_text().splitlines()[7]
    assert (error.line, error.col) == (8, line.index('"aces"') + 1)  # the opening quote of "aces"
    assert error.path == "bonuses.scopa.when"
    assert "'aces'" in error.message and "did you mean 'ace'?" in error.message
    far = one_error(write(tmp_path, text.replace('"aces"', '"xyz"')))
    assert "ace, match, sum" in far.message  # nothing close: the variant's own kind names
    # every kind the variant has (inherited ones too) and "" (a play that captures nothing) are accepted
    for value in ("ace", "match", "sum", ""):
        assert validate_file(str(write(tmp_path, text.replace('"aces"', f'"{value}"')))) == []


def test_changing_an_inherited_award_says_which_key_to_null_in_the_users_file(tmp_path: Path) -> None:
    """A new form for an inherited award keeps the old form's keys: the error is in the user's file (not the
    built-in one it extends) and says how to drop each of them."""
    path = write(tmp_path, 'name: mine\nextends: scopa\nawards:\n  settebello: {score: "count(pile)"}\n')
    error = one_error(path)
    assert (error.file, error.line, error.col) == (str(path), 4, 3)
    assert "only one of holder, score" in error.message
    assert "add `holder: null` to remove the inherited holder" in error.message
    path = write(tmp_path, 'name: mine\nextends: scopa\nawards:\n  settebello: {score: "count(pile)", holder: null}\n')
    error = one_error(path)
    assert (error.file, error.line, error.col) == (str(path), 4, 3)
    assert "add `points: null` to remove the inherited points" in error.message
    fixed = 'name: mine\nextends: scopa\nawards:\n  settebello: {score: "count(pile)", holder: null, points: null}\n'
    assert validate_file(str(write(tmp_path, fixed))) == []


def test_an_error_in_an_inherited_value_says_the_file_s_changes_cause_it(tmp_path: Path) -> None:
    """Removing the 7s (`deck.remove_ranks`) leaves classic Scopa's settebello (S3.3) naming a rank that is gone:
    the error is placed where that rule is written, in the built-in, and now says that the built-in is valid alone,
    so the file's own changes break it (before, the message named only the built-in file)."""
    path = write(tmp_path, 'name: no7\nextends: scopa\ndeck: {remove_ranks: ["7"]}\n', "no7.yaml")
    errors = validate_file(str(path))
    settebello = next(e for e in errors if e.path == "awards.settebello.holder")
    assert settebello.file.endswith("variants/scopa.yaml")
    assert settebello.message.endswith(f"inherited from scopa, where it is valid: what {path} changes breaks it")
    # an error in the file's own text is as it was
    own = one_error(write(tmp_path, "name: x\nextends: scopa\nmatch: {target: none}\n", "own.yaml"))
    assert "inherited" not in own.message


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("bonuses: {scopa: {points: 1.0}}", "bonuses.scopa.points"),
        ("bonuses: {scopa: {points: !!float 1}}", "bonuses.scopa.points"),
        ("match: {target: 11.0}", "match.target"),
        ("match: {target: 1.1e+1}", "match.target"),
        ("players: {count: 2.0}", "players.count"),
        ("capture: {kinds: {sum: {type: sum, max_cards: 2.0}}}", "capture.kinds.sum.max_cards"),
    ],
)
def test_a_whole_number_written_as_a_float_is_refused_where_it_stands(tmp_path: Path, text: str, where: str) -> None:
    """JSON Schema counts 1.0 as an integer: `points: 1.0` validated, then stopped every command with an internal
    error, and `target: 11.0` put "match to 11.0" on the rules page. A whole number is written as one."""
    error = one_error(write(tmp_path, f"name: floaty\nextends: scopa\n{text}\n"))
    assert error.line == 3 and where in error.format() and "expected a whole number" in error.format()


BIG_COINS = """deck:
  suits:
    - {name: coins, id: d, props: {big: 999999999999999999}}
    - {name: cups, id: c, props: {big: 2}}
    - {name: swords, id: s, props: {big: 3}}
    - {name: clubs, id: b, props: {big: 4}}
"""


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('awards:\n  weird: {score: "sum(sum(c.value * s.big for c in pile) for s in suits)"}', "awards.weird.score"),
        ('deal:\n  replace: {when: "big * value > 100", reason: x}', "deal.replace.when"),
        ('builds: {cards: "big * value > 100"}', "builds.cards"),
        (
            'declarations: {wild: "big * value > 100", hands: {t: {points: 1, when: "empty(hand)"}}}',
            "declarations.wild",
        ),
        (
            'capture:\n  kinds: {match: null, sum: null, pile: {type: pile, on_top: "top.big * played.big > 100"}}\n'
            "  priority: [pile]",
            "capture.kinds.pile.on_top",
        ),
    ],
)
def test_a_limit_met_when_the_rules_load_is_the_files_mistake_where_it_stands(
    tmp_path: Path, text: str, where: str
) -> None:
    """A product past 18 digits found while compiling a loop, or while asking a card condition of every card,
    was an internal error with no place; it is located at the expression, as a plain product already was."""
    error = one_error(write(tmp_path, f"name: big\nextends: scopa\n{BIG_COINS}{text}\n"))
    assert where in error.format() and "18 digits" in error.format() and error.line >= 8


def test_a_property_a_card_could_never_be_read_by_is_refused(tmp_path: Path) -> None:
    """A suit property named `value` or `rank` was never read (card.value is the rank's value), and a property
    given to suits and to ranks read the rank's only: both validated in silence."""
    suits = "deck:\n  suits:\n" + "".join(
        f"    - {{name: {n}, id: {i}, props: {{{p}}}}}\n"
        for n, i, p in [("coins", "d", "value: 100, w: 7"), ("cups", "c", "w: 7"), ("swords", "s", "w: 7"),
                        ("clubs", "b", "w: 7")]
    )  # fmt: skip
    ranks = "  ranks:\n    - {name: asso, id: A, value: 1, props: {w: 100}}\n" + "".join(
        f"    - {{name: '{v}', id: '{v}', value: {v}}}\n" for v in range(2, 8)
    )
    ranks += "    - {name: fante, id: F, value: 8, court: true}\n    - {name: cavallo, id: C, value: 9, court: true}\n"
    ranks += "    - {name: re, id: R, value: 10, court: true}\n"
    errors = validate_file(str(write(tmp_path, f"name: props\nextends: scopa\n{suits}{ranks}")))
    found = sorted(e.format().split(": ", 1)[1] for e in errors)
    assert found == [
        "deck.ranks[0].props.w: 'w' is a property of suits too: a card would have two values",
        "deck.suits[0].props.value: 'value' is a card's own attribute (card.value): name it otherwise",
    ]


@pytest.mark.parametrize("target", ['"-1"', '"played.value - 20"'])
def test_a_sum_target_below_1_for_every_card_is_refused_as_a_written_0_is(tmp_path: Path, target: str) -> None:
    """A written target of 0 is refused; the same written as an expression validated, and the kind never took
    anything (the rules page said "add up to minus 1")."""
    error = one_error(
        write(tmp_path, f"name: t\nextends: scopa\ncapture:\n  kinds:\n    sum: {{type: sum, target: {target}}}\n")
    )
    assert "capture.kinds.sum.target" in error.format() and "below 1 for every card" in error.format()
    assert (
        validate_file(
            str(
                write(
                    tmp_path,
                    'name: t\nextends: scopa\ncapture:\n  kinds:\n    sum: {type: sum, target: "played.value - 5"}\n',
                )
            )
        )
        == []
    )
