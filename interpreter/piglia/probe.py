"""Validation by sampling: what the rules do on random opening deals, checked before any match is played.

Some problems of a rule file cannot be seen in its text but show at once on a few shuffles: a redeal condition
that (almost) always holds, so that a deal would need more shuffles than the engine allows (the engine gives up
after ``MAX_REDEALS`` in a row, in the middle of a match); a deck and table on which a played card could take more
groups of cards than the capture limit (:data:`piglia.mechanics.capture.MAX_CAPTURES`). One more needs no sample:
hands that could hold wild cards named more ways than a declaration tries
(:data:`piglia.mechanics.declarations.MAX_NAMINGS`). :func:`probe_openings`
deals :data:`SAMPLES` opening deals from a fixed seed (the same answer every time) for every player count and
reports each such problem at its place in the rule file.

The openings sampled are the ones the engine deals (:func:`piglia.dealflow.chance_outcome`): a shuffle laid out as
the engine lays it out (:func:`piglia.chance.shuffle_deal`: hands, table, stock), the face-down table cards set
apart (``deal.face_down``: the redeal condition never sees them), the unwanted cards replaced from
the stock (``deal.replace``: the redeal looks at the table as it lies after replacement), and the redeal condition
judged for every dealer the rules can give (``players.first_dealer``, ``players.rotation``): a condition that holds
whenever one seat deals would stop the first deal that seat deals.

:func:`play_random` (``piglia validate --play N``) goes further: it plays N deals of random moves and reports the
cost per deal and what only play can show.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from piglia.contexts import DealEnv
from piglia.costs import kind_when
from piglia.errors import LimitError, PigliaError
from piglia.mechanics.capture import MAX_CAPTURES, CaptureKind, KindMechanic
from piglia.mechanics.conditions import TableEnv
from piglia.mechanics.facedown import split
from piglia.mechanics.match import DEAL_LIMIT_REASON
from piglia.mechanics.replace import replace_table
from piglia.variant import Variant
from piglia.yamlpos import Path

__all__ = ["REDEAL_SHARE", "SAMPLES", "PlayReport", "play_random", "probe_openings"]

SAMPLES = 400  # opening deals sampled per player count: a few milliseconds for any deck the schema allows
# A redeal condition that holds on this share of the sampled openings (or more) is refused: at 95% a deal needs 20
# shuffles on average, and the engine's limit of 1,000 in a row is then never reached (0.95**1000 is 5e-23); a
# condition that holds more often than that could stop a match in its middle.
REDEAL_SHARE = 0.95

CAPTURE_SAMPLES = 40  # of them, those on which the captures of every hand card are counted (on big tables only)

Fail = Callable[[Path, str], Exception]
Newest = Callable[..., Path]  # of the paths given, the first the file being checked writes itself, else the first


def probe_openings(variant: Variant, fail: Fail, *, newest: Newest, samples: int = SAMPLES) -> None:
    """Deal ``samples`` random openings per player count; report (``fail(path, message)``) what they reveal. Where
    two places of the file share the blame, ``newest`` says which one to point at (the one the file wrote)."""
    rng = random.Random("piglia-probe")
    size = len(variant.deck)
    declarations = variant.declarations
    for n in variant.player_counts:
        rules = variant.deal_rules(n)
        if declarations is not None:  # not sampled: the worst hand is known (it holds the most-named wild cards)
            too_many = declarations.too_many(rules.hand, declarations.most_namings(rules.hand))
            if too_many is not None:
                raise fail(newest(("declarations", "wild"), ("deal", "hand")), too_many)
        redeal = rules.redeal
        dealers = _dealers(variant, n)
        # A condition that never reads the dealer is judged once per opening: its answer is every dealer's.
        judged = dealers if rules.redeal_when is None or "dealer" in rules.redeal_when.names else dealers[:1]
        held = dict.fromkeys(judged, 0)
        for sample in range(samples):
            # Laid out as the engine lays out a shuffle (chance.shuffle_deal): the hands' cards first, then the
            # table's, then the stock; which seat takes which hand cards (the dealer's doing) changes nothing here.
            cards = rng.sample(range(size), size)
            hands = cards[: n * rules.hand]
            dealt = tuple(cards[n * rules.hand : n * rules.hand + rules.table])
            if redeal is not None:
                table = _opening_table(dealt, cards[n * rules.hand + rules.table :], rules.face_down, rules.replace)
                try:
                    for dealer in judged:
                        held[dealer] += bool(redeal(DealEnv(table, dealer)))
                except PigliaError as exc:
                    raise fail(("deal", "redeal", "when"), f"cannot be computed on an opening table: {exc}") from None
            if sample < CAPTURE_SAMPLES:
                # on every card dealt to the table, face-down and replaced ones too (as many cards as the engine's
                # table, not the same ones): what this check has always counted, and the messages it has given
                _count_captures(variant, hands, dealt, fail, newest)
        if redeal is None:
            continue
        worst = max(judged, key=lambda dealer: held[dealer])  # the first of the dealers it holds most for
        if held[worst] >= REDEAL_SHARE * samples:
            share = f"{held[worst]} of {samples}"
            who = f" when seat {worst} deals (dealer == {worst})" if len(set(held.values())) > 1 else ""
            raise fail(
                ("deal", "redeal", "when"),
                f"the redeal condition holds on {share} random opening tables with {n} players{who}: a deal would "
                "need too many shuffles (the engine stops after 1,000 in a row); it must fail on at least "
                f"{round((1 - REDEAL_SHARE) * 100)}% of the openings",
            )


def _dealers(variant: Variant, n: int) -> tuple[int, ...]:
    """The seats that can deal a deal with ``n`` players (state.py: the first dealer, fixed or drawn; dealflow.py:
    the deal passes to the next seat after each deal when ``players.rotation`` is ``next``)."""
    seats = variant.players(n)
    if seats.first_dealer is not None and seats.rotation != "next":
        return (seats.first_dealer,)
    first = seats.first_dealer or 0
    return tuple((first + k) % n for k in range(n))  # the fixed first dealer first: the first deal's


def _opening_table(
    dealt: Sequence[int], stock: Sequence[int], face_down: int, replace: Sequence[bool] | None
) -> tuple[int, ...]:
    """The face-up opening table as the redeal condition sees it (dealflow.chance_outcome): the face-down cards
    set apart, then the unwanted cards sent under the stock and replaced."""
    up, _down = split(dealt, face_down)
    if replace is not None:
        up = replace_table(up, stock, replace)[0]
    return up


def _count_captures(variant: Variant, hands: list[int], table: tuple[int, ...], fail: Fail, newest: Newest) -> None:
    """Refuse a kind that could offer a hand card more captures on this table than the capture limit, or than its
    own limit; blamed on the kind or on the table's size, whichever the file wrote."""
    if len(table) < MAX_CAPTURES.bit_length():
        return  # fewer subsets in all than the limit
    for tier in variant.capture.tiers:
        for kind in tier:
            count = getattr(kind, "count", None)
            if count is None:
                continue
            place = newest(("capture", "kinds", kind.name), ("deal", "table"))
            closed = _closed_to(kind, table)
            for card in hands:
                if closed(card):  # the engine never searches a kind its `when` closes: no limit to meet
                    continue
                try:
                    found = int(count(card, table))
                except LimitError as exc:  # past the kind's own limit (a sets kind's `limit`) on this opening
                    said = str(exc)  # it names the kind: said once, where the blame is on the kind
                    if place[0] == "capture":
                        said = said.removeprefix(f"capture.kinds.{kind.name}: ")
                    raise fail(place, f"on a random opening, {said}, or deal a smaller table") from None
                if found > MAX_CAPTURES:
                    raise fail(
                        place,
                        f"on a random opening table of {len(table)} cards the {variant.deck.cards[card].id} could "
                        f"take {found:,} different groups, more than the limit of {MAX_CAPTURES:,} captures per "
                        f"played card: give capture.kinds.{kind.name} a max_cards, or deal a smaller table",
                    )


def _closed_to(kind: CaptureKind, table: tuple[int, ...]) -> Callable[[int], bool]:
    """Whether the kind's ``when`` (mechanics/conditions.py) closes it to a played card on ``table``. A condition
    that cannot be computed here counts as open: the count then goes on, as it did before ``when`` was read."""
    when = kind_when(kind)
    if when is None or not isinstance(kind, KindMechanic):
        return lambda _card: False
    test, played_ok = when.fn, kind.inputs.played_ok

    def closed(card: int) -> bool:
        if not played_ok[card]:
            return True
        try:
            return not test(TableEnv(card, table))
        except PigliaError:
            return False

    return closed


@dataclass
class PlayReport:
    """What :func:`play_random` saw: deals and matches played, their cost, and the first failure if any."""

    deals: int = 0
    plays: int = 0
    matches: int = 0  # matches that ended
    stopped: int = 0  # of them, stopped by the deal limit (match.max_deals)
    most_moves: int = 0  # the most legal moves seen in one position
    seconds: float = 0.0
    error: str | None = None  # "deal D of the match with seed S: message"

    def summary(self) -> str:
        """One line: the cost per deal and what ended."""
        per_deal = self.seconds / self.deals * 1000 if self.deals else 0.0
        plays = self.plays / self.deals if self.deals else 0.0
        text = (
            f"{self.deals} random deals played, {per_deal:.1f} ms per deal, {plays:.1f} plays per deal, "
            f"at most {self.most_moves} legal moves; {self.matches} matches ended"
        )
        if self.stopped:
            text += f", {self.stopped} of them stopped by the deal limit with no winner (match.max_deals)"
        return text


def play_random(variant: Variant, deals: int, *, seed: int = 1) -> PlayReport:
    """Play ``deals`` deals of random legal moves (whole matches, seeds ``seed``, ``seed + 1``...).

    What only play shows is reported, not raised: an error the engine raises in the middle of a match (a capture
    limit, a redeal limit, an expression that cannot be computed) and matches that reach the deal limit.
    """
    import time

    from piglia.state import Game

    report = PlayReport()
    rng = random.Random(seed)
    game = Game(variant)
    start = time.perf_counter()
    match_seed = seed
    while report.deals < deals:
        state, deal = None, 1
        try:
            state = game.new_match(match_seed)
            while not state.is_terminal() and report.deals < deals:
                moves = state.legal_moves()
                report.most_moves = max(report.most_moves, len(moves))
                state.play(rng.choice(moves))
                report.plays += 1
                if state.deal_no != deal:
                    report.deals += state.deal_no - deal
                    deal = state.deal_no
        except Exception as exc:  # reported with where it happened: this is what the probe is for
            kind = "" if isinstance(exc, PigliaError) else f"internal error: {type(exc).__name__}: "
            report.error = f"deal {deal} of the match with seed {match_seed}: {kind}{exc}"
            break
        if state.is_terminal():
            report.deals += 1
            report.matches += 1
            if state.events and state.events[-1].get("reason") == DEAL_LIMIT_REASON:
                report.stopped += 1
        match_seed += 1
    report.seconds = time.perf_counter() - start
    return report
