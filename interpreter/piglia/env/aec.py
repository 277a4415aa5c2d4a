"""The PettingZoo AEC environment: one match of any variant, the seats taking turns.

Agents are ``player_0`` ... ``player_{n-1}`` (seat numbers). Each agent observes only its own seat's
:meth:`~piglia.state.State.view`, encoded by :class:`~piglia.env.encoding.Encoder`, with the standard
``action_mask`` beside it (all zero for a seat that is not to move). An episode is one match; rewards are the
match result from :meth:`~piglia.state.State.returns` (+1 win, -1 loss, 0 draw, for every seat of the team),
plus, with ``deal_reward=w``, ``w * (own team's points - the other teams' mean points)`` at the end of each deal.

An action the mask rules out raises ``ValueError`` by default; with ``illegal_action="lose"`` it ends the episode
instead, as a match the offending seat's team forfeits (see :class:`PigliaEnv`), for checkers and learners that
sample actions without the mask (PettingZoo's ``parallel_seed_test`` does).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from piglia.env.checks import finite, integer, seed_of
from piglia.env.encoding import DEFAULT_BUILD_SLOTS, DEFAULT_CAPTURE_SLOTS, Encoder, action_index
from piglia.moves import Move
from piglia.spec import load_variant
from piglia.state import Game, State
from piglia.variant import Variant

__all__ = ["PigliaEnv", "deal_rewards", "env", "make_game", "render_text"]

Observation = dict[str, np.ndarray]


def make_game(variant: str | Variant, players: int | None = None) -> Game:
    """The game for a built-in variant name, a rule file path, or a loaded :class:`Variant`; ``players`` is None
    (the variant's default) or an integer count the variant allows."""
    count = None if players is None else integer("players", players, low=1)
    return Game(variant if isinstance(variant, Variant) else load_variant(variant), count)


def deal_rewards(game: Game, before: Sequence[int], after: Sequence[int], weight: float) -> list[float]:
    """Per seat, the shaped reward for the points a deal just added to the match totals (zero if none did).

    A seat gets ``weight * (its team's points - the mean of the other teams' points)``: zero-sum between two
    teams, and zero when no deal ended (the totals only change when a deal is scored).
    """
    teams = game.num_teams
    gained = [a - b for a, b in zip(after, before, strict=True)]
    if weight == 0.0 or not any(gained):
        return [0.0] * game.num_players
    total = sum(gained)
    out = []
    for seat in range(game.num_players):
        own = gained[game.players.team_of[seat]]
        others = (total - own) / (teams - 1) if teams > 1 else 0.0
        out.append(weight * (own - others))
    return out


def render_text(state: State, seat: int) -> str:
    """The position as ``seat`` sees it, in a few lines of text (no hidden card appears)."""
    view = state.view(seat)
    ids = " ".join
    lines = [
        f"{state.game.variant.name}: deal {view.deal}, seat {view.to_move} to move, dealer {view.dealer}",
        f"table: {ids(c.id for c in view.table) or '-'}",
        f"seat {seat} hand: {ids(c.id for c in view.hand) or '-'}",
        "hand sizes: " + ", ".join(map(str, view.hand_sizes)) + f"; stock: {view.stock_size}",
        "piles: " + ", ".join(str(len(p)) for p in view.piles),
        "totals: " + ", ".join(map(str, view.totals)) + "; this deal: " + ", ".join(map(str, view.deal_points)),
    ]
    if state.is_terminal():
        lines.append("match over: " + ", ".join(f"{r:+g}" for r in state.returns()))
    return "\n".join(lines)


class PigliaEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]  # pettingzoo ships no type hints
    """A PettingZoo AEC environment playing one match of a Piglia variant per episode.

    ``variant`` is a built-in name, a rule file path or a :class:`Variant`; ``players`` a player count the
    variant allows (default: its first). Options: ``capture_slots`` (capture choices per card in the action
    space, default 7), ``build_slots`` (build moves per card, variants with builds only, default 12),
    ``deal_reward`` (weight of the shaped per-deal reward, a finite number, default 0: match result only),
    ``max_turns`` (truncate the episode after this many moves, at least 1; default none: a match always ends),
    ``illegal_action`` (``"raise"``, the default: an action the mask rules out raises ``ValueError``; ``"lose"``:
    it ends the episode as a match forfeited by the offending seat's team, whose seats get -1 while the other
    teams share +1, with ``infos[agent]["illegal_action"]``),
    ``render_mode`` (``"ansi"`` returns text, ``"human"`` prints it).

    ``match_seed`` is the seed the current match was dealt from: it reveals every hand and the stock order
    (``game.new_match(match_seed)`` deals them again), so it is for tools around the environment; an agent must
    not read it.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "piglia_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | Variant,
        players: int | None = None,
        *,
        capture_slots: int = DEFAULT_CAPTURE_SLOTS,
        build_slots: int = DEFAULT_BUILD_SLOTS,
        deal_reward: float = 0.0,
        max_turns: int | None = None,
        illegal_action: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action must be 'raise' or 'lose', not {illegal_action!r}")
        self.game = make_game(variant, players)
        self.encoder = Encoder(self.game, capture_slots, build_slots)
        self.deal_reward = finite("deal_reward", deal_reward)
        # 0 would still let the first move be played before truncating: "no move at all" is no episode
        self.max_turns = None if max_turns is None else integer("max_turns", max_turns, low=1)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self.agents: list[str] = []
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._rng = random.Random()
        self._state: State | None = None
        self._legal: dict[int, Move] | None = None
        self._obs: dict[int, np.ndarray] = {}
        self.turns = 0
        self.match_seed = 0

    # -- spaces ------------------------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same :class:`gymnasium.spaces.Dict` for every agent: ``observation`` and ``action_mask``."""
        return self.encoder.observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The same :class:`gymnasium.spaces.Discrete` for every agent (see docs/rl.md for the mapping)."""
        return self.encoder.action_space

    # -- the episode -------------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match. ``seed`` (a non-negative integer) makes the deals (and so the episode, for the same
        actions) repeat; without it the next match seed comes from the generator the last seed set (or from the
        system at first)."""
        seed = seed_of(seed)
        if seed is not None:
            self._rng = random.Random(seed)
            self.match_seed = seed
        else:
            self.match_seed = self._rng.getrandbits(62)
        self._state = self.game.new_match(self.match_seed, log=False)
        self._changed()
        self.turns = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._state.current_seat]
        if self._state.is_terminal():  # the rules ended the match before any move (an instant win at the opening)
            result = self._state.returns()
            self.rewards = {a: float(result[self._seat[a]]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()

    @property
    def game_state(self) -> State:
        """The engine's position, for tools around the environment (an agent sees only its observation)."""
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def legal_actions(self) -> dict[int, Move]:
        """The acting seat's legal actions and the move each one plays (empty once the match is over)."""
        if self._legal is None:
            state = self.game_state
            self._legal = {} if state.is_terminal() else self.encoder.actions(state.legal_moves())
        return self._legal

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: its seat's view, and its action mask (zero unless it is to move)."""
        state = self.game_state
        seat = self._seat[agent]
        obs = self._obs.get(seat)
        if obs is None:
            obs = self._obs[seat] = self.encoder.observation(state.view(seat))
            # the cached array is handed out until the position changes: read-only, an agent that edits its
            # observation in place gets an error instead of changing what every later observe() returns
            # (cheaper than a copy per call; np.array(obs) gives a writable copy)
            obs.flags.writeable = False
        over = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        acting = seat == state.current_seat and not over
        mask = self.encoder.mask(self.legal_actions()) if acting else self.encoder.no_actions()
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move (``None`` for an agent whose episode is over)."""
        if self._state is None:  # before reset() there is no agent_selection to read
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move and must give an action, not None")
        index = action_index(action)
        move = self.legal_actions().get(index)
        if move is None and self.illegal_action == "lose":
            self._forfeit(agent, index)
            return
        if move is None:
            legal = ", ".join(str(a) for a in sorted(self.legal_actions()))
            raise ValueError(
                f"action {index} ({self.encoder.describe(index)}) is not legal for {agent}; legal actions: {legal}"
            )
        state = self.game_state
        self._cumulative_rewards[agent] = 0.0
        before = list(state.totals)
        state.play(move)  # no undo entry: the environment never takes a move back, and they add up over a match
        self._changed()
        self.turns += 1
        shaped = deal_rewards(self.game, before, state.totals, self.deal_reward)
        if state.is_terminal():
            result = state.returns()
            shaped = [s + r for s, r in zip(shaped, result, strict=True)]
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_turns is not None and self.turns >= self.max_turns:
            self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = {a: float(shaped[self._seat[a]]) for a in self.agents}
        self.agent_selection = self.possible_agents[state.current_seat]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _forfeit(self, agent: str, index: int) -> None:
        """End the episode on ``agent``'s illegal action: its team gets -1 a seat, the other teams share +1 (zero-sum
        between the teams, a lost match between two)."""
        team_of = self.game.players.team_of
        loser = team_of[self._seat[agent]]
        others = self.game.num_teams - 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {
            a: -1.0 if team_of[self._seat[a]] == loser else (1.0 / others if others else 0.0) for a in self.agents
        }
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {"illegal_action": index}
        self._accumulate_rewards()

    def _changed(self) -> None:
        self._legal = None
        self._obs = {}

    def move_of(self, action: int) -> Move | None:
        """The move an action plays now, or None if it is not legal."""
        return self.legal_actions().get(action_index(action))

    def render(self) -> str | None:
        """The position as the seat to move sees it: returned (``ansi``) or printed (``human``)."""
        if self.render_mode is None:
            return None
        state = self.game_state
        text = render_text(state, state.current_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(variant: str | Variant, players: int | None = None, **options: Any) -> PigliaEnv:
    """A PettingZoo AEC environment for ``variant`` (a built-in name, a rule file path or a :class:`Variant`).

    ``options`` are those of :class:`PigliaEnv`: ``capture_slots``, ``build_slots``, ``deal_reward``,
    ``max_turns``, ``illegal_action``, ``render_mode``.
    """
    return PigliaEnv(variant, players, **options)
