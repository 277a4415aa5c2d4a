"""Positions a club player would not get wrong (issue 14), for greedy and ismcts, with fixed seeds.

Each position is set up with :meth:`Game.position` so that every card is accounted for the way the position
is described: the cards it says are gone lie in the piles (played), the cards it says are unseen are in the
other hands or the stock, and the rest of the deck is split between the piles and the hidden places in a
fixed way. The players decide on ``state.view(seat)`` only, so where exactly the hidden cards are does not
change what they know. The rules cited are docs/RULES.md's: S2.2 and S2.3 capture in Scopa, S3.1 the scopa,
S3.3 the end-of-deal awards (the settebello is a point of its own); B3.2 the picada of Cicera.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import piglia
from conftest import endgames, load_benchmark, minimax_to_deal_end
from piglia.errors import LimitError, PigliaError
from piglia.players import make_player
from piglia.state import Game, State
from piglia.variant import Variant

SEEDS = range(5)


def setup(
    variant: Variant,
    *,
    hand: Sequence[str],
    table: Sequence[str],
    hand_sizes: Sequence[int],
    stock: int,
    unseen: Sequence[str] = (),
    played: Sequence[str] = (),
    seat: int = 0,
    dealer: int = 1,
) -> State:
    """A position with ``seat`` to move holding ``hand``: ``unseen`` cards hidden (other hands or the stock),
    ``played`` cards in the piles, every other card of the deck filling the hidden places first in a fixed
    shuffled order and the piles (alternately) with the rest."""
    game = Game(variant, len(hand_sizes))
    deck = [c.id for c in variant.deck.cards]
    named = set(hand) | set(table) | set(unseen) | set(played)
    rest = [c for c in deck if c not in named]
    random.Random(14).shuffle(rest)
    hidden_slots = sum(size for s, size in enumerate(hand_sizes) if s != seat) + stock
    hidden = list(unseen) + rest[: hidden_slots - len(unseen)]
    gone = list(played) + rest[hidden_slots - len(unseen) :]
    assert len(hidden) == hidden_slots and len(set(hidden) | set(gone)) == len(hidden) + len(gone)
    hands: list[list[str]] = []
    pos = 0
    for s, size in enumerate(hand_sizes):
        if s == seat:
            assert size == len(hand)
            hands.append(list(hand))
        else:
            hands.append(hidden[pos : pos + size])
            pos += size
    piles: list[list[str]] = [[] for _ in range(game.num_teams)]
    for i, card in enumerate(gone):
        piles[i % game.num_teams].append(card)
    return game.position(
        hands=hands, table=table, stock=hidden[pos:], piles=piles, dealer=dealer, to_move=seat, log=False
    )


def decide(name: str, state: State, seed: int) -> str:
    seat = state.to_move
    return str(make_player(name, seed).choose(state.view(seat), state.legal_moves()))


SCOPA_OPEN = dict(  # seat 0 leads the second hand: fante of clubs alone on the table, three 7s unseen
    hand=["7d", "Cd", "Rs"], table=["Fb"], hand_sizes=[3, 3], stock=24, unseen=["7c", "7s", "7b"]
)
SCOPA_LATE = dict(  # seat 0 (the dealer) plays its second card; 7d + asso = 8, which a fante sweeps
    hand=["7d", "Rc"], table=["As"], hand_sizes=[2, 1], stock=6, unseen=["Fd", "Fc", "Fb"], played=["Fs"], dealer=0
)
SCOPA_FANTE = dict(  # take the fante of coins with the fante of swords rather than giving the 7 of coins away
    hand=["7d", "Rc", "Fs"], table=["Cb", "Fd"], hand_sizes=[3, 3], stock=18, unseen=["7c", "7s", "Cd"]
)
ISMCTS = ["ismcts:seconds=0", "ismcts:iterations=1600:seconds=0"]


OPEN_XFAIL = pytest.mark.xfail(
    reason="the three cards must all be played in this hand, so the 7 of coins is placed sooner or later: "
    "played out to the deal's end (greedy against greedy, or the search's own playouts), placing it now and "
    "keeping it are level within +-0.1 point; the search's paired playouts lean to placing it "
    "(benchmarks/players.md, 'the opening position')",
    strict=False,
)


@pytest.mark.parametrize("name", ["greedy", *(pytest.param(n, marks=OPEN_XFAIL) for n in ISMCTS)])
def test_scopa_keeps_the_settebello_with_sevens_unseen(scopa: Variant, name: str) -> None:
    """S2.2, S3.3: placed next to the fante, the 7 of coins is taken by any 7 (three are unseen) and the
    settebello is lost; the re leaves nothing anyone can take in one go (8 + 10 makes no card)."""
    state = setup(scopa, **SCOPA_OPEN)  # type: ignore[arg-type]
    for seed in SEEDS:
        assert decide(name, state, seed) != "7d", (name, seed)


@pytest.mark.parametrize("name", ["greedy", *ISMCTS])
def test_scopa_does_not_leave_a_settebello_sweep(scopa: Variant, name: str) -> None:
    """S2.3, S3.1: the 7 of coins next to the asso makes 8: a fante takes both, a scopa and the settebello.
    The re of cups on the asso leaves 11, which no card makes."""
    state = setup(scopa, **SCOPA_LATE)  # type: ignore[arg-type]
    for seed in SEEDS:
        assert decide(name, state, seed) == "Rc", (name, seed)


@pytest.mark.parametrize("name", ["greedy", *ISMCTS])
def test_scopa_takes_the_coin_fante(scopa: Variant, name: str) -> None:
    """S2.2, S3.3: the fante of swords takes the fante of coins (a coin, and the table keeps only the cavallo, which
    no sweep can follow with the 7 of coins in hand); placing the 7 of coins gives it to any 7."""
    state = setup(scopa, **SCOPA_FANTE)  # type: ignore[arg-type]
    for seed in SEEDS:
        assert decide(name, state, seed) == "Fs x Fd", (name, seed)


@pytest.mark.parametrize("name", ["greedy", "ismcts:seconds=0", "ismcts:iterations=1600:seconds=0"])
def test_cicera_does_not_feed_the_picada(name: str) -> None:
    """B3.2: a card placed on the table is taken by the next player with the same rank for a picada. Every 4
    is gone, so the 4 of coins cannot be taken that way; one cavallo is unseen, so the cavallo of coins can."""
    variant = piglia.load_variant("cicera")
    state = setup(
        variant,
        hand=["4d", "Cd", "5c", "Fc", "As", "Ab", "2b"],
        table=["8b"],
        hand_sizes=[7, 7, 7, 7],
        stock=0,
        unseen=["Cb"],
        played=["4c", "4s", "4b", "Cc", "Cs"],
        dealer=3,
    )
    for seed in range(3):
        assert decide(name, state, seed) != "Cd", (name, seed)


@pytest.mark.parametrize("name", ["greedy", *ISMCTS])
def test_pisti_leads_the_card_no_one_can_pair(name: str) -> None:
    """P2.1, P2.2: on an empty pile a lone card is taken by the next player's card of the same rank for a pisti
    (10 points). Every other 5 is gone, so the 5 of hearts can only be taken by a jack (no pisti); three 9s are
    unseen, so the 9 of diamonds hands the next player a pisti whenever it holds one. Placement risk read from
    the unseen cards (issue 14)."""
    variant = piglia.load_variant("pisti")
    state = setup(
        variant,
        hand=["5h", "9d"],
        table=[],
        hand_sizes=[2, 2],
        stock=20,
        unseen=["9c", "9h", "9s"],
        played=["5c", "5d", "5s"],
    )
    for seed in range(3):
        assert decide(name, state, seed) == "5h", (name, seed)


def brute_force(state: State, team: int, sign: int = 1) -> float:
    """Plain minimax over every line to the deal's end (no pruning): ``team``'s deal points minus the other's,
    times ``sign`` (-1 where every point is bad)."""
    return minimax_to_deal_end(
        state, team, lambda end: float(sign * (end.deal_points[team] - end.deal_points[1 - team]))
    )


def test_endgame_solver_is_exact(scopa: Variant) -> None:
    """With the stock empty and every card known, alpha-beta gives the minimax value of the rest of the deal,
    awards (S3.3) and the leftover (S3.2) included; ismcts then plays a move of that value."""
    from piglia.players.ismcts import IsmctsPlayer, solve_endgame

    game = Game(scopa)
    checked = 0
    for seed, state in endgames(game, random.Random(3)):
        team = game.players.team_of[state.to_move]
        assert solve_endgame(state.clone(), team) == pytest.approx(brute_force(state, team))
        player = IsmctsPlayer(seed)
        move = player.choose(state.view(state.to_move), state.legal_moves())
        assert player.last_root is None  # solved, not searched
        assert brute_force(state.apply(move), team) == pytest.approx(brute_force(state, team))
        checked += 1
    assert checked >= 20


def test_budget_is_in_iterations(scopa: Variant) -> None:
    """The default player stops on its iteration count, not the clock: the same seed, the same decisions."""
    state = setup(scopa, **SCOPA_OPEN)  # type: ignore[arg-type]
    view = state.view(0)
    first = make_player("ismcts", 4)
    a = first.choose(view, state.legal_moves())
    b = make_player("ismcts", 4).choose(view, state.legal_moves())
    assert a == b and first.last_iterations == first.iterations  # type: ignore[attr-defined]


def test_search_stops_on_a_stop_request(scopa: Variant, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop request (Ctrl-C sets the flag of piglia.interrupt) ends the search before its budget, so that a
    run stops within a move; the player still returns a legal move."""
    import signal

    from piglia import interrupt

    state = setup(scopa, **SCOPA_OPEN)  # type: ignore[arg-type]
    player = make_player("ismcts:iterations=100000:seconds=0", 1)
    monkeypatch.setattr(interrupt._FLAG, "signum", signal.SIGINT)
    move = player.choose(state.view(0), state.legal_moves())
    assert move in state.legal_moves()
    assert player.last_iterations < 100  # type: ignore[attr-defined]


def test_endgame_solver_avoids_points_in_misere() -> None:
    """SP1.1: in Scopa a perdere every point is bad, so the solved end of a deal is the one that leaves the team
    the fewest points against the other (the same awards and sweeps as S3); ismcts plays a move of that value.
    Positions where the two aims part are the ones that catch a solver maximising points."""
    from piglia.players.ismcts import IsmctsPlayer, solve_endgame

    variant = piglia.load_variant("scopa-a-perdere")
    game = Game(variant)
    checked = differ = 0
    for seed, state in endgames(game, random.Random(5)):
        team = game.players.team_of[state.to_move]
        best = brute_force(state, team, -1)
        assert solve_endgame(state.clone(), team) == pytest.approx(best)
        player = IsmctsPlayer(seed)
        move = player.choose(state.view(state.to_move), state.legal_moves())
        assert brute_force(state.apply(move), team, -1) == pytest.approx(best)
        differ += any(brute_force(state.apply(m), team, -1) != pytest.approx(best) for m in state.legal_moves())
        checked += 1
    assert checked >= 20 and differ >= 5  # enough positions where a wrong choice would be caught


def test_endgame_solver_stops_at_its_budget_of_positions(scopa: Variant) -> None:
    """A budget of positions bounds a solve: with as many as the solve visits it gives the exact value, with
    one fewer it stops (``Unsolved``), the same on any machine (positions are counted, not timed)."""
    from piglia.players.ismcts import Budget, Unsolved, solve_endgame

    game = Game(scopa)
    checked = 0
    for _seed, state in endgames(game, random.Random(3), seeds=12):
        team = game.players.team_of[state.to_move]
        exact = solve_endgame(state.clone(), team)
        counted = Budget(10**9)
        assert solve_endgame(state.clone(), team, budget=counted) == exact
        visited = 10**9 - int(counted.left)
        assert visited > 1
        assert solve_endgame(state.clone(), team, budget=Budget(visited)) == exact
        with pytest.raises(Unsolved):
            solve_endgame(state.clone(), team, budget=Budget(visited - 1))
        checked += 1
    assert checked >= 5


MISERE_OPTIONAL = Path(__file__).parent / "variants" / "misere-optional.yaml"


def test_a_deal_end_too_big_to_solve_is_left_to_the_playouts() -> None:
    """Where every point is bad and capturing is optional (SP1.1 with S2.2's capture made optional), nobody
    wants to capture, and the table grows to thirty cards and more. The end of such a deal has tens of
    thousands of lines per move: past its budget of positions (``nodes``), ismcts stops solving and lets its
    playouts decide, rather than search for minutes; within the budget it solves, as everywhere else."""
    variant = piglia.load_variant(MISERE_OPTIONAL)
    ids = [c.id for c in variant.deck.cards]
    hands = [["7d", "5c", "3s"], ["6d", "4c", "2s"]]
    rest = [c for c in ids if c not in {c for h in hands for c in h}]
    state = Game(variant).position(
        hands=hands, table=rest[:30], piles=[rest[30:32], rest[32:]], to_move=0, last_capturer=0
    )
    moves = state.legal_moves()
    small = make_player("ismcts:nodes=2000:iterations=30:seconds=0", 1)
    move = small.choose(state.view(0), moves)
    assert move in moves
    assert small.last_root is not None  # type: ignore[attr-defined]  # searched by playouts, not solved
    assert small.last_iterations == 30  # type: ignore[attr-defined]
    # the same position with one card in each hand is within any budget: solved
    one = Game(variant).position(
        hands=[["7d"], ["6d"]],
        table=rest[:30],
        piles=[rest[30:32], [*rest[32:], "5c", "3s", "4c", "2s"]],
        to_move=0,
        last_capturer=0,
    )
    solver = make_player("ismcts:nodes=2000:seconds=0", 1)
    solver.choose(one.view(0), one.legal_moves())
    assert solver.last_root is None  # type: ignore[attr-defined]


def test_the_default_budget_stops_a_solve_of_millions_of_positions() -> None:
    """The same rules, every other card on the table (34): a full solve of this deal's end visits more than three
    million positions (minutes of search). With the default budget (100,000 positions) the playouts decide."""
    variant = piglia.load_variant(MISERE_OPTIONAL)
    hands = [["3c", "6b", "6d"], ["6c", "Ac", "Rc"]]
    table = [c.id for c in variant.deck.cards if c.id not in {c for h in hands for c in h}]
    state = Game(variant).position(hands=hands, table=table, to_move=0, last_capturer=0)
    player = make_player("ismcts:iterations=10:seconds=0", 1)
    assert player.choose(state.view(0), state.legal_moves()) in state.legal_moves()
    assert player.last_root is not None  # type: ignore[attr-defined]  # left to the playouts


def test_the_solver_budget_option_is_checked() -> None:
    with pytest.raises(PigliaError, match="nodes=-1"):
        make_player("ismcts:nodes=-1")


MISERE_BUILDS = Path(__file__).parent / "variants" / "misere-builds.yaml"
# a match of those rules (seed 36, ismcts against greedy): its first 17 plays, which leave 21 cards on the table
MISERE_BUILDS_PLAYS = "Ac 5d 2c 6s Cc Cb 4d Ab 3d Rd 3s 5s 7d Fc 6d 2s Fb"


def test_a_limit_met_in_an_imagined_position_ends_only_that_playout() -> None:
    """Scopa a perdere with Cassino's builds (SP1.1, CA2.1): nobody captures, the table grows, and a hand the
    search imagines for the opponent could make more multiple builds of 7 on it than the engine lists (a
    :class:`LimitError`). The real position is within the limits; the playout that met the limit ends there,
    and the decision is made. When the real position passes a limit, the error says which and where."""
    game = Game(piglia.load_variant(MISERE_BUILDS))
    state = game.new_match(36)
    for text in MISERE_BUILDS_PLAYS.split():
        state.push({str(m): m for m in state.legal_moves()}[text])
    moves = state.legal_moves()
    player = make_player("ismcts:iterations=40:seconds=0", 36)
    assert player.choose(state.view(state.current_seat), moves) in moves
    assert player.last_iterations == 40  # type: ignore[attr-defined]
    # a real table of 20 small cards, the 7 of coins held: far more than 20,000 multiple builds of 7
    hands = [["Ad", "7d"], ["Rc"]]
    small = [c.id for c in game.variant.deck.cards if game.variant.deck.value_of[c.index] < 7 and c.id != "Ad"]
    big = game.position(hands=hands, table=small[:20], to_move=0, last_capturer=0)
    with pytest.raises(LimitError, match=r"^builds\.multiple: the .* more than 20000 multiple builds of 7 on a table"):
        big.legal_moves()


NO_AWARDS = Path(__file__).parent / "variants" / "escoba-no-awards.yaml"


def test_the_safety_net_covers_the_whole_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """ismcts's ``seconds`` is a safety net over the whole decision: past it, no playout starts, and the reading of
    the plays and greedy's prior (which value moves one by one: thousands on this table) stop too. Escoba without
    awards (F5; capture optional): 22 small cards on the table, three placements made, 4,000-odd moves."""
    from piglia.players import greedy

    state = load_benchmark("big_positions").plain25(Game(piglia.load_variant(NO_AWARDS)))
    moves = state.legal_moves()
    valued = 0
    with_reply = greedy._with_reply

    def counted(*args: Any) -> tuple[float, float]:
        nonlocal valued
        valued += 1
        return with_reply(*args)

    monkeypatch.setattr(greedy, "_with_reply", counted)
    counts = []
    for spec in ("ismcts:seconds=0:iterations=1", "ismcts:seconds=0.000000001"):
        valued = 0
        player = make_player(spec, 1)
        assert player.choose(state.view(state.to_move), moves) in moves
        counts.append(valued)
    assert player.last_iterations == 0  # type: ignore[attr-defined]  # no playout after the net
    # without the net the reading values each play read and each unseen card's best play on its table, and the
    # prior greedy's best moves (34 valuations here); with it, only what comes before any check of the clock: the
    # prior's first move
    assert counts[1] == 1
    assert counts[0] > 20


def test_endgame_samples_the_hidden_hands_unless_one_hand_holds_them(scopa: Variant) -> None:
    """With the stock empty, the cards a seat has not seen are all in the other hands. In a two-player game that
    is one hand: the solver knows it and solves once. With three other hands (Cicera's four players, B0.1) which
    of them holds which card is still hidden, so the solver averages over ``samples`` deals of them."""
    from piglia.players.ismcts import IsmctsPlayer

    two = setup(scopa, hand=["7d", "Rc"], table=["As", "3b"], hand_sizes=[2, 2], stock=0, dealer=1)
    player = IsmctsPlayer(1, samples=5)
    player.choose(two.view(0), two.legal_moves())
    assert player.last_root is None and player.last_iterations == 1
    four = setup(
        piglia.load_variant("cicera"),
        hand=["4d", "Cd"],
        table=["8b", "3c"],
        hand_sizes=[2, 2, 2, 2],
        stock=0,
        dealer=3,
    )
    player = IsmctsPlayer(1, samples=5)
    player.choose(four.view(0), four.legal_moves())
    assert player.last_root is None and player.last_iterations == 5
