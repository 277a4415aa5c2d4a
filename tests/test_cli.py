"""The ``piglia`` command, run as a user runs it: a subprocess, its output and exit status."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from conftest import ROOT, run_piglia


def test_validate_builtin_variants_ok() -> None:
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "variants").glob("*.yaml"))
    result = run_piglia("validate", *files)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [f"{f}: ok" for f in files]


def test_validate_bad_file_one_line_exit_1(tmp_path: Path) -> None:
    bad = tmp_path / "x.yaml"
    bad.write_text("name: x\nextends: scopa\nawards:\n  coins: {points: 1, most: count(pile where suit == coin)}\n")
    result = run_piglia("validate", str(bad), cwd=tmp_path)
    assert result.returncode == 1
    # the column is that of `coin` inside the expression, inside the flow mapping
    assert result.stdout.splitlines() == ["x.yaml:4:53: awards.coins.most: unknown name 'coin' (did you mean 'coins'?)"]
    assert "Traceback" not in result.stdout + result.stderr


def test_simulate_json_and_record_then_replay(tmp_path: Path) -> None:
    result = run_piglia(
        "simulate", "scopa", "--matches", "20", "--seed", "3", "--json", "--record", "g.jsonl", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["matches"] == 20 and data["deals"] >= 20
    assert sum(t["wins"] for t in data["teams"]) + data["draws"] == 20
    assert {s["name"] for s in data["scoring"]} >= {"cards", "coins", "settebello", "primiera"}
    replay = run_piglia("replay", "g.jsonl", cwd=tmp_path)
    assert replay.returncode == 0 and replay.stdout.strip() == "g.jsonl: ok (20 records replayed)"
    again = run_piglia("simulate", "scopa", "--matches", "2", "--record", "g.jsonl", cwd=tmp_path)
    assert again.returncode == 1 and "exists" in again.stderr  # never overwrite a user's file unasked


def test_simulate_prints_summary() -> None:
    result = run_piglia("simulate", "scopa", "--deals", "50", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert "deals" in result.stdout and "settebello" in result.stdout and "win rate" in result.stdout


def test_replay_reports_tampering_at_line(tmp_path: Path) -> None:
    assert run_piglia("simulate", "scopa", "--matches", "1", "--record", "g.jsonl", cwd=tmp_path).returncode == 0
    lines = (tmp_path / "g.jsonl").read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if json.loads(line)["event"] == "deal_end")
    event = json.loads(lines[i])
    event["totals"] = [99, 99]
    lines[i] = json.dumps(event)
    (tmp_path / "g.jsonl").write_text("\n".join(lines) + "\n")
    result = run_piglia("replay", "g.jsonl", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0].startswith(f"g.jsonl:{i + 1}: totals [99, 99]")
    assert "Traceback" not in result.stdout + result.stderr


def test_list_schema_help() -> None:
    listing = run_piglia("list")
    assert listing.returncode == 0 and "scopa" in listing.stdout
    schema = json.loads(run_piglia("schema").stdout)
    assert schema["$schema"].endswith("2020-12/schema")
    for command in ("validate", "simulate", "replay", "list", "schema", "tournament", "compare", "rules", "play"):
        helped = run_piglia(command, "--help")
        assert helped.returncode == 0 and "example" in helped.stdout
        assert "%%" not in helped.stdout  # a description is printed as written: 95%% showed doubled


def test_version_is_printed() -> None:
    import piglia

    result = run_piglia("--version")
    assert result.returncode == 0 and result.stdout == f"piglia {piglia.__version__}\n"


def test_unknown_variant_is_a_clear_error() -> None:
    result = run_piglia("simulate", "scopaa", "--deals", "1")
    assert result.returncode == 1
    assert "did you mean 'scopa'" in result.stderr and "Traceback" not in result.stderr


def test_a_variant_that_is_not_a_regular_file_is_named_for_what_it_is(tmp_path: Path) -> None:
    # A folder, a device or a named pipe is there: "no file" would be untrue, and opening a pipe would wait
    # for a writer forever. An absolute path is not looked for in the current directory either.
    (tmp_path / "rules").mkdir()
    os.mkfifo(tmp_path / "pipe.yaml")
    cases = {
        ("validate", "pipe.yaml"): "'pipe.yaml' is not a regular file: a variant is a rule file (.yaml)",
        ("validate", "/dev/null"): "'/dev/null' is not a regular file",
        ("simulate", "rules/"): "'rules/' is a folder",
        ("rules", "rules"): "no variant named 'rules'; 'rules' is a folder: name one of its rule files",
        ("validate", str(tmp_path / "none.yaml")): f"no file '{tmp_path / 'none.yaml'}'\n",
    }
    for args, message in cases.items():
        result = run_piglia(*args, cwd=tmp_path)
        said = result.stdout + result.stderr  # validate reports on standard output, the others on standard error
        assert result.returncode == 1 and message in said, (args, said)
        assert "Traceback" not in said


def test_simulate_shows_a_title_as_written_never_read_as_styles(tmp_path: Path) -> None:
    """The title is the rule file's text: "[/]" in it stopped `simulate` with an internal error after the run."""
    (tmp_path / "t.yaml").write_text('name: t\nextends: scopa\ntitle: "Scopa [/] [bold]x"\n', encoding="utf-8")
    result = run_piglia("simulate", "t.yaml", "--deals", "10", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Scopa [/] [bold]x: ")


def test_bonus_names_are_shown_as_written_in_every_table(tmp_path: Path) -> None:
    """A bonus named "[/]" validated, then stopped tournament, compare and simulate with an internal error at
    their tables (the console read the name as a closing style tag)."""
    (tmp_path / "b.yaml").write_text(
        'name: b\nextends: scopa\nbonuses:\n  "[/]":\n    points: 1\n    when: empty(table_after) and not last_play\n',
        encoding="utf-8",
    )
    for command in (
        ("tournament", "b.yaml", "--players", "greedy,random", "--matches", "2"),
        ("compare", "b.yaml", "scopa", "--deals", "200"),
        ("simulate", "b.yaml", "--deals", "200"),
    ):
        result = run_piglia(*command, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert "[/]" in result.stdout, command


def test_huge_means_are_printed_without_a_floats_noise(tmp_path: Path) -> None:
    """Scores of 10^17 a sweep: a mean was printed with every digit and three decimals, a float's noise
    (853333333333333377024.000); a huge mean is printed with four significant digits."""
    (tmp_path / "huge.yaml").write_text(
        "name: huge\nextends: scopa\nbonuses:\n  scopa: {points: 100000000000000000}\nmatch: {target: 1000000}\n",
        encoding="utf-8",
    )
    result = run_piglia("simulate", "huge.yaml", "--deals", "40", "--seed", "2", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(r"\d\.\d{3}e\+1[67]", result.stdout), result.stdout
    assert not re.search(r"\d{12,}\.\d", result.stdout), result.stdout
