"""The card table in a real headless Chromium (the distribution's, driven by Playwright): whole matches played
with clicks, the record downloaded and replayed, keyboard play, uploads, screenshots at desktop and phone sizes.

Skips, saying why, only where no Chromium (or no Playwright) can be had; CI installs Chromium (.ci/run).
Screenshots are kept in .pytest_cache/web-*.png for a person to look at.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import threading
import time
import urllib.request
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from piglia.record import verify_file

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'piglia[web]'")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install 'piglia[web]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")

from piglia.spec import load_variant  # noqa: E402
from piglia.texts import VariantTexts  # noqa: E402
from piglia.web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = next(
    (p for p in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")) if p), None
)
if CHROMIUM is None or not Path(CHROMIUM).exists():
    pytest.skip("no Chromium: apt-get install chromium (CI's .ci/run installs it)", allow_module_level=True)

DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        except Exception as exc:  # a Chromium that cannot start here is no Chromium at all
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {exc}")
        yield b
        b.close()


@pytest.fixture()
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(15_000)
    yield pg
    context.close()
    assert errors == [], f"the page's script failed: {errors}"


def start(page: Any, server: str, variant: str, players: int, seed: int, lang: str = "en") -> None:
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("#f-variant option", state="attached")
    page.select_option("#f-variant", variant)
    page.select_option("#f-players", str(players))
    page.select_option("#f-opponents", "greedy")
    page.fill("#f-seed", str(seed))
    page.click("#f-start")
    page.wait_for_selector(".hand .card")


def game(page: Any) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate("window.piglia.game()")
    return data


def click_move(page: Any, move: dict[str, Any], options: int) -> None:
    """Play ``move`` as a person does: its card in the hand, then (when it has a choice) the table cards."""
    page.click(f".hand .card[data-id='{move['card']}']")
    if options > 1:
        for card in move["captured"]:
            page.click(f"#table .card[data-id='{card}']")
    assert page.locator(".option.chosen").get_attribute("data-index") == str(move["index"])
    before = game(page)["event_count"]
    page.click("#play")
    page.wait_for_function(f"window.piglia.game().event_count > {before}")


def choose(moves: list[dict[str, Any]], turn: int) -> dict[str, Any]:
    """A person's choice: a scoring move if there is one, else captures first, varied from turn to turn."""
    scoring = [m for m in moves if m["points"]]
    if scoring:
        return scoring[0]
    captures = [m for m in moves if m["captured"]]
    pool = captures or moves
    return pool[turn % len(pool)]


def play_match(page: Any, shots: dict[str, Path] | None = None) -> tuple[int, int, set[str]]:
    """Click through to the end of the match; (moves played, deal sheets seen, what was marked on the way)."""
    turns = sheets = 0
    seen: set[str] = set()
    while True:
        if page.locator("#continue").is_visible():
            if page.locator("#download").is_visible():
                return turns, sheets, seen
            sheets += 1
            assert page.locator(".sheet-table").is_visible()
            if shots is not None and "sheet" not in shots:
                shots["sheet"] = ROOT / ".pytest_cache" / "web-sheet.png"
                page.screenshot(path=str(shots["sheet"]))
            page.click("#continue")
            continue
        g = game(page)
        moves = g["legal_moves"]
        assert moves, "it is the person's turn whenever no sheet is open"
        move = choose(moves, turns)
        options = sum(1 for m in moves if m["card"] == move["card"])
        if move["points"]:
            seen.add("scoring")
            page.click(f".hand .card[data-id='{move['card']}']")
            assert page.locator(f".hand .card[data-id='{move['card']}'] .mark").is_visible()
            assert page.locator(f".option[data-index='{move['index']}'] .bonus").is_visible()
            page.click(f".hand .card[data-id='{move['card']}']")  # unselect: click_move selects again
        if move["clears_table"]:
            seen.add("sweep")
        click_move(page, move, options)
        turns += 1
        if shots is not None and turns == 4 and "play" not in shots:
            shots["play"] = ROOT / ".pytest_cache" / "web-desktop.png"
            page.screenshot(path=str(shots["play"]))
        assert turns < 400


def download_and_replay(page: Any, tmp_path: Path) -> None:
    with page.expect_download() as info:
        page.click("#download")
    path = tmp_path / "match.jsonl"
    info.value.save_as(path)
    count, errors = verify_file(path)
    assert errors == [] and count == 1


def ink(png: bytes) -> float:
    """The share of non-zero bytes in a PNG's filtered scanlines (8-bit RGB/RGBA): 0 for a one-colour page."""
    pos, idat, width, bpp = 8, b"", 0, 4
    while pos < len(png):
        length = int.from_bytes(png[pos : pos + 4], "big")
        kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, bpp = int.from_bytes(body[:4], "big"), {2: 3, 6: 4}[body[9]]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = 1 + width * bpp
    return sum(1 for i in range(0, len(raw), stride) for b in raw[i + 1 : i + stride] if b) / max(len(raw), 1)


def test_a_whole_scopa_match_against_greedy_with_clicks(page: Any, server: str, tmp_path: Path) -> None:
    started = time.monotonic()
    start(page, server, "scopa", 2, seed=13)
    shots: dict[str, Path] = {}
    turns, sheets, seen = play_match(page, shots)
    assert sheets >= 1 and turns >= 18
    assert "scoring" in seen, "some move was marked as scoring before it was chosen"
    result = game(page)["result"]
    title = page.locator("#sheet-title").inner_text()
    assert ("You win" in title) == (result["you"] == "win")
    assert max(result["totals"]) >= 11  # S3.5: the match goes to 11
    download_and_replay(page, tmp_path)
    page.click("#again")
    assert page.locator("#setup-form").is_visible()
    elapsed = time.monotonic() - started
    print(f"\na whole Scopa match in the browser: {turns} moves, {sheets + 1} deals, {elapsed:.1f} s")
    for shot in shots.values():
        assert ink(shot.read_bytes()) > 0.01, f"{shot} looks blank"


def test_a_whole_cicera_deal_with_an_ai_partner_with_clicks(page: Any, server: str, tmp_path: Path) -> None:
    start(page, server, "cicera", 4, seed=8)
    # B0.1: partners opposite, so the person sees a partner and two opponents
    names = page.locator(".seat .seat-name").all_inner_texts()
    assert [n.split("\n")[0].replace("dealer", "").strip() for n in names] == ["Opponent 1", "Partner", "Opponent 2"]
    turns, sheets, _ = play_match(page)
    assert turns == 12 and sheets == 0  # B1.1: twelve cards each, all dealt at once; B4.4: one deal
    assert page.locator(".sheet-table").is_visible()  # the deal's sheet comes with the match result
    counts = page.locator(".sheet-table td.counts").all_inner_texts()
    assert any("–" in c for c in counts), "the sheet gives the counts behind the awards"
    download_and_replay(page, tmp_path)


def test_keyboard_play_and_an_illegal_move_refused_with_the_reason(page: Any, server: str) -> None:
    start(page, server, "scopa", 2, seed=3)
    for _ in range(40):  # find a turn where a card must capture (S2.4), playing by keyboard meanwhile
        g = game(page)
        moves = g["legal_moves"]
        capturing = [i for i, c in enumerate(g["hand"]) if any(m["captured"] for m in moves if m["card"] == c)]
        if capturing:
            break
        before = g["event_count"]
        page.keyboard.press("1")
        page.keyboard.press("Enter")
        page.wait_for_function(f"window.piglia.game().event_count > {before}")
        if page.locator("#continue").is_visible():
            page.keyboard.press("Enter")
    else:
        pytest.fail("no capture came up")
    index = capturing[0]
    card = g["hand"][index]
    page.keyboard.press(str(index + 1))
    options = [m for m in g["legal_moves"] if m["card"] == card]
    if len(options) == 1:
        for taken in options[0]["captured"]:  # unpick the only capture: now the card would capture nothing
            page.click(f"#table .card[data-id='{taken}']")
    page.keyboard.press("Enter")
    status = page.locator("#status")
    sync_api.expect(status).to_have_class("status error")
    assert "must capture" in status.inner_text()
    assert game(page)["hand"] == g["hand"]
    page.keyboard.press("ArrowDown")  # the first capture open to the card
    before = game(page)["event_count"]
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.piglia.game().event_count > {before}")
    assert card not in game(page)["hand"]


def test_the_coach_rates_every_move_a_row_chooses_it_and_the_sheet_reviews_the_deal(page: Any, server: str) -> None:
    start(page, server, "scopa", 2, seed=4)
    sync_api.expect(page.locator("#coach-box")).to_be_hidden()
    page.click("#coach")
    rows = page.locator("#coach-box tr.advice")
    rows.first.wait_for()
    g = game(page)
    assert rows.count() == len(g["legal_moves"])  # every legal move, best first and marked
    assert "best" in (rows.first.get_attribute("class") or "")
    assert page.locator("#coach-box .why").inner_text().startswith("Best: ")
    page.screenshot(path=str(ROOT / ".pytest_cache" / "web-coach-advice.png"), full_page=True)
    # a row chooses its move (the last: the coach's worst), which is then played with the Play button
    last = rows.last
    index = last.get_attribute("data-index")
    last.click()
    assert page.locator(".option.chosen").get_attribute("data-index") == index or len(g["legal_moves"]) == 1
    before = g["event_count"]
    page.click("#play")
    page.wait_for_function(f"window.piglia.game().event_count > {before}")
    sync_api.expect(page.locator("#coach-box")).to_be_hidden()  # the advice was for that turn only
    # "?" asks the coach by keyboard; play its worst move each turn to the end of the deal
    for _ in range(40):
        if page.locator("#continue").is_visible():
            break
        page.keyboard.press("?")
        page.locator("#coach-box tr.advice").last.click()
        before = game(page)["event_count"]
        page.click("#play")
        page.wait_for_function(f"window.piglia.game().event_count > {before}")
    sync_api.expect(page.locator("#sheet-body .review li").first).to_contain_text("points against")
    page.screenshot(path=str(ROOT / ".pytest_cache" / "web-coach-review.png"), full_page=True)


def test_an_uploaded_rule_file_shows_its_located_errors(page: Any, server: str, tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text(
        "name: broken\nextends: scopa\nawards:\n  coins: {points: 1, most: count(pile where suit == coin)}\n",
        encoding="utf-8",
    )
    page.goto(f"{server}/?lang=en")
    page.set_input_files("#f-rules", str(bad))
    errors = page.locator(".errors li")
    sync_api.expect(errors.first).to_contain_text("broken.yaml:4:")
    assert "awards.coins.most: unknown name 'coin'" in errors.first.inner_text()
    good = tmp_path / "short.yaml"
    good.write_text("name: short\ntitle: Short Scopa\nextends: scopa\nmatch:\n  target: 3\n", encoding="utf-8")
    page.set_input_files("#f-rules", str(good))
    sync_api.expect(page.locator(".rules-result .ok")).to_contain_text("Short Scopa")
    page.click("#f-start")
    page.wait_for_selector(".hand .card")
    assert page.locator("#title").inner_text() == "Short Scopa"


def test_a_match_past_an_engine_limit_says_why_it_stopped(page: Any, server: str, tmp_path: Path) -> None:
    """Tablanette whose sets kind allows 2 captures a card (a file that validates): with seed 0 the first position
    already has a card with more, so the match stops at once. The page says why and offers the record so far and a
    new match instead of the play buttons (docs/web.md)."""
    page.goto(f"{server}/?lang=en")
    page.set_input_files("#f-rules", str(Path(__file__).parent / "data" / "tight.yaml"))
    sync_api.expect(page.locator(".rules-result .ok")).to_be_visible()
    page.fill("#f-seed", "0")
    page.click("#f-start")
    status = page.locator("#status")
    sync_api.expect(status).to_contain_text("The match cannot go on: capture.kinds.sets: the ")
    assert "more than 2 captures" in status.inner_text()
    assert page.locator("#play").is_hidden()
    sync_api.expect(page.locator("#over-actions button")).to_have_text("New match")
    assert page.locator("#over-actions a").get_attribute("href") == f"/api/games/{game(page)['id']}/record"


def test_a_rule_file_chosen_while_the_page_loads_is_checked(page: Any, server: str, tmp_path: Path) -> None:
    """A file chosen before the page's messages have arrived is checked once they are in, not lost (the page
    listened for the choice only after loading them, so a quick user, or a loaded machine, lost the upload)."""
    bad = tmp_path / "broken.yaml"
    bad.write_text(
        "name: broken\nextends: scopa\nawards:\n  coins: {points: 1, most: count(pile where suit == coin)}\n",
        encoding="utf-8",
    )

    held: list[Any] = []  # the page's request for its messages, held back until the file has been chosen

    def hold(route: Any) -> None:
        held.append(route)

    page.route("**/api/messages*", hold)
    page.goto(f"{server}/?lang=en", wait_until="domcontentloaded")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page never asked for its messages"
    page.set_input_files("#f-rules", str(bad))
    held[0].continue_()
    page.unroute("**/api/messages*", hold)
    sync_api.expect(page.locator(".errors li").first).to_contain_text("broken.yaml:4:")


def test_the_page_in_italian(page: Any, server: str) -> None:
    page.goto(f"{server}/?lang=it")
    sync_api.expect(page.locator("#f-start")).to_have_text("Inizia la partita")
    assert page.locator("#new-match").inner_text() == "Nuova partita"
    page.select_option("#f-variant", "scopa")
    page.click("#f-start")
    page.wait_for_selector(".hand .card")
    assert "Tocca a te" in page.locator("#status").inner_text()
    assert page.locator("html").get_attribute("lang") == "it"


def test_face_down_cards_drawn_as_backs_with_their_count(page: Any, server: str) -> None:
    # RULES.md P1.2: three pile cards lie face down, hidden from every player: the page draws backs and a count
    start(page, server, "pisti", 2, 1)
    under = page.locator("#table .face-down")
    sync_api.expect(under).to_have_count(1)
    assert "3 face down" in under.inner_text()
    assert under.locator(".back").count() == 1 and under.locator(".mini, .card").count() == 0
    assert game(page)["face_down"] == 3


def test_an_opponents_declared_hand_is_drawn_face_up(page: Any, server: str) -> None:
    # RULES.md CI1.2: a declared hand is shown face up for the rest of the hand (seed 10: the opponent declares)
    start(page, server, "cirulla", 2, 10)
    shown = game(page)["shown"][1]
    assert shown, "the opponent declared nothing with this seed"
    faces = page.locator(".seat .fan .shown .mini")
    sync_api.expect(faces).to_have_count(len(shown))
    assert [faces.nth(i).get_attribute("data-id") for i in range(len(shown))] == shown


def test_a_cassino_build_made_by_clicks_and_drawn_as_one_unit(page: Any, server: str) -> None:
    # RULES.md CA2.1: a build joins a hand card to table cards under a value the player holds a card for; it lies on
    # the table as one unit (its cards together, its value, its owner)
    start(page, server, "cassino", 2, 5)
    for _ in range(40):
        g = game(page)
        builds = [m for m in g["legal_moves"] if m["build"]]
        if builds:
            break
        click_move(
            page, g["legal_moves"][-1], len([m for m in g["legal_moves"] if m["card"] == g["legal_moves"][-1]["card"]])
        )
    else:
        pytest.fail("no build move offered in 40 turns")
    move = builds[0]
    page.click(f".hand .card[data-id='{move['card']}']")
    page.click(f"#options .option[data-index='{move['index']}']")
    assert "builds" in page.locator("#play").inner_text()
    for card in move["build"]["onto"]:  # the joined cards are the ones picked
        assert "picked" in (page.locator(f"#table .card[data-id='{card}']").get_attribute("class") or "")
    before = g["event_count"]
    page.click("#play")
    page.wait_for_function(f"window.piglia.game().event_count > {before}")
    after = game(page)
    mine = [e for e in after["events"] if e["event"] == "play" and e["player"] == 0 and e.get("build")]
    assert mine and mine[-1]["build"] == move["build"]["value"]
    for b in after["builds"]:  # whatever builds lie on the table now are drawn as units
        group = page.locator(f"#table .build[data-value='{b['value']}']")
        assert group.count() >= 1
        assert sorted(group.first.locator(".card").evaluate_all("els => els.map(e => e.dataset.id)")) == sorted(
            b["cards"]
        )


def test_phone_sized_screen(browser: Any, server: str) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    pg = context.new_page()
    try:
        start(pg, server, "scopa", 2, seed=5)
        pg.click(".hand .card >> nth=0")
        shot = ROOT / ".pytest_cache" / "web-phone.png"
        pg.screenshot(path=str(shot))
        assert ink(shot.read_bytes()) > 0.01, "the phone screenshot looks blank"
        width = pg.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], "the page is wider than the phone"
        box = pg.locator(".hand .card >> nth=0").bounding_box()
        assert box is not None and box["width"] >= 44, "cards stay large enough to tap"
        assert pg.locator("#play").is_visible()
    finally:
        context.close()


# The source pages' languages, with words written here (not read from the catalogs): the start button and the
# status line when it is the person's turn.
PAGE_WORDS = {
    "fi": ("Aloita ottelu", "Sinun vuorosi"),
    "hu": ("A mérkőzés indítása", "Te jössz"),
    "pt": ("Começar a partida", "Sua vez"),
    "et": ("Alusta mängu", "Sinu käik"),
    "tr": ("Maçı başlat", "Sıra sizde"),
}


@pytest.mark.parametrize("lang", sorted(PAGE_WORDS))
def test_the_page_in_each_source_language(page: Any, server: str, lang: str) -> None:
    start_word, turn_word = PAGE_WORDS[lang]
    page.goto(f"{server}/?lang={lang}")
    sync_api.expect(page.locator("#f-start")).to_have_text(start_word)
    page.select_option("#f-variant", "cicera" if lang == "tr" else "scopa")
    page.click("#f-start")
    page.wait_for_selector(".hand .card")
    sync_api.expect(page.locator("#status")).to_contain_text(turn_word)
    assert page.locator("html").get_attribute("lang") == lang
    assert "New match" not in page.locator("body").inner_text()
    card = page.locator(".hand .card").first  # the card's name in the page's language, not the rule file's
    texts = VariantTexts(load_variant("cicera" if lang == "tr" else "scopa"), lang)
    assert card.get_attribute("aria-label") == texts.card_id(card.get_attribute("data-id"))


def api(server: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{server}{path}", data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


SHORT_SCOPA = "name: scopa-1\nextends: scopa\nmatch:\n  target: 1\n"  # Scopa's rules and words, one deal or two


@pytest.mark.parametrize("lang", ["et", "fi", "hu", "it", "pt", "tr"])
def test_cards_and_awards_in_each_source_language(page: Any, server: str, lang: str) -> None:
    """A finished match opened in the page: the score sheet names the awards and the cards in the page's
    language (the source pages' games: Scopa, and Cicera at four seats in Turkish)."""
    if lang == "tr":
        body: dict[str, Any] = {"variant": "cicera", "players": 4}
        variant = load_variant("cicera")
    else:
        body = {"rules": SHORT_SCOPA, "rules_name": "scopa-1.yaml"}
        variant = load_variant("scopa")
    created = api(server, "/api/games", {**body, "lang": lang, "seed": 2, "opponents": "greedy"})
    game = api(server, f"/api/games/{created['id']}")
    while not game["finished"]:  # played through the API: the page is checked on what it shows
        game = api(server, f"/api/games/{created['id']}/moves", {"move": 0, "since": 10**6})
    page.goto(f"{server}/?lang={lang}#{created['id']}")
    sheet = page.locator(".sheet-table").last
    sheet.wait_for()
    texts = VariantTexts(variant, lang)
    awards = page.locator(".sheet-table tbody tr:not(.bonus-row):not(.total) td:first-child").all_inner_texts()
    assert awards[-len(variant.awards) :] == [texts.name(a.name) for a in variant.awards]
    holder = next(a for a in game["sheets"][-1]["awards"] if a["form"] == "holder")
    assert texts.card_id(holder["card"]) in sheet.inner_text()  # "7 di denari", "madeni para 10"
    shown = page.locator("#overlay").inner_text()
    assert not re.search(r"\b(coins|cups|swords|clubs|of)\b", shown), shown
    note = page.locator("#variant-note")
    if game["variant"]["untranslated"]:
        assert note.inner_text() == game["variant"]["untranslated"].replace("`", "")
    else:
        assert note.is_hidden()
