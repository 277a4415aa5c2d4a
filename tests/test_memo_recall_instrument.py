"""The instrument of benchmarks/memo_recall.py (issue 12): it times cold and recalled runs of the real command,
and refuses to time them when a recalled memo changes the statistics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, load_benchmark


def test_it_times_cold_and_recalled_runs_of_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))  # it imports startup.run_once, as when run as a script
    memo_recall = load_benchmark("memo_recall")
    out = tmp_path / "figures.json"
    args = ["--variant", "escoba", "--deals", "200", "--rounds", "1", "--base", str(ROOT), "--out", str(out)]
    assert memo_recall.main(args) == 0
    figures = json.loads(out.read_text())
    (row,) = figures["rows"]
    assert row["variant"] == "escoba" and row["cold"] > 0 and row["recalled"] > 0 and len(row["ratios"]) == 1
    assert row["base"] > 0 and row["base_over_recalled"] > 0  # the base tree (here this one) timed beside them


def test_statistics_that_differ_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    memo_recall = load_benchmark("memo_recall")
    calls: list[Path] = []

    def differing(variant: str, deals: int, workers: int, cache: Path) -> dict[str, Any]:
        calls.append(cache)
        return {"deals": len(calls)}  # each call another answer: as if the recalled memo changed the play

    monkeypatch.setattr(memo_recall, "statistics_of", differing)
    with pytest.raises(SystemExit, match="differ"):
        memo_recall.main(["--variant", "scopa", "--deals", "200", "--rounds", "1"])
