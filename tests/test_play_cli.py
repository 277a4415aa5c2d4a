"""``piglia play`` and ``piglia tournament`` driven as a user drives them: a subprocess, keystrokes on stdin."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def piglia(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "interpreter")}
    env.pop("PIGLIA_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "piglia", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=env,
        timeout=300,
    )


def test_play_a_whole_scopa_match_answering_1(tmp_path: Path) -> None:
    result = piglia("play", "scopa", "--opponents", "greedy", "--seed", "11", stdin="1\n" * 2000, cwd=tmp_path)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in out + result.stderr
    assert re.search(r"You (win|lose) the match \d+-\d+\.", out)
    assert "Your hand: " in out and "Table: " in out and "Match score: " in out
    assert re.search(r"^  1\) \S.* (takes|stays on the table)", out, re.M)
    assert re.search(r"^Seat 1 \(opponent, greedy\): ", out, re.M)
    for award in ("cards", "coins", "settebello", "primiera"):
        assert re.search(rf"\b{award}\b.*\b(team [01]|nobody)\b", out)
    records = list(tmp_path.glob("piglia-scopa-11*.jsonl"))
    assert len(records) == 1
    replay = piglia("replay", records[0].name, cwd=tmp_path)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    # the same again never overwrites the first record
    again = piglia("play", "scopa", "--opponents", "random", "--seed", "11", stdin="q\n", cwd=tmp_path)
    assert again.returncode == 0 and len(list(tmp_path.glob("piglia-scopa-11*.jsonl"))) == 2


def test_every_capture_alternative_is_listed(tmp_path: Path) -> None:
    # seed 3: the opening hand's 6 of cups can take 2 + 4, its 5 of swords asso + 4, its 7 of swords the 7
    result = piglia("play", "scopa", "--opponents", "random", "--seed", "3", stdin="q\n", cwd=tmp_path)
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
    result = piglia(
        "play", "scopa", "--opponents", "random", "--seed", "5", "--record", "mine.jsonl",
        stdin="hello\n0\n99\n\n1\n", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout.count("Please answer with a number from 1 to") == 4
    assert "Game stopped; the record so far is in mine.jsonl" in result.stdout
    events = [json.loads(line) for line in (tmp_path / "mine.jsonl").read_text().splitlines()]
    assert events[0]["event"] == "header" and any(e["event"] == "play" and e["player"] == 0 for e in events)
    refused = piglia("play", "scopa", "--record", "mine.jsonl", stdin="q\n", cwd=tmp_path)
    assert refused.returncode == 1 and "exists" in refused.stderr


def test_a_whole_brescian_deal_with_an_ai_partner(tmp_path: Path) -> None:
    """B0.1: partners sit opposite (seats 0 and 2): the person plays seat 0, an AI the partner; B1.1 and B4.4:
    twelve cards each and one deal, played to the end."""
    result = piglia("play", "cicera", "--opponents", "greedy", "--seed", "2", stdin="1\n" * 100, cwd=tmp_path)
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
    assert len(records) == 1 and piglia("replay", records[0].name, cwd=tmp_path).returncode == 0


def test_tournament_json(tmp_path: Path) -> None:
    result = piglia("tournament", "scopa", "--players", "greedy,random", "--matches", "4", "--seed", "1", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    names = [p["name"] for p in data["players"]]
    assert names == ["greedy", "random"]
    for p in data["players"]:
        assert {"name", "matches", "wins", "losses", "draws", "win_rate", "ci95"} <= set(p)
        assert p["matches"] == 4 and len(p["ci95"]) == 2
    text = piglia("tournament", "scopa", "--players", "greedy,random", "--matches", "2")
    assert text.returncode == 0 and "95% CI" in text.stdout and "settebello" in text.stdout
    bad = piglia("tournament", "scopa", "--players", "greedy")
    assert bad.returncode == 1 and "two players" in bad.stderr


def test_coach_on_request_and_after_a_deal(tmp_path: Path) -> None:
    """S2.3, S3.1 (seed 3, first turn): the 6 of cups taking 2 + 4 leaves asso + 7 = 8 for any fante to sweep;
    the 7 of swords taking the 7 of cups leaves 2 + 4 + asso = 7, which only the two unseen 7s sweep. Asked
    with ?, the coach lists every move with its estimate and says which is best and why; with --coach it
    also reviews the deal when it ends."""
    asked = piglia("play", "scopa", "--opponents", "greedy", "--seed", "3", stdin="?\nq\n", cwd=tmp_path)
    out = asked.stdout
    assert asked.returncode == 0, asked.stderr
    assert re.search(r"Best: 7 of swords takes 7 of cups: .+\.", out)
    rows = re.findall(r"^. (\d)\) (.+?) +. ([+-]\d\.\d\d) +. ([+-]\d\.\d\d) +. +(\d+)% +.$", out, re.M)
    assert sorted(int(r[0]) for r in rows) == [1, 2, 3]
    risk = {r[1]: int(r[4]) for r in rows}
    assert risk["6 of cups takes 2 of cups + 4 of swords"] > risk["7 of swords takes 7 of cups"] > 0
    coached = piglia("play", "scopa", "--opponents", "greedy", "--seed", "3", "--coach", stdin="1\n" * 18 + "q\n",
                     cwd=tmp_path)  # fmt: skip
    assert coached.returncode == 0, coached.stderr
    assert "End of deal 1" in coached.stdout
    assert re.search(r"^Coach: (.+ lost \d\.\d\d points against .+\.|no move of yours)", coached.stdout, re.M)
