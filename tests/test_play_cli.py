"""``piglia play`` and ``piglia tournament`` driven as a user drives them: a subprocess, keystrokes on stdin."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import run_piglia


def test_play_a_whole_scopa_match_answering_1(tmp_path: Path) -> None:
    result = run_piglia("play", "scopa", "--opponents", "greedy", "--seed", "11", stdin="1\n" * 2000, cwd=tmp_path)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in out + result.stderr
    assert re.search(r"You (win|lose) the match \d+-\d+\.", out)
    assert "Your hand: " in out and "Table: " in out and "Match score: " in out
    assert re.search(r"^  1\) \S.* (takes|stays on the table)", out, re.M)
    assert re.search(r"^Opponent \(greedy\): ", out, re.M)
    for award in ("cards", "coins", "settebello", "primiera"):
        assert re.search(rf"\b{award}\b.*\b(You|Opponent|nobody)\b", out)
    records = list(tmp_path.glob("piglia-scopa-11*.jsonl"))
    assert len(records) == 1
    replay = run_piglia("replay", records[0].name, cwd=tmp_path)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    # the same again never overwrites the first record
    again = run_piglia("play", "scopa", "--opponents", "random", "--seed", "11", stdin="q\n", cwd=tmp_path)
    assert again.returncode == 0 and len(list(tmp_path.glob("piglia-scopa-11*.jsonl"))) == 2


def test_every_capture_alternative_is_listed(tmp_path: Path) -> None:
    # seed 3: the opening hand's 6 of cups can take 2 + 4, its 5 of swords asso + 4, its 7 of swords the 7
    result = run_piglia("play", "scopa", "--opponents", "random", "--seed", "3", stdin="q\n", cwd=tmp_path)
    out = result.stdout
    listed = re.findall(r"^  (\d+)\) (.*)$", out, re.M)
    hand = re.search(r"^Your hand: (.*)$", out, re.M)
    table = re.search(r"^Table: (.*)$", out, re.M)
    assert hand and table and listed
    assert [int(n) for n, _ in listed] == list(range(1, len(listed) + 1))
    for _, text in listed:
        card, _, taken = text.partition(" takes ")
        assert card.removesuffix(" stays on the table") in hand.group(1)
        for name in taken.split(" + ") if taken else []:
            assert name in table.group(1)


def test_invalid_input_asks_again_and_eof_keeps_the_record(tmp_path: Path) -> None:
    result = run_piglia(
        "play", "scopa", "--opponents", "random", "--seed", "5", "--record", "mine.jsonl",
        stdin="hello\n0\n99\n\n1\n", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout.count("Please answer with a number from 1 to") == 4
    assert "Game stopped; the record so far is in mine.jsonl" in result.stdout
    events = [json.loads(line) for line in (tmp_path / "mine.jsonl").read_text().splitlines()]
    assert events[0]["event"] == "header" and any(e["event"] == "play" and e["player"] == 0 for e in events)
    refused = run_piglia("play", "scopa", "--record", "mine.jsonl", stdin="q\n", cwd=tmp_path)
    assert refused.returncode == 1 and "exists" in refused.stderr


def test_a_match_past_an_engine_limit_stops_with_the_message_and_keeps_the_record(tmp_path: Path) -> None:
    """Tablanette whose sets kind allows 2 captures a card (T2.1; a file that validates): with seed 0 the first
    position already has a card with more. The game says why it cannot go on and where the record so far is."""
    tight = str(Path(__file__).parent / "data" / "tight.yaml")
    result = run_piglia("play", tight, "--seed", "0", "--record", "t.jsonl", stdin="1\n" * 10, cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr
    assert result.stderr.startswith("piglia: the match cannot go on: capture.kinds.sets: the ")
    assert result.stderr.rstrip().endswith("; the record so far is in t.jsonl")
    events = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert events[0]["event"] == "header" and events[1]["event"] == "deal"


def test_a_whole_brescian_deal_with_an_ai_partner(tmp_path: Path) -> None:
    """B0.1: partners sit opposite (seats 0 and 2): the person plays seat 0, an AI the partner; B1.1 and B4.4:
    twelve cards each and one deal, played to the end."""
    result = run_piglia("play", "cicera", "--opponents", "greedy", "--seed", "2", stdin="1\n" * 100, cwd=tmp_path)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert re.search(r"^Seat 2 \(your partner, greedy\): ", out, re.M)
    assert re.search(r"^Seat 1 \(opponent, greedy\): ", out, re.M)
    assert re.search(r"^Seat 3 \(opponent, greedy\): ", out, re.M)
    assert "End of deal 1" in out and re.search(r"You (win|lose) the match|The match is a draw", out)
    assert len(re.findall(r"^Your move \[", out, re.M)) == 12
    for award in ("cards", "swords", "mata", "napula"):
        assert re.search(rf"^. {award} ", out, re.M)
    records = list(tmp_path.glob("piglia-cicera-2*.jsonl"))
    assert len(records) == 1 and run_piglia("replay", records[0].name, cwd=tmp_path).returncode == 0


def test_tournament_json(tmp_path: Path) -> None:
    result = run_piglia("tournament", "scopa", "--players", "greedy,random", "--matches", "4", "--seed", "1", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    names = [p["name"] for p in data["players"]]
    assert names == ["greedy", "random"]
    for p in data["players"]:
        assert {"name", "matches", "wins", "losses", "draws", "win_rate", "ci95"} <= set(p)
        assert p["matches"] == 4 and len(p["ci95"]) == 2
    text = run_piglia("tournament", "scopa", "--players", "greedy,random", "--matches", "2")
    assert text.returncode == 0 and "95% CI" in text.stdout and "settebello" in text.stdout
    bad = run_piglia("tournament", "scopa", "--players", "greedy")
    assert bad.returncode == 1 and "two players" in bad.stderr


def test_coach_on_request_and_after_a_deal(tmp_path: Path) -> None:
    """S2.3, S3.1 (seed 3, first turn): the 6 of cups taking 2 + 4 leaves asso + 7 = 8 for any fante to sweep;
    the 7 of swords taking the 7 of cups leaves 2 + 4 + asso = 7, which only the two unseen 7s sweep. Asked
    with ?, the coach lists every move with its estimate and says which is best and why; with --coach it
    also reviews the deal when it ends."""
    asked = run_piglia("play", "scopa", "--opponents", "greedy", "--seed", "3", stdin="?\nq\n", cwd=tmp_path)
    out = asked.stdout
    assert asked.returncode == 0, asked.stderr
    assert re.search(r"Best: 7 of swords takes 7 of cups: .+\.", out)
    rows = re.findall(r"^. (\d)\) (.+?) +. ([+-]\d\.\d\d) +. ([+-]\d\.\d\d) +. +(\d+)% +.$", out, re.M)
    assert sorted(int(r[0]) for r in rows) == [1, 2, 3]
    risk = {r[1]: int(r[4]) for r in rows}
    assert risk["6 of cups takes 2 of cups + 4 of swords"] > risk["7 of swords takes 7 of cups"] > 0
    coached = run_piglia("play", "scopa", "--opponents", "greedy", "--seed", "3", "--coach", stdin="1\n" * 18 + "q\n",
                     cwd=tmp_path)  # fmt: skip
    assert coached.returncode == 0, coached.stderr
    assert "End of deal 1" in coached.stdout
    assert re.search(r"^Coach: (.+ lost \d\.\d\d points against .+\.|no move of yours)", coached.stdout, re.M)
    # the same in Italian: the table, the best move and why, in the words of --lang
    italian = run_piglia(
        "play", "scopa", "--opponents", "greedy", "--seed", "3", "--lang", "it", stdin="?\nq\n", cwd=tmp_path
    )
    assert italian.returncode == 0, italian.stderr
    assert "punti in questa smazzata" in italian.stdout
    assert re.search(r"Migliore: 7 di spade prende 7 di coppe: .+ punti meglio di .+\.", italian.stdout)


# -- what the page shows, in the terminal too (issue 13, item 4) ------------------------------------------------

PRIMIERA = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "F": 10, "C": 10, "R": 10}  # S3.4


def piles_of_each_deal(events: list[dict[str, object]]) -> list[list[list[str]]]:
    """Per deal, each seat's captured cards, rebuilt from the record (two players: seat = team)."""
    deals: list[list[list[str]]] = []
    for e in events:
        if e["event"] == "deal":
            deals.append([[], []])
        elif e["event"] == "play" and e["captured"]:
            deals[-1][int(e["player"])] += [str(e["card"]), *map(str, e["captured"])]  # type: ignore[call-overload]
        elif e["event"] == "deal_end" and e["leftover"]["team"] is not None:  # type: ignore[index]
            deals[-1][e["leftover"]["team"]] += e["leftover"]["cards"]  # type: ignore[index]
    return deals


def primiera(pile: list[str]) -> int | None:
    best: dict[str, int] = {}
    for card in pile:
        rank, suit = card[:-1], card[-1]
        best[suit] = max(best.get(suit, 0), PRIMIERA[rank])
    return sum(best.values()) if len(best) == 4 else None


def test_S3_3_S3_4_score_sheet_shows_the_counts_behind_each_award(tmp_path: Path) -> None:
    """The end-of-deal sheet gives, for each majority, both sides' counts (cards, coins, primiera), as counted
    here from the record's captures by RULES.md S3.3 and S3.4, and the award goes to the larger count."""
    result = run_piglia("play", "scopa", "--opponents", "greedy", "--seed", "11", "--record", "m.jsonl",
                    stdin="1\n" * 2000, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text().splitlines()]
    sheets = re.findall(r"^End of deal (\d+)\n(.*?)^Points this deal", result.stdout, re.M | re.S)
    deals = piles_of_each_deal(events)
    assert len(sheets) == len(deals) >= 2
    for (_, sheet), piles in zip(sheets, deals, strict=True):
        rows = {m[0]: m[1:] for m in re.findall(r"^. (\w+) +. ([\d–-]*) +. (\w+) +. (\d+) +.$", sheet, re.M)}
        assert set(rows) == {"cards", "coins", "settebello", "primiera"}
        mine, theirs = len(piles[0]), len(piles[1])
        assert rows["cards"][0] == f"{mine}-{theirs}" and mine + theirs == 40  # S1.1: every card ends in a pile
        coins = [sum(c.endswith("d") for c in p) for p in piles]
        assert rows["coins"][0] == f"{coins[0]}-{coins[1]}"
        prim = [primiera(p) for p in piles]
        assert rows["primiera"][0] == "-".join("–" if v is None else str(v) for v in prim)
        for award, (a, b) in (("cards", (mine, theirs)), ("coins", coins)):
            winner = "You" if a > b else "Opponent" if b > a else "nobody"
            assert rows[award][1] == winner, (award, rows[award])
        assert rows["settebello"][0] == ""  # a card is held, nothing to count
        assert rows["settebello"][1] == ("You" if "7d" in piles[0] else "Opponent")


def test_S3_1_sweeps_and_bonuses_are_marked_before_choosing(tmp_path: Path) -> None:
    """S3.1: a capture that takes every table card clears the table and, but on the deal's last play, scores a
    scopa. Every listed move that clears the table says so, and only those; the scopa mark names the bonus."""
    result = run_piglia("play", "scopa", "--opponents", "greedy", "--seed", "11", stdin="1\n" * 2000, cwd=tmp_path)
    blocks = re.findall(r"^Table: (.*)\nYour hand: .*\nYour moves:\n((?:  \d+\) .*\n)+)", result.stdout, re.M)
    assert blocks
    marked = 0
    for table_text, moves_text in blocks:
        table = set(table_text.split(", ")) if table_text != "(empty)" else set()
        for line in moves_text.splitlines():
            text, _, mark = line.partition("  ★ ")
            _, _, taken = text.partition(" takes ")
            clears = bool(taken) and set(taken.split(" + ")) == table
            assert ("clears the table" in mark) == clears, line
            if "scopa +1" in mark:
                assert clears
                marked += 1
    assert marked >= 1


def test_B3_running_score_counts_this_deals_bonuses(tmp_path: Path) -> None:
    """B3.1-B3.5: bonuses score at once. Before each of the person's turns the score includes every bonus shown
    so far in the deal (here the opponents' picadas), not only after the deal ends."""
    result = run_piglia("play", "cicera", "--opponents", "greedy", "--seed", "2", stdin="1\n" * 100, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    ours = theirs = 0
    checked = 0
    for line in result.stdout.splitlines():
        play = re.match(r"^(You|Seat \d \((your partner|opponent), greedy\)): .*?((?:; \S+ \+\d+)*)$", line)
        if play:
            points = sum(int(p) for p in re.findall(r"\+(\d+)", play.group(3)))
            if play.group(1) == "You" or play.group(2) == "your partner":
                ours += points
            else:
                theirs += points
        score = re.match(r"^Deal 1\. Score: Your team (\d+), Opponents (\d+)", line)
        if score:
            assert (int(score.group(1)), int(score.group(2))) == (ours, theirs), line
            checked += 1
            if theirs or ours:
                assert f"(this deal so far: Your team {ours}, Opponents {theirs})" in line
    assert checked == 12 and ours + theirs > 0


def test_S2_3_S2_4_an_illegal_typed_move_gets_the_engines_reason(tmp_path: Path) -> None:
    """Seed 3: the hand holds the 6 of cups, 5 and 7 of swords; the table the 2 of cups, 4 and asso of swords
    and the 7 of cups. S2.4: the 7 of swords must capture; S2.3: it takes the 7 of cups, not a sum."""
    answers = "7s\n7s x 2c\n5d\n7s x 3d\nq\n"
    out = run_piglia("play", "scopa", "--opponents", "greedy", "--seed", "3", stdin=answers, cwd=tmp_path).stdout
    refusals = re.findall(r"Not allowed: (.*?)\. Please answer", out)
    assert len(refusals) == 4, out
    assert "must capture" in refusals[0] and "7c" in refusals[0]
    assert "cannot take that; it can take 7c" in refusals[1]
    assert "does not hold the 5 of coins" in refusals[2]
    assert "3 of coins is not on the table" in refusals[3]
    it = run_piglia(
        "play", "scopa", "--opponents", "greedy", "--seed", "3", "--lang", "it", stdin=answers, cwd=tmp_path
    )
    reasons = re.findall(r"Non è consentito: (.*?)\. Rispondi", it.stdout)
    assert reasons[0] == "7 di spade deve prendere (la presa è obbligatoria): 7 di coppe"
    assert reasons[1] == "7 di spade non può prendere questo; può prendere 7 di coppe"
    assert reasons[2] == "non hai in mano 5 di denari" and reasons[3] == "3 di denari non è sul tavolo"


def test_two_players_are_you_and_opponent(tmp_path: Path) -> None:
    out = run_piglia("play", "scopa", "--opponents", "random", "--seed", "5", stdin="1\n" * 30 + "q\n", cwd=tmp_path)
    assert "team 0" not in out.stdout and "seats" not in out.stdout and "Seat " not in out.stdout
    assert re.search(r"^Deal 1\. Score: You 0, Opponent 0$", out.stdout, re.M)
    assert re.search(r"^Opponent \(random\): ", out.stdout, re.M)
    assert re.search(r"^Piles: You \d+ cards?, Opponent \d+ cards?; stock: \d+ cards?\.$", out.stdout, re.M)


# Words of each language written here from the source pages' vocabulary (not read from the catalogs): the
# prompt's word for "your hand", the suit of coins (the Italian deck) and the word for "table".
LANGUAGE_WORDS = {
    "it": ("La tua mano: ", "denari", "Tavolo: "),
    "fi": ("Kätesi: ", "kolikot", "Pöytä: "),
    "hu": ("A kezed: ", "érmék", "Asztal: "),
    "pt": ("Sua mão: ", "ouros", "Mesa: "),
    "et": ("Sinu käsi: ", "mündid", "Laud: "),
    "tr": ("Eliniz: ", "madeni para", "Masa: "),
}


@pytest.mark.parametrize("lang", sorted(LANGUAGE_WORDS))
def test_play_speaks_each_language(tmp_path: Path, lang: str) -> None:
    hand, coins, table = LANGUAGE_WORDS[lang]
    result = run_piglia("play", "scopa", "--opponents", "greedy", "--seed", "4", "--lang", lang,
                    stdin="1\n" * 2000, cwd=tmp_path)  # fmt: skip
    out = result.stdout
    assert result.returncode == 0 and "Traceback" not in out + result.stderr
    assert hand in out and table in out and coins in out
    for english in ("Your hand", "Your move", " of coins", "Match score", " takes ", "stays on the table", "coins "):
        assert english not in out, (lang, english)


def test_play_refuses_an_unknown_language(tmp_path: Path) -> None:
    result = run_piglia("play", "scopa", "--lang", "xx", stdin="q\n", cwd=tmp_path)
    assert result.returncode != 0 and "invalid choice" in result.stderr and "Traceback" not in result.stderr


def test_play_says_once_what_the_rule_file_does_not_translate(tmp_path: Path) -> None:
    """Cicera's rules without their Finnish texts (its names for its bonuses and awards): the game says so at the
    start, once."""
    text = (Path(__file__).parents[1] / "variants" / "cicera.yaml").read_text(encoding="utf-8")
    (tmp_path / "cicera-home.yaml").write_text(text.split("\ntranslations:")[0], encoding="utf-8")
    out = run_piglia("play", "cicera-home.yaml", "--lang", "fi", "--seed", "2", "--opponents", "random",
                     stdin="q\n", cwd=tmp_path).stdout  # fmt: skip
    notes = [line for line in out.splitlines() if line.startswith("Sääntötiedostossa ei ole")]
    assert len(notes) == 1 and "picada" in notes[0] and "napula" in notes[0]
    full = run_piglia("play", "scopa", "--lang", "fi", "--seed", "2", "--opponents", "random", stdin="q\n",
                      cwd=tmp_path).stdout  # fmt: skip
    assert "Sääntötiedostossa" not in full


def test_names_from_the_rule_file_are_shown_as_written_never_read_as_styles(tmp_path: Path) -> None:
    """A translated suit name is the rule file's text: "coins[/]" stopped the game with an internal error (the
    console read it as a closing style tag), and "[bold]cups" was shown bold without its brackets."""
    rules = tmp_path / "marked.yaml"
    rules.write_text(
        "name: marked\nextends: scopa\ntranslations:\n  en:\n    names: {coins: 'coins[/]', cups: '[bold]cups'}\n",
        encoding="utf-8",
    )
    stdin = "?\n" + "1\n" * 40 + "q\n"  # the coach's table and sentence, the moves, the deal's sheet and review
    result = run_piglia("play", "marked.yaml", "--opponents", "greedy", "--seed", "1", "--coach", stdin=stdin,
                        cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    out = result.stdout
    assert "of coins[/]" in out and "of [bold]cups" in out
    assert re.search(r"^Best: .*: .+\.$", out, re.M) and "End of deal 1" in out


def test_CI1_1_the_dealers_opening_take_is_shown_and_counted_in_the_sheet(tmp_path: Path) -> None:
    """CI1.1: an opening table totalling 15 is taken by the dealer with one scopa. The terminal game did not show
    it (the table just went empty) and left its four cards out of the score sheet (cards 9-27: 36 of 40)."""
    result = run_piglia("play", "cirulla", "--opponents", "greedy", "--seed", "30", "--record", "c.jsonl",
                        stdin="1\n" * 300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in (tmp_path / "c.jsonl").read_text().splitlines()]
    opening = next(e for e in events if e["event"] == "opening" and e["deal"] == 1)  # the seed deals one
    table = next(e for e in events if e["event"] == "deal" and e["deal"] == 1)["table"]
    assert sorted(opening["captured"]) == sorted(table) and opening["points"] == 1
    dealer = "You" if opening["player"] == 0 else "Opponent (greedy)"
    assert re.search(rf"^{re.escape(dealer)}: dealer scopa \+1 \((.+, ){{3}}.+\)$", result.stdout, re.M)
    sheet = re.search(r"^End of deal 1\n(.*?)^Points this deal", result.stdout, re.M | re.S)
    assert sheet is not None
    mine, theirs = re.search(r"^. cards +. (\d+)-(\d+) ", sheet[1], re.M).groups()  # type: ignore[union-attr]
    assert int(mine) + int(theirs) == 40  # every card ends in a pile, the opening's four too


def test_a_narrow_terminal_folds_the_tables_instead_of_cutting_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 20 columns every cell of the score sheet and the coach's table was cut to one letter and "…" (at 12
    the sheet was empty boxes): the cells now fold onto more lines, and nothing is cut."""
    import io
    import sys

    from rich.console import Console

    import piglia
    from piglia.cli.play import Session, record_file
    from piglia.players import make_player
    from piglia.state import Game

    game = Game(piglia.load_variant("scopa"))
    out = Console(file=io.StringIO(), width=20, highlight=False, soft_wrap=True)
    _, record = record_file(str(tmp_path / "narrow.jsonl"), "scopa", 3)
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\n" + "1\n" * 300))
    Session(game.new_match(3), 0, {1: make_player("greedy", 49)}, out, record, "en", coach=True).run()
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert text.count("End of deal") >= 2 and "Points this deal" in text
    assert "…" not in text
    sheet = text[text.index("End of deal 1") : text.index("Points this deal")]
    cells = "".join(re.findall(r"^│ (\S*)", sheet, re.M))  # the first column, its pieces joined
    assert all(award in cells for award in ("cards", "coins", "settebello", "primiera"))


def test_a_terminal_shows_who_is_thinking_and_piped_output_stays_plain(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big variant's AI move or coach's advice can take seconds: a terminal shows a spinner saying who is
    thinking (a silent terminal looks hung); output that is not a terminal gets no spinner's frames."""
    import io
    import sys

    from rich.console import Console

    import piglia
    from piglia.cli.play import Session, record_file
    from piglia.players import make_player
    from piglia.state import Game

    game = Game(piglia.load_variant("scopa"))
    texts = {}
    for terminal in (True, False):
        out = Console(file=io.StringIO(), width=100, force_terminal=terminal, highlight=False)
        _, record = record_file(str(tmp_path / f"thinking-{terminal}.jsonl"), "scopa", 3)
        monkeypatch.setattr(sys, "stdin", io.StringIO("?\n" + "1\n" * 300))
        Session(game.new_match(3), 0, {1: make_player("greedy", 49)}, out, record, "en").run()
        texts[terminal] = out.file.getvalue()  # type: ignore[attr-defined]
    assert "Opponent (greedy) is playing…" in texts[True] and "The coach is thinking…" in texts[True]
    assert "is playing…" not in texts[False] and "is thinking…" not in texts[False]
    assert "End of deal 1" in texts[False]


def test_the_replay_command_shown_after_a_game_of_a_rule_file_works(tmp_path: Path) -> None:
    """A rule file whose name is not its file's: the record names the variant, which replay cannot find by itself,
    so the command shown says --variant (it failed with "no variant named 'house'")."""
    import shlex

    (tmp_path / "my-rules.yaml").write_text("name: house\nextends: scopa\nmatch: {target: 1}\n", encoding="utf-8")
    result = run_piglia("play", "my-rules.yaml", "--seed", "2", "--opponents", "random", "--record", "h.jsonl",
                        stdin="1\n" * 300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    command = re.search(r"\(check it with: (piglia replay .*)\)", result.stdout)
    assert command is not None and "--variant my-rules.yaml" in command.group(1)
    replay = run_piglia(*shlex.split(command.group(1))[1:], cwd=tmp_path)
    assert replay.returncode == 0 and "ok" in replay.stdout, replay.stdout + replay.stderr
    from piglia.cli.play import replay_command

    assert replay_command(Path("s.jsonl"), "scopa") == "piglia replay s.jsonl"  # a built-in is found by its name
