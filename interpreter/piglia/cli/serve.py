"""``piglia serve``: the card table in the browser (needs the optional extra: ``pip install 'piglia[web]'``)."""

from __future__ import annotations

import argparse
import asyncio
import logging
from typing import Any

from piglia.cli.common import HELP_FORMAT, UserError

MISSING_EXTRA = (
    "piglia serve needs the web extra, which is not installed: pip install 'piglia[web]' "
    "(it brings the web framework Starlette and the server uvicorn)"
)
# Seconds a stop (Ctrl-C, SIGTERM) waits for the requests under way. An AI move or a coach's advice may take up to
# its safety net (half a minute on costly rules), and a server that ignores a stop that long gets killed.
STOP_GRACE_SECONDS = 3


class _CutShortIsNoError(logging.Filter):
    """Drops the server's report of a request cancelled by the stop: it is what the stop does, not a fault (the
    report is a traceback, which a user must never be shown)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError))


def run(args: argparse.Namespace) -> int:
    """Serve the table until interrupted."""
    try:
        import uvicorn

        from piglia.web.app import create_app
        from piglia.web.sessions import GameStore
    except ImportError:
        raise UserError(MISSING_EXTRA) from None
    if not 1 <= args.port <= 65535:
        raise UserError(f"--port must be from 1 to 65535, not {args.port}")
    if args.max_games < 1:
        raise UserError("--max-games must be at least 1")
    app = create_app(GameStore(max_games=args.max_games, max_age=args.max_age * 60))
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Piglia table at http://{host}:{args.port}/ (Ctrl-C stops)", flush=True)
    config = uvicorn.Config(
        app, host=args.host, port=args.port, log_level="warning", timeout_graceful_shutdown=STOP_GRACE_SECONDS
    )
    logging.getLogger("uvicorn.error").addFilter(_CutShortIsNoError())  # after the config set the loggers up
    try:
        uvicorn.Server(config).run()
    except OSError as exc:
        raise UserError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    return 0


def register(sub: Any) -> None:
    """Add the command to the ``piglia`` parser."""
    s = sub.add_parser(
        "serve",
        help="play in the browser: a card table for any variant",
        description="Serve the card table: open the address it prints in a browser, choose a built-in variant "
        "or upload a rule file, and play against AI players (with an AI partner in partnership games). It "
        "listens only on this computer (127.0.0.1) unless --host says otherwise. The JSON API the page uses "
        "is described in docs/web.md. Needs: pip install 'piglia[web]'.",
        epilog="examples:\n  piglia serve\n  piglia serve --port 8080\n  piglia serve --host 0.0.0.0 --port 8000",
        formatter_class=HELP_FORMAT,
    )
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this computer)")
    s.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    s.add_argument("--max-games", type=int, default=200, help="matches kept in memory at most (default 200)")
    s.add_argument("--max-age", type=float, default=360, help="minutes an unused match is kept (default 360)")
    s.set_defaults(run=run)
