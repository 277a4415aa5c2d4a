"""The ``piglia`` command. Each sub-command is one module of this package with a ``register`` function.

The CLI only calls the API and formats what it returns. Every user error is one clear message and a non-zero
exit, never a traceback (set ``PIGLIA_DEBUG=1`` to see one for an internal error).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from collections.abc import Sequence

from piglia import __version__
from piglia.cli.common import HELP_FORMAT, UserError
from piglia.errors import PigliaError

__all__ = ["main"]

# Adding a command: write piglia/cli/<name>.py with register(subparsers) and list it here.
COMMANDS = ["validate", "simulate", "compare", "replay", "catalog", "rules", "tournament", "play", "serve"]


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of every command, or of the command ``only`` (a command imports only what it uses:
    ``piglia simulate`` never loads the web server's or the terminal game's modules)."""
    p = argparse.ArgumentParser(
        prog="piglia",
        description="Piglia: write a capture card game's rules in YAML; validate, simulate and replay it.",
        epilog="examples:\n  piglia list\n  piglia validate variants/*.yaml\n"
        "  piglia simulate my-game.yaml --deals 1000",
        formatter_class=HELP_FORMAT,
    )
    # what a bug report or a record's reader asks first; records carry their format's version, not piglia's
    p.add_argument("--version", action="version", version=f"piglia {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS if only is None else [only]:
        importlib.import_module(f"piglia.cli.{name}").register(sub)
    return p


def _closed(stream: object) -> bool:
    return stream is None or getattr(stream, "closed", False)


def _quiet_stdout() -> None:
    """Standard output is gone (a closed pipe): send what is left to /dev/null, so exiting does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    if _closed(sys.stderr):
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    words = list(sys.argv[1:] if argv is None else argv)
    args = parser(words[0] if words and words[0] in COMMANDS else None).parse_args(words)
    if _closed(sys.stdout):
        print("piglia: standard output is closed; nothing could be shown", file=sys.stderr)
        return 1
    try:
        code: int = args.run(args)
        sys.stdout.flush()  # here, where a failure can still be reported, not at exit
        return code
    except UserError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except PigliaError as exc:
        print(f"piglia: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("piglia: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()  # the reader went away (``| head``): not an error
        return 0
    except OSError as exc:  # a full disk under standard output, most often; a file when the error names one
        where = exc.filename if exc.filename is not None else "standard output"
        print(f"piglia: cannot write {where}: {exc.strerror or exc}", file=sys.stderr)
        if exc.errno is not None and exc.errno != errno.EBADF:
            _quiet_stdout()
        return 1
    except RecursionError:
        print("piglia: the input is nested too deeply to be read", file=sys.stderr)
        return 1
    except MemoryError:
        print("piglia: out of memory", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug: say so in one line unless asked for the traceback
        if os.environ.get("PIGLIA_DEBUG"):
            raise
        print(
            f"piglia: internal error: {type(exc).__name__}: {exc} (PIGLIA_DEBUG=1 shows a traceback)", file=sys.stderr
        )
        return 2
