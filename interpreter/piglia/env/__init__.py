"""Reinforcement-learning environments for every variant (the ``piglia[rl]`` extra: pettingzoo, gymnasium, numpy).

* :func:`env` - a PettingZoo AEC environment, one match per episode, all seats as agents (:mod:`piglia.env.aec`);
* :func:`parallel_env` - the same game as a PettingZoo ParallelEnv, and :class:`VectorEnv`, a batch of matches
  stepped together with NumPy arrays for fast self-play rollouts (:mod:`piglia.env.parallel`);
* :class:`SingleAgentEnv` - a Gymnasium environment: one seat learns, a Piglia player plays the others
  (:mod:`piglia.env.gym`).

Observations and the action mapping are in :mod:`piglia.env.encoding`; docs/rl.md explains them with an example.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f"piglia.env needs the reinforcement-learning extra ({exc.name} is missing): pip install 'piglia[rl]'"
    ) from None

from piglia.env.aec import PigliaEnv, env
from piglia.env.encoding import Encoder
from piglia.env.gym import SingleAgentEnv
from piglia.env.parallel import PigliaParallelEnv, VectorEnv, parallel_env

__all__ = ["Encoder", "PigliaEnv", "PigliaParallelEnv", "SingleAgentEnv", "VectorEnv", "env", "parallel_env"]
