"""What every command shares: loading a variant with user-facing errors, consoles, help formatting."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING

from piglia.errors import SpecError, SpecErrors
from piglia.spec import load_variant
from piglia.variant import Variant

if TYPE_CHECKING:
    from rich.console import Console  # imported by the two functions below: --json and plain messages need no rich

__all__ = [
    "HELP_FORMAT",
    "UserError",
    "at_least_one",
    "err_console",
    "load",
    "open_new",
    "out_console",
    "refuse_existing",
    "unexpected",
]

HELP_FORMAT = argparse.RawDescriptionHelpFormatter


class UserError(Exception):
    """A message for the user, already formatted; the command exits 1."""


def out_console() -> Console:
    """Standard output; plain text when it is not a terminal."""
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def err_console() -> Console:
    """Standard error, for progress bars and notes."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def load(ref: str) -> Variant:
    """Load a variant, turning rule-file errors into one located message per line."""
    if not ref.strip():
        raise UserError("VARIANT is empty: give a built-in name (`piglia list`) or a rule file's path")
    try:
        return load_variant(ref)
    except SpecErrors as exc:
        raise UserError("\n".join(e.format() for e in exc.errors)) from None
    except SpecError as exc:
        raise UserError(exc.format()) from None
    except (RecursionError, MemoryError) as exc:  # what the loader does not locate itself
        raise UserError(unexpected(ref, exc)) from None
    except Exception as exc:
        if not _is_yaml_error(exc):
            raise
        raise UserError(unexpected(ref, exc)) from None


def _is_yaml_error(exc: BaseException) -> bool:
    """Whether PyYAML raised ``exc``; asked without importing PyYAML (a run that read no YAML has no YAML error)."""
    yaml = sys.modules.get("yaml")
    return yaml is not None and isinstance(exc, yaml.YAMLError)


def _place(ref: str, position: int) -> str:
    """``FILE:LINE:COL`` of a character offset, when the file can be read; else ``FILE``."""
    try:
        text = Path(ref).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ref
    line = text.count("\n", 0, position) + 1
    col = position - (text.rfind("\n", 0, position) + 1) + 1
    return f"{ref}:{line}:{col}"


def unexpected(ref: str, exc: BaseException) -> str:
    """One line for a file the loader failed on in a way it does not report itself: located where the YAML
    reader says, never a traceback; the next file is still checked."""
    if isinstance(exc, RecursionError):
        return f"{ref}: nested too deeply to be read (a rule file nests a few levels, not hundreds)"
    if isinstance(exc, MemoryError):
        return f"{ref}: too large to be read"
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if _is_yaml_error(exc):
        import yaml

        problem = getattr(exc, "problem", None) or getattr(exc, "context", None) or str(exc)
        if mark is not None:
            return f"{ref}:{mark.line + 1}:{mark.column + 1}: {problem}"
        if isinstance(exc, yaml.reader.ReaderError):
            code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "?")
            return f"{_place(ref, exc.position)}: the character U+{code:04X} is not allowed in a rule file"
        return f"{ref}: {problem}"
    return f"{ref}: cannot be checked: internal error: {type(exc).__name__}: {exc} (please report it)"


def at_least_one(value: int | None, option: str) -> None:
    """Refuse a count below 1 given to ``option`` (``None``: not given, the variant's default)."""
    if value is not None and value < 1:
        raise UserError(f"{option} must be at least 1")


def refuse_existing(path: Path, *, force: bool) -> None:
    """Nothing a user wrote is overwritten unasked: refuse an existing file unless ``--force``."""
    if (path.exists() or path.is_symlink()) and not force:  # a link to a missing file is a name taken too
        raise UserError(f"{path} exists; choose another name or pass --force to overwrite it")


def open_new(path_text: str, *, force: bool) -> IO[str]:
    """Open a file for writing, refusing to overwrite an existing one unless forced."""
    path = Path(path_text)
    refuse_existing(path, force=force)
    try:
        return path.open("w", encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from None
