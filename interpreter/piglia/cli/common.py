"""What every command shares: loading a variant with user-facing errors, consoles, help formatting."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import IO

from rich.console import Console

from piglia.errors import SpecError, SpecErrors
from piglia.spec import load_variant
from piglia.variant import Variant

__all__ = [
    "HELP_FORMAT",
    "UserError",
    "at_least_one",
    "err_console",
    "load",
    "open_new",
    "out_console",
    "refuse_existing",
]

HELP_FORMAT = argparse.RawDescriptionHelpFormatter


class UserError(Exception):
    """A message for the user, already formatted; the command exits 1."""


def out_console() -> Console:
    """Standard output; plain text when it is not a terminal."""
    return Console(highlight=False, soft_wrap=True)


def err_console() -> Console:
    """Standard error, for progress bars and notes."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


def load(ref: str) -> Variant:
    """Load a variant, turning rule-file errors into one located message per line."""
    try:
        return load_variant(ref)
    except SpecErrors as exc:
        raise UserError("\n".join(e.format() for e in exc.errors)) from None
    except SpecError as exc:
        raise UserError(exc.format()) from None


def at_least_one(value: int | None, option: str) -> None:
    """Refuse a count below 1 given to ``option`` (``None``: not given, the variant's default)."""
    if value is not None and value < 1:
        raise UserError(f"{option} must be at least 1")


def refuse_existing(path: Path, *, force: bool) -> None:
    """Nothing a user wrote is overwritten unasked: refuse an existing file unless ``--force``."""
    if path.exists() and not force:
        raise UserError(f"{path} exists; choose another name or pass --force to overwrite it")


def open_new(path_text: str, *, force: bool) -> IO[str]:
    """Open a file for writing, refusing to overwrite an existing one unless forced."""
    path = Path(path_text)
    refuse_existing(path, force=force)
    try:
        return path.open("w", encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from None
