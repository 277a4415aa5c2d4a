"""The figures of ``piglia simulate`` against the same figures worked out here, independently, from the records of
the very matches: deals and plays, the first player's and the dealer's deals, the leader after the first deal, lead
changes, final margins and what the last award decided. The records are the engine's own account of each match;
the arithmetic on them is written here, the plain way, so a slip in the statistics' fast path shows.

Variants where the fewest points win (RULES.md 5.6, Scopa a perdere) lead and win with the fewest; a match may end
at once by an instant win (Cicera's all 13 swords, RULES.md BT.2), in the middle of a deal.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

import piglia
from piglia.simulate import simulate
from piglia.state import Game
from piglia.variant import Variant

FILES = {
    "scopa-six-coins": "extends: scopa\nmatch:\n  instant_win:\n"
    "    {when: count(pile where suit == coins) >= 6, reason: six coins}\n",
    "scopa-a-perdere-3": "extends: scopa-a-perdere\nplayers: {count: 3}\n",  # the fewest of three
}


def _leader(values: list[int], fewest: bool) -> int | None:
    best = min(values) if fewest else max(values)
    return values.index(best) if values.count(best) == 1 else None


def _matches(text: str) -> list[list[dict[str, Any]]]:
    out: list[list[dict[str, Any]]] = []
    for line in text.splitlines():
        event = json.loads(line)
        if event["event"] == "header":
            out.append([])
        out[-1].append(event)
    return out


def _expected(variant: Variant, game: Game, text: str) -> dict[str, Any]:
    """The figures, from the records alone (and the rules' own words on who wins)."""
    fewest = variant.match.lower_is_better
    team_of = game.players.team_of
    n_teams = game.num_teams
    f: dict[str, Any] = {
        "deals": 0, "plays": 0, "match_length": Counter(), "deal_length": Counter(), "tied_deals": 0,
        "leader_deal_wins": 0, "dealer_deal_wins": 0, "first_deal_had_leader": 0, "first_deal_leader_won": 0,
        "lead_changes": Counter(), "margins": Counter(), "decided_by_last_award": 0,
        "matches_decided_by_last_award": 0,
    }  # fmt: skip
    for match in _matches(text):
        deals: list[dict[str, Any]] = []  # per deal: plays, points, its first player, dealer, totals, last award
        current: dict[str, Any] | None = None
        totals = [0] * n_teams
        end: dict[str, Any] = {}
        for e in match:
            kind = e["event"]
            if kind == "deal":
                current = {"plays": 0, "points": [0] * n_teams, "first": None, "dealer": e["dealer"], "award": None}
            elif kind == "play":
                assert current is not None
                f["plays"] += 1
                current["plays"] += 1
                current["first"] = e["player"] if current["first"] is None else current["first"]
                for b in e["bonuses"]:
                    current["points"][team_of[e["player"]]] += b["points"]
            elif kind in ("opening", "declare"):
                assert current is not None
                current["points"][team_of[e["player"]]] += e["points"]
            elif kind == "deal_end":
                assert current is not None
                current["points"] = list(e["points"])
                awards = [(a["team"], a["points"]) for a in e["awards"] if a["points"] and a["team"] is not None]
                current["award"] = awards[-1] if awards else None
                totals = list(e["totals"])
                current["totals"] = totals
                deals.append(current)
                current = None
            elif kind == "match_end":
                end = e
                if current is not None:  # a deal cut short by an instant win: still a deal played
                    current["totals"] = list(e["totals"])
                    deals.append(current)
        f["deals"] += len(deals)
        f["match_length"][len(deals)] += 1
        winner = end["winner"]
        leaders = []
        for d in deals:
            f["deal_length"][d["plays"]] += 1
            top = _leader(d["points"], fewest)
            if top is None:
                f["tied_deals"] += 1
            else:
                first = (
                    d["first"] if d["first"] is not None else (d["dealer"] + game.players.lead_offset) % len(team_of)
                )
                f["leader_deal_wins"] += top == team_of[first]
                f["dealer_deal_wins"] += top == team_of[d["dealer"]]
            if d["award"] is not None:
                without = list(d["points"])
                without[d["award"][0]] -= d["award"][1]
                f["decided_by_last_award"] += _leader(without, fewest) != top
            leaders.append(_leader(d["totals"], fewest))
        known = [x for x in leaders if x is not None]
        f["lead_changes"][sum(a != b for a, b in pairwise(known))] += 1
        if leaders[0] is not None:
            f["first_deal_had_leader"] += 1
            f["first_deal_leader_won"] += winner == leaders[0]
        if winner is not None:
            others = [t for i, t in enumerate(end["totals"]) if i != winner]
            mine = end["totals"][winner]
            f["margins"][min(others) - mine if fewest else mine - max(others)] += 1
        last = deals[-1]
        by_totals = end.get("reason") in (None, "deal limit")  # not an instant win
        if by_totals and last["award"] is not None and "deal_end" in {e["event"] for e in match[-2:]}:
            without = list(last["totals"])
            without[last["award"][0]] -= last["award"][1]
            f["matches_decided_by_last_award"] += variant.match.winner(without, len(deals)) != (True, winner)
    return f


def _variant(name: str, tmp_path: Path) -> Variant:
    if name in FILES:
        path = tmp_path / f"{name}.yaml"
        path.write_text(f"name: {name}\n{FILES[name]}", encoding="utf-8")
        return piglia.load_variant(str(path))
    return piglia.load_variant(name)


@pytest.mark.parametrize(
    ("name", "players"),
    [("scopa", 2), ("scopone", 4), ("scopa-a-perdere", 2), ("scopa-a-perdere-3", 3), ("cicera-traditional", 4),
     ("scopa-six-coins", 2)],
)  # fmt: skip
def test_the_figures_are_those_of_the_records(name: str, players: int, tmp_path: Path) -> None:
    variant = _variant(name, tmp_path)
    out = io.StringIO()
    summary = simulate(variant, matches=60, seed=7, players=players, record=out)
    want = _expected(variant, Game(variant, players), out.getvalue())
    got = {key: getattr(summary, key) for key in want}
    for key in ("match_length", "deal_length", "lead_changes", "margins"):
        got[key] = Counter({k: v for k, v in got[key].items() if v})
    assert got == want
    if name == "scopa-six-coins":  # the instant win came mid-deal in some matches, and those deals count
        assert 0 not in summary.match_length and any(length < 36 for length in summary.deal_length)


def test_a_run_stopped_by_a_failed_record_write_holds_whole_matches_only() -> None:
    """The record of the fourth match cannot be written: the run stops, and its summary is the first three
    matches' exactly (the fourth's deals were counted, its plays and its end not)."""

    class Full(io.StringIO):
        def write(self, text: str) -> int:  # a match's record is written whole, in one write
            if self.getvalue().count('"event":"header"') == 3:
                raise OSError(28, "No space left on device")
            return super().write(text)

    variant = piglia.load_variant("scopa")
    stopped = simulate(variant, matches=10, seed=3, record=Full())
    whole = simulate(variant, matches=3, seed=3)
    assert stopped.interrupted and stopped.matches == 3
    stopped.interrupted = False
    assert stopped.as_dict() == whole.as_dict()


def test_one_deal_gives_no_interval_of_points() -> None:
    """One deal says nothing of the spread of points a deal: no interval (it read as an interval of width 0)."""
    data = simulate(piglia.load_variant("cicera"), deals=1, seed=3).as_dict()
    assert data["deals"] == 1
    assert all(t["points_per_deal_ci95"] == [None, None] for t in data["teams"])
    more = simulate(piglia.load_variant("cicera"), deals=2, seed=3).as_dict()
    assert all(None not in t["points_per_deal_ci95"] for t in more["teams"])
