"""Checks of the numbers the environments take (counts, seeds, weights), each with a message naming the argument.

Without them a bad value surfaced far from its cause: ``players="2"`` as "played by 2 players, not 2",
``capture_slots=2.5`` from inside Gymnasium, ``seed=1.0`` as another match dealt in silence.
"""

from __future__ import annotations

import math
import numbers
import operator

__all__ = ["MAX_SLOTS", "finite", "integer", "seed_of"]

# capture_slots and build_slots size the action space (deck size x slots): past this it is memory, not choice.
# The most captures one card was seen to have is 46, in a built-in variant (docs/rl.md).
MAX_SLOTS = 1024


def integer(name: str, value: object, *, low: int, high: int | None = None) -> int:
    """``value`` as an int between ``low`` and ``high`` (inclusive): a Python or NumPy integer, not a bool, a float
    or a string (TypeError), in range (ValueError)."""
    if isinstance(value, bool):  # True is an int to Python, but never a count or a seat a caller meant
        raise TypeError(f"{name} must be an integer, not {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]  # any object: the TypeError is the check
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {value!r} ({type(value).__name__})") from None
    if number < low or (high is not None and number > high):
        bounds = f"at least {low}" if high is None else f"between {low} and {high}"
        raise ValueError(f"{name} must be {bounds}, not {number}")
    return number


def seed_of(seed: object) -> int | None:
    """A ``reset`` seed: None, or a non-negative Python or NumPy integer. A float or a bool is refused, since
    ``random.Random`` would take ``1.0`` or ``True`` and deal another match than seed 1, in silence."""
    if seed is None:
        return None
    return integer("seed", seed, low=0)


def finite(name: str, value: object) -> float:
    """``value`` as a finite float: a real number (not a bool or a string), not NaN or infinite."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {value!r} ({type(value).__name__})")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, not {number}")
    return number
