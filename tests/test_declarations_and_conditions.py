"""The declarations and kind-condition mechanics outside Cirulla: another game may use them, and mistakes in them
are reported at their place in the file."""

from __future__ import annotations

from pathlib import Path

import pytest

import piglia
from conftest import events_of, moves_of, position, write_variant
from piglia.errors import SpecErrors

HOUSE = """\
name: house
extends: scopa
declarations:                    # no wild card: only the hand as dealt
  hands:
    all_coins: {points: 2, when: all(c.suit == coins for c in hand)}
capture:
  kinds:
    re_sweep: {type: all, played: rank == re, when: count(table) >= 3}
    match: {type: match}
    sum: {type: sum}
  priority: [re_sweep, match, sum]
"""


def test_a_scopa_house_rule_with_a_declaration_and_a_table_condition(tmp_path: Path) -> None:
    house = piglia.load_variant(write_variant(tmp_path, HOUSE))
    state = position(house, hands=[["Rd", "2d", "3d"], ["Rc", "4c", "5c"]], table=["Rs", "4s", "6b"], dealer=1,
                     opening=True)  # fmt: skip
    assert [(e["player"], e["name"], e["points"]) for e in events_of(state, "declare")] == [(0, "all_coins", 2)]
    assert "named" not in events_of(state, "declare")[0]
    # three cards on the table: the re takes them all, and only that (not the re it matches)
    assert moves_of(state, "Rd") == {"Rd x 4s+6b+Rs"}
    state = position(house, hands=[["Rd"], ["Rc"]], table=["Rs", "4s"], to_move=0)
    assert moves_of(state, "Rd") == {"Rd x Rs"}  # two cards: the condition fails, the next tier applies


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        (
            "capture:\n  kinds:\n    ace: {type: all, when: previous.placed}\n  priority: [ace, match, sum]\n",
            "house.yaml:5:28: capture.kinds.ace.when",
            "'previous' is not available here (this expression sees played, table)",
        ),
        (
            "declarations:\n  wild: card == 9 of coins\n  hands:\n    low: {points: 1, when: sum(hand) <= 9}\n",
            "house.yaml:4:17: declarations.wild",
            "unknown rank '9'",
        ),
        (
            "declarations:\n  hands:\n    low: {points: 1, when: sum(pile) <= 9}\n",
            "house.yaml:5:32: declarations.hands.low.when",
            "'pile' is not available here",
        ),
    ],
)
def test_mistakes_are_reported_at_their_place(tmp_path: Path, text: str, where: str, says: str) -> None:
    path = write_variant(tmp_path, "name: house\nextends: scopa\n" + text, "house.yaml")
    with pytest.raises(SpecErrors) as info:
        piglia.load_variant(path)
    message = info.value.errors[0].format()
    assert where in message and says in message, message


def test_a_remembered_declaration_is_the_one_worked_out() -> None:
    """``Declarations.declare`` remembers hands it was asked (a game asks at the first card of every hand); the
    answer must be the one worked out afresh, whatever the order of the hand's cards, wild card or not (Cirulla's
    declarations with its wild 7 of hearts, CI1.2), and the memory stays bounded."""
    import random

    from piglia.mechanics import declarations as declarations_module
    from piglia.mechanics.declarations import Declarations

    declarations = piglia.load_variant("cirulla").declarations
    assert declarations is not None and declarations.wild_cards
    fresh = Declarations(declarations.hands, declarations.wild, declarations.wild_cards, declarations.namings)
    rng = random.Random(5)
    cards = range(40)
    hands = [rng.sample(cards, 3) for _ in range(600)]
    hands += [[*sorted(declarations.wild_cards), *rng.sample(cards, 2)] for _ in range(100)]  # the wild card held
    declared = 0
    for hand in hands + [list(reversed(h)) for h in hands]:  # asked again, in another order
        want = fresh._declare(hand)
        assert fresh.declare(hand) == want, hand
        declared += want is not None
    assert declared > 0  # some hands declare
    assert 0 < len(fresh.known) <= declarations_module.DECLARED_KEPT


def test_wild_cards_named_too_many_ways_are_refused_where_the_deal_gives_them(tmp_path: Path) -> None:
    """docs/language.md, "Guarantees and limits": a declaration tries every naming of a hand's wild cards. Every
    card wild in hands of three is a thousand namings, which validates; in hands of five, a hundred thousand,
    refused at the wild cards' condition; and a hand past the limit, asked directly, stops with the same words."""
    from piglia.errors import LimitError
    from piglia.mechanics.declarations import MAX_NAMINGS

    text = "name: house\nextends: cirulla\ndeclarations:\n  wild: card.value > 0\n"
    small = piglia.load_variant(write_variant(tmp_path, text, "small.yaml"))
    declarations = small.declarations
    assert declarations is not None and declarations.most_namings(3) == 10**3 <= MAX_NAMINGS
    with pytest.raises(SpecErrors) as info:
        piglia.load_variant(write_variant(tmp_path, text + "deal: {hand: 5, table: 0}\n", "big.yaml"))
    message = info.value.errors[0].format()
    assert "big.yaml:4:9: declarations.wild: a hand of 5 cards can hold wild cards named 100,000 ways" in message
    with pytest.raises(LimitError, match="named 100,000 ways, more than the 10,000"):
        declarations.declare(list(range(5)))


def test_namings_times_the_conditions_steps_are_bounded_too(tmp_path: Path) -> None:
    """docs/language.md, "Guarantees and limits": each naming of a hand's wild cards is tried against every
    declaration, so the namings times the conditions' estimated steps are bounded as well. Cirulla's own
    declarations on a hand of every card wild (a thousand namings) are within it; four conditions of some 86,000
    steps each are not, refused at the wild cards' condition, and a hand asked directly stops with the same words."""
    from piglia.errors import LimitError
    from piglia.mechanics.declarations import MAX_DECLARE_STEPS

    text = "name: house\nextends: cirulla\ndeclarations:\n  wild: card.value > 0\n"
    cheap = piglia.load_variant(write_variant(tmp_path, text, "cheap.yaml")).declarations
    assert cheap is not None and cheap.too_many(3, 1000) is None
    costly = "count(c for c in deck where count(d for d in deck where d in hand and c.value + d.value > 18) > 0) > 99"
    hands = "".join(f'    {n}: {{points: 1, when: "{costly}"}}\n' for n in "abcd")
    with pytest.raises(SpecErrors) as info:
        piglia.load_variant(write_variant(tmp_path, text + "  hands:\n" + hands, "costly.yaml"))
    message = info.value.errors[0].format()
    assert "costly.yaml:4:9: declarations.wild: a hand of 3 cards can hold wild cards named 1,000 ways" in message
    assert f"more than the {MAX_DECLARE_STEPS:,} steps the engine spends on a declaration" in message
    # hands of one card validate (ten namings); a hand of three wild cards, asked directly, does not
    one = piglia.load_variant(write_variant(tmp_path, text + "  hands:\n" + hands + "deal: {hand: 1}\n", "one.yaml"))
    assert one.declarations is not None
    with pytest.raises(LimitError, match="named 1,000 ways, each tried against the declarations' conditions"):
        one.declarations.declare(list(range(3)))
