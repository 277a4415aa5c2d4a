"""The web table (``piglia serve``): play any variant in the browser against AI players.

Optional: ``pip install 'piglia[web]'`` brings the web framework (Starlette) and the server (uvicorn).
:func:`piglia.web.app.create_app` makes the application; docs/web.md describes the JSON API the page uses.
Modules: :mod:`~piglia.web.app` (routes), :mod:`~piglia.web.sessions` (matches in memory),
:mod:`~piglia.web.views` (what a seat is sent), :mod:`~piglia.web.uploads` (uploaded rule files);
``static/`` holds the page, its script (cards drawn as SVG) and its style sheet.
"""
