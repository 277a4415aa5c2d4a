"""What this installation of Piglia is: its version, and which of its modules run compiled.

A wheel built on a machine with a C compiler compiles the modules a deal runs through (``interpreter/hatch_build.py``,
docs/performance.md "The compiled build"); a checkout's editable install and a build without a compiler run every
module from its ``.py`` file. ``piglia --version`` says which.
"""

from __future__ import annotations

import importlib.machinery
from importlib import metadata
from pathlib import Path

__all__ = ["compiled_modules", "describe"]

PACKAGE = Path(__file__).resolve().parent


def compiled_modules() -> list[str]:
    """The dotted names of Piglia's modules installed as extension modules (compiled), sorted; empty when every
    module runs from its source. Python imports an extension module before a ``.py`` file of the same name."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    names = set()
    for path in PACKAGE.rglob("*"):
        if path.name.endswith(suffixes):
            relative = path.relative_to(PACKAGE.parent).as_posix()
            names.add(relative.split(".", 1)[0].replace("/", "."))
    return sorted(names)


def describe() -> str:
    """One line: ``piglia 0.1.0 (19 modules compiled)`` or ``piglia 0.1.0 (pure Python)``."""
    try:
        version = metadata.version("piglia")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        version = "(not installed)"
    compiled = compiled_modules()
    how = f"{len(compiled)} modules compiled" if compiled else "pure Python"
    return f"piglia {version} ({how})"
