"""The flow of a deal, on a :class:`~piglia.state.State`: dealing it, its opening bonuses, refills, its end and the
end of the match; and the chance outcome due in a position.

These are the engine's steps between the players' moves. :class:`~piglia.state.State` calls them: its
``push_chance`` with an outcome given (a replay's), or by itself from its seed (``auto_deal``), and its
``push_raw`` when a play empties the hands or ends the deal. A chance step changes the state in place.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from piglia.chance import MAX_REDEALS, ChanceOutcome, DealOutcome, Phase, RefillOutcome, shuffle_deal
from piglia.contexts import AwardEnv, CardSet, DealEnv
from piglia.errors import PigliaError
from piglia.events import Deal, DealEnd, MatchEnd, Misdeal, Opening, Refill
from piglia.mechanics import declarations, facedown
from piglia.mechanics.awards import AwardForm
from piglia.mechanics.replace import replace_table
from piglia.outcome import Reason

if TYPE_CHECKING:
    from piglia.state import State

__all__ = [
    "apply_opening",
    "chance_outcome",
    "check_deal",
    "deal",
    "end_deal",
    "instant_win",
    "refill",
    "refill_from_stock",
    "resolve_chance",
    "start_deal",
]


def resolve_chance(state: State) -> None:
    """Play the chance steps due now, each with the outcome the match's seed implies (``auto_deal``)."""
    while True:
        phase = state.phase
        if phase is Phase.DEAL:
            outcome = chance_outcome(state)
            assert isinstance(outcome, DealOutcome)
            deal(state, outcome)
        elif phase is Phase.REFILL:
            refill_from_stock(state)
        else:
            return


def deal(state: State, outcome: DealOutcome) -> None:
    """Deal ``outcome`` (unchecked): its misdeals logged, then the deal begun."""
    if state.events is not None:
        reason = state.game.deal_rules.redeal_reason
        for table in outcome.misdeals:
            state._log(Misdeal(state.deal_no, state.dealer, state._ids(table), reason))
    start_deal(
        state, outcome.hands, outcome.table, outcome.stock, face_down=outcome.face_down, returned=outcome.returned
    )


def start_deal(
    state: State,
    hands: Sequence[Sequence[int]],
    table: Sequence[int],
    stock: Sequence[int],
    *,
    opening: bool = True,
    face_down: Sequence[int] = (),
    returned: Sequence[int] = (),
) -> None:
    """Begin the current deal with these hands, table (face up) and stock (the stock's first card is dealt first),
    and these face-down table cards; ``returned``: the opening cards sent under the stock, for the record.

    Then the opening bonuses of the variant are applied, unless ``opening`` is false.
    """
    state.hands = [sorted(h) for h in hands]
    state.table = list(table)
    state.builds = []
    state.face_down = list(face_down)
    state.stock = list(stock)
    state.piles = [[] for _ in state.piles]
    state.deal_points = [0] * len(state.deal_points)
    state.last_capturer = -1
    state.plays = []
    state.deal_scores = []
    state._deal_pending = False
    state.to_move = (state.dealer + state.game.players.lead_offset) % state.game.num_players
    if state.events is not None:
        state._log(
            Deal(
                state.deal_no,
                state.dealer,
                [state._ids(h) for h in state.hands],
                state._ids(state.table),
                len(stock),
                state._ids(face_down) if face_down else None,  # complete information: mechanics/facedown.py
                state._ids(returned) if returned else None,
            )
        )
    if opening:
        apply_opening(state)
        declarations.hand_dealt(state)


def apply_opening(state: State) -> None:
    """Score the opening bonuses (``deal.opening``) on the table as dealt, for the dealer's team.

    Each one that holds is logged as an ``opening`` event; the cards it takes go to the dealer's team and
    count as the dealer's capture (for the leftover). Bonuses are checked in order, each on the table that
    the ones before it left.
    """
    bonuses = state.game.deal_rules.opening
    if not bonuses:
        return
    dealer = state.dealer
    team = state.game.players.team_of[dealer]
    for bonus in bonuses:
        env = DealEnv(tuple(state.table), dealer)
        if not bonus.when(env):
            continue
        points = int(bonus.points(env))
        taken: list[int] = []
        if bonus.take is not None:
            wanted = set(bonus.take(env))
            taken = sorted(c for c in state.table if c in wanted)
            state.table = [c for c in state.table if c not in wanted]
            state.piles[team].extend(taken)
            if taken:
                state.last_capturer = dealer
        state.deal_points[team] += points
        state.deal_scores.append((bonus.name, team, points))
        state._log(Opening(state.deal_no, dealer, bonus.name, points, state._ids(taken)))
        if taken and instant_win(state, team):
            return


def instant_win(state: State, team: int) -> bool:
    """End the match at once if ``team``'s pile meets the variant's ``match.instant_win`` condition."""
    match = state.game.variant.match
    if match.instant_win is None or state.over:
        return False
    if not match.instant_win(AwardEnv(tuple(state.piles[team]), team, state.deal_no)):
        return False
    state.over = True
    state.winner = team
    state.end_reason = (Reason.INSTANT_WIN, match.instant_reason)
    state._log(MatchEnd(list(state.totals), team, match.instant_reason))
    # The deal ends here too, cut short (or closed, by its leftover): whoever folds deals as they end sees it, as
    # a record counts its plays (statistics counted the cut deal's plays but not the deal)
    if state.observer is not None:
        state.observer(state)
    return True


def refill_from_stock(state: State) -> None:
    """Deal the hands again from the top of the stock: one card at a time from the seat after the dealer."""
    n = state.game.num_players
    size = state.game.deal_rules.hand
    stock = state.stock
    dealt = n * size
    # Seat dealer + 1 + k gets stock[k], stock[k + n], ...: one slice per seat, sorted (hands are kept sorted).
    new: list[list[int]] = [[] for _ in range(n)]
    for k in range(n):
        new[(state.dealer + 1 + k) % n] = sorted(stock[k:dealt:n])
    state.stock = stock[dealt:]
    _set_refilled(state, new, is_sorted=True)


def refill(state: State, hands: Sequence[Sequence[int]]) -> None:
    """Deal these cards from the stock to the hands (checked)."""
    size = state.game.deal_rules.hand
    new = [list(h) for h in hands]
    taken = [c for h in new for c in h]
    if len(new) != state.game.num_players:
        raise PigliaError("a refill deals one hand to each seat")
    if set(taken) - set(state.stock) or len(set(taken)) != len(taken):
        raise PigliaError("the refill deals cards that are not in the stock")
    if any(len(h) != size for h in new):
        raise PigliaError(f"a refill deals {size} cards to each player")
    gone = set(taken)
    state.stock = [c for c in state.stock if c not in gone]
    _set_refilled(state, new)


def _set_refilled(state: State, new: list[list[int]], *, is_sorted: bool = False) -> None:
    state.hands = new if is_sorted else [sorted(h) for h in new]
    if state.events is not None:
        state._log(Refill(state.deal_no, [state._ids(h) for h in state.hands], len(state.stock)))
    if state.game.declares:
        declarations.hand_dealt(state)
    elif any(state.shown):  # only declarations show a hand: without them this stays empty
        state.shown = [() for _ in new]


def end_deal(state: State) -> None:
    """Close the deal: the leftover, the awards, the totals; then the end of the match, or the next deal."""
    game = state.game
    variant = game.variant
    leftover_team: int | None = None
    leftover = list(state.table) + state.face_down  # face-down cards never taken go with the leftover
    state.face_down = []
    state.builds = []  # a build lives until the end of its deal at most: its cards go with the leftover
    if leftover and variant.leftover == "last_capturer" and state.last_capturer >= 0:
        leftover_team = game.players.team_of[state.last_capturer]
        state.piles[leftover_team].extend(leftover)
        state.table = []
    piles = [CardSet(p) for p in state.piles]  # each pile's bit mask worked out once, for every award
    scores = state.deal_scores
    first_award = len(scores)  # bonuses come first in deal_scores, then the awards
    carry: dict[str, int] = {}  # ``tie: carry``: points an award tied this deal carries to the next
    for award in variant.awards:
        if isinstance(award, AwardForm) and award.carries:
            entries, carry[award.name] = award.carry_entries(piles, state.deal_no, state.carried.get(award.name, 0))
        else:
            entries = award.entries(piles, state.deal_no)
        for team, points in entries:
            scores.append((award.name, team, points))
            if team is not None:
                state.deal_points[team] += points
    if carry or state.carried:
        state.carried = {name: points for name, points in carry.items() if points}
    for t, points in enumerate(state.deal_points):
        state.totals[t] += points
    match = variant.match
    over, winner = match.winner(state.totals, state.deal_no)
    if state.events is not None:
        state._log(
            DealEnd(
                state.deal_no,
                {"team": leftover_team, "cards": state._ids(leftover)},
                [
                    {"name": n, "team": t, "points": p, **({"carry": carry[n]} if t is None and carry.get(n) else {})}
                    for n, t, p in scores[first_award:]
                ],
                list(state.deal_points),
                list(state.totals),
            )
        )
    # An instant win by the leftover still closes the deal (awards, totals) before the match ends.
    if leftover_team is not None and instant_win(state, leftover_team):
        return
    if over:
        state.over = True
        state.winner = winner
        stop = match.stop_reason(state.totals, state.deal_no)  # the deal limit (match.max_deals)
        if stop:
            state.end_reason = (Reason.DEAL_LIMIT, stop)
        elif winner is None:
            state.end_reason = (Reason.DRAW, "")
        elif match.reached(state.totals):
            state.end_reason = (Reason.TARGET, "")
        else:
            state.end_reason = (Reason.DEALS, "")
        state._log(MatchEnd(list(state.totals), winner, stop or None))
    if state.observer is not None:
        state.observer(state)
    if over:
        return
    if game.players.rotation == "next":
        state.dealer = (state.dealer + 1) % game.num_players
    state.deal_no += 1
    state._deal_pending = True
    if state.auto_deal:
        state._resolve_chance()


def chance_outcome(state: State, seed: int | None = None) -> ChanceOutcome:
    """The outcome of the chance step due now: see :meth:`State.chance_outcome <piglia.state.State.chance_outcome>`."""
    phase = state.phase
    game = state.game
    rules = game.deal_rules
    n = game.num_players
    if phase is Phase.DEAL:
        misdeals: list[tuple[int, ...]] = []
        for attempt in range(MAX_REDEALS):
            hands, table, stock = shuffle_deal(
                state.seed if seed is None else seed,
                state.deal_no,
                attempt,
                deck_size=len(game.variant.deck),
                players=n,
                dealer=state.dealer,
                hand=rules.hand,
                table=rules.table,
            )
            up, down = facedown.split(table, rules.face_down)
            returned: tuple[int, ...] = ()
            if rules.replace is not None:
                up, stock_t, returned = replace_table(up, stock, rules.replace)
                stock = list(stock_t)
            # The redeal looks at the opening table as it lies, its unwanted cards replaced: what a deal is checked
            # against (check_deal) and a record replayed against. Looking before the replacement, a deal the
            # engine kept could show a table the rules redeal, and its record failed to replay.
            if state.is_misdeal(up):
                misdeals.append(up)
                continue
            return DealOutcome(tuple(map(tuple, hands)), up, tuple(stock), tuple(misdeals), down, returned)
        raise PigliaError(
            f"deal.redeal.when: the redeal condition held on {MAX_REDEALS} shuffles in a row; it almost always holds"
        )
    if phase is Phase.REFILL:
        stock = list(state.stock)
        if seed is not None:
            random.Random(f"piglia/{seed}/refill/{state.deal_no}/{len(stock)}").shuffle(stock)
        new: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(rules.hand):
            for k in range(n):
                new[(state.dealer + 1 + k) % n].append(stock[pos])
                pos += 1
        return RefillOutcome(tuple(map(tuple, new)))
    raise PigliaError(f"no chance step here: the phase is {phase.value}")


def check_deal(state: State, outcome: DealOutcome) -> None:
    """Raise :class:`PigliaError` unless ``outcome`` is a deal the rules allow now (sizes, no card twice, no
    table the rules redeal)."""
    rules = state.game.deal_rules
    if len(outcome.hands) != state.game.num_players:
        raise PigliaError(f"a deal gives one hand to each of the {state.game.num_players} seats")
    if any(len(h) != rules.hand for h in outcome.hands) or len(outcome.table) + len(outcome.face_down) != rules.table:
        raise PigliaError(f"a deal gives {rules.hand} cards to each seat and {rules.table} to the table")
    if len(outcome.face_down) != rules.face_down:
        raise PigliaError(f"a deal puts {rules.face_down} of the table cards face down, not {len(outcome.face_down)}")
    unwanted = rules.replace
    if unwanted is not None and any(unwanted[c] for c in outcome.table) and not all(unwanted[c] for c in outcome.stock):
        raise PigliaError("an opening table card must go under the stock and be replaced (deal.replace)")
    dealt = [c for h in outcome.hands for c in h] + list(outcome.table) + list(outcome.face_down) + list(outcome.stock)
    if len(set(dealt)) != len(dealt) or not all(0 <= c < len(state.game.variant.deck) for c in dealt):
        raise PigliaError("the same card is dealt twice")
    if state.is_misdeal(outcome.table):
        raise PigliaError(f"this opening table must be redealt ({rules.redeal_reason})")
