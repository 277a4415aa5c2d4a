"""The DSL in words (piglia.dsl.words): every construct has a phrasing, and what has none is shown as code."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from piglia.contexts import AWARD_SCOPE, BONUS_SCOPE, CARD_SCOPE, DEAL_SCOPE, PLAYED_SCOPE
from piglia.dsl import T
from piglia.dsl.words import Words
from piglia.locales import load_catalog
from piglia.variant import Variant


@pytest.fixture(scope="module")
def words(scopa: Variant) -> Words:
    return Words(scopa.deck, load_catalog("en"))


@pytest.mark.parametrize(
    ("scope", "text", "expected"),
    [
        # Name (a true/false scope variable), Unary not, BoolOp and + not: the "except" idiom
        (BONUS_SCOPE, "last_play", "this is the last play of the deal"),
        (BONUS_SCOPE, "not last_play", "this is not the last play of the deal"),
        (
            BONUS_SCOPE,
            "empty(table_after) and not last_play",
            "there are no cards left on the table after the play, except on the last play of the deal",
        ),
        # BoolOp or, and mixed nesting keeps its grouping
        (BONUS_SCOPE, "last_play or deal == 2", "this is the last play of the deal or the deal number is 2"),
        (
            BONUS_SCOPE,
            "(last_play or deal == 2) and player == 0",
            "(this is the last play of the deal or the deal number is 2) and the player's seat number is 0",
        ),
        # BoolLit
        (BONUS_SCOPE, "true", "always"),
        # Compare: every operator, with IntLit
        (BONUS_SCOPE, "count(captured) != 1", "the number of cards taken by the play is not 1"),
        (BONUS_SCOPE, "count(captured) < 2", "the number of cards taken by the play is less than 2"),
        (BONUS_SCOPE, "count(captured) <= 2", "the number of cards taken by the play is at most 2"),
        (BONUS_SCOPE, "count(captured) > 2", "the number of cards taken by the play is more than 2"),
        (BONUS_SCOPE, "count(captured) >= 3", "the number of cards taken by the play is at least 3"),
        # Attr on a play, `in` with a collection
        (
            BONUS_SCOPE,
            "previous.placed and previous.card in captured",
            "the previous play left its card on the table and the card of the previous play is one of "
            "the cards taken by the play",
        ),
        (
            BONUS_SCOPE,
            "played not in table_before",
            "the played card is not one of the cards on the table before the play",
        ),
        # collections compared as sets
        (
            BONUS_SCOPE,
            "captured == table_before",
            "the cards taken by the play are exactly the cards on the table before the play",
        ),
        # Where with a suit, a rank compared with an IntLit, Name of a card id and CardOf
        (AWARD_SCOPE, "count(pile where suit == coins)", "the number of cards of suit coins in the pile"),
        (
            AWARD_SCOPE,
            "count(pile where rank == 7 and not court)",
            "the number of cards of rank 7 and that are not courts in the pile",
        ),
        (BONUS_SCOPE, "played == 7d", "the played card is 7 of coins"),
        (BONUS_SCOPE, "played == re of swords", "the played card is re of swords"),
        # Lookup, Comprehension, sum/max over a comprehension, loop variables
        (
            AWARD_SCOPE,
            "sum(max(primiera[c.rank] for c in pile where c.suit == s) for s in suits)",
            "the sum, over every suit, of the highest primiera value among the cards of that suit in the pile",
        ),
        (
            AWARD_SCOPE,
            "all(any(c.suit == s for c in pile) for s in suits)",
            "for every suit, there is at least one card of that suit in the pile",
        ),
        (
            BONUS_SCOPE,
            "all(c.suit == played.suit for c in captured)",
            "for every card taken by the play, the suit of that card is the suit of the played card",
        ),
        (AWARD_SCOPE, "count(c.court for c in pile)", "the number of cards that are courts in the pile"),
        (AWARD_SCOPE, "sum(pile)", "the total value of the cards in the pile"),
        (
            AWARD_SCOPE,
            "count(distinct(c.suit for c in pile))",
            "the number of different suits among the cards in the pile",
        ),
        # Binary (every operator), Unary minus, IfElse, max of values, run, StrLit
        (BONUS_SCOPE, "count(captured) + 1", "the number of cards taken by the play plus 1"),
        (BONUS_SCOPE, "(deal - 1) * 2", "(the deal number minus 1) times 2"),
        (
            BONUS_SCOPE,
            "deal / 2 + deal % 2",
            "(the deal number divided by 2 (rounded down)) plus (the remainder of the deal number divided by 2)",
        ),
        (BONUS_SCOPE, "-deal", "minus the deal number"),
        (BONUS_SCOPE, "3 if last_play else 1", "3 if this is the last play of the deal, otherwise 1"),
        (BONUS_SCOPE, "max(deal, 2)", "the larger of the deal number and 2"),
        (
            AWARD_SCOPE,
            "run(pile where suit == coins, asso)",
            "the length of the unbroken run of ranks from asso upward among the cards of suit coins in the pile",
        ),
        (BONUS_SCOPE, 'kind == "sum"', "the kind of capture is “sum”"),
        # the redeal condition
        (DEAL_SCOPE, "count(table where rank == re) >= 3", "the number of cards of rank re on the table is at least 3"),
    ],
)
def test_each_construct_has_a_phrasing(words: Words, scope: Mapping[str, T], text: str, expected: str) -> None:
    got = words.phrase(text, scope)
    assert got == expected
    assert "`" not in got  # a real phrasing, not the code fallback


def test_filters_read_as_modifiers_of_cards(words: Words) -> None:
    assert words.card_filter("not court", PLAYED_SCOPE) == " that are not courts"
    assert words.card_filter("card.suit == coins", CARD_SCOPE) == " of suit coins"
    assert words.card_filter("value <= 7 or court", CARD_SCOPE) == " of value at most 7 or that are courts"
    # a condition with no modifier form is still a correct sentence about "that card"
    assert words.card_filter("rank == played.rank", CARD_SCOPE) == " of rank the rank of the played card"
    assert words.card_filter("value + 1 == played.value", CARD_SCOPE) == (
        " such that the value of that card plus 1 is the value of the played card"
    )


def test_unphrasable_shapes_fall_back_to_code(words: Words) -> None:
    # a set built by if/else has no phrasing: the expression is shown, not an empty or wrong sentence
    text = "count(pile if last_play else captured) >= 2"
    got = words.condition(text, BONUS_SCOPE)
    assert got == "the number of cards among `pile if last_play else captured` is at least 2"
    # a comparison of plays (not valid DSL for the compiler, but the renderer still never invents words)
    assert (
        words.condition("distinct(pile) < distinct(captured)", BONUS_SCOPE) == "`distinct(pile) < distinct(captured)`"
    )


def test_a_scope_name_missing_from_the_catalog_is_shown_as_code(scopa: Variant) -> None:
    # another helper may add a scope variable before a catalog has words for it
    words = Words(scopa.deck, load_catalog("en"))
    assert words.condition("novelty and last_play", {**BONUS_SCOPE, "novelty": BONUS_SCOPE["last_play"]}) == (
        "`novelty` and this is the last play of the deal"
    )


def test_italian_phrasing(scopa: Variant) -> None:
    words = Words(scopa.deck, load_catalog("it"))
    assert words.condition("empty(table_after) and not last_play", BONUS_SCOPE) == (
        "non ci sono carte rimaste sul tavolo dopo la giocata, tranne che all'ultima giocata della smazzata"
    )
    assert words.number("count(pile where suit == coins)", AWARD_SCOPE) == "il numero di carte di coins nel mazzetto"


def test_words_phrase_the_compilers_typed_ast(scopa: Variant) -> None:
    # One reading of an expression: the compiler types every node once; the phrasing reads those types.
    from piglia.dsl import T, compile_expr

    text = "count(pile where suit == coins)"
    compiled = compile_expr(text, scope=AWARD_SCOPE, deck=scopa.deck, expected=T.INT)
    assert compiled.types[compiled.ast] is T.INT and compiled.text == text
    words = Words(scopa.deck, load_catalog("en"))
    assert words.number(compiled) == words.number(text, AWARD_SCOPE) == "the number of cards of suit coins in the pile"
    # text that does not type-check is shown as written, never phrased from guessed types
    assert words.condition("count(pile) == coins", AWARD_SCOPE) == "`count(pile) == coins`"


@pytest.mark.parametrize("text", ['kind == "x`y" or rank == A', "`x`", 'a ``b`` "`" c'])
def test_an_expression_shown_as_code_stays_one_code_span(text: str) -> None:
    """An expression with no phrasing is shown as itself in code style; a backtick in a string literal closed a
    one-backtick span early, and the rest of the expression was read as Markdown."""
    from markdown_it import MarkdownIt

    from piglia.dsl.words import code_span

    html = MarkdownIt("commonmark").render(code_span(text)).strip()
    assert html.startswith("<p><code>") and html.endswith("</code></p>") and html.count("<code>") == 1
    inner = html.removeprefix("<p><code>").removesuffix("</code></p>")
    assert inner.replace("&quot;", '"') == text
