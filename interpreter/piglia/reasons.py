"""Why a move is refused, in the words of a language: one source for the terminal game and the web table.

The engine says why a move is illegal in the rule file's own (English) words (:class:`IllegalMoveError`).
In another language the same reasons are said with the catalog's messages (``play.why.*``) and the variant's
names in that language (:class:`~piglia.texts.VariantTexts`), worked out from what the seat may see: its
hand, the table and its legal moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from piglia.errors import IllegalMoveError
from piglia.moves import Move
from piglia.state import State
from piglia.texts import BASE_LANGUAGE, VariantTexts

__all__ = ["illegal_reason", "refusal", "why_illegal"]


def refusal(texts: VariantTexts, state: State, move: Move) -> str | None:
    """Why ``move`` is not legal for the seat to move in ``state``, in ``texts``' language; None if it is legal."""
    try:
        state.apply(move)  # a copy: the position is left as it is
    except IllegalMoveError as exc:
        return illegal_reason(texts, state, move, exc)
    return None


def illegal_reason(texts: VariantTexts, state: State, move: Move, error: IllegalMoveError) -> str:
    """The reason for ``error``, the engine's refusal of ``move`` in ``state``, in ``texts``' language: the
    engine's own words in the base language, :func:`why_illegal`'s in another."""
    if texts.lang == BASE_LANGUAGE:
        return str(error)
    if state.game.variant.builds is not None and (move.is_build or not move.captured):
        return texts.msg("play.why.build", card=texts.card(move.card.index))  # mechanics/builds.py
    view = state.view(state.current_seat)
    hand = [c.index for c in view.hand]
    table = [c.index for c in view.table]
    return why_illegal(texts, hand, table, move, state.legal_moves())


def why_illegal(
    texts: VariantTexts, hand: Sequence[int], table: Sequence[int], move: Move, moves: Sequence[Move]
) -> str:
    """The engine's reasons for refusing ``move`` (a card not held, cards not on the table, a capture that is
    mandatory, a capture the card cannot make), said in ``texts``' language and read from the legal ``moves``
    of the seat holding ``hand`` (card indexes) with ``table`` on the table."""
    m, t = texts.msg, texts
    card = t.card(move.card.index)
    if move.card.index not in hand:
        return m("play.why.not_in_hand", card=card)
    absent = [c.index for c in move.captured if c.index not in table]
    if absent:
        return m("play.why.not_on_table", cards=" + ".join(t.card(c) for c in absent))
    options = [o for o in moves if o.card == move.card and o.captured]
    if not options:
        return m("play.why.no_capture", card=card)
    listed = m("play.why.or").join(" + ".join(t.card(c.index) for c in o.captured) for o in options)
    if not move.captured:
        return m("play.why.must_capture", card=card, options=listed)
    return m("play.why.cannot_take", card=card, options=listed)
