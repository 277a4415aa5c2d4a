"""Train a small policy on a Piglia variant in plain NumPy, then measure it against `random` and `greedy`.

    .venv/bin/python benchmarks/rl_train.py [--variant scopa] [--matches 6000] [--seed 1] [--eval 400]
        [--hidden 64] [--deal-reward 0.1] [--json benchmarks/results/rl-scopa.json]

REINFORCE with a learned baseline: the policy is a one-hidden-layer MLP over the observation of
``piglia.env.SingleAgentEnv`` (the learner's seat's view only), a softmax over the legal actions (the action
mask), trained against the `random` player with the shaped per-deal reward (``deal_reward``) added to the match
result. The baseline is a linear value of the observation. Updates are Adam steps on batches of matches.

Evaluation is duplicate: every match seed is played twice, the learner in each seat, against each opponent;
the policy plays its most likely legal action. The win rate counts a draw as half and its 95% Wilson interval is
`piglia.stats.wilson`, as `piglia tournament` reports it. Needs the `piglia[rl]` extra.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from piglia.env import SingleAgentEnv
from piglia.stats import wilson


class Policy:
    """Masked-softmax MLP policy (obs -> tanh hidden -> logits) and a linear value baseline, with Adam."""

    def __init__(self, obs_size: int, actions: int, hidden: int, rng: np.random.Generator) -> None:
        self.params = {
            "w1": rng.normal(0.0, 1.0 / np.sqrt(obs_size), (obs_size, hidden)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0.0, 0.01, (hidden, actions)),
            "b2": np.zeros(actions),
            "v": np.zeros(obs_size),
            "vb": np.zeros(1),
        }
        self.m = {k: np.zeros_like(p) for k, p in self.params.items()}
        self.s = {k: np.zeros_like(p) for k, p in self.params.items()}
        self.t = 0

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hidden activations and action probabilities (zero outside the mask) for a batch of observations."""
        p = self.params
        h = np.tanh(obs @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        e = np.exp(logits)
        return h, e / e.sum(axis=-1, keepdims=True)

    def update(self, obs: np.ndarray, mask: np.ndarray, actions: np.ndarray, returns: np.ndarray, lr: float) -> None:
        """One Adam step of REINFORCE (advantage = return - baseline) and of the baseline's squared error."""
        p = self.params
        h, probs = self.probs(obs, mask)
        value = obs @ p["v"] + p["vb"][0]
        adv = returns - value
        adv_n = (adv - adv.mean()) / (adv.std() + 1e-8)
        n = len(actions)
        # gradient of -mean(adv * log pi(a|s)) with respect to the logits: (pi - onehot(a)) * adv
        dlogits = probs.copy()
        dlogits[np.arange(n), actions] -= 1.0
        dlogits *= adv_n[:, None] / n
        dh = (dlogits @ p["w2"].T) * (1.0 - h * h)
        grads = {
            "w2": h.T @ dlogits,
            "b2": dlogits.sum(axis=0),
            "w1": obs.T @ dh,
            "b1": dh.sum(axis=0),
            "v": -(obs.T @ adv) / n,
            "vb": np.array([-adv.mean()]),
        }
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.s[k] = 0.999 * self.s[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9**self.t)
            s_hat = self.s[k] / (1 - 0.999**self.t)
            p[k] -= lr * m_hat / (np.sqrt(s_hat) + 1e-8)


def train(args: argparse.Namespace, policy: Policy, rng: np.random.Generator) -> dict[str, Any]:
    """Play ``args.matches`` training matches against random, in batches of ``args.batch``, updating after each."""
    envs = [SingleAgentEnv(args.variant, "random", deal_reward=args.deal_reward) for _ in range(args.batch)]
    wins = counted = 0
    history = []
    started, cpu = time.perf_counter(), time.process_time()
    steps = 0
    for first in range(0, args.matches, args.batch):
        batch_obs: list[np.ndarray] = []
        batch_mask: list[np.ndarray] = []
        batch_act: list[int] = []
        batch_ret: list[float] = []
        for k, e in enumerate(envs):
            obs, _ = e.reset(seed=args.seed * 1_000_003 + first + k)
            rewards: list[float] = []
            done = False
            while not done:
                _, pr = policy.probs(obs["observation"][None], obs["action_mask"][None])
                action = int(rng.choice(len(pr[0]), p=pr[0]))
                batch_obs.append(obs["observation"])
                batch_mask.append(obs["action_mask"])
                batch_act.append(action)
                obs, reward, done, _, _ = e.step(action)
                rewards.append(reward)
            steps += len(rewards)
            wins += e.game_state.returns()[e.seat] > 0
            batch_ret.extend(np.cumsum(rewards[::-1])[::-1])  # reward to go (undiscounted)
        policy.update(
            np.array(batch_obs), np.array(batch_mask), np.array(batch_act), np.array(batch_ret, dtype=float), args.lr
        )
        played = first + len(envs)
        if played % (args.batch * 25) == 0 or played >= args.matches:
            rate = wins / (played - counted)
            history.append({"matches": played, "win_rate_vs_random_while_training": rate})
            print(f"  {played:6d} matches, {time.perf_counter() - started:6.0f} s, training win rate {rate:.3f}")
            wins, counted = 0, played
    return {
        "seconds": time.perf_counter() - started,
        "cpu_seconds": time.process_time() - cpu,
        "learner_steps": steps,
        "history": history,
    }


def evaluate(args: argparse.Namespace, policy: Policy, opponent: str) -> dict[str, Any]:
    """Duplicate matches against ``opponent``: each seed with the learner in every seat; greedy (argmax) play."""
    probe = SingleAgentEnv(args.variant, opponent)
    seats = probe.game.num_players
    envs = [SingleAgentEnv(args.variant, opponent, seat=s) for s in range(seats)]
    wins = draws = matches = 0
    for k in range(args.eval // seats):
        for e in envs:
            obs, _ = e.reset(seed=10**9 + args.seed * 100_003 + k)
            done = False
            while not done:
                _, pr = policy.probs(obs["observation"][None], obs["action_mask"][None])
                obs, _, done, _, _ = e.step(int(np.argmax(pr[0])))
            result = e.game_state.returns()[e.seat]
            wins += result > 0
            draws += result == 0
            matches += 1
    score = wins + draws / 2
    low, high = wilson(score, matches)
    return {
        "opponent": opponent,
        "matches": matches,
        "wins": wins,
        "draws": draws,
        "win_rate": score / matches,
        "ci95": [low, high],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="scopa")
    ap.add_argument("--matches", type=int, default=6000, help="training matches against random")
    ap.add_argument("--batch", type=int, default=16, help="matches per update")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--deal-reward", type=float, default=0.1, help="weight of the shaped per-deal points reward")
    ap.add_argument("--eval", type=int, default=400, help="evaluation matches per opponent")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="write the figures to this JSON file")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    probe = SingleAgentEnv(args.variant)
    policy = Policy(probe.encoder.layout.size, probe.encoder.num_actions, args.hidden, rng)
    print(f"training on {args.variant}: {args.matches} matches against random")
    training = train(args, policy, rng)
    results = []
    for opponent in ("random", "greedy"):
        started = time.perf_counter()
        r = evaluate(args, policy, opponent)
        r["seconds"] = time.perf_counter() - started
        results.append(r)
    print()
    print("| opponent | matches | learner win rate | 95% Wilson interval |")
    print("|---|---|---|---|")
    for r in results:
        low, high = r["ci95"]
        print(f"| {r['opponent']} | {r['matches']} | {r['win_rate']:.1%} | {low:.1%} - {high:.1%} |")
    print(
        f"\ntraining: {training['seconds']:.0f} s ({training['cpu_seconds']:.0f} s of CPU), "
        f"{training['learner_steps']} learner steps"
    )
    if args.json:
        out = {"args": vars(args), "training": training, "evaluation": results}
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
