"""The redeal check at validation (piglia.probe) samples the openings the engine deals.

A redeal condition (``deal.redeal.when``) that holds on (almost) every opening the engine can deal would stop a match
after 1,000 shuffles in a row; validation refuses it, at the condition. The openings it judges must be the engine's:
every dealer the rules can give, the table after ``deal.replace``, without the ``deal.face_down`` cards.
"""

from __future__ import annotations

from pathlib import Path

from conftest import write_variant as write
from piglia.errors import SpecError
from piglia.spec import load_variant, validate_file
from piglia.state import Game

# Each file below writes its condition on line 6, column 11 (`    when: ...`).
WHEN = (6, 11)


def refused(path: Path) -> SpecError:
    """The one error of the file: the redeal condition, refused at its place."""
    errors = validate_file(str(path))
    assert len(errors) == 1, [e.format() for e in errors]
    err = errors[0]
    assert err.path == "deal.redeal.when", err.format()
    assert (err.file, err.line, err.col) == (str(path), *WHEN), err.format()
    assert "the redeal condition holds on" in err.message and "of 400 random opening tables" in err.message
    return err


def plays(path: Path, deals: int = 6) -> None:
    """The file validates, and matches deal (no redeal loop) for every seed tried."""
    assert validate_file(str(path)) == []
    game = Game(load_variant(str(path)))
    for seed in range(deals):
        state = game.new_match(seed)
        assert state.hands and not state.is_misdeal(state.table)


def test_a_condition_that_holds_whenever_the_fixed_first_dealer_deals_is_refused(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        name: redeal-dealer
        extends: scopa
        players: {first_dealer: 0}
        deal:
          redeal:
            when: dealer == 0
            reason: seat 0 never deals
        """,
    )
    err = refused(path)
    assert "when seat 0 deals (dealer == 0)" in err.message


def test_a_condition_that_holds_for_a_later_dealer_is_refused_when_the_deal_passes(tmp_path: Path) -> None:
    # seat 0 deals first, then seat 1 (rotation: next): the second deal would loop
    path = write(
        tmp_path,
        """
        name: redeal-later
        extends: scopa
        players: {first_dealer: 0}
        deal:
          redeal:
            when: dealer == 1
            reason: seat 1 never deals
        """,
    )
    assert "when seat 1 deals (dealer == 1)" in refused(path).message


def test_a_condition_no_dealer_of_the_rules_meets_validates(tmp_path: Path) -> None:
    # seat 0 deals every deal (rotation: same): seat 1, whose deals the condition would redeal, never deals
    path = write(
        tmp_path,
        """
        name: redeal-never-dealer
        extends: scopa
        players: {first_dealer: 0, rotation: same}
        deal:
          redeal:
            when: dealer == 1
            reason: seat 1 never deals
        """,
    )
    plays(path)


def test_a_condition_that_holds_on_every_table_after_replacement_is_refused(tmp_path: Path) -> None:
    # every re on the opening table goes under the stock: the table never holds one, and the redeal always holds
    path = write(
        tmp_path,
        """
        name: redeal-replace
        extends: scopa
        deal:
          replace: {when: rank == re, reason: no re on the opening table}
          redeal:
            when: count(table where rank == re) == 0
            reason: the table needs a re
        """,
    )
    refused(path)


def test_a_condition_replacement_makes_rare_validates(tmp_path: Path) -> None:
    # a re shows on about a third of the tables as dealt, never after replacement
    path = write(
        tmp_path,
        """
        name: redeal-replace-rare
        extends: scopa
        deal:
          replace: {when: rank == re, reason: no re on the opening table}
          redeal:
            when: count(table where rank == re) > 0
            reason: never a re
        """,
    )
    plays(path)


def test_a_condition_on_the_face_up_table_only_is_refused(tmp_path: Path) -> None:
    # three of the four opening cards lie face down: the table the condition sees holds one card, always
    path = write(
        tmp_path,
        """
        name: redeal-facedown
        extends: scopa
        deal:
          face_down: 3
          redeal:
            when: count(table) < 2
            reason: too few cards
        """,
    )
    refused(path)


def test_a_condition_that_holds_rarely_validates(tmp_path: Path) -> None:
    # scopa's own redeal (three re or more) with face-down cards and a fixed dealer: rare on every opening
    path = write(
        tmp_path,
        """
        name: redeal-rare
        extends: scopa
        players: {first_dealer: 1}
        deal:
          face_down: 1
          redeal:
            when: count(table where rank == re) >= 2 and dealer == 1
            reason: two re
        """,
    )
    plays(path)


def test_the_probe_answers_the_same_every_time(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        name: redeal-again
        extends: scopa
        deal:
          face_down: 3
          redeal:
            when: count(table) < 2
            reason: too few cards
        """,
    )
    assert refused(path).format() == refused(path).format()
