"""The hostile corpus (tests/data/hostile/), run through the real ``piglia`` command under time and memory limits.

Each case ends with the exit status it names (0 or 1) and the message it names, never a traceback: command cases
(commands.json: lenient or absurd options, full disks, closed streams, foreign player names, unbounded input),
record cases (records/: a valid record with one thing wrong) and rule files that crash a loader (rules/).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hostile_run import HOSTILE, no_traceback, run

COMMANDS: list[dict[str, Any]] = json.loads((HOSTILE / "commands.json").read_text(encoding="utf-8"))
RECORD_CASES = sorted((HOSTILE / "records").glob("*.json"))


@pytest.mark.parametrize("case", COMMANDS, ids=[c["name"] for c in COMMANDS])
def test_command_case_ends_with_a_clear_message(case: dict[str, Any], tmp_path: Path) -> None:
    args = [a.replace("{hostile}", str(HOSTILE)) for a in case["args"]]
    stdout = case.get("stdout")
    result = run(*args, cwd=tmp_path, stdin=case.get("stdin"), stdout=stdout)
    output = (result.stdout or "") + (result.stderr or "")
    no_traceback(output)
    assert result.returncode == case["exit"], output[-2000:]
    for text in case["output"]:
        assert text in output, output[-2000:]


@pytest.fixture(scope="module")
def base_record(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A valid record of one match (made now: the rules' fingerprint is the engine's of today)."""
    folder = tmp_path_factory.mktemp("base")
    result = run("simulate", "scopa", "--matches", "1", "--seed", "1", "--record", "base.jsonl", cwd=folder)
    assert result.returncode == 0, result.stderr
    lines = (folder / "base.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["event"] for line in lines[:3]] == ["header", "deal", "play"]
    return lines


def mutate(lines: list[str], mutation: dict[str, Any]) -> list[str]:
    """Apply one corpus mutation to line ``mutation["line"]`` (1-based) of a record."""
    out = list(lines)
    i = mutation["line"] - 1
    if "set" in mutation or "delete" in mutation:
        event = json.loads(out[i])
        event.update(mutation.get("set", {}))
        for key in mutation.get("delete", []):
            del event[key]
        out[i] = json.dumps(event)
    elif "raw_suffix" in mutation:
        assert out[i].endswith("}")
        out[i] = out[i][:-1] + mutation["raw_suffix"] + "}"
    elif "raw_repeat" in mutation:
        text, times = mutation["raw_repeat"]
        out[i] = text * times
    else:  # pragma: no cover - a corpus file of an unknown kind
        raise AssertionError(f"unknown mutation {mutation}")
    return out


@pytest.fixture(scope="module")
def replayed(base_record: list[str], tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, list[str]]]:
    """Every record case written to its own file and replayed by one ``piglia replay`` (one process for all):
    the exit status, and each file's lines of output."""
    folder = tmp_path_factory.mktemp("records")
    names = []
    for path in RECORD_CASES:
        case = json.loads(path.read_text(encoding="utf-8"))
        name = f"{path.stem}.jsonl"
        (folder / name).write_text("\n".join(mutate(base_record, case["mutation"])) + "\n", encoding="utf-8")
        names.append(name)
    result = run("replay", *names, cwd=folder)
    no_traceback(result.stdout + result.stderr)
    by_file: dict[str, list[str]] = {name: [] for name in names}
    for line in result.stdout.splitlines():
        by_file[line.split(":", 1)[0]].append(line)
    return result.returncode, by_file


@pytest.mark.parametrize("path", RECORD_CASES, ids=[p.stem for p in RECORD_CASES])
def test_record_case_is_refused_at_its_line(path: Path, replayed: tuple[int, dict[str, list[str]]]) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    code, by_file = replayed
    assert code == 1
    name = f"{path.stem}.jsonl"
    expected = f"{name}:{case['expect']['line']}: {case['expect']['message']}"
    assert any(line.startswith(expected) for line in by_file[name]), by_file[name][:5]


def test_the_unmutated_record_replays(base_record: list[str], tmp_path: Path) -> None:
    """The mutations above are the only thing wrong in their records."""
    (tmp_path / "r.jsonl").write_text("\n".join(base_record) + "\n", encoding="utf-8")
    result = run("replay", "r.jsonl", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.strip() == "r.jsonl: ok (1 record replayed)"


def test_every_corpus_rule_file_is_used() -> None:
    """Each rule file of the corpus is named by a command case or a run test (no dead corpus)."""
    text = (HOSTILE / "commands.json").read_text(encoding="utf-8") + (
        Path(__file__).parent / "test_hostile_runs.py"
    ).read_text(encoding="utf-8")
    for path in (HOSTILE / "rules").glob("*.yaml"):
        assert path.name in text, path.name
