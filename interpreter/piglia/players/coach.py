"""The coach: what the AI thinks of every legal move, and, after a deal, where a player lost most.

:func:`advise` takes a seat's view (only what that seat may see) and returns one :class:`Advice` per legal
move, best first: the search's estimate of the points the move is worth to the seat's team this deal (a
gain over the position now, cards counted by how they weigh towards the awards), greedy's one-ply value, the
chance that the move leaves the next player (an opponent) a capture that scores a bonus, and for the best
move one sentence saying why it is best. :func:`review` takes the advice given at each turn and the move
then played, and returns the turns where the player lost the most by that estimate. Nothing here names a
game: bonus names and card names come from the variant.

The terminal game (``piglia play --coach``, or ``?`` at the prompt) calls these two; a web front end can too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from piglia.cards import Card
from piglia.moves import Move
from piglia.players.greedy import move_estimate
from piglia.players.ismcts import IsmctsPlayer
from piglia.players.knowledge import card_weights, determinize, game_of
from piglia.state import RawMove, SeatView
from piglia.texts import VariantTexts

__all__ = ["DEFAULT_ITERATIONS", "Advice", "Because", "Mistake", "advise", "phrase", "review"]

DEFAULT_ITERATIONS = 800  # the coach may think longer than an opponent: every move gets a share of the budget
CLOSE = 0.05  # estimates closer than this (in points) are a matter of taste, not a mistake
# A safety net over one advice, in seconds: a built-in game's takes about a second, always within its iterations
# (so the same view and seed give the same advice), but a rule file whose bonuses cost a millisecond or more each
# took minutes (each of the search's 800 playouts asks the bonuses at every play).
SAFETY_SECONDS = 30.0


# Why the best move is best, in parts a front end phrases in its language (:func:`phrase`): the catalog key of
# each part and its fields (moves and cards are phrased by the front end's texts, numbers come formatted).
Because = tuple[tuple[str, Mapping[str, Any]], ...]


@dataclass(frozen=True)
class Advice:
    """The coach's estimate of one legal move.

    ``value``: the points this move is worth to the seat's team this deal, as a gain over the position now
    (the search's estimate; cards taken count by their weight towards the awards). ``greedy``: the one-ply
    value (what the move takes now minus the next player's expected best reply). ``risk``: the chance that
    the next player, an opponent, holds a card that scores a bonus (a sweep, or any bonus of the variant) on
    the table this move leaves. ``rank``: 1 for the best. ``why``: one sentence, for the best move only.
    """

    move: Move
    value: float
    greedy: float
    risk: float
    rank: int
    why: str = ""  # in English; ``because`` holds it in parts, for :func:`phrase` in any language
    because: Because = ()


@dataclass(frozen=True)
class Mistake:
    """A turn where the move played was worth ``loss`` points less than the best, by the coach's estimate."""

    deal: int
    played: Advice
    best: Advice
    loss: float


def _raw(move: Move) -> RawMove:
    return move.raw


def advise(
    view: SeatView,
    moves: Sequence[Move] | None = None,
    *,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
) -> list[Advice]:
    """Every legal move (``moves``, or all of the view's seat's) with the coach's estimate, best first.

    The same view and seed give the same advice (within :data:`SAFETY_SECONDS`). ``moves`` defaults to the legal
    moves of a position built from the view (they depend only on what the seat sees: its hand and the table).
    """
    game = game_of(view)
    rng = random.Random(f"piglia/coach/{seed}")
    guess = determinize(view, rng)
    if moves is None:
        moves = guess.legal_moves()
    if not moves:
        return []
    weights = card_weights(game)
    unseen = sorted(c.index for c in view.unseen)
    raws = [_raw(m) for m in moves]
    greedy = {r: move_estimate(guess, r, unseen, weights) for r in raws}
    if len(moves) == 1:
        values = {raws[0]: greedy[raws[0]][0]}
    else:
        searcher = IsmctsPlayer(seed, iterations=iterations, seconds=SAFETY_SECONDS, width=0)
        values = searcher.evaluate(view, raws)
    order = sorted(range(len(moves)), key=lambda i: (-values.get(raws[i], greedy[raws[i]][0]), i))
    out: list[Advice] = []
    for rank, i in enumerate(order, 1):
        r = raws[i]
        out.append(Advice(moves[i], values.get(r, greedy[r][0]), greedy[r][0], greedy[r][1], rank))
    best = out[0]
    return [_with_why(best, out, view), *out[1:]]


def _with_why(best: Advice, advice: list[Advice], view: SeatView) -> Advice:
    """The best move with why it beats the next best, in parts (``because``) and in English (``why``)."""
    because = _because(best, advice, view)
    why = phrase(because, VariantTexts(game_of(view).variant))
    return Advice(best.move, best.value, best.greedy, best.risk, best.rank, why, because)


def _because(best: Advice, advice: list[Advice], view: SeatView) -> Because:
    """Why ``best`` beats the next best: the reason, a clause on the risk or the card kept, and the margin."""
    if len(advice) == 1:
        return (("coach.only", {}),)
    weights = card_weights(game_of(view))
    second = advice[1]
    move = best.move
    parts: list[tuple[str, Mapping[str, Any]]] = []
    if move.captured:
        taken = sum(weights[c.index] for c in move.captured) + weights[move.card.index]
        parts.append(("coach.takes", {"n": len(move.captured), "worth": f"{taken:.2f}"}))
    elif move.is_build:  # a build is worth what it will capture (mechanics/builds.py)
        kept = sum(weights[c.index] for c in move.onto) + weights[move.card.index]
        parts.append(("coach.build", {"value": move.value, "n": len(move.onto) + 1, "worth": f"{kept:.2f}"}))
    else:
        parts.append(("coach.place", {"card": move.card}))
    if second.risk > best.risk + 0.05:
        parts.append(
            ("coach.risk", {"risk": f"{best.risk:.0%}", "other": second.move, "other_risk": f"{second.risk:.0%}"})
        )
    elif not move.captured and not move.is_build:
        held = max(view.hand, key=lambda c: weights[c.index])
        if held != move.card and weights[held.index] > weights[move.card.index]:
            parts.append(("coach.keep", {"card": held}))
    parts.append(("coach.gap", {"margin": f"{best.value - second.value:.2f}", "other": second.move}))
    return tuple(parts)


def phrase(because: Because, texts: VariantTexts) -> str:
    """Why the best move is best (an :class:`Advice`'s ``because``) in the language of ``texts``: one sentence."""

    def words(value: Any) -> Any:
        if isinstance(value, Move):
            return texts.move(value)
        if isinstance(value, Card):
            return texts.card(value.index)
        return value

    text = ""
    for key, fields in because:
        said = {name: words(value) for name, value in fields.items()}
        text = texts.msg(key, reason=text, **said) if key == "coach.gap" else text + texts.msg(key, **said)
    return text


def review(turns: Sequence[tuple[int, Sequence[Advice], Move]], top: int = 3) -> list[Mistake]:
    """The ``top`` turns where the move played lost the most against the best, by the coach's estimate.

    ``turns``: per turn of the player, the deal number, the advice :func:`advise` gave and the move played.
    Turns where the loss is under a twentieth of a point are not mistakes and are left out.
    """
    found: list[Mistake] = []
    for deal, advice, played in turns:
        if not advice:
            continue
        mine = next((a for a in advice if a.move == played), None)
        if mine is None:
            continue
        loss = advice[0].value - mine.value
        if loss >= CLOSE:
            found.append(Mistake(deal, mine, advice[0], loss))
    found.sort(key=lambda m: -m.loss)
    return found[:top]
