"""The coach (piglia.players.coach): every legal move with its estimate, the risk a move leaves, a review."""

from __future__ import annotations

import pytest

from piglia.moves import Move
from piglia.players import coach
from piglia.players.coach import Advice
from piglia.variant import Variant
from test_player_positions import SCOPA_LATE, setup


def test_advice_covers_every_move_best_first(scopa: Variant) -> None:
    """S2.3, S3.1: the 7 of coins next to the asso makes 8, and any of the three unseen fantes sweeps both (the
    fourth is played); the opponent holds one of the seven unseen cards, so the chance is 3/7. The re of cups
    leaves asso + re = 11, which no card makes: no sweep at all. The coach puts the re first and says why."""
    state = setup(scopa, **SCOPA_LATE)  # type: ignore[arg-type]
    advice = coach.advise(state.view(0), iterations=300, seed=1)
    assert sorted(str(a.move) for a in advice) == sorted(str(m) for m in state.legal_moves())
    assert [a.rank for a in advice] == [1, 2]
    assert advice[0].value >= advice[1].value
    by_move = {str(a.move): a for a in advice}
    assert str(advice[0].move) == "Rc"
    assert by_move["7d"].risk == pytest.approx(3 / 7)
    assert by_move["Rc"].risk == 0.0
    assert advice[0].why and "7 of coins" in advice[0].why
    assert not advice[1].why
    again = coach.advise(state.view(0), iterations=300, seed=1)
    assert again == advice  # the same view and seed, the same advice


def test_review_lists_the_costliest_turns(scopa: Variant) -> None:
    deck = scopa.deck

    def advice(*pairs: tuple[str, float]) -> list[Advice]:
        return [Advice(Move.parse(m, deck), v, v, 0.0, i) for i, (m, v) in enumerate(pairs, 1)]

    turns = [
        (1, advice(("Rc", 0.5), ("7d", -1.0)), Move.parse("7d", deck)),  # lost 1.5
        (1, advice(("Fs x Fd", 0.3), ("Rc", 0.28)), Move.parse("Rc", deck)),  # 0.02: a matter of taste
        (1, advice(("Cd", 0.1), ("Rs", -0.3)), Move.parse("Rs", deck)),  # lost 0.4
        (1, advice(("Cd", 0.1), ("Rs", -0.3)), Move.parse("Cd", deck)),  # the best
    ]
    found = coach.review(turns)
    assert [(str(m.played.move), round(m.loss, 2)) for m in found] == [("7d", 1.5), ("Rs", 0.4)]
    assert coach.review(turns, top=1)[0].best.move == Move.parse("Rc", deck)


def test_why_the_best_is_best_is_said_in_the_languages_of_the_catalogs(scopa: Variant) -> None:
    """The same reasons (``because``) phrase the English ``why`` and the sentence in any catalog's language, cards
    and moves in that language's words."""
    from piglia.texts import VariantTexts

    state = setup(scopa, **SCOPA_LATE)  # type: ignore[arg-type]
    (best, _) = coach.advise(state.view(0), iterations=300, seed=1)
    assert coach.phrase(best.because, VariantTexts(scopa, "en")) == best.why
    # S3.1: the re of cups is placed where the 7 of coins would leave a sweep 3 times in 7
    assert best.because[0] == ("coach.place", {"card": best.move.card})
    assert best.because[1][0] == "coach.risk"
    italian = coach.phrase(best.because, VariantTexts(scopa, "it"))
    assert italian.startswith("lasciare sul tavolo re di coppe concede meno di tutto, e lascia un bonus")
    assert "il 0% delle volte, mentre 7 di denari resta sul tavolo lo lascerebbe il 43% delle volte" in italian
    assert italian.endswith("punti meglio di 7 di denari resta sul tavolo.")
    deck = scopa.deck
    other = Move.parse("6b", deck)
    takes = (("coach.takes", {"n": 2, "worth": "0.82"}), ("coach.gap", {"margin": "0.25", "other": other}))
    assert coach.phrase(takes, VariantTexts(scopa, "it")) == (
        "prende 2 carta/e che valgono 0.82 punti nei premi: 0.25 punti meglio di 6 di bastoni resta sul tavolo."
    )
    assert coach.phrase((("coach.only", {}),), VariantTexts(scopa, "pt")) == "é a única jogada possível."
