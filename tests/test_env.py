"""The reinforcement-learning environments (piglia.env, the piglia[rl] extra): PettingZoo's and Gymnasium's own
conformance checks, the action mapping, what an observation may hold, rewards, seeds. Skipped without the extra."""

from __future__ import annotations

import doctest
import json
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test
from pettingzoo.test.seed_test import check_environment_deterministic

import piglia
import piglia.env as penv
from piglia.env.encoding import Encoder, build_rank, capture_rank
from piglia.errors import PigliaError
from piglia.spec import builtin_names
from piglia.state import Game, State

ROOT = Path(__file__).resolve().parent.parent
# The checkers' advice for plain array observations: a dict with "action_mask" is the standard for masked actions,
# and the score block is unbounded on purpose (a rule file may have penalties, and totals pass the target).
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:.*A Box observation space (minimum|maximum) value is"),
]
GAMES = [(name, n) for name in builtin_names() for n in piglia.load_variant(name).player_counts]
IDS = [f"{name}-{n}p" for name, n in GAMES]


def masked_random(obs: dict[str, np.ndarray], rng: random.Random) -> int:
    legal: list[int] = np.flatnonzero(obs["action_mask"]).tolist()
    return rng.choice(legal)


def play_aec(env: penv.PigliaEnv, seed: int, policy_seed: int = 0) -> tuple[list[bytes], dict[str, float]]:
    """One whole episode with masked random actions: every observation seen (as bytes) and the total rewards."""
    rng = random.Random(policy_seed)
    env.reset(seed=seed)
    seen: list[bytes] = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        seen.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        env.step(None if term or trunc else masked_random(obs, rng))
    return seen, totals


# -- conformance -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), GAMES, ids=IDS)
def test_pettingzoo_api_test_passes(name: str, players: int) -> None:
    api_test(penv.env(name, players), num_cycles=8)


@pytest.mark.parametrize(("name", "players"), GAMES, ids=IDS)
def test_pettingzoo_parallel_api_test_passes(name: str, players: int) -> None:
    parallel_api_test(penv.parallel_env(name, players), num_cycles=30)


def test_pettingzoo_seed_test_passes() -> None:
    check_environment_deterministic(penv.env("scopa"), penv.env("scopa"), 200)


def test_gymnasium_check_env_passes() -> None:
    # the checker samples actions without the mask: an illegal one must end the episode, not raise
    check_env(penv.SingleAgentEnv("scopa", "greedy", illegal_action="lose"), skip_render_check=True)


def test_a_rule_file_gets_an_environment_too(tmp_path: Path) -> None:
    rule = tmp_path / "scopa-21.yaml"
    rule.write_text("name: scopa-21\ntitle: Scopa to 21\nextends: scopa\nmatch:\n  target: 21\n", encoding="utf-8")
    env = penv.env(str(rule))
    api_test(env, num_cycles=5)
    assert env.game.variant.match.target == 21
    # scores are scaled by the file's own target
    assert env.encoder.score_scale == 21


# -- the action mapping ------------------------------------------------------------------------------------------


def random_positions(name: str, players: int, count: int, seed: int) -> list[State]:
    game = Game(piglia.load_variant(name), players)
    rng = random.Random(seed)
    out: list[State] = []
    match = 0
    while len(out) < count:
        state = game.new_match(seed * 1000 + match, log=False)
        match += 1
        while not state.is_terminal() and len(out) < count:
            if rng.random() < 0.3:
                out.append(state.clone())
            moves = state.legal_moves()
            state.push(moves[rng.randrange(len(moves))])
    return out


def check_mapping(enc: Encoder, state: State) -> int:
    """Check the mapping on one position; the number of legal moves that got no action (captures past the slots)."""
    moves = state.legal_moves()
    actions = enc.actions(moves)
    # injective, and onto legal moves only
    assert len(set(actions.values())) == len(actions)
    assert set(actions.values()) <= set(moves)
    for action, move in actions.items():
        if action >= enc.build_base:  # the build block (variants with builds only)
            assert move.is_build and enc.build_slots
            card, choice = divmod(action - enc.build_base, enc.build_slots)
            assert card == move.card.index
            continue
        card, choice = divmod(action, enc.slots)
        assert card == move.card.index and not move.is_build
        assert (choice == 0) == (not move.captured)
    # independent of the order the moves are listed in
    shuffled = list(moves)
    random.Random(len(moves)).shuffle(shuffled)
    assert enc.actions(shuffled) == actions
    # what is left out: for each card, exactly its captures ranked past the last slot
    dropped = set(moves) - set(actions.values())
    for played in {m.card for m in moves}:
        captures = sorted((m for m in moves if m.card == played and m.captured), key=capture_rank)
        made = sorted((m for m in moves if m.card == played and m.is_build), key=build_rank)
        left = set(captures[enc.capture_slots :]) | set(made[enc.build_slots :])
        assert {m for m in dropped if m.card == played} == left
        assert any(m.card == played for m in actions.values()), "every playable card keeps an action"
    mask = enc.mask(actions)
    assert mask.dtype == np.int8 and set(np.flatnonzero(mask)) == set(actions)
    return len(dropped)


@pytest.mark.parametrize(("name", "players"), GAMES, ids=IDS)
def test_action_mapping_is_a_bijection_onto_the_legal_moves(name: str, players: int) -> None:
    game = Game(piglia.load_variant(name), players)
    enc = Encoder(game)
    dropped = total = 0
    for state in random_positions(name, players, 150, seed=3):
        left_out = check_mapping(enc, state)
        if not left_out:  # no card has more captures than slots: every legal move has its action
            assert set(enc.actions(state.legal_moves()).values()) == set(state.legal_moves())
        dropped += left_out
        total += len(state.legal_moves())
    # with the default 7 capture slots almost nothing is ever left out (docs/rl.md gives the rates); a game of
    # several sets per play, with optional captures (Tablanette), leaves out a little more, and so does one with
    # builds (Cassino: about 1% of turns, where random play has left dozens of possible builds)
    assert dropped <= total * {"tablanette": 0.05, "cassino": 0.08}.get(name, 0.02)


@pytest.mark.parametrize("name", ["scopa", "escoba", "cicera"])
def test_captures_past_the_last_slot_are_left_out_and_the_rest_still_maps_one_to_one(name: str) -> None:
    variant = piglia.load_variant(name)
    enc = Encoder(Game(variant), capture_slots=1)
    assert enc.num_actions == len(variant.deck) * 2
    dropped = sum(check_mapping(enc, s) for s in random_positions(name, variant.default_players, 200, seed=5))
    assert dropped > 0  # one slot is too few for these games: the overflow rule was exercised


def test_capture_choices_are_ranked_most_cards_first(scopa: piglia.Variant) -> None:
    # S2.3: with no 7 on the table, the 7 takes a group adding up to 7: A+2+4 or 3+4 here; S2.4: it must capture
    game = Game(scopa)
    state = game.position(hands=[["7d"], ["2c"]], table=["Ac", "2s", "4c", "3b"], to_move=0)
    enc = Encoder(game)
    actions = enc.actions(state.legal_moves())
    seven = scopa.deck.parse_card("7d").index
    assert {a: {c.id for c in m.captured} for a, m in actions.items()} == {
        seven * 8 + 1: {"Ac", "2s", "4c"},  # three cards before two
        seven * 8 + 2: {"3b", "4c"},
    }
    assert seven * 8 not in actions  # laying the 7 is not allowed while it can capture (S2.4)


def test_equal_size_captures_are_ranked_by_deck_order(scopa: piglia.Variant) -> None:
    # S2.3: a 6 with no 6 on the table takes A+5 or 2+4
    game = Game(scopa)
    state = game.position(hands=[["6d"], ["2c"]], table=["Ac", "5s", "2s", "4c"], to_move=0)
    enc = Encoder(game)
    deck = scopa.deck
    pairs = sorted([("Ac", "5s"), ("2s", "4c")], key=lambda p: sorted(deck.parse_card(c).index for c in p))
    six = deck.parse_card("6d").index
    got = {a: {c.id for c in m.captured} for a, m in enc.actions(state.legal_moves()).items()}
    assert got == {six * 8 + 1: set(pairs[0]), six * 8 + 2: set(pairs[1])}
    assert enc.describe(six * 8 + 2) == "6d capture #2"


def test_laying_a_card_is_choice_zero(scopa: piglia.Variant) -> None:
    # the 2 of clubs cannot capture a lone 7 (S2.2, S2.3): it is laid on the table
    game = Game(scopa)
    state = game.position(hands=[["2b", "7d"], ["2c"]], table=["7c"], to_move=0)
    enc = Encoder(game)
    actions = enc.actions(state.legal_moves())
    two, seven = scopa.deck.parse_card("2b").index, scopa.deck.parse_card("7d").index
    assert str(actions[two * 8]) == "2b" and str(actions[seven * 8 + 1]) == "7d x 7c"
    assert len(actions) == 2


# -- observations ------------------------------------------------------------------------------------------------


def test_observation_layout_at_the_opening_deal(scopa: piglia.Variant) -> None:
    env = penv.env("scopa")
    env.reset(seed=4)
    enc, lay = env.encoder, env.encoder.layout
    seat = env.game_state.current_seat
    obs = env.observe(env.agent_selection)["observation"]
    planes = obs[lay.slice("cards")].reshape(5, 40)
    # S1.1: three cards to each player, four on the table, the rest in the stock
    assert planes.sum(axis=1).tolist() == [3, 4, 0, 0, 33]
    assert (planes.sum(axis=0) == 1).all()  # every card in exactly one place
    assert obs[lay.slice("extras")].sum() == 0  # reserved
    assert obs[lay.slice("stock")].tolist() == [30 / 40]
    assert obs[lay.slice("hand_sizes")].tolist() == [1.0, 1.0]
    assert obs[lay.slice("to_move")].tolist() == [1.0, 0.0]
    # S1.2: the non-dealer leads, so the dealer is the other seat
    assert obs[lay.slice("dealer")].tolist() == [0.0, 1.0]
    assert enc.layout.size == 8 * 40 + 1 + 3 * 2 + 2 * 2
    other = env.possible_agents[1 - seat]
    other_obs = env.observe(other)
    assert other_obs["action_mask"].sum() == 0
    assert other_obs["observation"][lay.slice("to_move")].tolist() == [0.0, 1.0]


def test_observation_marks_piles_and_scores_from_the_seat_s_side(scopa: piglia.Variant) -> None:
    game = Game(scopa)
    state = game.position(
        hands=[["7d"], ["2c", "3c"]], table=["Rb"], piles=[["Ad", "Ac"], ["5s"]], totals=[4, 9], to_move=1
    )
    enc = Encoder(game)
    deck = scopa.deck
    idx = deck.parse_card
    lay = enc.layout
    obs = enc.observation(state.view(1))
    planes = obs[lay.slice("cards")].reshape(5, 40)
    assert set(np.flatnonzero(planes[0])) == {idx("2c").index, idx("3c").index}
    assert set(np.flatnonzero(planes[1])) == {idx("Rb").index}
    assert set(np.flatnonzero(planes[2])) == {idx("5s").index}  # seat 1's own side
    assert set(np.flatnonzero(planes[3])) == {idx("Ad").index, idx("Ac").index}
    assert idx("7d").index in set(np.flatnonzero(planes[4]))  # seat 0's hand is unseen to seat 1
    assert obs[lay.slice("totals")].tolist() == pytest.approx([9 / 11, 4 / 11])  # own team first, over the target
    assert obs[lay.slice("hand_sizes")].tolist() == pytest.approx([2 / 3, 1 / 3])  # from seat 1 on


def test_declared_hands_are_marked_in_their_plane_and_not_unseen() -> None:
    # RULES.md CI1.2: a declared hand is shown face up for the rest of the hand, so its cards are known
    rng = random.Random(3)
    for seed in range(60):
        env = penv.env("cirulla")
        env.reset(seed=seed)
        env.step(masked_random(env.observe(env.agent_selection), rng))  # the second seat declares on its turn
        state = env.game_state
        seat = state.current_seat
        view = state.view(1 - seat)  # the seat that played: the one to move now may have declared
        others = {c.index for s, cards in enumerate(view.shown) if s != view.seat for c in cards}
        if not others:
            continue
        seat = view.seat
        lay = env.encoder.layout
        obs = env.observe(env.possible_agents[seat])["observation"]
        declared = obs[lay.slice("extras")].reshape(3, 40)[2]
        assert set(np.flatnonzero(declared)) == {c.index for cards in view.shown for c in cards}
        unseen = obs[lay.slice("cards")].reshape(5, 40)[4]
        assert not others & set(np.flatnonzero(unseen))
        return
    pytest.fail("no seat saw another's declared hand in 60 seeds")


@pytest.mark.parametrize(("name", "players"), [("scopa", 2), ("scopone", 4), ("cicera", 4)])
def test_observation_does_not_depend_on_hidden_cards(name: str, players: int) -> None:
    # the same view with the other hands and the stock dealt differently gives the same observation
    env = penv.env(name, players)
    env.reset(seed=9)
    rng = random.Random(1)
    for _ in range(12):
        env.step(masked_random(env.observe(env.agent_selection), rng))
    state = env.game_state
    for seat, agent in enumerate(env.possible_agents):
        view = state.view(seat)
        hidden = [c.index for c in view.unseen]
        rng.shuffle(hidden)
        hands, at = [], 0
        for s, size in enumerate(view.hand_sizes):
            if s == seat:
                hands.append([c.index for c in view.hand])
            else:
                hands.append(hidden[at : at + size])
                at += size
        other = State.from_view(state.game, view, hands, hidden[at : at + view.stock_size])
        assert other.hands != state.hands or other.stock != state.stock or not hidden
        mine = env.observe(agent)["observation"]
        assert np.array_equal(mine, env.encoder.observation(other.view(seat)))


# -- rewards, seeds, truncation ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), [("scopa", 2), ("scopone", 4)])
def test_rewards_are_the_match_result(name: str, players: int) -> None:
    env = penv.env(name, players)
    _, totals = play_aec(env, seed=2)
    result = env.game_state.returns()
    assert [totals[a] for a in env.possible_agents] == result
    assert sorted(set(result)) in ([-1.0, 1.0], [0.0])


def test_shaped_rewards_add_the_deal_points_difference() -> None:
    env = penv.env("scopa", deal_reward=0.1)
    _, totals = play_aec(env, seed=2)
    state = env.game_state
    for seat, agent in enumerate(env.possible_agents):
        team = state.game.players.team_of[seat]
        diff = state.totals[team] - state.totals[1 - team]
        assert totals[agent] == pytest.approx(state.returns()[seat] + 0.1 * diff)


def test_same_seed_same_episode_and_another_seed_another() -> None:
    one, r1 = play_aec(penv.env("scopa"), seed=7, policy_seed=3)
    two, r2 = play_aec(penv.env("scopa"), seed=7, policy_seed=3)
    three, _ = play_aec(penv.env("scopa"), seed=8, policy_seed=3)
    assert one == two and r1 == r2
    assert one[0] != three[0]


def test_reset_without_seed_continues_the_seeded_sequence() -> None:
    a, b = penv.env("scopa"), penv.env("scopa")
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert a.match_seed == b.match_seed != 5


def test_max_turns_truncates() -> None:
    env = penv.env("scopa", max_turns=5)
    seen, _ = play_aec(env, seed=1)
    assert not env.agents
    assert len(seen) == 5 + 2  # five moves, then each agent's final (dead) step
    env.reset(seed=1)
    for _ in range(5):
        env.step(masked_random(env.observe(env.agent_selection), random.Random(0)))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.observe(env.agent_selection)["action_mask"].sum() == 0  # nothing to play once truncated


def test_an_illegal_action_is_refused_with_the_legal_ones_named() -> None:
    env = penv.env("scopa")
    env.reset(seed=1)
    legal = sorted(env.legal_actions())
    bad = next(a for a in range(env.encoder.num_actions) if a not in legal)
    with pytest.raises(ValueError, match=f"action {bad} .* is not legal for player_.*legal actions: {legal[0]}"):
        env.step(bad)
    # out of the action space: said once, with the space's range
    top = env.encoder.num_actions
    with pytest.raises(ValueError, match=rf"^action {top} \(out of range 0\.\.{top - 1}\) is not legal"):
        env.step(top)
    # a fraction is no index: int() would have played action legal[0] for legal[0] + 0.5, silently
    for fraction in (legal[0] + 0.5, np.float32(legal[0] + 0.5)):
        with pytest.raises(ValueError, match="is not a whole number"):
            env.step(fraction)  # type: ignore[arg-type]
    env.step(float(legal[0]))  # type: ignore[arg-type]  # a whole float is its index


def test_render_shows_only_the_seat_to_move_s_hand() -> None:
    env = penv.env("scopa", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str)
    state = env.game_state
    other = state.view(1 - state.current_seat)
    mine = state.view(state.current_seat)
    assert all(c.id in text for c in mine.hand)
    hand_line = next(line for line in text.splitlines() if "hand:" in line)
    assert not any(c.id in hand_line.split() for c in other.hand)


# -- the Gymnasium wrapper and the batch -------------------------------------------------------------------------


def test_gym_wrapper_plays_whole_matches_against_a_piglia_player() -> None:
    env = penv.SingleAgentEnv("scopa", "greedy", deal_reward=0.0)
    rng = random.Random(0)
    seats = set()
    for seed in range(6):
        obs, info = env.reset(seed=seed)
        seats.add(info["seat"])
        total, done = 0.0, False
        while not done:
            assert env.game_state.current_seat == env.seat
            obs, reward, done, truncated, _ = env.step(masked_random(obs, rng))
            total += reward
            assert not truncated
        assert total == env.game_state.returns()[env.seat]
        assert obs["action_mask"].sum() == 0
    assert seats == {0, 1}  # the learner's seat is drawn at each reset


def test_gym_wrapper_is_seeded_and_refuses_illegal_actions() -> None:
    a, b = penv.SingleAgentEnv("scopone", "random"), penv.SingleAgentEnv("scopone", "random")
    oa, ia = a.reset(seed=11)
    ob, ib = b.reset(seed=11)
    assert ia == ib and np.array_equal(oa["observation"], ob["observation"])
    illegal = int(np.flatnonzero(oa["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not legal here"):
        a.step(illegal)
    with pytest.raises(Exception, match="unknown player"):
        penv.SingleAgentEnv("scopa", "nobody")


def test_vector_env_steps_many_matches_and_restarts_them() -> None:
    vec = penv.VectorEnv("scopa", num_envs=6)
    obs, masks = vec.reset(seed=1)
    obs2, _ = penv.VectorEnv("scopa", num_envs=6).reset(seed=1)
    assert np.array_equal(obs, obs2)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(600):
        assert (masks.sum(axis=1) > 0).all()  # every row always has a seat to move
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, masks, rewards, done = vec.step(actions)
        assert rewards.shape == (6, 2) and (rewards[~done] == 0).all()
        for row in np.flatnonzero(done):
            assert sorted(rewards[row].tolist()) in ([-1.0, 1.0], [0.0, 0.0])
        finished += int(done.sum())
    assert finished > 0
    assert obs.shape == (6, vec.encoder.layout.size) and masks.shape == (6, vec.encoder.num_actions)


# -- packaging and docs ------------------------------------------------------------------------------------------


def test_the_base_install_does_not_need_the_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = " ".join(project["dependencies"])
    assert not any(name in base for name in ("numpy", "gymnasium", "pettingzoo"))
    assert {"numpy", "gymnasium", "pettingzoo"} <= {d.split(">")[0] for d in project["optional-dependencies"]["rl"]}
    code = (
        "import sys, piglia; piglia.simulate(piglia.load_variant('scopa'), deals=2, seed=1); "
        "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "[]"


def test_rl_doc_examples_run() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "rl.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 5


def test_the_training_example_runs(tmp_path: Path) -> None:
    # benchmarks/rl_train.py, the runnable example of docs/rl.md, on a tiny budget: it trains, evaluates, reports
    out = tmp_path / "rl.json"
    args = ["--matches", "16", "--batch", "8", "--eval", "4", "--json", str(out)]
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "rl_train.py"), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "| random | 4 |" in run.stdout and "| greedy | 4 |" in run.stdout
    figures = json.loads(out.read_text(encoding="utf-8"))
    for result in figures["evaluation"]:
        low, high = result["ci95"]
        assert result["matches"] == 4 and 0 <= low <= result["win_rate"] <= high <= 1


# A match the rules end before any move: the opening takes the whole table for the dealer's team (an opening bonus
# worth nothing), and a pile holding a card wins at once (match.instant_win). Every environment must say the episode
# is over, with the match's result, rather than ask an agent to move with no legal action.
INSTANT_OPENING = """name: instant-opening
extends: scopa
deal:
  redeal: null
  opening:
    grab: {when: count(table) >= 1, points: 0, take: table}
match:
  instant_win: {when: count(pile) >= 1, reason: the opening took the table}
"""


@pytest.fixture(scope="module")
def instant(tmp_path_factory: pytest.TempPathFactory) -> piglia.Variant:
    path = tmp_path_factory.mktemp("instant") / "instant-opening.yaml"
    path.write_text(INSTANT_OPENING, encoding="utf-8")
    return piglia.load_variant(str(path))


def test_a_match_over_before_any_move_ends_every_environment_at_once(instant: piglia.Variant) -> None:
    aec = penv.env(instant)
    aec.reset(seed=0)
    result = aec.game_state.returns()
    assert aec.game_state.is_terminal() and sorted(result) == [-1.0, 1.0]
    seen: dict[str, float] = {}
    for agent in aec.agent_iter(max_iter=10):  # the loop of every PettingZoo user ends: each agent once, terminated
        _obs, reward, terminated, _truncated, _info = aec.last()
        assert terminated
        seen[agent] = reward
        aec.step(None)
    assert seen == {a: result[i] for i, a in enumerate(aec.possible_agents)}

    par = penv.parallel_env(instant)
    par.reset(seed=0)
    _obs, rewards, terminations, _truncations, _infos = par.step({})
    assert all(terminations.values()) and sorted(rewards.values()) == [-1.0, 1.0] and par.agents == []

    vec = penv.VectorEnv(instant, num_envs=3)
    _obs, masks = vec.reset(seed=1)
    assert not masks.any()  # no legal action in a match that is over
    _obs, masks, rewards_v, done = vec.step(np.zeros(3, dtype=np.int64))
    assert done.all() and sorted(rewards_v[0]) == [-1.0, 1.0]

    single = penv.SingleAgentEnv(instant, seat=0)
    obs, _info = single.reset(seed=2)
    assert not obs["action_mask"].any()
    _obs, reward, terminated, truncated, _info = single.step(0)
    assert terminated and not truncated and reward == single.game_state.returns()[0]
    with pytest.raises(RuntimeError, match="call reset"):
        single.step(0)


# -- hidden information, memory, atomic steps, argument checks ---------------------------------------------------


def test_gym_reset_info_holds_nothing_that_deals_the_match_again() -> None:
    # the match seed in info let a learner call game.new_match(seed) and read the other hands and the stock order
    env = penv.SingleAgentEnv("scopa", "random", seat=0)
    _obs, info = env.reset(seed=3)
    assert info == {"seat": 0}
    # tools still have it, as an attribute: it does deal this very match again (seat 1 has played a card since)
    clone = env.game.new_match(env.match_seed, log=False)
    assert clone.hands[0] == env.game_state.hands[0] and list(clone.stock) == list(env.game_state.stock)
    _obs, _reward, _terminated, _truncated, info = env.step(int(np.flatnonzero(_obs["action_mask"])[0]))
    assert info == {"seat": 0}


def test_environments_keep_no_undo_entry_per_move() -> None:
    # an undo snapshot per move made memory grow without bound over a long match: nothing is ever taken back
    aec = penv.env("scopa")
    play_aec(aec, seed=1)
    assert aec.game_state.is_terminal()
    with pytest.raises(PigliaError, match="nothing to take back"):
        aec.game_state.pop()

    single = penv.SingleAgentEnv("scopa", "random")
    obs, _info = single.reset(seed=2)
    rng = random.Random(0)
    done = False
    while not done:
        obs, _reward, done, _truncated, _info = single.step(masked_random(obs, rng))
    assert single.game_state.is_terminal()
    with pytest.raises(PigliaError, match="nothing to take back"):  # the learner's moves and the opponents'
        single.game_state.pop()

    vec = penv.VectorEnv("scopa", num_envs=3)
    _obs, masks = vec.reset(seed=1)
    for _ in range(20):  # fewer moves than a scopa deal: no row restarts, every row holds 20 moves
        _obs, masks, _rewards, done_rows = vec.step(np.array([np.flatnonzero(m)[0] for m in masks]))
        assert not done_rows.any()
    for state in vec.states:
        with pytest.raises(PigliaError, match="nothing to take back"):
            state.pop()


Snapshot = tuple[int, list[list[int]], list[int], list[int], list[list[int]]]


def row_snapshot(vec: penv.VectorEnv) -> list[Snapshot]:
    return [
        (s.current_seat, [list(h) for h in s.hands], list(s.table), list(s.stock), [list(p) for p in s.piles])
        for s in vec.states
    ]


def test_vector_env_step_is_all_or_nothing() -> None:
    vec = penv.VectorEnv("scopa", num_envs=3)
    _obs, masks = vec.reset(seed=1)
    good = np.array([np.flatnonzero(m)[0] for m in masks])
    before = row_snapshot(vec)
    bad = good.copy()
    bad[2] = np.flatnonzero(masks[2] == 0)[0]
    with pytest.raises(ValueError, match=f"row 2: action {bad[2]} .* is not legal"):
        vec.step(bad)
    assert row_snapshot(vec) == before  # rows 0 and 1 were not played (their rewards would have been lost)
    for wrong in (good[:2], np.append(good, 0), good.reshape(3, 1), good[0]):
        with pytest.raises(ValueError, match=r"one action per row, shape \(3,\)"):
            vec.step(wrong)
        assert row_snapshot(vec) == before
    # the same actions again, all legal now: every row moves once, from the position it had
    _obs, _masks, rewards, done = vec.step(good)
    assert rewards.shape == (3, 2) and not done.any()
    after = row_snapshot(vec)
    assert all(sum(map(len, a[1])) == sum(map(len, b[1])) - 1 for a, b in zip(after, before, strict=True))


MAKERS: dict[str, Any] = {
    "env": lambda **kw: penv.env("scopa", **kw),
    "cassino": lambda **kw: penv.env("cassino", **kw),
    "vector": lambda **kw: penv.VectorEnv("scopa", **{"num_envs": 2, **kw}),
    "single": lambda **kw: penv.SingleAgentEnv("scopa", **kw),
}


@pytest.mark.parametrize(
    ("maker", "options", "error", "message"),
    [
        ("env", {"players": "2"}, TypeError, "players must be an integer, not '2'"),
        ("env", {"players": 2.0}, TypeError, "players must be an integer, not 2.0"),
        ("env", {"players": True}, TypeError, "players must be an integer, not True"),
        ("env", {"capture_slots": 2.5}, TypeError, "capture_slots must be an integer, not 2.5"),
        ("env", {"capture_slots": 0}, ValueError, "capture_slots must be between 1 and 1024, not 0"),
        ("env", {"capture_slots": 10**10}, ValueError, "capture_slots must be between 1 and 1024"),  # MemoryError
        ("cassino", {"build_slots": 10**10}, ValueError, "build_slots must be between 1 and 1024"),
        ("vector", {"capture_slots": 10**10}, ValueError, "capture_slots must be between 1 and 1024"),
        ("env", {"max_turns": 0}, ValueError, "max_turns must be at least 1, not 0"),  # it played a move first
        ("env", {"max_turns": -3}, ValueError, "max_turns must be at least 1, not -3"),
        ("env", {"max_turns": 2.5}, TypeError, "max_turns must be an integer"),
        ("env", {"deal_reward": float("nan")}, ValueError, "deal_reward must be a finite number, not nan"),
        ("env", {"deal_reward": float("inf")}, ValueError, "deal_reward must be a finite number, not inf"),
        ("env", {"deal_reward": "0.1"}, TypeError, "deal_reward must be a number, not '0.1'"),
        ("vector", {"deal_reward": float("nan")}, ValueError, "deal_reward must be a finite number"),
        ("single", {"deal_reward": float("nan")}, ValueError, "deal_reward must be a finite number"),
        ("vector", {"num_envs": "2"}, TypeError, "num_envs must be an integer, not '2'"),
        ("vector", {"num_envs": 0}, ValueError, "num_envs must be at least 1, not 0"),
        ("single", {"seat": 0.5}, TypeError, "seat must be an integer, not 0.5"),
        ("single", {"seat": 2}, ValueError, "seat must be between 0 and 1, not 2"),
        ("single", {"opponent": None}, TypeError, "opponent must be a player name"),
        ("env", {"illegal_action": "skip"}, ValueError, "illegal_action must be 'raise' or 'lose'"),
    ],
)
def test_bad_arguments_are_refused_with_their_name(
    maker: str, options: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=f"^{re.escape(message)}"):
        MAKERS[maker](**options)


def test_max_turns_one_truncates_after_the_first_move() -> None:
    env = penv.env("scopa", max_turns=1)
    env.reset(seed=1)
    env.step(masked_random(env.observe(env.agent_selection), random.Random(0)))
    assert env.turns == 1 and all(env.truncations.values())


def test_seeds_are_integers_numpy_ones_included() -> None:
    def deal(env: Any, seed: object) -> object:
        env.reset(seed=seed)
        return env.game_state.hands

    for make in (lambda: penv.env("scopa"), lambda: penv.parallel_env("scopa"), lambda: penv.SingleAgentEnv("scopa")):
        assert deal(make(), np.int64(5)) == deal(make(), 5)
        for bad in (1.0, True, "1"):  # random.Random(1.0) and Random(True) dealt other matches than seed 1
            with pytest.raises(TypeError, match=f"^seed must be an integer, not {re.escape(repr(bad))}"):
                make().reset(seed=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"^seed must be at least 0, not -1"):
            make().reset(seed=-1)
    obs_np, _ = penv.VectorEnv("scopa", 2).reset(seed=np.int64(5))  # type: ignore[arg-type]
    obs_int, _ = penv.VectorEnv("scopa", 2).reset(seed=5)
    assert np.array_equal(obs_np, obs_int)
    with pytest.raises(TypeError, match=r"^seed must be an integer"):
        penv.VectorEnv("scopa", 2).reset(seed=5.0)  # type: ignore[arg-type]


def test_step_before_reset_says_to_reset() -> None:
    with pytest.raises(RuntimeError, match="call reset"):
        penv.env("scopa").step(0)
    with pytest.raises(RuntimeError, match="call reset"):
        penv.parallel_env("scopa").step({"player_0": 0})
    with pytest.raises(RuntimeError, match="call reset"):
        penv.SingleAgentEnv("scopa").step(0)
    with pytest.raises(RuntimeError, match="call reset"):
        penv.VectorEnv("scopa", 2).step(np.zeros(2, dtype=np.int64))


def test_actions_must_be_integers() -> None:
    env = penv.env("scopa")
    env.reset(seed=1)
    legal = sorted(env.legal_actions())
    for bad in (f" {legal[0]} ", str(legal[0]), b"1", [legal[0]], True):
        with pytest.raises(TypeError, match=r"^action must be an integer index"):
            env.step(bad)  # type: ignore[arg-type]
    assert env.turns == 0  # " 120 " was played as action 120
    vec = penv.VectorEnv("scopa", 2)
    _obs, masks = vec.reset(seed=1)
    with pytest.raises(TypeError, match=r"^action must be an integer index"):
        vec.step(np.array([str(np.flatnonzero(m)[0]) for m in masks]))
    env.step(np.int64(legal[0]))  # type: ignore[arg-type]  # numpy integers are indexes
    assert env.turns == 1
    env.step(np.array(sorted(env.legal_actions())[0]))  # type: ignore[arg-type]  # and 0-d integer arrays
    assert env.turns == 2


def test_an_agent_cannot_change_its_observation_in_place() -> None:
    # the cached array was handed out: an in-place normalisation changed every later observe() of that seat
    env = penv.env("scopa")
    env.reset(seed=1)
    obs, *_ = env.last()
    before = obs["observation"].copy()
    with pytest.raises(ValueError, match="read-only"):
        obs["observation"] *= 0
    assert np.array_equal(env.observe(env.agent_selection)["observation"], before)
    assert np.array(obs["observation"]).flags.writeable  # a copy is the agent's own to edit
    par = penv.parallel_env("scopa")
    observations, _ = par.reset(seed=1)
    with pytest.raises(ValueError, match="read-only"):
        observations["player_1"]["observation"][0] = 5.0


def test_parallel_env_illegal_action_lose_forfeits_and_passes_the_seed_test() -> None:
    parallel_seed_test(lambda: penv.parallel_env("scopa", illegal_action="lose"))
    par = penv.parallel_env("scopone", illegal_action="lose")
    observations, _ = par.reset(seed=2)
    mover = next(a for a, o in observations.items() if o["action_mask"].any())
    bad = int(np.flatnonzero(observations[mover]["action_mask"] == 0)[0])
    observations, rewards, terminations, truncations, infos = par.step(dict.fromkeys(par.agents, bad))
    team_of = par.game_state.game.players.team_of
    loser = team_of[int(mover.split("_")[1])]
    assert rewards == {a: -1.0 if team_of[int(a.split("_")[1])] == loser else 1.0 for a in rewards}
    assert all(terminations.values()) and not any(truncations.values()) and par.agents == []
    assert infos[mover] == {"illegal_action": bad}
    assert not any(o["action_mask"].any() for o in observations.values())
    # by default an illegal action still raises, naming the legal ones
    strict = penv.parallel_env("scopa")
    observations, _ = strict.reset(seed=2)
    mover = next(a for a, o in observations.items() if o["action_mask"].any())
    bad = int(np.flatnonzero(observations[mover]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not legal for"):
        strict.step({mover: bad})


def test_aec_illegal_action_lose_ends_the_episode_for_every_agent() -> None:
    env = penv.env("scopa", illegal_action="lose")
    env.reset(seed=4)
    mover = env.agent_selection
    bad = int(np.flatnonzero(env.observe(mover)["action_mask"] == 0)[0])
    env.step(bad)
    seen = {}
    for agent in env.agent_iter(max_iter=10):
        _obs, reward, terminated, _truncated, info = env.last()
        assert terminated
        seen[agent] = (reward, info)
        env.step(None)
    other = next(a for a in env.possible_agents if a != mover)
    assert seen == {mover: (-1.0, {"illegal_action": bad}), other: (1.0, {})}
