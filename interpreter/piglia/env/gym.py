"""A Gymnasium single-agent environment: one seat learns, Piglia players play every other seat.

The learner's observations and actions are those of the AEC environment (:mod:`piglia.env.encoding`); between
two of its turns the other seats (its partner too, in a team game) are played by a player made with
:func:`piglia.players.make_player` (``"random"``, ``"greedy"``, ``"ismcts:iterations=200"``, ``module:Class``),
each seeing only its own seat's view. One episode is one match; the reward is the match result for the learner's
team, plus the shaped per-deal reward when ``deal_reward`` is set.

An action the mask rules out raises ``ValueError`` by default; with ``illegal_action="lose"`` it ends the
episode instead, as a lost match (reward -1, ``info["illegal_action"]``), for learners and checkers that sample
actions without the mask.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np

from piglia.env.aec import Observation, deal_rewards, make_game, render_text
from piglia.env.checks import finite, integer, seed_of
from piglia.env.encoding import DEFAULT_BUILD_SLOTS, DEFAULT_CAPTURE_SLOTS, Encoder, action_index
from piglia.moves import Move
from piglia.players import Player, make_player
from piglia.state import State
from piglia.variant import Variant

__all__ = ["SingleAgentEnv"]


class SingleAgentEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a Piglia match as a Gymnasium environment, against ``opponent`` players.

    ``seat`` is the learner's seat; ``None`` (the default) draws it at every reset, so the learner plays first
    and second equally often. ``illegal_action`` is ``"raise"`` or ``"lose"`` (see the module text). The other
    options are those of :class:`~piglia.env.aec.PigliaEnv`.

    ``reset`` returns the learner's seat in ``info``, nothing more. ``match_seed``, the seed of the match under
    way, is an attribute for tools: it reveals every hand and the stock order (``game.new_match(match_seed)``
    deals them again), so an agent must not read it.
    """

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012  (gymnasium declares it an instance attribute)

    def __init__(
        self,
        variant: str | Variant,
        opponent: str = "random",
        players: int | None = None,
        *,
        seat: int | None = None,
        capture_slots: int = DEFAULT_CAPTURE_SLOTS,
        build_slots: int = DEFAULT_BUILD_SLOTS,
        deal_reward: float = 0.0,
        illegal_action: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action must be 'raise' or 'lose', not {illegal_action!r}")
        self.illegal_action = illegal_action
        self.game = make_game(variant, players)
        if seat is not None:
            seat = integer("seat", seat, low=0, high=self.game.num_players - 1)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if not isinstance(opponent, str):
            raise TypeError(f"opponent must be a player name such as 'random' or 'module:Class', not {opponent!r}")
        make_player(opponent)  # a bad name fails here, not at the first reset
        self.opponent = opponent
        self.fixed_seat = seat
        self.encoder = Encoder(self.game, capture_slots, build_slots)
        self.deal_reward = finite("deal_reward", deal_reward)
        self.render_mode = render_mode
        self.observation_space = self.encoder.observation_space
        self.action_space = self.encoder.action_space
        self.seat = seat or 0
        self._state: State | None = None
        self._players: dict[int, Player] = {}
        self._legal: dict[int, Move] = {}
        self._abandoned = False
        self._fresh = False
        self.match_seed = 0  # reveals the deal: for tools, never for the learner (see the class text)

    @property
    def game_state(self) -> State:
        """The engine's position (for tools, not for the learner)."""
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def _observation(self) -> Observation:
        state = self.game_state
        obs = self.encoder.observation(state.view(self.seat))
        if state.is_terminal():
            self._legal = {}
        else:
            self._legal = self.encoder.actions(state.legal_moves())
        return {"observation": obs, "action_mask": self.encoder.mask(self._legal)}

    def _opponents_play(self) -> list[float]:
        """Let the other seats move until the learner is to move or the match is over; the rewards on the way."""
        state = self.game_state
        total = [0.0] * self.game.num_players
        while not state.is_terminal() and state.current_seat != self.seat:
            seat = state.current_seat
            before = list(state.totals)
            state.play(self._players[seat].choose(state.view(seat), state.legal_moves()))  # never taken back
            total = [
                a + b
                for a, b in zip(total, deal_rewards(self.game, before, state.totals, self.deal_reward), strict=True)
            ]
        return total

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a match (dealt from the environment's seeded generator) and play up to the learner's turn.

        ``seed`` is None or a non-negative integer (a NumPy one too). ``info`` holds the learner's ``seat`` only:
        the match seed would let the learner deal the match again and read every hidden card.
        """
        super().reset(seed=seed_of(seed))  # gymnasium takes a Python int only: np.int64(5) failed there
        rng = random.Random(int(self.np_random.integers(2**62)))
        self.match_seed = rng.getrandbits(62)
        self.seat = self.fixed_seat if self.fixed_seat is not None else rng.randrange(self.game.num_players)
        self._players = {
            s: make_player(self.opponent, seed=rng.getrandbits(31))
            for s in range(self.game.num_players)
            if s != self.seat
        }
        self._state = self.game.new_match(self.match_seed, log=False)
        self._abandoned = False
        self._fresh = True  # no step since reset (see step: a match over before the learner's first move)
        self._opponents_play()  # nothing is scored before a deal ends, and the first deal cannot end here
        return self._observation(), {"seat": self.seat}

    def step(self, action: int | np.integer[Any]) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the other seats until the learner's next turn or the end of the match."""
        state = self.game_state
        if state.is_terminal() and self._fresh and not self._abandoned:
            # the rules ended the match before the learner's first move: this step reports its end
            self._fresh = False
            return self._observation(), float(state.returns()[self.seat]), True, False, {"seat": self.seat}
        if state.is_terminal() or self._abandoned:
            raise RuntimeError("the match is over: call reset()")
        self._fresh = False
        index = action_index(action)
        move = self._legal.get(index)
        if move is None and self.illegal_action == "lose":
            self._abandoned = True  # the match ends here, lost: only reset() may follow
            obs = self._observation()
            obs["action_mask"] = self.encoder.no_actions()
            return obs, -1.0, True, False, {"seat": self.seat, "illegal_action": index}
        if move is None:
            raise ValueError(f"action {index} ({self.encoder.describe(index)}) is not legal here")
        before = list(state.totals)
        state.play(move)  # no undo entry: the environment never takes a move back, and they add up over a match
        shaped = deal_rewards(self.game, before, state.totals, self.deal_reward)
        later = self._opponents_play()
        reward = shaped[self.seat] + later[self.seat]
        terminated = state.is_terminal()
        if terminated:
            reward += state.returns()[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._observation(), float(reward), terminated, False, {"seat": self.seat}

    def render(self) -> str | None:
        """The position as the learner sees it: returned (``ansi``) or printed (``human``)."""
        if self.render_mode is None:
            return None
        text = render_text(self.game_state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text
