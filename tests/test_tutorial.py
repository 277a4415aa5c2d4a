"""The README's five-minute tutorial works as written: its YAML validates, simulates, and its records replay."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT, run_piglia


def tutorial_yaml() -> str:
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", readme, flags=re.S)
    return next(str(b) for b in blocks if "extends: scopa" in b)


def test_tutorial_variant_validates_simulates_and_replays(tmp_path: Path) -> None:
    (tmp_path / "scopa-21.yaml").write_text(tutorial_yaml())
    assert run_piglia("validate", "scopa-21.yaml", cwd=tmp_path).stdout.strip() == "scopa-21.yaml: ok"
    sim = run_piglia(
        "simulate", "scopa-21.yaml", "--deals", "60", "--seed", "1", "--record", "games.jsonl", cwd=tmp_path
    )
    assert sim.returncode == 0, sim.stderr
    replay = run_piglia("replay", "games.jsonl", cwd=tmp_path)  # finds scopa-21.yaml beside the record
    assert replay.returncode == 0, replay.stdout
    # the variant's own rules are in force: a sweep is worth 2 and the match goes to 21
    import piglia as api

    variant = api.load_variant(str(tmp_path / "scopa-21.yaml"))
    assert variant.match.target == 21
    assert variant.rules["bonuses"]["scopa"]["points"] == 2
