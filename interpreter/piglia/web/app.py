"""The web table's HTTP application (Starlette): the page, its static files and the JSON API of docs/web.md.

Every answer of ``/api`` is JSON; a bad request gets a 4xx status and ``{"error": "message"}`` (with
``errors``, located like ``piglia validate``'s, for a rule file with problems). A client sees only what its
seat may see (see :mod:`piglia.web.views`). The AI players run in a worker thread, never on the event loop.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from piglia.errors import PigliaError, SpecError
from piglia.locales import languages, load_catalog
from piglia.players import coach
from piglia.record import dump_event
from piglia.spec import builtin_names, load_variant
from piglia.state import Event
from piglia.texts import VariantTexts, untranslated_note
from piglia.variant import Variant
from piglia.web.sessions import AI_PLAYERS, GameSession, GameStore, MoveRefused, NotYourTurn
from piglia.web.uploads import UploadErrors, load_uploaded
from piglia.web.views import (
    bonus_tally,
    deck_json,
    labelled_event,
    move_json,
    move_marks,
    public_event,
    sheet_json,
)

__all__ = ["MAX_BODY_BYTES", "create_app", "game_json", "variant_json"]

MAX_BODY_BYTES = 2 * 1024 * 1024  # a rule file is at most 1 MB; JSON escaping may double it
WEB_PREFIX = "web."  # the catalog keys the page uses


class ApiError(Exception):
    """An answer with a 4xx status and a message (and maybe located rule-file errors)."""

    def __init__(self, status: int, message: str, errors: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.errors = errors


def _error_json(error: SpecError) -> dict[str, Any]:
    return {
        "file": error.file,
        "line": error.line,
        "col": error.col,
        "path": error.path,
        "message": error.message,
        "text": error.format(),
    }


def _pick_lang(requested: Any) -> tuple[str, str | None]:
    """The catalog language for a request, and a note when the one asked for has no catalog (English then)."""
    have = languages()
    lang = str(requested or "en").strip().lower()
    if lang in have:
        return lang, None
    base = lang.split("-")[0].split("_")[0]
    if base in have:
        return base, None
    return "en", load_catalog("en")("web.lang_fallback", lang=lang, languages=", ".join(have))


def variant_json(texts: VariantTexts) -> dict[str, Any]:
    """A variant's name and its texts in ``texts``' language: ``title``, ``description``, ``notes``, the
    ``players`` it allows, and ``untranslated``: the one sentence saying what the rule file does not translate
    into that language (None when nothing is missing), for the page to show once."""
    variant = texts.variant
    return {
        "name": variant.name,
        "title": texts.title,
        "description": texts.description,
        "notes": texts.notes,
        "players": list(variant.player_counts),
        "untranslated": untranslated_note(texts),
    }


def coach_json(session: GameSession, lang: str | None = None) -> dict[str, Any]:
    """The coach's advice on the person's turn (docs/web.md): every legal move, best first, with its index in
    ``legal_moves``, the estimate of the points it is worth this deal, greedy's one-ply value, the chance it
    leaves the next player a bonus, and for the best move one sentence on why, in ``lang`` (default: the
    match's language)."""
    advice = session.advise()
    texts = session.texts_in(lang)
    index = {move: i for i, move in enumerate(session.state.legal_moves())}
    return {
        "turn": session.turn,
        "advice": [
            {
                **move_json(a.move),
                "index": index[a.move],
                "value": round(a.value, 3),
                "greedy": round(a.greedy, 3),
                "risk": round(a.risk, 3),
                "rank": a.rank,
                "why": coach.phrase(a.because, texts) if a.because else "",
            }
            for a in advice
        ],
    }


def review_json(session: GameSession, deal: int) -> list[dict[str, Any]]:
    """The coach's review of ``deal``: the advised moves where the person lost most, costliest first."""
    return [
        {"played": move_json(m.played.move), "best": move_json(m.best.move), "loss": round(m.loss, 3)}
        for m in session.review(deal)
    ]


def finished_sheet(session: GameSession, texts: VariantTexts, events: list[Event], end: Event) -> dict[str, Any]:
    """The score sheet of the deal ``end`` closed, with the coach's review of the person's moves in it: made once
    per deal and language, then kept on the session (neither changes once the deal is over)."""
    key = (end["deal"], texts.lang)
    sheet = session.sheets.get(key)
    if sheet is None:
        game = session.game
        sheet = sheet_json(texts, events, game.players.team_of, game.num_teams, end)
        sheet = session.sheets[key] = {**sheet, "coach": review_json(session, end["deal"])}
    return sheet


def game_json(session: GameSession, since: int = 0, lang: str | None = None) -> dict[str, Any]:
    """The match as the session's seat sees it (docs/web.md): built from ``state.view(seat)`` and public events,
    every name in ``lang`` (a language with a catalog; default: the match's)."""
    state = session.state
    game = session.game
    seat = session.seat
    texts = session.texts_in(lang)
    view = state.view(seat)
    team_of = game.players.team_of
    # Everything below is read from the public events only (the record's JSON objects, whitelisted field by field).
    events = [p for p in (public_event(e.to_json()) for e in state.events or []) if p is not None]
    public = [labelled_event(e, texts) for e in events]
    finished = state.is_terminal()
    my_team = team_of[seat]
    opponents = [s for s in range(game.num_players) if team_of[s] != my_team]
    seats = []
    for s in range(game.num_players):
        role = "you" if s == seat else "partner" if team_of[s] == my_team else "opponent"
        seats.append(
            {
                "seat": s,
                "team": team_of[s],
                "role": role,
                "number": opponents.index(s) + 1 if role == "opponent" else 0,
                "player": None if s == seat else session.players[s].name,
                "hand_size": view.hand_sizes[s],
            }
        )
    teams = [
        {"team": t, "seats": list(members), "mine": t == my_team, "pile": len(view.piles[t])}
        for t, members in enumerate(game.players.teams)
    ]
    ends = [e for e in events if e["event"] == "deal_end"]
    current = [e for e in events if e.get("deal") == view.deal]
    deal_over = any(e["event"] == "deal_end" for e in current)
    running = [t + (0 if deal_over else p) for t, p in zip(view.totals, view.deal_points, strict=True)]
    result = None
    if finished:
        end = next(e for e in reversed(events) if e["event"] == "match_end")
        winner = end["winner"]
        result = {
            "winner": winner,
            "totals": end["totals"],
            "you": "draw" if winner is None else "win" if winner == my_team else "lose",
            "reason": end.get("reason") and (texts.reason("instant_win") or end["reason"]),
        }
    match = game.variant.match
    playing = not finished and session.stopped is None
    marks: list[dict[str, Any]] = []
    if playing and view.to_move == seat:
        try:
            marks = move_marks(state, texts)
        except PigliaError as exc:  # a move's bonus past one of the engine's limits: the match stops here
            session.stopped = str(exc)
            playing = False
    return {
        "id": session.id,
        "finished": finished,
        "stopped": session.stopped,  # the limit's message when the match stopped before its end (docs/web.md)
        "to_move": view.to_move if playing else None,
        "legal_moves": marks,
        "variant": {**variant_json(texts), "uploaded": session.uploaded},
        "lang": texts.lang,
        "opponents": session.opponents,
        "seat": seat,
        "players": game.num_players,
        "my_team": my_team,
        "seats": seats,
        "teams": teams,
        "deal": view.deal,
        "dealer": view.dealer,
        "hand": [c.id for c in view.hand],
        "table": [c.id for c in view.table],
        "stock": view.stock_size,
        "face_down": view.face_down,  # table cards lying face down: how many, never which
        # the builds on the table (public): their cards, announced value, owner seat, whether multiple
        "builds": [
            {"cards": [c.id for c in b.cards], "value": b.value, "owner": b.owner, "multiple": b.multiple}
            for b in view.builds
        ],
        # per seat, the cards of its hand a declaration made public (empty lists when the rules have none)
        "shown": [[c.id for c in cards] for cards in view.shown] or [[] for _ in range(game.num_players)],
        "score": {
            "totals": list(view.totals),
            "this_deal": [0] * len(view.totals) if deal_over else list(view.deal_points),
            "running": running,
            "bonuses": [] if deal_over else bonus_tally(texts, events, team_of, view.deal),
        },
        "match": {"target": match.target, "deals": match.deals},
        "events": public[max(0, since) :],
        "event_count": len(public),
        # each deal's sheet, with the coach's review of the person's moves it advised on in that deal
        "sheets": [finished_sheet(session, texts, events, e) for e in ends],
        "result": result,
        "deck": deck_json(session.variant.deck, texts),
        # every name the variant shows (suits, ranks, value tables, capture kinds, bonuses, awards) in words
        "names": {ident: texts.name(ident) for ident in texts.identifiers()},
    }


async def _body(request: Request) -> dict[str, Any]:
    # Read up to the limit and no further: read whole before the check, a 400 MB request held 850 MB of the
    # server's memory before it was refused, and a few at once would exhaust the machine.
    too_big = ApiError(413, f"the request is larger than {MAX_BODY_BYTES // (1024 * 1024)} MB")
    declared = request.headers.get("content-length", "")
    declared_size = declared.isascii() and declared.isdigit()  # not '²': str.isdigit() passes it, int() refuses it
    if declared_size and (len(declared) > 12 or int(declared) > MAX_BODY_BYTES):  # refused before reading
        raise too_big
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise too_big
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        data = json.loads(raw or b"{}")
    except ValueError as exc:
        raise ApiError(400, f"the request body is not JSON: {exc}") from None
    except RecursionError:  # [[[[... nested past the decoder's depth: a 200 KB body answered 500 with a traceback
        raise ApiError(400, "the request body is not JSON this table reads: it nests too deep") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return data


def _int_field(data: dict[str, Any], name: str, default: int | None) -> int | None:
    value = data.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(422, f"{name} must be a whole number")
    return value


def create_app(store: GameStore | None = None) -> Starlette:
    """The application: ``/`` the page, ``/static/...`` its files, ``/api/...`` the JSON API (docs/web.md)."""
    games = store if store is not None else GameStore()

    def session_of(request: Request) -> GameSession:
        session = games.get(request.path_params["game_id"])
        if session is None:
            raise ApiError(404, "no such game (it may have ended long ago: games are kept for a limited time)")
        return session

    async def index(request: Request) -> Response:
        page = resources.files("piglia.web").joinpath("static/index.html").read_text(encoding="utf-8")
        return HTMLResponse(page)

    async def variants(request: Request) -> Response:
        lang, _ = _pick_lang(request.query_params.get("lang"))
        out = []
        for name in builtin_names():
            variant = await run_in_threadpool(load_variant, name)
            out.append(variant_json(VariantTexts(variant, lang)))
        return JSONResponse({"lang": lang, "variants": out, "opponents": list(AI_PLAYERS)})

    async def messages(request: Request) -> Response:
        lang, note = _pick_lang(request.query_params.get("lang"))
        msg = load_catalog(lang)
        words = {k[len(WEB_PREFIX) :]: v for k, v in msg.messages.items() if k.startswith(WEB_PREFIX)}
        return JSONResponse({"lang": lang, "note": note, "languages": languages(), "messages": words})

    def uploaded(data: dict[str, Any]) -> Variant:
        text = data.get("rules")
        if not isinstance(text, str):
            raise ApiError(422, "rules must be the text of a rule file")
        try:
            return load_uploaded(text, data.get("rules_name") if isinstance(data.get("rules_name"), str) else None)
        except UploadErrors as exc:
            raise ApiError(
                422, "the rule file has errors:\n" + str(exc), [_error_json(e) for e in exc.errors]
            ) from None

    async def check_rules(request: Request) -> Response:
        data = await _body(request)
        variant = await run_in_threadpool(uploaded, data)
        lang, _ = _pick_lang(data.get("lang"))
        return JSONResponse({"ok": True, **variant_json(VariantTexts(variant, lang))})

    def start(data: dict[str, Any]) -> tuple[GameSession, str | None]:
        if "rules" in data:
            variant, is_upload = uploaded(data), True
        else:
            name = data.get("variant")
            if not isinstance(name, str) or name not in builtin_names():
                raise ApiError(
                    422, f"variant must be one of the built-in variants ({', '.join(builtin_names())}), or send rules"
                )
            variant, is_upload = load_variant(name), False
        lang, note = _pick_lang(data.get("lang"))
        opponents = data.get("opponents", "greedy")
        if not isinstance(opponents, str):
            raise ApiError(422, f"opponents must be one of: {', '.join(AI_PLAYERS)}")
        try:
            session = games.create(
                variant,
                players=_int_field(data, "players", None),
                seat=_int_field(data, "seat", 0) or 0,
                opponents=opponents,
                seed=_int_field(data, "seed", None),
                lang=lang,
                uploaded=is_upload,
            )
        except PigliaError as exc:
            raise ApiError(422, str(exc)) from None
        return session, note

    async def create(request: Request) -> Response:
        data = await _body(request)
        session, note = await run_in_threadpool(start, data)
        answer: dict[str, Any] = {"id": session.id, "lang": session.lang}
        if note:
            answer["lang_note"] = note
        return JSONResponse(answer, status_code=201)

    def read(session: GameSession, since: int, lang: str | None) -> dict[str, Any]:
        with session.lock:
            return game_json(session, since, lang)

    def lang_of(requested: Any) -> str | None:
        # a page that changed its language during the match asks for its words in the new one
        return None if requested is None else _pick_lang(requested)[0]

    async def show(request: Request) -> Response:
        session = session_of(request)
        try:
            since = int(request.query_params.get("since", "0"))
        except ValueError:
            raise ApiError(400, "since must be a whole number") from None
        lang = lang_of(request.query_params.get("lang"))
        return JSONResponse(await run_in_threadpool(read, session, since, lang))

    def play(session: GameSession, move: Any, since: int, lang: str | None) -> dict[str, Any]:
        if isinstance(move, bool) or not isinstance(move, int | str):
            raise ApiError(422, 'move must be the index of a legal move (0, 1, ...) or its notation ("7d x 7c")')
        with session.lock:
            try:
                session.play(move, lang)
            except NotYourTurn as exc:
                raise ApiError(409, str(exc)) from None
            except MoveRefused as exc:
                raise ApiError(422, str(exc)) from None
            return game_json(session, since, lang)

    async def move(request: Request) -> Response:
        session = session_of(request)
        data = await _body(request)
        if "move" not in data:
            raise ApiError(422, 'send {"move": INDEX} or {"move": "NOTATION"}')
        since = _int_field(data, "since", 0) or 0
        lang = lang_of(data.get("lang"))
        return JSONResponse(await run_in_threadpool(play, session, data["move"], since, lang))

    def advise(session: GameSession, lang: str | None) -> dict[str, Any]:
        with session.lock:
            try:
                return coach_json(session, lang)
            except NotYourTurn as exc:
                raise ApiError(409, str(exc)) from None

    async def coach_advice(request: Request) -> Response:
        session = session_of(request)
        lang = lang_of(request.query_params.get("lang"))
        return JSONResponse(await run_in_threadpool(advise, session, lang))

    def record_lines(session: GameSession) -> tuple[list[str], int]:
        with session.lock:
            if not session.state.is_terminal() and session.stopped is None:
                # the record holds every hand and the seed: nobody sees it while the match is being played (a match
                # stopped at an engine limit is played no further: its record so far is the way to report it)
                raise ApiError(409, "the record is available when the match is over")
            return [dump_event(e) for e in session.state.events or []], session.state.seed

    async def record(request: Request) -> Response:
        session = session_of(request)
        # in a worker thread, as every handler that takes a game's lock: waiting for it on the event loop (while an
        # AI move held it) stopped the whole server, every other game and client with it
        lines, seed = await run_in_threadpool(record_lines, session)
        name = f"piglia-{session.variant.name}-{seed}.jsonl"
        return Response(
            "\n".join(lines) + "\n",
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        body: dict[str, Any] = {"error": exc.message}
        if exc.errors is not None:
            body["errors"] = exc.errors
        return JSONResponse(body, status_code=exc.status)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    async def piglia_error(request: Request, exc: Exception) -> Response:
        # what no route turned into its own answer: a rule file's or a mechanics plugin's fault met while phrasing
        # or playing (errors.PluginError names the plugin), said as JSON like every error (docs/web.md), not a 500
        return JSONResponse({"error": str(exc)}, status_code=422)

    routes = [
        Route("/", index),
        Route("/api/variants", variants),
        Route("/api/messages", messages),
        Route("/api/rules/check", check_rules, methods=["POST"]),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game_id}", show),
        Route("/api/games/{game_id}/moves", move, methods=["POST"]),
        Route("/api/games/{game_id}/coach", coach_advice),
        Route("/api/games/{game_id}/record", record),
        Mount("/static", StaticFiles(packages=[("piglia.web", "static")]), name="static"),
    ]
    app = Starlette(
        routes=routes, exception_handlers={ApiError: api_error, HTTPException: http_error, PigliaError: piglia_error}
    )
    app.state.games = games
    return app
