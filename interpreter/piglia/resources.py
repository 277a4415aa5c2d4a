"""Where the grammar, the schema and the built-in variants are, installed or in a source checkout.

In a wheel they ship as package data under ``piglia/_data``; in a source checkout (an editable install) they
are the repository's top-level ``grammar/`` and ``variants/`` folders. Paths are found from this module's own
location, never from the working directory.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

__all__ = ["data_dir"]


@cache
def data_dir(name: str) -> Path:
    """The folder ``grammar`` or ``variants``, wherever this installation keeps it."""
    # The package's own folder, as importlib.resources.files("piglia") gives it for an installed package, without
    # importing importlib.resources (a noticeable part of the command's start).
    packaged = Path(__file__).parent / "_data" / name
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parent.parent.parent / name
    return checkout
