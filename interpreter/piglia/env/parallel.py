"""Parallel forms: a PettingZoo ParallelEnv of one match, and a NumPy batch of matches for fast rollouts.

:class:`PigliaParallelEnv` is the turn-based game in the ParallelEnv API: every live agent gets an observation and
sends an action each step, and only the action of the seat to move is played (the others' masks are all zero and
their actions are ignored), the convention of PettingZoo's turn-based conversions. With ``illegal_action="lose"``
an illegal action of the seat to move ends the episode, a match its team forfeits (as in the AEC environment).

:class:`VectorEnv` plays ``num_envs`` matches side by side for self-play rollouts: one call returns the stacked
observations and masks of the seat to move in every match, and one call plays one action in each. A match that
ends is started again at once with the next seed, so every row always has a seat to move. A step is all or
nothing: every row's action is checked before any is played, so a bad one leaves every match as it was.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from piglia.env.aec import Observation, PigliaEnv, deal_rewards, make_game
from piglia.env.checks import finite, integer, seed_of
from piglia.env.encoding import DEFAULT_BUILD_SLOTS, DEFAULT_CAPTURE_SLOTS, Encoder, action_index
from piglia.moves import Move
from piglia.state import State
from piglia.variant import Variant

__all__ = ["PigliaParallelEnv", "VectorEnv", "parallel_env"]


class PigliaParallelEnv(ParallelEnv[str, Observation, int]):  # type: ignore[misc]  # no type hints upstream
    """One match per episode in the ParallelEnv API; the options are those of :class:`~piglia.env.aec.PigliaEnv`."""

    metadata: ClassVar[dict[str, Any]] = {"name": "piglia_parallel_v0", "render_modes": ["human", "ansi"]}

    def __init__(self, variant: str | Variant, players: int | None = None, **options: Any) -> None:
        self.aec = PigliaEnv(variant, players, **options)
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space as the AEC environment's."""
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The same Discrete space as the AEC environment's."""
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Start a match; every agent's observation (only the seat to move has a non-zero mask)."""
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """Play the action of the agent to move (the other agents' actions are ignored)."""
        aec = self.aec
        if aec._state is None:  # before reset() there is no agent to move
            raise RuntimeError("call reset() before step()")
        mover = aec.agent_selection
        # (a match the rules ended before any move is terminated from reset: this step only reports its end)
        if not aec.terminations[mover]:
            if mover not in actions:
                raise ValueError(f"{mover} is to move but sent no action")
            aec.step(actions[mover])
        agents = self.agents
        observations = {a: aec.observe(a) for a in agents}
        rewards = {a: float(aec.rewards[a]) for a in agents}
        terminations = {a: bool(aec.terminations[a]) for a in agents}
        truncations = {a: bool(aec.truncations[a]) for a in agents}
        # an illegal action under illegal_action="lose" is reported in its agent's info, as the AEC env does
        infos: dict[str, dict[str, Any]] = {a: dict(aec.infos.get(a, {})) for a in agents}
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    @property
    def game_state(self) -> State:
        """The engine's position (for tools, not agents)."""
        return self.aec.game_state

    def render(self) -> str | None:
        """As the AEC environment renders."""
        return self.aec.render()

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(variant: str | Variant, players: int | None = None, **options: Any) -> PigliaParallelEnv:
    """The ParallelEnv form of :func:`piglia.env.env` (same options)."""
    return PigliaParallelEnv(variant, players, **options)


class VectorEnv:
    """``num_envs`` matches of one game stepped together, for fast self-play rollouts with NumPy.

    Each row is one match; ``seats[i]`` is the seat to move in row ``i``, and ``observations[i]`` and
    ``masks[i]`` are that seat's (its view only). :meth:`step` takes one action per row and returns the rewards
    of every seat of every row (shape ``(num_envs, players)``, as the AEC environment gives them) and which rows
    ended a match; an ended row has already begun its next match, whose first observation is returned.
    """

    def __init__(
        self,
        variant: str | Variant,
        num_envs: int,
        players: int | None = None,
        *,
        capture_slots: int = DEFAULT_CAPTURE_SLOTS,
        build_slots: int = DEFAULT_BUILD_SLOTS,
        deal_reward: float = 0.0,
    ) -> None:
        num_envs = integer("num_envs", num_envs, low=1)
        self.game = make_game(variant, players)
        self.encoder = Encoder(self.game, capture_slots, build_slots)
        self.num_envs = num_envs
        self.deal_reward = finite("deal_reward", deal_reward)
        self.observation_space = self.encoder.observation_space
        self.action_space = self.encoder.action_space
        self._rng = random.Random()
        self.states: list[State] = []
        self._legal: list[dict[int, Move]] = []
        self.seats = np.zeros(num_envs, dtype=np.int64)

    def _start(self, row: int) -> None:
        state = self.game.new_match(self._rng.getrandbits(62), log=False)
        if row < len(self.states):
            self.states[row] = state
        else:
            self.states.append(state)

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        enc = self.encoder
        obs = np.empty((self.num_envs, enc.layout.size), dtype=np.float32)
        masks = np.zeros((self.num_envs, enc.num_actions), dtype=np.int8)
        self._legal = []
        for row, state in enumerate(self.states):
            seat = state.current_seat
            self.seats[row] = seat
            obs[row] = enc.observation(state.view(seat))
            legal = {} if state.is_terminal() else enc.actions(state.legal_moves())
            self._legal.append(legal)
            masks[row, list(legal)] = 1
        return obs, masks

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start ``num_envs`` matches; the observations ``(num_envs, size)`` and masks ``(num_envs, actions)``.

        The match seeds are drawn from a generator seeded with ``seed`` (a non-negative integer, or None for a seed
        from the system): the same seed, the same matches.
        """
        self._rng = random.Random(seed_of(seed))
        self.states = []
        for row in range(self.num_envs):
            self._start(row)
        return self._observe()

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play one action per row: ``(observations, masks, rewards, done)`` (see the class text).

        ``actions`` holds ``num_envs`` action indexes. Every row's action is checked before any is played: a wrong
        length or an illegal action raises ``ValueError`` with every match unchanged, so the caller may retry.
        """
        if len(self.states) != self.num_envs:
            raise RuntimeError("call reset() before step()")
        shape = np.shape(actions)
        if shape != (self.num_envs,):
            raise ValueError(f"actions must hold one action per row, shape ({self.num_envs},), not {shape}")
        # Map every row first: playing row by row, a bad row k left rows 0..k-1 moved, their rewards lost.
        moves: list[Move | None] = []
        for row, state in enumerate(self.states):
            if state.is_terminal():  # a match the rules ended before any move: the action is unused
                moves.append(None)
                continue
            action = action_index(actions[row])
            move = self._legal[row].get(action)
            if move is None:
                raise ValueError(f"row {row}: action {action} ({self.encoder.describe(action)}) is not legal")
            moves.append(move)
        rewards = np.zeros((self.num_envs, self.game.num_players), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=bool)
        for row, (state, move) in enumerate(zip(self.states, moves, strict=True)):
            if move is None:  # its row ends now, with the result of the match
                rewards[row] = state.returns()
                done[row] = True
                self._start(row)
                continue
            before = list(state.totals)
            state.play(move)  # no undo entry: a row never takes a move back, and they add up over a match
            shaped = deal_rewards(self.game, before, state.totals, self.deal_reward)
            if state.is_terminal():
                shaped = [s + r for s, r in zip(shaped, state.returns(), strict=True)]
                done[row] = True
                self._start(row)
            rewards[row] = shaped
        obs, masks = self._observe()
        return obs, masks, rewards, done
