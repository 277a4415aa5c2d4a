"""Speed of the reinforcement-learning environments (piglia.env), in moves played per second, side by side.

    .venv/bin/python benchmarks/rl_env_speed.py [--variants scopa scopone cicera] [--rounds 5] [--seconds 1.5]

For each variant, in one run and interleaved round by round (the machine may be shared), with uniformly random
legal actions:

* engine: ``legal_moves`` / ``push`` on a bare state (no observation): the ceiling;
* aec: the PettingZoo AEC loop (``agent_iter`` / ``last`` / ``step``): an observation and a mask every move;
* parallel: the ParallelEnv, whose ``step`` observes every agent each move;
* vector: ``VectorEnv`` with 32 matches, counting every row's move;
* gym: ``SingleAgentEnv`` against ``random``, counting the learner's steps (the opponents' moves happen inside).

Each figure is the median over the rounds of moves per second of this process's CPU time (``time.process_time``:
the machine may be shared, and other jobs' time must not count). Needs the ``piglia[rl]`` extra.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import piglia
import piglia.env as penv
from piglia.state import Game

# The machine these run on is shared: CPU time of this process, not wall time, so that other jobs do not count.
clock = time.process_time


def engine(name: str, seconds: float) -> float:
    game = Game(piglia.load_variant(name))
    rng = random.Random(1)
    steps, seed = 0, 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_match(seed, log=False)
        seed += 1
        while not state.is_terminal():
            moves = state.legal_moves()
            state.push(moves[rng.randrange(len(moves))])
            steps += 1
    return steps / (clock() - start)


def pick(mask: np.ndarray, rng: random.Random) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))])


def aec(name: str, seconds: float) -> float:
    env = penv.env(name)
    rng = random.Random(1)
    steps, seed = 0, 0
    start = clock()
    while clock() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(pick(obs["action_mask"], rng))
            steps += 1
    return steps / (clock() - start)


def parallel(name: str, seconds: float) -> float:
    env = penv.parallel_env(name)
    rng = random.Random(1)
    steps, seed = 0, 0
    start = clock()
    while clock() - start < seconds:
        obs, _ = env.reset(seed=seed)
        seed += 1
        while env.agents:
            mover = env.possible_agents[env.game_state.current_seat]
            obs, *_ = env.step({mover: pick(obs[mover]["action_mask"], rng)})
            steps += 1
    return steps / (clock() - start)


def vector(name: str, seconds: float) -> float:
    vec = penv.VectorEnv(name, num_envs=32)
    rng = random.Random(1)
    _, masks = vec.reset(seed=1)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        actions = np.array([pick(m, rng) for m in masks])
        _, masks, _, _ = vec.step(actions)
        steps += vec.num_envs
    return steps / (clock() - start)


def gym(name: str, seconds: float) -> float:
    env = penv.SingleAgentEnv(name, "random")
    rng = random.Random(1)
    steps, seed = 0, 0
    start = clock()
    while clock() - start < seconds:
        obs, _ = env.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            obs, _, done, _, _ = env.step(pick(obs["action_mask"], rng))
            steps += 1
    return steps / (clock() - start)


FORMS: dict[str, Callable[[str, float], float]] = {
    "engine": engine,
    "aec": aec,
    "parallel": parallel,
    "vector": vector,
    "gym": gym,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", nargs="+", default=["scopa", "scopone", "cicera"])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.5, help="length of one measurement")
    args = ap.parse_args()
    print("| variant | players | engine | AEC env | AEC / engine | ParallelEnv | VectorEnv (32) | Gym vs random |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.variants:
        figures: dict[str, list[float]] = {form: [] for form in FORMS}
        for _ in range(args.rounds):
            for form, run in FORMS.items():
                figures[form].append(run(name, args.seconds))
        med = {form: statistics.median(v) for form, v in figures.items()}
        ratio = statistics.median(a / e for a, e in zip(figures["aec"], figures["engine"], strict=True))
        players = piglia.load_variant(name).default_players
        print(
            f"| {name} | {players} | {med['engine']:,.0f} | **{med['aec']:,.0f}** | {ratio:.2f} | "
            f"{med['parallel']:,.0f} | {med['vector']:,.0f} | {med['gym']:,.0f} |"
        )


if __name__ == "__main__":
    main()
