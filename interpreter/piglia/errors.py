"""The error tree. Every error a user can cause is a :class:`PigliaError` (and a ``ValueError``).

Errors about a rule file carry where the problem is (file, line, column), the place in the spec
(``awards.cards.most``) and, when a known name is close to the one written, a suggestion.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "DslError",
    "DslNameError",
    "DslSyntaxError",
    "DslTypeError",
    "IllegalMoveError",
    "LimitError",
    "PigliaError",
    "PluginError",
    "RecordError",
    "SpecError",
    "SpecErrors",
    "did_you_mean",
]


class PigliaError(ValueError):
    """Base of every error Piglia reports to a user."""


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """A `` (did you mean 'x'?)`` suffix when a candidate is close to ``word``, else ``''``.

    >>> did_you_mean("mots", ["most", "holder"])
    " (did you mean 'most'?)"
    """
    import difflib  # here: only a misspelling needs it, and it costs a run's start a few milliseconds

    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


@dataclass(frozen=True)
class Location:
    """A place in a file: 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class SpecError(PigliaError):
    """One problem in a rule file, at a place in the file and in the spec."""

    def __init__(self, message: str, *, file: str = "<spec>", line: int = 1, col: int = 1, path: str = "") -> None:
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.path = path
        super().__init__(self.format())

    def format(self) -> str:
        """``FILE:LINE:COL: spec.path: message``."""
        where = f"{self.file}:{self.line}:{self.col}"
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


# The most problems a rule file's report lists: one mistake aliased across a file (YAML's &anchor and *alias) was
# reported at every alias, 15,000 times, and one small file wrote 149 MB of messages (a web upload's answer, 90 MB).
MAX_PROBLEMS_SHOWN = 100


class SpecErrors(PigliaError):
    """Every problem found in a rule file (validation reports them all, not only the first), up to
    :data:`MAX_PROBLEMS_SHOWN`: past it, the last entry says how many more there are."""

    def __init__(self, errors: list[SpecError]) -> None:
        ordered = sorted(errors, key=lambda e: (e.file, e.line, e.col, e.message))
        if len(ordered) > MAX_PROBLEMS_SHOWN:
            more = len(ordered) - MAX_PROBLEMS_SHOWN
            last = ordered[MAX_PROBLEMS_SHOWN - 1]
            ordered = ordered[:MAX_PROBLEMS_SHOWN]
            ordered.append(
                SpecError(f"and {more:,} more problems, not listed (mend these first)", file=last.file, line=last.line)
            )
        self.errors = ordered
        super().__init__("\n".join(e.format() for e in self.errors))


class DslError(PigliaError):
    """A problem in a DSL expression, at a character offset of the expression's text."""

    kind = "error"

    def __init__(self, message: str, offset: int = 0, *, length: int = 1) -> None:
        self.message = message
        self.offset = offset
        self.length = length
        super().__init__(message)


class DslSyntaxError(DslError):
    """The expression does not parse."""

    kind = "syntax error"


class DslNameError(DslError):
    """A name that is not in scope, or a suit, rank, card or table the deck does not have."""

    kind = "unknown name"


class DslTypeError(DslError):
    """Values of the wrong type (a card compared to a number, for example)."""

    kind = "type error"


class LimitError(PigliaError):
    """A position too big for one of the engine's limits (more legal moves, captures or builds than it lists).

    The limits keep listing moves within memory on any rule file. In the real game the error ends the run with
    its message; an AI player that meets one in a position it only imagines (a playout) stops imagining there."""


class IllegalMoveError(PigliaError):
    """A move that the rules do not allow in this position."""


class RecordError(PigliaError):
    """A problem in a game record, at a line of the record file."""

    def __init__(self, message: str, *, file: str = "<record>", line: int = 0) -> None:
        self.message = message
        self.file = file
        self.line = line
        super().__init__(f"{file}:{line}: {message}")


class PluginError(PigliaError):
    """A mechanic registered by a plugin (not Piglia's own) misbehaved: raised an exception or broke its family's
    protocol. The message names the mechanic (family, key), its class and module: the fault is the plugin's."""
