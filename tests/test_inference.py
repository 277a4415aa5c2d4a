"""Reading the other hands from their plays (players/inference.py, issue 14: a stronger ismcts).

Rules cited from docs/RULES.md: S2.2 and S2.3 (Scopa's captures: a card takes an equal card, else a set of
cards adding up to its value), S3.1 (a capture that clears the table is a scopa, one point), S1.1 and S2.7 (three cards
a hand, the stock dealt in hands of three when both hands are empty).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import piglia
from piglia.players import make_player
from piglia.players.inference import MIN_FACTOR, Reader
from piglia.players.ismcts import IsmctsPlayer
from piglia.players.knowledge import Determinizer, card_weights
from piglia.state import Game, RawMove, State


@pytest.fixture(scope="module")
def game() -> Game:
    return Game(piglia.load_variant("scopa"), 2)


def after_a_placement(game: Game, placed: str) -> State:
    """Seat 1 holds 7 of cups, 4 of clubs and ``placed``; the table is 5 of coins and 2 of swords (together 7,
    which the 7 sweeps: S2.3, S3.1). Seat 1 places ``placed`` and seat 0 is to move."""
    state = game.position(
        hands=[["Rd", "Fs", "Cb"], ["7c", "4b", placed]],
        table=["5d", "2s"],
        stock=["7s", "7b", "6d", "6c", "3s", "3b"],
        dealer=0,
        to_move=1,
        log=False,
    )
    move = next(m for m in state.legal_moves() if str(m) == placed)
    state.push(move)
    assert state.to_move == 0
    return state


# The reading's own strength: the default floor (MIN_FACTOR) keeps every factor at 0.2 or more, so these tests,
# which check how strongly each play speaks, read with a floor far below what they assert.
LOW_FLOOR = 1e-4


def factors(state: State, beta: float, floor: float = LOW_FLOOR) -> dict[str, float]:
    view = state.view(0)
    game = state.game
    position = Determinizer(view)(random.Random(0))
    read = Reader(beta, floor).factors(view, game, position, card_weights(game))
    cards = game.variant.deck.cards
    return {cards[c].id: f for c, f in read.get(1, {}).items()}


def test_a_passed_up_scopa_says_the_sweeping_card_is_not_held(game: Game) -> None:
    """S2.3, S3.1: with 5 + 2 on the table, any 7 would have swept it for a scopa. Seat 1 placed the re of swords
    instead, so a reader that trusts it to play well finds every 7 unlikely in its hand; a 4, which takes nothing
    there (no card or set makes 4), is as likely as before."""
    read = factors(after_a_placement(game, "Rs"), beta=10)
    for seven in ("7c", "7s", "7b"):
        assert read[seven] < 0.01, read
    assert read.get("4b", 1.0) > 0.5
    assert read.get("4d", 1.0) > 0.5


def test_a_capture_that_would_leave_a_sweep_is_no_evidence(game: Game) -> None:
    """S2.2, S2.3, S3.1: late in a deal, seat 1 places the re of swords on 2 of swords and 6 of clubs. A 2 would have
    taken the 2 of swords (S2.2), but left the 6 alone for a sweep (S3.1) by seat 0, which holds a 6 more often
    than not (two of the five cards seat 1 could not see are 6s, and seat 0 holds three of the five): taking it was
    no better than the re, so the play says nothing against a 2 in seat 1's hand. An 8 would have swept 2 + 6 itself
    (S2.3, S3.1): every 8 left is read as (nearly) impossible."""
    cards = game.variant.deck.cards
    named = {"6d", "6c", "Fs", "Rs", "2c", "4b", "2s", "6b", "Fb", "2d"}
    rest = [c.id for c in cards if c.id not in named]  # every other card captured earlier in the deal
    state = game.position(
        hands=[["6d", "6c", "Fs"], ["Rs", "2c", "4b"]],
        table=["2s", "6b"],
        piles=[rest[:15], rest[15:]],
        dealer=0,
        to_move=1,
        log=False,
    )
    state.push(next(m for m in state.legal_moves() if str(m) == "Rs"))
    read = factors(state, beta=10)
    assert {c.id for c in state.view(0).unseen} == {"2c", "2d", "4b", "Fb"}
    assert read["Fb"] < 0.01, read
    assert read.get("2c", 1.0) > 0.5, read
    assert read.get("2d", 1.0) > 0.5, read


def test_a_reader_that_trusts_nothing_reads_nothing(game: Game) -> None:
    """S2.3, S3.1: the same passed-up scopa, read with beta 0 (the other seats' plays not trusted at all): no
    card is less likely than another."""
    assert factors(after_a_placement(game, "Rs"), beta=0) == {}


def test_nothing_is_read_from_a_seat_whose_hand_was_just_dealt(game: Game) -> None:
    """S1.1, S2.7: cards dealt after a seat's plays say nothing about those plays: a seat with a full hand of three has
    made no play with the cards it holds now."""
    state = game.position(
        hands=[["Rd", "Fs", "Cb"], ["7c", "4b", "Rs"]],
        table=["5d", "2s"],
        stock=["7s", "7b", "6d"],
        dealer=1,
        to_move=0,
        log=False,
    )
    assert factors(state, beta=10) == {}


def test_a_past_play_is_read_from_the_position_it_was_made_in(game: Game) -> None:
    """S1.1, S2.7: three cards to each player, four on the table, the rest in the stock (30 cards); after six plays
    both hands are empty and three more are dealt to each (24 left). Eight plays in, the position before the
    second play had the first player's hand at two cards, the second's at three, and a stock of 30; the table
    before it is the opening table after the first play; the seat it holds the card it played, and every card it
    could not see then (nothing on the table or in a pile then) is listed as hidden."""
    state = game.new_match(3, log=False)
    greedy = make_player("greedy", 0)
    for _ in range(8):
        seat = state.to_move
        state.push(greedy.choose(state.view(seat), state.legal_moves()))
    assert len(state.stock) == 24
    view = state.view(state.to_move)
    plays = [(s, c.index, tuple(x.index for x in cap)) for s, c, cap in view.plays]
    tables = Reader._tables(plays, [c.index for c in view.table], 0, ordered=False)
    position = Determinizer(view)(random.Random(0))
    past, hidden = Reader._past(position, plays, 1, tables[1])
    first, second = plays[0][0], plays[1][0]
    assert second != first and past.to_move == second
    assert len(past.hands[first]) == 2 and len(past.hands[second]) == 3
    assert past.hands[second][0] == plays[1][1]
    assert len(past.stock) == 30
    opening, (_, card0, taken0) = tables[0], plays[0]
    assert len(opening) == 4
    after_first = [c for c in opening if c not in taken0] if taken0 else [*opening, card0]
    assert sorted(tables[1]) == sorted(after_first) and sorted(past.table) == sorted(after_first)
    seen = set(after_first) | {plays[1][1]} | (set(taken0) | {card0} if taken0 else set())
    assert set(hidden) == set(range(len(game.variant.deck))) - seen


def test_weighted_deals_keep_an_unlikely_card_out_of_the_hand(game: Game) -> None:
    """The deals of the hidden cards follow the factors: a 7 read as (nearly) impossible in seat 1's hand is
    dealt to the stock instead, while without the reading it lands in that hand about as often as its share."""
    state = after_a_placement(game, "Rs")
    view = state.view(0)
    cards = game.variant.deck.cards
    seven = next(c.index for c in cards if c.id == "7c")
    rng = random.Random(3)
    plain = Determinizer(view)
    read = Determinizer(view, factors={1: {seven: 1e-3}})
    n = 300
    uniform = sum(seven in plain(rng).hands[1] for _ in range(n))
    weighted = sum(seven in read(rng).hands[1] for _ in range(n))
    share = len(view.unseen) and 2 / len(view.unseen)  # two hidden cards in seat 1's hand
    assert uniform > n * share / 2
    assert weighted <= 3
    # the other hand's size and the stock's are what the view says, whatever the weights
    for _ in range(20):
        dealt = read(rng)
        assert [len(h) for h in dealt.hands] == list(view.hand_sizes)
        assert len(dealt.stock) == view.stock_size


def test_ismcts_infer_zero_reads_nothing(game: Game) -> None:
    """``infer=0`` turns the reading off: the search deals the hidden cards uniformly."""
    player = make_player("ismcts:seconds=0:infer=0", 1)
    assert isinstance(player, IsmctsPlayer)
    assert player.reader.beta == 0
    with pytest.raises(piglia.PigliaError, match="infer"):
        make_player("ismcts:infer=-1", 1)


def test_a_passed_up_picada_says_the_same_rank_is_not_held() -> None:
    """B3.2 (Cicera): a card just placed by the previous player, taken by the same rank, is a picada. Seat 0 places
    the 5 of coins on a lone re; seat 1 could take it with any 5 for a picada, and places the fante of clubs instead.
    Seat 2 reads every unseen 5 as unlikely in seat 1's hand; a 9, which takes nothing there, stays as likely. The
    bonus is the rule file's own (a DSL condition): nothing about Cicera is written in the reader."""
    game = Game(piglia.load_variant("cicera"), 4)
    state = game.position(
        hands=[["5d", "2c", "3c"], ["Fb", "9c", "2s"], ["Ad", "4d", "6d"], ["5c", "5s", "5b"]],
        table=["Rb"],
        dealer=3,
        to_move=0,
        log=False,
    )
    for seat, card in ((0, "5d"), (1, "Fb")):
        assert state.to_move == seat
        state.push(next(m for m in state.legal_moves() if str(m) == card))
    view = state.view(2)
    position = Determinizer(view)(random.Random(0))
    read = Reader(10, LOW_FLOOR).factors(view, game, position, card_weights(game))
    cards = game.variant.deck.cards
    seat1 = {cards[c].id: f for c, f in read.get(1, {}).items()}
    for five in ("5c", "5s", "5b"):
        assert seat1[five] < 0.01, seat1
    assert seat1.get("9c", 1.0) > 0.5


def test_the_default_floor_never_rules_a_card_out(game: Game) -> None:
    """S2.3, S3.1: the scopa passed up in test_a_passed_up_scopa_says_the_sweeping_card_is_not_held, read with the
    default floor: the sevens are still the least likely cards, but none below MIN_FACTOR, since the model errs
    too (the cards a seat holds get a regret now and then); the 4s, which take nothing there, keep their
    likelihood."""
    read = factors(after_a_placement(game, "Rs"), beta=10, floor=MIN_FACTOR)
    assert min(read.values()) >= MIN_FACTOR
    for seven in ("7c", "7s", "7b"):
        assert read[seven] == MIN_FACTOR, read
    assert read.get("4b", 1.0) > 0.5 and read.get("4d", 1.0) > 0.5


def test_an_ordered_table_is_rebuilt_back_to_its_last_capture_only() -> None:
    """Where the rules read the table's top card (Pisti's pile, P2.1), the order of the cards a capture took is not
    kept by the plays, so the table before a capture cannot be rebuilt: only the plays after the last capture are
    read. Where the order does not matter, the rebuild goes on through captures (their cards put back)."""
    plays = [(0, 5, ()), (1, 9, (5, 7)), (0, 3, ())]  # a card placed, a capture of two cards, a card placed
    ordered = Reader._tables(plays, [3], 0, ordered=True)
    assert ordered == {2: []}
    unordered = Reader._tables(plays, [3], 0, ordered=False)
    assert unordered == {2: [], 1: [5, 7], 0: [7]}


class EveryPlayReader(Reader):
    """A reader that values every play of a card to find its best (what the module text defines)."""

    @staticmethod
    def best(past: State, raws: Sequence[RawMove], hidden: Sequence[int], weights: Sequence[float]) -> float:
        return max(Reader.value(past, raw, hidden, weights) for raw in raws)


@pytest.mark.parametrize("name", ["scopa", "cicera", "escoba"])
def test_the_reader_values_only_the_plays_that_can_be_a_cards_best(name: str) -> None:
    """A card's regret is how much better its best play was than the play made: the reader finds the best through
    greedy's bound (only the plays that can be best are valued), and the regrets are those of valuing every play,
    to the float."""
    game = Game(piglia.load_variant(name))
    weights = card_weights(game)
    greedy = make_player("greedy", 0)
    read = 0
    for seed in range(3):
        state = game.new_match(seed, log=False)
        while not state.over and len(state.plays) < 24:
            seat = state.to_move
            view = state.view(seat)
            if view.plays:
                position = Determinizer(view)(random.Random(0))
                fast = Reader(30.0).regrets(view, game, position, weights)
                slow = EveryPlayReader(30.0).regrets(view, game, position, weights)
                assert fast == slow
                read += sum(r > 0 for regret in fast.values() for r in regret.values())
            state.push(greedy.choose(view, state.legal_moves()))
    assert read > 0
