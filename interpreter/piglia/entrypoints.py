"""The entry points of a group, as :func:`importlib.metadata.entry_points` gives them, without importing
``importlib.metadata`` when no installed distribution can declare one.

Importing ``importlib.metadata`` (it brings the ``email`` package along) costs more than the whole rest of a
small ``piglia`` run's start, and most installations have no plugin at all. So a quick look comes first: the
``entry_points.txt`` of every ``.dist-info`` and ``.egg-info`` folder on ``sys.path``, read as text. Only when
none of them even mentions the group, every path entry is a plain folder and no import hook of another kind
could list distributions, the answer is "none" without asking ``importlib.metadata``; in any other case
``importlib.metadata`` answers, so the result is always the same as its own.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = ["entry_points"]

_METADATA_SUFFIXES = (".dist-info", ".egg-info")


def entry_points(*, group: str) -> Iterable[EntryPoint]:
    """The entry points registered under ``group`` by the installed distributions."""
    if not _may_declare(group):
        return ()
    from importlib import metadata

    return metadata.entry_points(group=group)


def _may_declare(group: str) -> bool:
    """False only when certainly no distribution importlib.metadata would find declares ``group``."""
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:
        # Only the standard path finder lists distributions here; another finder that can (a zip importer of
        # wheels, a custom hook) may know of ones this look cannot see.
        if hasattr(finder, "find_distributions") and finder is not PathFinder:
            return True
    needle = f"[{group}]"
    for entry in sys.path:
        folder = entry or "."
        if folder.lower().endswith(".egg"):
            return True  # an egg folder keeps its metadata in EGG-INFO
        try:
            if not os.path.isdir(folder):
                if os.path.exists(folder):
                    return True  # a zip file or an egg on the path: its metadata is not plain files
                continue
            with os.scandir(folder) as it:
                names = [e.name for e in it if e.name.lower().endswith(_METADATA_SUFFIXES)]
            for name in names:
                try:
                    with open(os.path.join(folder, name, "entry_points.txt"), "rb") as f:
                        text = f.read()
                except (FileNotFoundError, NotADirectoryError):
                    continue
                if needle.encode("utf-8") in text.replace(b" ", b"").replace(b"\t", b""):
                    return True
        except (OSError, UnicodeError, ValueError):
            return True  # cannot tell: let importlib.metadata look
    return False
