"""The built-in players: what they may see, what they prefer, and the player registry."""

from __future__ import annotations

import math
import random
from itertools import combinations
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import piglia
from conftest import hide_differently, load_benchmark, position
from piglia.chance import Phase
from piglia.errors import LimitError
from piglia.players import Player, RandomPlayer, make_player
from piglia.players.greedy import GreedyPlayer, best_values, expected_max, move_value
from piglia.players.ismcts import IsmctsPlayer, _order_chances
from piglia.players.knowledge import card_weights, determinize
from piglia.state import Game, RawMove, State
from piglia.tournament import pair_interval, tournament
from piglia.variant import Variant


def positions(game: Game, seeds: range, plies: int) -> list[State]:
    """Positions reached by random play, a few plies into a match."""
    out = []
    for seed in seeds:
        state = game.new_match(seed, log=False)
        rng = random.Random(seed)
        for _ in range(rng.randrange(plies)):
            moves = state.raw_moves()
            state.push_raw(moves[rng.randrange(len(moves))])
        out.append(state)
    return out


@pytest.mark.parametrize("name", ["greedy", "ismcts:iterations=60:seconds=0"])
def test_ai_sees_only_its_seat_view(scopa: Variant, name: str) -> None:
    """Two positions that differ only in cards the seat cannot see give the same decision with the same seed."""
    game = Game(scopa)
    differ = 0
    for state in positions(game, range(12), 20):
        seat = state.to_move
        other = hide_differently(state, seat, random.Random(7))
        differ += other.hands != state.hands or other.stock != state.stock
        assert other.view(seat) == state.view(seat)
        a = make_player(name, seed=3).choose(state.view(seat), state.legal_moves())
        b = make_player(name, seed=3).choose(other.view(seat), other.legal_moves())
        assert a == b
    assert differ >= 10  # the test really moved hidden cards around


def test_determinization_keeps_what_the_seat_knows(scopa: Variant) -> None:
    game = Game(scopa)
    for state in positions(game, range(5), 25):
        seat = state.to_move
        view = state.view(seat)
        guess = determinize(view, random.Random(1))
        assert guess.hands[seat] == state.hands[seat]
        assert guess.table == state.table and guess.piles == state.piles
        assert [len(h) for h in guess.hands] == [len(h) for h in state.hands]
        assert len(guess.stock) == len(state.stock)
        hidden = sorted(c for s, h in enumerate(guess.hands) if s != seat for c in h) + sorted(guess.stock)
        assert sorted(hidden) == sorted(c.index for c in view.unseen)
        assert guess.view(seat) == view


BUILDS_AND_DECLARATIONS = """\
name: cassino-declared
extends: cassino
declarations:
  hands:
    low_hand: {points: 3, when: sum(hand) <= 9}
"""


def test_a_build_owner_whose_hand_is_shown_is_owed_no_other_card(tmp_path: Path) -> None:
    """CA2.1: a build's owner holds a card of its value, so a player imagining the hidden hands deals it one. CI1.2:
    a declared hand is shown. When the shown hand already holds such a card, no other is owed: the imagined hand
    is the shown one, of its size (a fuzzed file mixing Cassino's builds with declarations stopped every ismcts
    decision of such a position with "the hidden cards do not have the hand and stock sizes the view shows")."""
    import dataclasses

    path = tmp_path / "cassino-declared.yaml"
    path.write_text(BUILDS_AND_DECLARATIONS)
    variant = piglia.load_variant(str(path))
    deck = variant.deck
    state = Game(variant).position(
        hands=[["8d", "10h", "8c"], ["Qd", "6c", "Jc"]],
        table=["2d", "9s"],
        builds=[(["Ah", "5c"], 6, 1, False)],
        stock=["3h", "4h", "5h", "7h"],
        to_move=0,
    )
    shown = tuple(deck.parse_card(c) for c in ["Qd", "6c", "Jc"])
    view = dataclasses.replace(state.view(0), shown=((), shown))
    for seed in range(20):
        guess = determinize(view, random.Random(seed))
        assert sorted(guess.hands[1]) == sorted(c.index for c in shown)
        assert [len(h) for h in guess.hands] == [3, 3] and len(guess.stock) == 4
    move = make_player("ismcts:iterations=20:seconds=0", 1).choose(view, state.legal_moves())
    assert move in state.legal_moves()


def test_expected_max_matches_enumeration() -> None:
    values = [3.0, 0.0, 1.5, 2.0, 0.5]
    for hand in range(1, 6):
        subsets = list(combinations(values, hand))
        exact = sum(max(s) for s in subsets) / len(subsets)
        assert expected_max(values, hand) == pytest.approx(exact)
    assert expected_max([], 3) == 0.0


def test_card_weights_follow_the_awards(scopa: Variant) -> None:
    """S3.3: the 7 of coins counts towards three awards (coins, settebello, primiera), so it is worth the most;
    a coin is worth more than the same rank of another suit; a 7 (primiera 21) more than a 5 (15)."""
    w = card_weights(Game(scopa))
    deck = scopa.deck
    idx = {c.id: c.index for c in deck.cards}
    assert max(range(len(w)), key=w.__getitem__) == idx["7d"]
    assert w[idx["4d"]] > w[idx["4c"]]
    assert w[idx["7c"]] > w[idx["5c"]]


def test_greedy_takes_the_sweep(scopa: Variant) -> None:
    """S3.1: clearing the table scores a scopa, so greedy takes both cards rather than one."""
    state = position(scopa, hands=[["5c", "3b"], ["2s", "4s"]], table=["2b", "3s"], to_move=0)
    move = GreedyPlayer().choose(state.view(0), state.legal_moves())
    assert move == piglia.Move.parse("5c x 2b+3s", scopa.deck)


def test_greedy_takes_the_settebello(scopa: Variant) -> None:
    """S3.3: the 7 of coins is an award of its own; given the choice, greedy takes it."""
    state = position(scopa, hands=[["7b", "Ab"], ["2s", "4s"]], table=["7d", "7c", "5s"], to_move=0)
    move = GreedyPlayer().choose(state.view(0), state.legal_moves())
    assert move == piglia.Move.parse("7b x 7d", scopa.deck)


def test_greedy_does_not_leave_a_sweep(scopa: Variant) -> None:
    """S2.3 and S3.1: placing the 3 next to the 4 leaves 3 + 4 = 7, which any 7 sweeps for a scopa; placing the
    re leaves 4 + re = 14, which no card can take in one go. Neither card captures, so greedy places the re."""
    state = position(scopa, hands=[["3b", "Rb"], ["2s", "4s", "5b"]], table=["4c"], stock=["3c", "3s"], to_move=0)
    moves = state.legal_moves()
    assert {str(m) for m in moves} == {"3b", "Rb"}
    assert str(GreedyPlayer().choose(state.view(0), moves)) == "Rb"


ADJACENT_PARTNERS = """\
name: adjacent-partners
extends: scopone
players: {count: 4, teams: [[0, 1], [2, 3]]}
"""


NO_AWARDS = Path(__file__).parent / "variants" / "escoba-no-awards.yaml"


@pytest.mark.parametrize(
    "name", ["scopa", "cicera", "escoba", "cassino", "tablanette", "scopone", "adjacent", str(NO_AWARDS)]
)
def test_greedy_values_only_the_moves_that_can_be_best(name: str, tmp_path: Path) -> None:
    """best_values leaves out moves whose worth now is below the best values found (a reply by an opponent only
    lowers a move's value), and values every move where the next player is a partner: the ``count`` best by value,
    ties to the first, are those of valuing every move, each value the same float."""
    if name == "adjacent":
        path = tmp_path / "adjacent-partners.yaml"
        path.write_text(ADJACENT_PARTNERS)
        name = str(path)
    game = Game(piglia.load_variant(name))
    weights = card_weights(game)
    rng = random.Random(7)
    team_of = game.players.team_of
    checked = skipped = partners = total = 0
    for seed in range(6):
        state = game.new_match(seed, log=False)
        while not state.over and checked < 60:
            moves = state.raw_moves()
            if len(moves) > 2:
                view = state.view(state.to_move)
                guess = determinize(view, random.Random(seed))
                unseen = sorted(c.index for c in view.unseen)
                every = [move_value(guess, m, unseen, weights) for m in moves]
                last = not state.stock and sum(map(len, state.hands)) == 1  # the deal's end: no reply
                partner = not last and team_of[(state.to_move + 1) % game.num_players] == team_of[state.to_move]
                for count in (1, 3):
                    some = best_values(guess, moves, unseen, weights, count)
                    assert all(some[i] == every[i] for i in some)
                    top = sorted(range(len(moves)), key=lambda i: (-every[i], i))[:count]
                    assert sorted(some, key=lambda i: (-some[i], i))[:count] == top
                    if partner:  # the next player is a partner: every move is valued
                        assert len(some) == len(moves)
                    skipped += len(moves) - len(some)
                    total += len(moves)
                checked += 1
                partners += partner
            state.push_raw(moves[rng.randrange(len(moves))])
    assert checked >= 20
    if name.endswith("adjacent-partners.yaml"):
        assert partners >= 5
    if name in ("cicera", "escoba"):
        assert skipped > 0  # the bound leaves moves out where hands are big
    if name == str(NO_AWARDS):  # every move worth the same but an escoba: ties are cut, not valued
        assert skipped > total / 2


@pytest.mark.parametrize("name", ["escoba", "cicera", "tablanette", str(NO_AWARDS)])
@pytest.mark.parametrize("expect", [0, 1])
def test_playout_policy_ranks_long_move_lists_to_the_same_move(
    name: str, expect: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On long move lists the playout policy weighs the threats in the order of the moves' worth and stops at the
    first move that cannot be best (a threat left to an opponent only lowers a move's worth): the move it plays
    is the one it plays weighing every threat. Tables are grown by placing cards where the rules let a card be
    placed (F5: capture is optional in Escoba; B2.6 in Cicera; T2.1 in Tablanette) until the seat to move has
    many moves."""
    from piglia.players import ismcts

    game = Game(piglia.load_variant(name))
    weights = card_weights(game)
    rng = random.Random(3)
    checked = 0
    for seed in range(40):
        state = game.new_match(seed, log=False)
        while not state.over:
            try:
                legal = state.raw_moves()
            except LimitError:  # the table grew past what the engine lists (sets of Tablanette)
                break
            if len(legal) >= ismcts.RANKED_FROM:
                moves: list[RawMove | None] = []
                try:
                    for ranked_from in (10**9, ismcts.RANKED_FROM):
                        monkeypatch.setattr(ismcts, "RANKED_FROM", ranked_from)
                        player = IsmctsPlayer(seed, noise=0, expect=expect)
                        player._prepare(game, weights)
                        player.prng = random.Random(seed)
                        moves.append(player._playout_move(state, legal, weights, True))
                except LimitError:  # a threat past the limit when every one is weighed: not comparable
                    moves = [None, None]
                monkeypatch.undo()
                assert moves[0] == moves[1]
                checked += moves[0] is not None
                break  # one position a match: the first long list, before tables grow huge
            placements = [m for m in legal if not m[1]]
            state.push_raw(rng.choice(placements or legal))
        if checked >= 6:
            break
    assert checked >= 6


def test_ranked_playout_policy_breaks_ties_as_move_order_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where moves of different worth come out equal once their threats are counted, the policy plays the first in
    move order, as when every threat is weighed: here each move's threat is exactly its worth, so every move is
    worth 0 and the first legal move must be played, though the ranked order weighs the captures worth 1 first."""
    from piglia.players import ismcts

    game = Game(piglia.load_variant(NO_AWARDS))
    state = load_benchmark("big_positions").plain25(game)  # 4,334 moves
    legal = state.raw_moves()
    assert len(legal) >= ismcts.RANKED_FROM
    # one table card worth 1, taken by some moves but not the first
    target = next(c for m in reversed(legal) for c in m[1] if c not in legal[0][1])
    weights = [1.0 if c == target else 0.0 for c in range(len(game.variant.deck))]
    monkeypatch.setattr(
        IsmctsPlayer, "_threat", lambda self, state, m, hand, weights, left: weights[target] * (target in m[1])
    )
    player = IsmctsPlayer(1, noise=0)
    player._prepare(game, weights)
    assert player._playout_move(state, legal, weights, True) == legal[0]


def test_ismcts_respects_its_budget(scopa: Variant) -> None:
    state = Game(scopa).new_match(4, log=False)
    player = IsmctsPlayer(1, iterations=50, seconds=0)
    move = player.choose(state.view(state.to_move), state.legal_moves())
    assert move in state.legal_moves()
    assert player.last_iterations == 50
    capped = IsmctsPlayer(1, iterations=10**9, seconds=0.05)
    capped.choose(state.view(state.to_move), state.legal_moves())
    assert 0 < capped.last_iterations < 10**9


def test_ismcts_tree_depth_option(scopa: Variant) -> None:
    """tree=1 searches the root's moves only (no node below them); tree=0 grows the tree below the root."""
    state = Game(scopa).new_match(4, log=False)
    shallow = IsmctsPlayer(1, iterations=80, seconds=0, tree=1)
    shallow.choose(state.view(state.to_move), state.legal_moves())
    assert shallow.last_root is not None and shallow.last_root.children
    assert all(not child.children for child in shallow.last_root.children.values())
    deep = IsmctsPlayer(1, iterations=80, seconds=0, tree=0)
    deep.choose(state.view(state.to_move), state.legal_moves())
    assert deep.last_root is not None
    assert any(child.children for child in deep.last_root.children.values())


def test_ismcts_threat_option_sizes_the_imagined_next_hand() -> None:
    """``threat`` caps the cards the playout policy imagines in the next player's hand (B1.1: Cicera deals all
    52 cards, twelve a hand), drawn only from cards the mover cannot see; a bad value is refused."""
    state = Game(piglia.load_variant("cicera")).new_match(3, log=False)
    own = set(state.hands[state.to_move]) | set(state.table)
    for threat, size in ((4, 4), (12, 12), (20, 12), (0, 0)):
        player = IsmctsPlayer(1, threat=threat)
        imagined = player._threat_hand(state)
        assert len(imagined) == size and len(set(imagined)) == size
        assert not own & set(imagined)
    for bad in ["ismcts:threat=-1", "ismcts:threat=2.5"]:
        with pytest.raises(piglia.PigliaError, match="threat"):
            make_player(bad)


def test_order_chances_match_enumeration() -> None:
    """The chance that the k-th best of n cards is the best of a hand drawn from them, by enumerating hands."""
    for n in range(1, 7):
        for hand in range(1, n + 1):
            hands = list(combinations(range(n), hand))  # card k is the k-th best
            exact = [sum(min(h) == k for h in hands) / len(hands) for k in range(n - hand + 1)]
            assert _order_chances(n, hand) == pytest.approx(exact)


def test_expected_reply_averages_the_best_capture_over_every_hand(scopa: Variant) -> None:
    """S2.3, S3.1: placing the 3 next to the 4 leaves 3 + 4 = 7, which a 7 sweeps (a scopa) and a 3 or a 4
    takes alone. With ``expect`` the playout policy weighs that reply over every hand the next player may hold
    (three cards from the six the mover cannot see), the best capture of each hand, averaged."""
    state = position(
        scopa,
        hands=[["3b", "Rb"], ["7s", "2s", "5b"]],
        table=["4c"],
        stock=["4d", "Ac", "Rs"],
        to_move=0,
    )
    game = state.game
    weights = card_weights(game)
    player = IsmctsPlayer(1, expect=1)
    player._prepare(game, weights)
    pool, order = player._reply_pool(state)
    assert sorted(pool) == sorted(state.hands[1] + state.stock)
    m = (scopa.deck.by_id["3b"].index, ())
    after = state.clone()
    after.push_raw(m)

    def best_capture(card: int) -> float:  # the next player's best capture with this card, bonuses included
        values = [
            weights[card] + sum(weights[c] for c in cap) + after.bonus_points((card, cap))
            for cap, _kind in after.capture_options(card)
        ]
        return max(values, default=0.0)

    hands = list(combinations(pool, 3))
    exact = sum(max(best_capture(c) for c in h) for h in hands) / len(hands)
    bits = sum(1 << c for c in pool)
    left = (1 << scopa.deck.by_id["4c"].index) | (1 << m[0])
    got = player._expected_reply(state, m, pool, bits, order, weights, left)
    assert got == pytest.approx(exact)
    assert exact > 1  # the sweep is among the replies: the 7 is in half the hands


def test_expected_reply_places_the_card_no_one_can_pick_up() -> None:
    """B3.2: a card placed may be taken at once by a card of its rank, for a picada. The three other 6s have
    been captured, while a 5 is in the other hands; the 5 and the 6 of cups are worth about the same. Weighing the
    reply over every hand, the playout policy places the 6, as greedy does; one hand drawn instead leaves the 5
    looking as safe whenever the draw misses the 5 of coins."""
    cicera = piglia.load_variant("cicera")
    state = position(
        cicera,
        hands=[["5c", "6c"], ["5d", "2s", "9b"], ["4b", "8d", "Cd"], ["3s", "Ab", "7b"]],
        table=["Rd"],
        piles=[["6d", "Ad", "6s", "As"], ["6b", "Ac"]],  # captured, so seen by every seat
        to_move=0,
    )
    game = state.game
    weights = card_weights(game)
    legal = state.raw_moves()
    six = (cicera.deck.by_id["6c"].index, ())
    assert sorted(legal) == sorted([(cicera.deck.by_id["5c"].index, ()), six])
    player = IsmctsPlayer(1, expect=1, noise=0)
    player._prepare(game, weights)
    assert player._playout_move(state, legal, weights, True) == six
    assert GreedyPlayer().choose(state.view(0), state.legal_moves()).raw == six
    drawn = IsmctsPlayer(1, expect=0, noise=0)
    drawn._prepare(game, weights)
    assert {drawn._playout_move(state, legal, weights, True) for _ in range(30)} == set(legal)
    with pytest.raises(piglia.PigliaError, match="expect"):
        make_player("ismcts:expect=2")


def test_make_player_names_options_and_plugins() -> None:
    assert isinstance(make_player("random"), RandomPlayer)
    assert isinstance(make_player("greedy"), GreedyPlayer)
    ismcts = make_player("ismcts:iterations=25:seconds=0")
    assert isinstance(ismcts, IsmctsPlayer) and ismcts.iterations == 25 and ismcts.seconds == 0
    assert isinstance(make_player("piglia.players:RandomPlayer", 5), Player)
    for bad in ["nobody", "ismcts:fast", "ismcts:speed=3", "no.such.module:Player"]:
        with pytest.raises(piglia.PigliaError):
            make_player(bad)
    # an option given twice is refused by name, not settled by the last one in silence
    with pytest.raises(piglia.PigliaError, match="option 'iterations' is given twice"):
        make_player("ismcts:iterations=5:seconds=0:iterations=9")


# docs/players.md ("Options follow the name"): each option's kind and range, as the refusal message states it
OPTION_RANGES = {
    "iterations": (1, None, True),
    "samples": (1, None, True),
    **{name: (0, None, True) for name in ("depth", "width", "tree", "prior", "risk", "threat", "endgame", "nodes")},
    **{name: (0, None, False) for name in ("seconds", "exploration", "confidence", "infer", "margin")},
    **{name: (0, 1, False) for name in ("noise", "held", "floor")},
    **{name: (0, 1, True) for name in ("bonuses", "paired", "expect")},
}


@pytest.mark.parametrize("name", sorted(OPTION_RANGES))
def test_every_ismcts_option_outside_its_documented_range_is_refused(name: str) -> None:
    low, high, whole = OPTION_RANGES[name]
    bad = [low - 1, "nan", "abc"] + ([low + 0.5] if whole else []) + ([high + 1] if high is not None else [])
    for value in bad:
        with pytest.raises(piglia.PigliaError, match=rf"ismcts option {name}=.*expected a (whole )?number"):
            make_player(f"ismcts:{name}={value}")
    # the edges of the range are accepted
    for value in [low] + ([high] if high is not None else []):
        assert isinstance(make_player(f"ismcts:{name}={value}"), IsmctsPlayer)


def test_tournament_duplicate_pairs_and_workers(scopa: Variant) -> None:
    one = tournament(scopa, ("greedy", "random"), matches=6, seed=2)
    data = one.as_dict()
    a, b = data["players"]
    assert data["matches"] == 6 and a["matches"] == b["matches"] == 6
    assert a["wins"] + a["draws"] + a["losses"] == 6 and a["wins"] == b["losses"]
    assert a["ci95"][0] <= a["win_rate"] <= a["ci95"][1]
    assert set(a["awards_per_deal"]) >= {"cards", "coins"}
    two = tournament(scopa, ("greedy", "random"), matches=6, seed=2, workers=2)
    assert two.as_dict() == data


def test_a_tournament_counts_every_bonus_by_name_and_keeps_no_log_of_a_match(monkeypatch: pytest.MonkeyPatch) -> None:
    """CI1.1, CI1.2: Cirulla's dealer bonus on the opening table and its declarations score points; each
    player's points per deal are the sum of its points per name. The names of openings and declarations were
    left out (the sum fell short by about 2.7 points a deal). A match is folded deal by deal, with no event log
    and no undo entries: a long match held gigabytes of them."""
    made: list[Any] = []
    new_match = Game.new_match

    def watched(self: Game, seed: int, **kwargs: Any) -> Any:
        made.append(new_match(self, seed, **kwargs))
        return made[-1]

    monkeypatch.setattr(Game, "new_match", watched)
    data = tournament(piglia.load_variant("cirulla"), ("greedy", "random"), matches=6, seed=3).as_dict()
    for p in data["players"]:
        assert {"dealer_scopa", "low_hand"} <= set(p["awards_per_deal"]) or p["points_per_deal"] == 0
        assert sum(p["awards_per_deal"].values()) == pytest.approx(p["points_per_deal"])
    assert made and all(s.events is None and not s._undo for s in made)


def test_a_tournament_needs_two_teams(tmp_path: Path) -> None:
    """A against "all the others" is no duplicate comparison: with three teams B held two of them in every game
    and random against random read as a significant difference. It is refused, saying why."""
    rules = tmp_path / "three.yaml"
    rules.write_text("name: three\nextends: scopa-french\nplayers:\n  count: [2, 3]\n  teams: null\n", encoding="utf-8")
    variant = piglia.load_variant(rules)
    with pytest.raises(piglia.PigliaError, match="two sides; three with 3 players has 3 teams"):
        tournament(variant, ("random", "random"), matches=2, players=3)
    assert tournament(variant, ("random", "random"), matches=2, players=2).matches == 2


BAD_PLAYERS = """
from piglia.moves import Move


class ReturnsNone:
    def choose(self, view, moves):
        return None


class ReturnsForeign:
    def choose(self, view, moves):
        held = {c.index for c in view.hand}
        return Move(next(c for c in view.game.variant.deck.cards if c.index not in held))


class Raises:
    def choose(self, view, moves):
        raise RuntimeError("boom")
"""


@pytest.mark.parametrize(
    ("cls", "said"),
    [("ReturnsNone", "chose None, which is not one of the moves"), ("ReturnsForeign", "which is not one of the"),
     ("Raises", "failed: RuntimeError: boom")],
)  # fmt: skip
def test_a_plugged_players_faults_are_its_own_and_name_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scopa: Variant, cls: str, said: str
) -> None:
    """A player of the user's own that returns no legal move or raises was reported as piglia's internal error
    (AttributeError: 'NoneType' object has no attribute 'raw'): now a PigliaError naming the player."""
    (tmp_path / "bad_players_mod.py").write_text(BAD_PLAYERS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    name = f"bad_players_mod:{cls}"
    with pytest.raises(piglia.PigliaError, match=f"player '{name}' ") as caught:
        tournament(scopa, (name, "random"), matches=2, seed=1)
    assert said in str(caught.value)


def test_four_seats_two_teams_partners_share_a_player() -> None:
    """B0.1: partners opposite; A plays both seats of one team, B the other's; B4.4: one deal per match."""
    variant = piglia.load_variant("cicera")
    result = tournament(variant, ("greedy", "random"), matches=4, seed=1).as_dict()
    assert result["seats"] == 4 and result["deals"] == 4
    a, b = result["players"]
    assert a["wins"] + a["draws"] + b["wins"] == 4


@pytest.mark.parametrize("name", ["scopa", "cicera", "escoba", "scopone", "chkobba"])
def test_bonus_points_is_what_the_play_scores(name: str) -> None:
    """State.bonus_points(raw) (used by the players to value moves without copying the position) gives exactly
    the bonus points push_raw then adds to the mover's team, for every legal move along random matches."""
    game = Game(piglia.load_variant(name))
    names = {b.name for b in game.variant.bonuses}
    checked = 0
    for seed in range(6):
        state = game.new_match(seed, log=False)
        rng = random.Random(seed)
        while not state.over:
            moves = state.raw_moves()
            for raw in moves:
                team = game.players.team_of[state.to_move]
                after = state.clone()
                before = after.deal_points[team]
                scores = len(after.deal_scores)
                after.push_raw(raw)
                bonus = sum(p for n, t, p in after.deal_scores[scores:] if t == team and n in names)
                assert state.bonus_points(raw) == bonus, (name, seed, raw)
                if after.deal_no == state.deal_no and after.phase is not Phase.DEAL and not after.over:
                    assert after.deal_points[team] - before == bonus
                checked += bonus > 0
            state.push_raw(moves[rng.randrange(len(moves))])
    assert checked > 0  # some plays did score a bonus


def test_pair_interval_by_hand() -> None:
    """Per pair (A's points minus B's, deals): ratio 6/12 = 0.5; residuals x - 0.5 d are 1, -1, 0 over d = 4,
    so the standard error is sqrt((1 + 1 + 0) / 2 / 3) / 4 and the interval 0.5 -+ 1.96 times it."""
    from math import sqrt

    from piglia.tournament import pair_interval

    value, low, high = pair_interval([(3, 4), (1, 4), (2, 4)])
    se = sqrt(2 / 2 / 3) / 4
    assert value == pytest.approx(0.5)
    assert (low, high) == pytest.approx((0.5 - 1.96 * se, 0.5 + 1.96 * se))
    assert pair_interval([(3, 4)])[1] == float("-inf")


def test_tournament_reports_points_difference_over_pairs(scopa: Variant) -> None:
    data = tournament(scopa, ("greedy", "random"), matches=8, seed=2).as_dict()
    a, b = data["players"]
    diff = data["points_per_deal_difference"]
    assert diff["pairs"] == 4
    assert diff["value"] == pytest.approx(a["points_per_deal"] - b["points_per_deal"])
    assert diff["ci95"][0] <= diff["value"] <= diff["ci95"][1]


def test_a_tournament_keeps_sums_of_its_pairs_not_the_pairs(scopa: Variant) -> None:
    """Memory does not grow with the matches: without keep_pairs only the pairs under way are held, and the
    difference and its interval are those the kept pairs give."""
    lean = tournament(scopa, ("greedy", "random"), matches=12, seed=4)
    full = tournament(scopa, ("greedy", "random"), matches=12, seed=4, keep_pairs=True)
    assert lean.open_pairs == {} and lean.kept == {}
    with pytest.raises(piglia.PigliaError, match="keep_pairs"):
        _ = lean.pairs
    assert len(full.pairs) == 6
    value, low, high = pair_interval(full.pairs)
    diff = lean.difference()
    assert diff["pairs"] == 6
    assert diff["value"] == pytest.approx(value) and diff["ci95"] == pytest.approx([low, high])


@given(st.lists(st.tuples(st.integers(-30, 30), st.integers(1, 12)), min_size=2, max_size=40))
def test_pair_sums_give_the_interval_of_the_two_pass_formula(pairs: list[tuple[int, int]]) -> None:
    # the running sums expand sum((x - r d)^2); the direct two-pass sum is the definition
    n = len(pairs)
    deals = sum(d for _, d in pairs)
    ratio = sum(x for x, _ in pairs) / deals
    se = math.sqrt(sum((x - ratio * d) ** 2 for x, d in pairs) / (n - 1) / n) / (deals / n)
    value, low, high = pair_interval(pairs)
    assert value == pytest.approx(ratio)
    assert (low, high) == pytest.approx((ratio - 1.96 * se, ratio + 1.96 * se), abs=1e-9)


def test_pairs_are_matched_by_index_in_any_order() -> None:
    """Workers hand matches back as they finish: a pair's two matches are folded together by its index, and a
    pair with one match only (a stopped run) is left out of the difference."""
    from piglia.tournament import MatchResult, Standing, TournamentResult

    def match(pair: int, a: int, b: int, deals: int) -> MatchResult:
        return MatchResult(None, deals, [a, b], [{}, {}], pair)

    results = [match(1, 5, 2, 3), match(0, 1, 4, 2), match(2, 9, 0, 1), match(1, 3, 3, 2), match(0, 2, 2, 2)]
    folded = TournamentResult("v", 2, 0, [Standing("A"), Standing("B")], keep_pairs=True)
    for r in results:
        folded.add(r)
    assert folded.pairs == [(1 - 4 + 2 - 2, 4), (5 - 2 + 3 - 3, 5)]


def test_greedy_stops_valuing_at_its_safety_net(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One card each and 38 on the table: 189 legal moves, each of whose replies ends the deal and scores every
    award. With awards that cost a fifth of a second, a greedy move took twenty minutes. Past its `seconds` (a
    clock here that jumps a minute at every look) it values no more moves and replies, and still plays one of
    the moves it valued."""
    import piglia.players.greedy as greedy

    path = tmp_path / "one-card.yaml"
    path.write_text(
        "name: one-card\nextends: scopa\ndeal: {hand: 1, table: 38, refill: false, redeal: null}\n"
        "capture: {priority: [[match, sum]]}\n"
    )
    game = Game(piglia.load_variant(str(path)))
    state = game.new_match(1)
    moves = state.legal_moves()
    assert len(moves) > 100
    played: list[int] = []
    real = greedy.immediate

    def counted(*args: object) -> object:
        played.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(greedy, "immediate", counted)
    unbounded = GreedyPlayer(1, seconds=0).choose(state.view(state.to_move), moves)
    assert unbounded in moves and len(played) > len(moves)
    played.clear()
    clock = iter(range(0, 10**6, 60))
    monkeypatch.setattr("piglia.players.greedy.time", SimpleNamespace(perf_counter=lambda: float(next(clock))))
    assert GreedyPlayer(1, seconds=5).choose(state.view(state.to_move), moves) in moves
    assert len(played) <= 3
    with pytest.raises(piglia.PigliaError, match="greedy option seconds"):
        make_player("greedy:seconds=-1")
