"""Rules pages and catalogs in the seven languages of issue 13: English, Italian and the source pages' Finnish,
Hungarian, Portuguese, Estonian (Scopa) and Turkish (Cicera).

The words looked for are written here from the source pages' own vocabulary (never read from the catalogs),
so a catalog that fell back to English, or a page that mixed in the rule file's English names, fails.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from piglia.errors import SpecErrors
from piglia.locales import languages, load_catalog
from piglia.rulespage import render_html, render_markdown
from piglia.spec import builtin_names, load_variant
from piglia.texts import VariantTexts
from piglia.variant import Variant

SEVEN = ("en", "it", "fi", "hu", "pt", "et", "tr")

# Per language: headings and game words a reader of the source page expects on the Scopa page, and the Italian
# deck's suits in that language (the page's list of suits).
SCOPA_WORDS = {
    "it": (["## Scopo del gioco", "## La distribuzione", "mazziere", "punti"], "denari, coppe, spade e bastoni"),
    "fi": (["## Tavoite", "## Jako", "jakaja", "pistettä"], "kolikot, maljat, miekat ja nuijat"),
    "hu": (["## Célkitűzés", "## Az osztás", "osztó", "pont"], "érmék, kupák, kardok és botok"),
    "pt": (["## Objetivo", "## A distribuição", "distribuidor", "pontos"], "ouros, copas, espadas e paus"),
    "et": (["## Eesmärk", "## Jagamine", "jagaja", "punkti"], "mündid, karikad, mõõgad ja nuiad"),
    "tr": (["## Amaç", "## Dağıtım", "dağıtıcı", "puan"], "madeni para, kupa, kılıç ve sopa"),
}
ENGLISH = re.compile(r"\b(coins|cups|swords|clubs|player|players|table|deal|points?|of)\b")


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


SOURCES = ("Fonti", "Lähteet", "Források", "Fontes", "Allikad", "Kaynaklar")


def body(page: str) -> str:
    """The page without its sources section and footer (they quote file names and commands)."""
    first, *sections = page.split("\n## ")
    return first + "".join("\n## " + s for s in sections if not s.startswith(SOURCES))


def test_every_language_has_a_complete_catalog() -> None:
    assert set(SEVEN) <= set(languages())
    en = load_catalog("en").messages
    for lang in SEVEN:
        msgs = load_catalog(lang).messages
        assert set(msgs) == set(en), lang
        assert all(v.strip() for v in msgs.values()), lang
        assert [k for k in en if fields(msgs[k]) != fields(en[k])] == [], lang
        if lang != "en":
            # a translation, not a copy: only short shared words (names like "fante", "(x)", "{a}, {b}") match
            same = [k for k in en if msgs[k] == en[k] and len(re.sub(r"\{\w+\}|\W", "", en[k])) > 8]
            assert same == [], (lang, same)


@pytest.mark.parametrize("lang", sorted(SCOPA_WORDS))
def test_scopa_page_in_each_language(scopa: Variant, lang: str) -> None:
    words, suits = SCOPA_WORDS[lang]
    page = render_markdown(scopa, lang)
    for word in words:
        assert word in page, (lang, word)
    assert f"({suits})" in page  # S1.1: the four suits, by their names in this language
    assert "> " not in page.split("## ")[0]  # complete translation: no note about untranslated texts
    english = ENGLISH.findall(body(page))
    assert english == [], (lang, english[:10])


@pytest.mark.parametrize("lang", ["it", "tr"])
def test_cicera_page_in_its_languages(lang: str) -> None:
    page = render_markdown(load_variant("cicera"), lang)
    top = page.split("## ")[0]
    assert "Four players" not in page and "> " not in top
    assert "coins" not in page and "cups" not in page and "of coins" not in page
    assert ENGLISH.findall(body(page)) == []
    if lang == "it":
        assert "denari, coppe, spade e bastoni" in page and "**10 di denari**" in page
        assert "7 di coins" not in page and " di la " not in page and " di il " not in page
        assert "Quattro giocatori in due coppie" in top
    else:
        assert "madeni para, kupa, kılıç ve sopa" in page and "**madeni para 10**" in page and "**kupa fante**" in page
        assert "İki ortaklıkta dört oyuncu" in top


def test_a_missing_translation_is_said_once_at_the_top(tmp_path: Path) -> None:
    """A file of Cicera's rules without its Finnish texts: the page says so once, before the (English)
    description, naming what is shown as written; the common names (suits, ranks) are still Finnish."""
    text = (Path(__file__).parents[1] / "variants" / "cicera.yaml").read_text(encoding="utf-8")
    path = tmp_path / "cicera-home.yaml"  # Cicera's rules, its translations cut off
    path.write_text(text.split("\ntranslations:")[0].replace("name: cicera", "name: cicera-home"), encoding="utf-8")
    page = render_markdown(load_variant(str(path)), "fi")
    notes = [line for line in page.splitlines() if line.startswith("> ")]
    assert len(notes) == 1 and page.index(notes[0]) < page.index("Four players") < page.index("## ")
    for what in ("kuvaus", "huomautukset", "`mata`", "`napula`", "`ten_of_coins`"):
        assert what in notes[0]
    assert "(kolikot, maljat, miekat ja nuijat)" in page


def test_english_pages_read_names_with_spaces() -> None:
    page = render_markdown(load_variant("cicera"), "en")
    assert "**ten of coins**" in page and "ten_of_coins" not in page
    assert "> " not in page.split("## ")[0]


def test_html_page_carries_its_language_and_title() -> None:
    page = render_html(load_variant("cicera"), "tr")
    assert '<html lang="tr">' in page and "<title>Cicera</title>" in page and "Amaç" in page


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_file_that_retitles_drops_the_inherited_title_translation(tmp_path: Path) -> None:
    """A house variant written in English over Scopa: its own title is not translated, so the Italian page
    shows it as written and says so; the inherited names (settebello, denari) stay Italian."""
    ref = write(tmp_path, "house.yaml", "name: house\ntitle: House Scopa\nextends: scopa\nmatch: {target: 21}\n")
    texts = VariantTexts(load_variant(ref), "it")
    assert texts.title == "House Scopa" and "title" in texts.missing()
    assert texts.description.startswith("Due giocatori")  # the description is scopa's, and so is its translation
    page = render_markdown(load_variant(ref), "it")
    assert page.startswith("# House Scopa") and "il titolo" in page and "7 di denari" in page
    translated = write(tmp_path, "house-it.yaml", "name: house-it\ntitle: House Scopa\nextends: scopa\n"
                       "translations:\n  it: {title: Scopa di casa}\n")  # fmt: skip
    assert render_markdown(load_variant(translated), "it").startswith("# Scopa di casa\n")


def test_translations_leave_the_fingerprint_alone(tmp_path: Path) -> None:
    plain = write(tmp_path, "a.yaml", "name: a\nextends: scopa\n")
    told = write(tmp_path, "b.yaml", "name: a\nextends: scopa\ntranslations:\n  fi: {title: Kotiscopa}\n")
    assert load_variant(plain).sha256 == load_variant(told).sha256


def test_a_misspelt_translation_key_is_a_located_error(tmp_path: Path) -> None:
    ref = write(tmp_path, "bad.yaml", "name: bad\nextends: scopa\ntranslations:\n  it:\n    titel: Scopa\n")
    with pytest.raises(SpecErrors) as info:
        load_variant(ref)
    message = info.value.errors[0].format()
    assert "bad.yaml:5:" in message and "translations.it" in message and "titel" in message


# Every built-in speaks every language of the pages and the table throughout: a person who chose Turkish or
# Hungarian at the web table plays any game in it, with no rule text or name left in English.
REQUIRED: dict[str, tuple[str, ...]] = {n: tuple(lang for lang in SEVEN if lang != "en") for n in builtin_names()}


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_each_built_in_speaks_its_languages_throughout(name: str) -> None:
    variant = load_variant(name)
    for lang in REQUIRED[name]:
        assert VariantTexts(variant, lang).missing() == [], (name, lang)
        page = render_markdown(variant, lang)
        prose = re.sub(r"`[^`]*`", "", body(page))  # code quoted from the rule file stays as written
        found = re.findall(r"\b(coins|cups|swords|clubs|diamonds|hearts|spades|the|of|and|with)\b", prose)
        assert found == [], (name, lang, found[:10])


def test_words_fuse_where_the_language_fuses_them(scopa: Variant) -> None:
    """Italian "di la carta" is "della carta"; Hungarian "a" is "az" before a vowel: the seams between
    composed phrases follow each language (the catalog's contractions)."""
    it = render_markdown(load_variant("cicera"), "it")
    assert "della carta giocata" in it and not re.search(r"\b(di|a|da|in|su) (il|la|le|i|gli)\b", it)
    hu = render_markdown(scopa, "hu")
    assert "az **egyező érték**" in hu
    assert not re.search(r"\b[Aa] (\*\*)?[aáeéiíoóöőuúüű]", hu)
    pt = render_markdown(load_variant("cicera-traditional"), "pt")
    assert not re.search(r"\b(de|em) (o|a|os|as)\b", pt)


def test_a_rewritten_reason_is_not_shown_in_its_old_translation(tmp_path: Path) -> None:
    ref = write(
        tmp_path,
        "house.yaml",
        "name: house\nextends: scopa\ndeal:\n  redeal: {reason: three kings or more}\n",
    )
    texts = VariantTexts(load_variant(ref), "it")
    assert texts.reason("redeal") == "three kings or more" and texts.missing() == ["reasons"]
    assert "i motivi" in render_markdown(load_variant(ref), "it").split("## ")[0]
    assert VariantTexts(load_variant("scopa"), "it").reason("redeal") == "tre o più re sul tavolo iniziale"


@pytest.mark.parametrize("lang", [lang for lang in SEVEN if lang not in ("en", "pt")])
def test_a_french_decks_clubs_are_never_named_as_the_italian_decks(lang: str) -> None:
    """The catalogs' `clubs` is the Italian deck's suit (bastoni, nuijat, botok, nuiad, sopa: docs/language.md,
    translations); a built-in of French cards names its clubs itself (fiori, risti, treff, risti, sinek), so no
    page or table shows a French deck with an Italian suit. (Portuguese says paus for both.)"""
    italian = load_catalog(lang).messages["name.clubs"]
    french = [n for n in builtin_names() if {"diamonds", "clubs"} <= {s.name for s in load_variant(n).deck.suits}]
    assert len(french) >= 8  # basra, cassino, chkobba, cirulla, pisti, scopa-french, scopa-numerals, tablanette
    named = {n: VariantTexts(load_variant(n), lang).name("clubs") for n in french}
    assert [n for n, word in named.items() if word == italian] == [], (lang, italian)


def test_a_kind_named_in_a_condition_is_named_in_the_pages_language() -> None:
    """Scopa d'Assi's sweep scores unless the capture is the asso's (`kind != "ace"`, RULES.md F3): the page
    names that kind as the file translates it (the string was shown as the file wrote it, in every language)."""
    variant = load_variant("scopa-d-assi")
    italian = render_markdown(variant, "it")
    assert "«asso piglia tutto»" in italian and "«ace»" not in italian
    assert "“ace”" in render_markdown(variant, "en")
