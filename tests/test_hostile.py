"""The hostile corpus (tests/data/hostile, issue 16): rule files a hostile user would write, each run through
every command under a memory limit and a time bound.

Each file's header has one line ``# expect: OUTCOME``:

* ``invalid PATH: TEXT``: ``piglia validate`` refuses it with a located line at PATH holding TEXT, and ``rules``
  and ``simulate`` refuse it with the same words;
* ``valid``: it validates (with ``--play``), and ``rules``, ``simulate --record``, ``replay`` of that record,
  ``compare`` and ``play`` (answering the first move until input ends) all succeed;
* ``deal-limit``: it validates, and a simulated match stops at the deal limit (``match_end`` reason
  ``deal limit``, no winner), which ``replay`` accepts and ``validate --play`` reports;
* ``play-error TEXT``: it validates, but play reaches an engine limit: ``simulate`` and ``validate --play`` stop
  with TEXT (or one of ``TEXT | TEXT``), exit 1.

In every case every command ends with exit 0 or 1, never a traceback or an internal error. The commands of one
file run in one subprocess (one interpreter start per file keeps the CPU cost low) with its address space
limited to 1 GiB (``RLIMIT_AS``): a memory bomb fails the test instead of the machine.
"""

from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, piglia_env

CORPUS = ROOT / "tests" / "data" / "hostile"
FILES = sorted(CORPUS.glob("*.yaml"))
MEMORY = 1 << 30  # bytes of address space for the commands of one file
ANSWERS = "1\n" * 40  # `play`: the first move, 40 times, then the end of input (which stops the match)
HANG = 300  # seconds: only there to turn a hang into a failure (each file needs a few seconds)

# The kinds of hostile file (issue 16), by file-name prefix, with the least number of files each.
KINDS = {
    "unreachable-": 5,  # a target nobody can ever reach, or never alone
    "limit-": 3,  # numbers past a documented limit
    "bomb-": 3,  # captures that would fill the memory if listed
    "slow-": 4,  # expressions too costly to compute
    "redeal-": 2,  # redeal conditions that (almost) always hold
    "rules-": 2,  # files `piglia rules` crashed on
    "deal-limit-": 2,  # matches that cannot end, stopped by the deal limit
}

DRIVER = """
import contextlib, io, json, sys
from piglia.cli import main
results = []
for argv, stdin in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.StringIO(stdin)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as exc:
            rc = exc.code
    results.append({"argv": argv, "rc": rc, "out": out.getvalue(), "err": err.getvalue()})
print(json.dumps(results))
"""


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_commands(commands: list[tuple[list[str], str]], cwd: Path) -> list[dict[str, Any]]:
    """Run ``piglia`` commands (argv, stdin) in one memory-limited subprocess; each one's rc, out and err."""
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(commands)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=piglia_env(),
        timeout=HANG,
        preexec_fn=_limit_memory,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    results: list[dict[str, Any]] = json.loads(proc.stdout.splitlines()[-1])
    for r in results:
        text = r["out"] + r["err"]
        assert r["rc"] in (0, 1), r
        assert "Traceback" not in text and "internal error" not in text, r
    return results


def expectation(path: Path) -> str:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("# expect: ")]
    assert len(lines) == 1, f"{path.name}: one '# expect: ' line"
    return lines[0].removeprefix("# expect: ")


def test_the_corpus_covers_every_kind() -> None:
    names = [p.stem for p in FILES]
    for prefix, least in KINDS.items():
        assert sum(n.startswith(prefix) for n in names) >= least, prefix
    outcomes = {expectation(p).split()[0] for p in FILES}
    assert outcomes == {"invalid", "valid", "deal-limit", "play-error"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_command_ends_as_expected(path: Path, tmp_path: Path) -> None:
    expect = expectation(path)
    outcome, _, detail = expect.partition(" ")
    f = str(path)
    record = str(tmp_path / "r.jsonl")
    if outcome == "invalid":
        spec_path, _, text = detail.partition(": ")
        validate, rules, simulate = run_commands(
            [(["validate", f], ""), (["rules", f], ""), (["simulate", f, "--deals", "2"], "")], tmp_path
        )
        assert validate["rc"] == rules["rc"] == simulate["rc"] == 1
        line = re.compile(rf"^{re.escape(f)}:\d+:\d+: {re.escape(spec_path)}: .*{re.escape(text)}", re.M)
        assert line.search(validate["out"]), validate["out"]
        assert text in rules["err"] and text in simulate["err"]
    elif outcome == "valid":
        results = run_commands(
            [
                (["validate", f, "--play", "6"], ""),
                (["rules", f], ""),
                (["simulate", f, "--deals", "4", "--seed", "3", "--record", record], ""),
                (["replay", record, "--variant", f], ""),
                (["compare", f, f, "--deals", "4", "--seed", "3"], ""),
                (["play", f, "--seed", "5", "--opponents", "random", "--record", str(tmp_path / "p.jsonl")], ANSWERS),
            ],
            tmp_path,
        )
        assert [r["rc"] for r in results] == [0] * len(results), results
        assert "random deals played" in results[0]["out"]
    elif outcome == "deal-limit":
        validate, simulate, replay, rules = run_commands(
            [
                (["validate", f], ""),
                (["simulate", f, "--matches", "1", "--seed", "3", "--record", record], ""),
                (["replay", record, "--variant", f], ""),
                (["rules", f], ""),
            ],
            tmp_path,
        )
        assert [validate["rc"], simulate["rc"], replay["rc"], rules["rc"]] == [0, 0, 0, 0]
        end = json.loads(Path(record).read_text(encoding="utf-8").splitlines()[-1])
        assert end["event"] == "match_end" and end["reason"] == "deal limit" and end["winner"] is None
    else:
        assert outcome == "play-error", expect
        simulate, validate, rules = run_commands(
            [
                (["simulate", f, "--deals", "20", "--seed", "1"], ""),
                (["validate", f, "--play", "20"], ""),
                (["rules", f], ""),
            ],
            tmp_path,
        )
        assert simulate["rc"] == validate["rc"] == 1 and rules["rc"] == 0
        texts = detail.split(" | ")  # either limit, whichever the random play reaches first
        assert any(t in simulate["err"] for t in texts) and any(t in validate["out"] for t in texts)


def test_validate_play_reports_a_match_stopped_by_the_deal_limit(tmp_path: Path) -> None:
    tied = str(CORPUS / "deal-limit-always-tied.yaml")
    (result,) = run_commands([(["validate", tied, "--play", "31"], "")], tmp_path)
    assert result["rc"] == 1
    assert "1 of them stopped by the deal limit" in result["out"]
    assert "reached the deal limit with no winner" in result["out"]
