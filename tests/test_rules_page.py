"""Rules pages (`piglia rules`): RULES.md section 1 read back from the rule file, catalogs, docs, HTML.

Expected facts come from RULES.md; the page is generated from variants/scopa.yaml. Each test names the rule
ids whose content it checks.
"""

from __future__ import annotations

import html
import json
import random
import re
import shutil
import string
import subprocess
import zlib
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import piglia
from conftest import ROOT
from piglia.locales import languages, load_catalog
from piglia.rulespage import example_tries, find_example, render_html, render_markdown
from piglia.spec import builtin_names, load_variant
from piglia.state import Game
from piglia.variant import Variant


@pytest.fixture(scope="module")
def page(scopa: Variant) -> str:
    return render_markdown(scopa, "en")


def flat(text: str) -> str:
    """The page without Markdown emphasis and with single spaces, so facts can be searched as plain text."""
    return " ".join(text.replace("**", "").split())


def section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert match, f"no section {title!r}"
    return flat(match.group(1))


# -- RULES.md section 1, rule by rule ---------------------------------------------------------------------


def test_S0_1_objective_capture_and_clear_the_table(page: str) -> None:
    objective = section(page, "Objective")
    assert "Capture cards from the table" in objective and "clearing the table" in objective


def test_S0_2_result_checked_only_after_each_deal(page: str) -> None:
    assert "checked only after each deal: reaching 11 during play does not end the game early" in flat(page)


def test_BT_2_an_instant_win_is_not_contradicted_by_the_after_deal_sentence() -> None:
    # BT.2: a team that captures all 13 swords wins at once, so the page must not say flatly that the result is
    # only checked after a deal (it once did, two lines below the instant win).
    text = flat(render_markdown(load_variant("cicera-traditional"), "en"))
    assert "wins the match at once" in text
    assert "The match result is checked only after a deal is complete." not in text
    assert "Apart from the instant win above, the match result is checked only after a deal is complete." in text


def test_S1_1_forty_cards_three_each_four_on_the_table(page: str) -> None:
    assert "40 cards: 4 suits (coins, cups, swords and clubs), each with 10 ranks" in flat(page)
    deal = section(page, "The deal")
    assert "deals 3 cards to each player, one at a time" in deal
    assert "then 4 cards face up on the table" in deal
    assert "The other 30 cards are the stock" in deal


def test_S1_2_non_dealer_leads(page: str) -> None:
    assert "the non-dealer leads" in section(page, "Players")


def test_S1_3_three_re_on_the_opening_table_same_dealer_deals_again(page: str) -> None:
    deal = section(page, "The deal")
    assert "Misdeal: if, once the cards are dealt, the number of cards of rank re on the table is at least 3" in deal
    assert "the same dealer shuffles and deals again" in deal


@pytest.mark.parametrize(
    ("rank", "value"),
    [("asso", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("fante", 8), ("cavallo", 9), ("re", 10)],
)
def test_S1_4_capture_values(page: str, rank: str, value: int) -> None:
    assert re.search(rf"^\| {rank} \| {value} \|", page, re.M)


def test_S1_4_courts_take_part_in_sums(page: str) -> None:
    assert "Courts (face cards): fante, cavallo and re" in flat(page)
    assert "Courts take part in sums too" in flat(page)


def test_S2_1_to_S2_4_and_S2_6_a_turn(page: str) -> None:
    turn = section(page, "Playing a turn")
    assert "play one card from your hand" in turn  # S2.1
    assert "1. match: one table card of the same value as the played card" in turn  # S2.2
    assert "2. sum: a group of table cards whose values add up to the played card's value" in turn  # S2.3
    assert "sum: only when match can take nothing with the played card" in turn  # S2.3
    assert "When several captures are possible, the player chooses one" in turn  # S2.2, S2.3
    assert "Capturing is mandatory" in turn  # S2.4
    assert "puts the played card and the captured cards on the player's pile" in turn  # S2.6
    assert "A card that captures nothing stays face up on the table" in turn  # S2.5


def test_S2_5_the_example_shows_a_match_before_a_sum(page: str) -> None:
    # S2.5: with a card of the same value on the table, only single cards; without it, the sum is taken.
    example = flat(page.split("### Example", 1)[1].split("\n## ", 1)[0])
    assert "(match)" in example and "(sum)" in example
    assert "Not allowed:" in example and "because a capture of higher priority is possible" in example
    assert "Without " in example


def test_S2_5_the_example_is_what_the_engine_allows(scopa: Variant) -> None:
    # The example's moves are legal_moves() of its position, and the match really excludes the sum (S2.3).
    ex = find_example(scopa)
    deck = scopa.deck
    played = deck.cards[ex.played]
    assert all(len(cap) == 1 and deck.cards[cap[0]].value == played.value for cap, _, _ in ex.moves)
    assert ex.excluded and all(sum(deck.cards[c].value for c in cap) == played.value for cap, _ in ex.excluded)
    spare = [c.id for c in deck.cards if c.index not in ex.table and c.index != ex.played]
    state = Game(scopa).position(
        hands=[[played.id, spare[0]], [spare[1]]], table=[deck.cards[c].id for c in ex.table], to_move=0
    )
    legal = {tuple(c.index for c in m.captured) for m in state.legal_moves() if m.card == played}
    assert legal == {cap for cap, _, _ in ex.moves}


def test_S2_7_turns_alternate_and_refill(page: str) -> None:
    assert "With two players, turns alternate" in flat(page)
    assert (
        "When every hand is empty and the stock is not, the dealer deals 3 more cards to each player; none to the table"
        in flat(page)
    )


def test_S3_1_scopa_one_point_except_on_the_last_play(page: str) -> None:
    assert (
        "scopa: 1 point for a capture when there are no cards left on the table after the play, "
        "except on the last play of the deal"
    ) in section(page, "Bonuses during play")


def test_S3_2_leftovers_to_the_last_capturer_without_scopa(page: str) -> None:
    assert "the cards left on the table go to the player who made the last capture, with no bonus for them" in flat(
        page
    )


@pytest.mark.parametrize("lang", languages())
def test_leftovers_to_nobody_are_said_in_every_language(tmp_path: Path, lang: str) -> None:
    """`leftover: nobody` validated, then every rules page of it stopped with an internal error: the page asked
    the catalog for a per-side sentence (leftover.nobody.player) that only the last capturer's rule has."""
    rules = tmp_path / "nobody.yaml"
    rules.write_text("name: nobody\nextends: scopa\nleftover: nobody\n", encoding="utf-8")
    page = render_markdown(load_variant(rules), lang)
    assert load_catalog(lang).messages["leftover.nobody"] in page


def test_S3_3_four_awards_one_point_each_ties_give_nothing(page: str) -> None:
    end = section(page, "Scoring at the end of a deal")
    assert "cards: 1 point to the player for whom the number of cards in the pile is the highest" in end
    assert "coins: 1 point to the player for whom the number of cards of suit coins in the pile is the highest" in end
    assert "settebello: 1 point to the player who captures the 7 of coins" in end
    assert "primiera: 1 point to the player for whom" in end
    assert end.count("A tie gives nothing to anybody") == 3  # the three majorities; the settebello cannot tie


@pytest.mark.parametrize(
    ("rank", "value"),
    [
        ("7", 21),
        ("6", 18),
        ("asso", 16),
        ("5", 15),
        ("4", 14),
        ("3", 13),
        ("2", 12),
        ("fante", 10),
        ("cavallo", 10),
        ("re", 10),
    ],
)
def test_S3_4_primiera_values(page: str, rank: str, value: int) -> None:
    assert "| primiera |" in page
    assert re.search(rf"^\| {rank} \| \d+ \| (yes|no) \| {value} \|$", page, re.M)


def test_S3_4_primiera_needs_every_suit_and_adds_each_suits_best(page: str) -> None:
    end = section(page, "Scoring at the end of a deal")
    assert "the sum, over every suit, of the highest primiera value among the cards of that suit in the pile" in end
    assert "for every suit, there is at least one card of that suit in the pile" in end
    assert "they differ from the capture values" in flat(page)


def test_S3_5_match_to_11_more_than_the_opponent_ties_play_on(page: str) -> None:
    end = section(page, "End of the match")
    assert "at least 11 points and more points than every other wins the match" in end
    assert "If the leaders are tied at 11 or more, another deal is played" in end
    assert "added to each player's match total" in flat(page)


def test_S3_6_dealer_alternates(page: str) -> None:
    assert "the dealer alternates after each completed deal" in section(page, "Players")


def test_page_keeps_description_and_sources(scopa: Variant, page: str) -> None:
    assert " ".join(scopa.description.split()) in page
    assert all(source in page for source in scopa.sources)


# -- Italian --------------------------------------------------------------------------------------------


def test_italian_page_key_facts(scopa: Variant) -> None:
    it = flat(render_markdown(scopa, "it"))
    assert "Il mazziere dà 3 carte a ogni giocatore" in it  # S1.1
    assert "poi 4 carte scoperte sul tavolo" in it  # S1.1
    assert "La presa è obbligatoria" in it  # S2.4
    assert (
        "scopa: 1 punto per una presa quando non ci sono carte rimaste sul tavolo dopo la giocata, "
        "tranne che all'ultima giocata della smazzata" in it
    )  # S3.1
    assert "almeno 11 punti" in it  # S3.5
    assert "In due: inizia chi non ha distribuito" in it  # S1.2
    assert "| asso | 1 | no | 16 |" in it  # S1.4, S3.4


# -- a variant written with extends -------------------------------------------------------------------------


def test_extends_variant_reads_its_own_rules(tmp_path: Path) -> None:
    rules = tmp_path / "scopa-21.yaml"
    rules.write_text(
        "name: scopa-21\ntitle: Scopa to 21\nextends: scopa\nbonuses:\n  scopa: {points: 2}\n"
        "awards:\n  primiera: null\nmatch: {target: 21}\n"
        "notes:\n  - A sweep is worth 2 in this house.\n"
    )
    page = flat(render_markdown(load_variant(str(rules))))
    assert page.startswith("# Scopa to 21 *2 players · match to 21*")
    assert "scopa: 2 points for a capture when there are no cards left on the table after the play" in page
    assert "at least 21 points and more points than every other" in page
    assert "primiera:" not in page  # removed with null; the table of values stays, as the deck still has it
    assert "settebello: 1 point" in page  # inherited
    assert "Notes - A sweep is worth 2 in this house." in page


# -- catalogs ---------------------------------------------------------------------------------------------


def test_every_catalog_has_the_same_keys_and_placeholders() -> None:
    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    en = load_catalog("en").messages
    assert set(languages()) >= {"en", "it"}
    for lang in languages():
        other = load_catalog(lang).messages
        assert set(other) == set(en), f"{lang}: keys differ: {sorted(set(other) ^ set(en))}"
        bad = [k for k in en if fields(other[k]) != fields(en[k])]
        assert bad == [], f"{lang}: placeholders differ in {bad}"


def test_catalogs_are_package_data() -> None:
    folder = Path(piglia.__file__).parent / "locales"
    for lang in languages():
        json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))


# -- docs/variants are generated and up to date ---------------------------------------------------------------


@pytest.mark.parametrize("name", builtin_names())
def test_checked_in_page_is_up_to_date(name: str) -> None:
    path = ROOT / "docs" / "variants" / f"{name}.md"
    assert path.is_file(), f"{path} is missing: run `make docs`"
    expected = render_markdown(load_variant(name), "en")
    assert path.read_text(encoding="utf-8") == expected, f"{path} is out of date with its rule file: run `make docs`"


# -- the command --------------------------------------------------------------------------------------------


def test_cli_writes_and_never_overwrites_without_force(tmp_path: Path) -> None:
    from piglia.cli import main

    out = tmp_path / "rules.md"
    assert main(["rules", "scopa", "--lang", "it", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("# Scopa")
    out.write_text("mine")
    assert main(["rules", "scopa", "-o", str(out)]) == 1
    assert out.read_text() == "mine"
    assert main(["rules", "scopa", "--format", "html", "-o", str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("command", ["rules", "simulate", "play"])
def test_a_link_to_a_missing_file_is_a_name_taken(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """-o and --record onto a symbolic link whose target does not exist: refused before anything is written,
    saying so (it was written to a temporary file and then reported as "created by another program during the
    run", the temporary file left beside it; `play` said it found no free file name)."""
    import io

    from piglia.cli import main

    link = tmp_path / "out.txt"
    link.symlink_to(tmp_path / "missing" / "file")
    argv = {
        "rules": ["rules", "scopa", "-o", str(link)],
        "simulate": ["simulate", "scopa", "--deals", "20", "--record", str(link)],
        "play": ["play", "scopa", "--record", str(link)],
    }[command]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(argv) == 1
    assert f"{link} exists" in capsys.readouterr().err
    assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_cli_bad_variant_is_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    from piglia.cli import main

    assert main(["rules", "no-such-variant"]) == 1
    assert "no variant named 'no-such-variant'" in capsys.readouterr().err


# -- HTML -----------------------------------------------------------------------------------------------------


def test_html_is_self_contained_and_phone_sized(scopa: Variant) -> None:
    page = render_html(scopa, "en")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "<style>" in page and "@media" in page
    assert not re.search(r"(src|href)=|https?://|<script|@import|url\(", page)
    assert "<table>" in page and "<h2>Playing a turn</h2>" in page


def _ink(png: bytes) -> float:
    """The share of non-zero pixel bytes in the PNG's filtered scanlines: 0 for a one-colour page (8-bit RGB/RGBA)."""
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
    pixels = b"".join(raw[i + 1 : i + stride] for i in range(0, len(raw), stride))  # without the filter bytes
    return sum(1 for b in pixels if b) / max(len(pixels), 1)


def test_ink_tells_a_blank_screenshot() -> None:
    def png(rows: list[bytes]) -> bytes:
        def chunk(kind: bytes, body: bytes) -> bytes:
            return len(body).to_bytes(4, "big") + kind + body + b"\0\0\0\0"

        header = (10).to_bytes(4, "big") + len(rows).to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
        body = zlib.compress(b"".join(b"\x02" + r for r in rows))  # filter "Up": a blank page is all zeros
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body)

    assert _ink(png([b"\0" * 30] * 10)) == 0
    assert _ink(png([b"\x05\x00\x07" * 10] * 10)) > 0.5


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(_chromium() is None, reason="chromium is not installed (apt-get install chromium)")
def test_html_renders_in_headless_chromium(scopa: Variant, tmp_path: Path) -> None:
    page = tmp_path / "scopa.html"
    page.write_text(render_html(scopa, "en"), encoding="utf-8")
    shot = tmp_path / "shot.png"
    browser = _chromium()
    assert browser is not None
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=390,844",
            f"--screenshot={shot}",
            page.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert shot.is_file(), "chromium produced no screenshot"
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (390, 844)
    assert _ink(data) > 0.01, "the screenshot is blank"
    keep = ROOT / ".pytest_cache" / "rules-page-phone.png"
    keep.parent.mkdir(exist_ok=True)
    keep.write_bytes(data)  # for a person to look at


def test_an_instant_win_is_on_the_page() -> None:
    # BT.2: a team that captures all 13 swords wins the match at once; the match end phrases itself.
    page = render_markdown(load_variant("cicera-traditional"))
    end = page.split("## End of the match")[1].split("## ")[0]
    assert "wins the match at once" in end
    assert "the number of cards of suit swords in the pile is 13" in end


def test_the_example_search_is_bounded_by_the_kinds_conditions(tmp_path: Path) -> None:
    # The worked example tries random positions, asking every kind for its captures each time; a kind's `when` near
    # the cost limit of an expression made a page take minutes. Such rules get fewer tries; the built-in games all.
    assert {example_tries(load_variant(name)) for name in builtin_names()} == {1500}
    when = "count(c for c in deck where count(d for d in deck where d in table and c.value + d.value > 18) > 0) < 99"
    path = tmp_path / "costly.yaml"
    path.write_text(f'name: costly\nextends: scopa\ncapture:\n  kinds:\n    sum: {{type: sum, when: "{when}"}}\n')
    costly = load_variant(str(path))
    assert 20 <= example_tries(costly) < 1500
    example = find_example(costly)  # still an example: a capture with its kind
    assert example.moves


# -- rule-file text on the page: shown as written, never Markdown --------------------------------------------------


def _rule_file(tmp_path: Path, rules: dict[str, object]) -> Variant:
    """A variant extending scopa with ``rules`` on top, written as JSON (which YAML reads) so any text goes in."""
    path = tmp_path / "texts.yaml"
    path.write_text(json.dumps({"name": "texts", "extends": "scopa", **rules}, ensure_ascii=False), encoding="utf-8")
    return load_variant(str(path))


def _as_html(text: str) -> str:
    """``text`` folded to one line as markdown-it writes plain text in HTML."""
    return html.escape(" ".join(text.split()), quote=False).replace('"', "&quot;")


_REDEAL = "count(table where rank == re) >= 3"


def test_rule_file_text_cannot_make_headings_tables_or_rules(tmp_path: Path) -> None:
    # A name with "|" or a newline broke the rank table (the HTML page had no table at all); a title with a
    # newline became a heading, a rule and a paragraph; a reason with newlines brought a heading and a table; a
    # description or a note starting with "#" became a heading.
    variant = _rule_file(
        tmp_path,
        {
            "title": "Line one\n\n---\n\n<b>x</b> | y",
            "description": "## Players\n\nfake",
            "notes": ["# Huge note", "| a | b |", "|---|---|", "1. one", "- dash", "> quote", "***", "```"],
            "sources": ["---", "=== setext"],
            "deal": {
                "redeal": {"when": _REDEAL, "reason": "three re\n\n## Fake heading\n\n| a | b |\n|---|---|\n| c |"}
            },
            "translations": {
                "en": {
                    "names": {
                        "asso": "ace | x",
                        "primiera": "prim\nera",
                        "fante": "#jack",
                        # suits: in cards (the example), in the deck's sentence and in phrased expressions
                        **{
                            suit: f"{suit}\n\n# {suit}\n\n| a |\n|---|" for suit in ("coins", "cups", "swords", "clubs")
                        },
                    }
                }
            },
        },
    )
    md = render_markdown(variant)
    headings = [line for line in md.splitlines() if line.startswith("#")]
    assert [h for h in headings if not h.startswith(("## ", "### "))] == [headings[0]]  # the title, and one line
    assert headings[0].startswith("# Line one") and "x" in headings[0]
    assert not any("Fake" in h or "Huge" in h or "fake" in h for h in headings)
    rows = [line for line in md.splitlines() if line.startswith("|")]
    assert len(rows) == 12 and all(re.sub(r"\\.", "", row).count("|") == 5 for row in rows)  # 4 cells each

    page = render_html(variant)
    assert page.count("<table>") == 1 and page.count("<h1>") == 1 and page.count("<hr />") == 1  # the footer's
    assert page.count("<h2>Players</h2>") == 1 and "<h2>Fake heading</h2>" not in page
    assert not re.search(r"<(blockquote|ol|h[13-6])\b", page.split("<h2>Notes</h2>")[1])  # notes and sources
    table = page.split("<table>")[1].split("</table>")[0]
    assert all(row.count("<td>") + row.count("<th>") == 4 for row in table.split("<tr>")[1:])
    assert "<td>ace | x</td>" in table and "<th>prim era</th>" in table and "<td>#jack</td>" in table
    notes = re.findall(r"<li>(.*?)</li>", page.split("<h2>Notes</h2>")[1].split("</ul>")[0])
    assert notes == ["# Huge note", "| a | b |", "|---|---|", "1. one", "- dash", "&gt; quote", "***", "```"]


@pytest.mark.parametrize("seed", range(3))
def test_rule_file_text_shows_exactly_as_written(tmp_path: Path, seed: int) -> None:
    # Random texts of Markdown's special characters, in every place of the page a rule file's text goes: the
    # title (a heading), the description (a paragraph), notes and sources (list items), a reason (mid-sentence),
    # rank names (table cells) and kind names (between ** **). Each shows as written, whitespace folded.
    rng = random.Random(seed)
    pieces = [*"\\`*_[]()<>|#&;!-+=~.:1 \n\t\"'aé«", "```", "---", "1.", "&amp;", "&#106;", "](", "![", "<http://e.x>"]

    def text(longest: int, *, code: bool = True) -> str:
        while True:  # a text with something besides whitespace; prose without backticks: code spans stay code
            found = "".join(rng.choice(pieces) for _ in range(rng.randint(1, longest)))
            if found.split() and (code or "`" not in found):
                return found

    notes = [text(12, code=False) for _ in range(120)]
    sources = [text(12, code=False) for _ in range(40)]
    title, description, reason = (text(12, code=False) for _ in range(3))
    ranks = ["asso", "2", "3", "4", "5", "6", "7", "fante", "cavallo", "re"]
    suits = ["coins", "cups", "swords", "clubs"]
    names = {ident: text(6) for ident in [*ranks, *suits, "match", "sum"]}
    variant = _rule_file(
        tmp_path,
        {
            "title": title,
            "description": description,
            "notes": notes,
            "sources": sources,
            "deal": {"redeal": {"when": _REDEAL, "reason": reason}},
            "translations": {"en": {"names": names}},
        },
    )
    page = render_html(variant)

    def items(heading: str) -> list[str]:
        return re.findall(r"<li>(.*?)</li>", page.split(f"<h2>{heading}</h2>")[1].split("</ul>")[0], re.S)

    assert f"<h1>{_as_html(title)}</h1>" in page
    assert f"<title>{html.escape(' '.join(title.split()))}</title>" in page
    assert f"<p>{_as_html(description)}</p>" in page
    assert f"“{_as_html(reason)}”" in page
    assert items("Notes") == [_as_html(n) for n in notes]
    assert items("Sources") == [_as_html(s) for s in sources]
    table = page.split("<tbody>")[1].split("</tbody>")[0]
    assert re.findall(r"<tr>\n<td>(.*?)</td>", table) == [_as_html(names[r]) for r in ranks]
    assert f"<strong>{_as_html(names['match'])}</strong>: " in page
    assert f"<strong>{_as_html(names['sum'])}</strong>: " in page
    assert not re.search(r"<img|<a ", MarkdownIt("commonmark").enable("table").render(render_markdown(variant)))
    first, second, third, fourth = (_as_html(names[s]) for s in suits)
    assert f"4 suits ({first}, {second}, {third} and {fourth}), each" in page
    assert f"the number of cards of suit {first} in the pile" in page  # a phrased expression (the coins award)
    example = page.split("<h3>Example</h3>")[1].split("<h2>")[0]
    assert any(f" of {_as_html(names[s])}" in example for s in suits)  # the example's cards


def test_rule_file_text_cannot_link_or_fetch(tmp_path: Path) -> None:
    # A Markdown image in a description was an <img> fetching from the network in the "no network" HTML page; links
    # and autolinks came through too, and raw HTML must stay text.
    variant = _rule_file(
        tmp_path,
        {
            "description": "Desc ![track](http://evil.example/t.png) [click](javascript:alert(1)) <http://e.x/> <img>",
            "notes": ["[a]: http://evil.example/", "[a] and [b][a]", "&#106;avascript"],
            "sources": [
                "<javascript:alert(1)>",
                "[a](JaVaScRiPt:alert(1))",
                "![d](data:image/svg+xml;base64,PHN2Zz4=)",
            ],
            "translations": {"en": {"names": {"coins": "![c](http://evil.example/c.png)"}}},
        },
    )
    page = render_html(variant)
    assert not re.search(r"<img|<a |(src|href)=", page)
    # The Markdown itself links nothing either, read by a renderer that does make links and images (as GitHub's).
    assert not re.search(r"<img|<a ", MarkdownIt("commonmark").enable("table").render(render_markdown(variant)))
    assert "![track](http://evil.example/t.png)" in page and "&lt;http://e.x/&gt; &lt;img&gt;" in page
    assert "<li>[a]: http://evil.example/</li>" in page and "<li>&amp;#106;avascript</li>" in page


def test_the_html_renderer_makes_no_images_or_links(monkeypatch: pytest.MonkeyPatch, scopa: Variant) -> None:
    # The second wall: whatever Markdown reaches the HTML page (a plugin's phrasing, say), no image, link, autolink
    # or link reference comes out of it.
    import piglia.rulespage

    markdown = "# T\n\n![i](http://e.x/i.png) [l](http://e.x/) <http://e.x/a> [r]\n\n[r]: http://e.x/r\n"
    monkeypatch.setattr(piglia.rulespage, "render_markdown", lambda variant, lang="en": markdown)
    page = render_html(scopa)
    assert not re.search(r"<img|<a |(src|href)=", page)
    assert "![i](http://e.x/i.png) [l](http://e.x/) &lt;http://e.x/a&gt; [r]" in page


def test_code_spans_in_notes_stay_code(tmp_path: Path) -> None:
    # The built-in translations write code in notes (`diamonds: aliases [coins]`); a well-formed code span stays
    # one, so the escaping changes no built-in page. An unclosed backtick is a backtick.
    french = render_html(load_variant("scopa-french"), "it")
    assert "<code>diamonds: aliases [coins]</code>" in french
    variant = _rule_file(tmp_path, {"notes": ["Write `a | *b*` here, and ``x ` y`` too; one ` alone"]})
    assert "<li>Write <code>a | *b*</code> here, and <code>x ` y</code> too; one ` alone</li>" in render_html(variant)


def test_a_string_in_an_expression_shows_as_written(tmp_path: Path) -> None:
    # An expression's string literal is phrased in quotes ("when “...” is “x”"): rule-file text like any other.
    literal = "a\n\n# H\n\n| a |\n|---|\n![i](http://e.x/i.png) *b* `c"
    variant = _rule_file(
        tmp_path, {"bonuses": {"odd": {"points": 1, "when": f'{json.dumps(literal)} == "x" or empty(table_after)'}}}
    )
    md = render_markdown(variant)
    assert not any(line.startswith(("# H", "| a |")) for line in md.splitlines())
    page = render_html(variant)
    assert f"“{_as_html(literal)}”" in page and "<img" not in page
