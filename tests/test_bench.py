"""Smoke test of `playpost bench --quick`: it runs, every section reports, the JSON is written.

No timing assertions: the benchmark reports, it never fails on a slow machine.
"""
from __future__ import annotations

import json

import pytest

from tools.bench import run as bench
from tools.bench.common import QUICK

SECTIONS = ("image", "replay", "pipeline", "scale", "scale-out", "undo/export", "engines")


def test_quick_bench_prints_every_section_and_writes_json(tmp_path, capsys) -> None:
    out = tmp_path / "bench.json"
    assert bench.main(json_path=str(out), quick=True) == 0
    table = capsys.readouterr().out
    lines = table.splitlines()
    assert lines[1].split()[:5] == ["section", "subject", "measure", "value", "target"]
    for section in SECTIONS:
        assert any(line.startswith(section + " ") for line in lines), f"no {section} rows in:\n{table}"
    assert not any(" failed " in line for line in lines), table
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {r["section"] for r in data["rows"]} >= set(SECTIONS)
    assert data["meta"]["quick"] is True
    assert len(data["rows"]) == sum(1 for line in lines[3:] if line.strip() and not line.startswith("JSON"))
    # the move pipeline really moved, without a refused move. Counts, not timings: how many moves fall inside
    # a 0.3 s window depends on the machine's load, so only what every run must do is asserted (each
    # closed-loop channel makes at least its first move, whatever the speed)
    runs = data["pipeline"]["runs"]
    assert runs, "the capacity run at least"
    for r in runs:
        assert not r["errors"], r
        assert 0 <= r["moves"] <= r["moves_started"], r
        if r["think_mean_s"] == 0:
            assert r["moves_started"] >= r["channels"], r
    # the capacity is its run's whole-window rate (its sub-windows' spread beside it); when moves were answered
    # the other runs follow, the capacity is measured again, and the check of the two and of the paced and
    # overload runs is in the JSON
    pipe = data["pipeline"]
    assert pipe["capacity_moves_per_s"] == runs[0]["moves_per_s"] == pipe["capacity_spread"]["whole_window"]
    assert pipe["capacity_spread"]["median"] == runs[0]["sub_windows"]["median"]
    if pipe["capacity_moves_per_s"] > 0:
        assert [r["run"] for r in runs] == ["capacity", "paced 50%", "paced 70%", "overload", "capacity again"]
        check = pipe["capacity_check"]
        assert check["capacity_again_moves_per_s"] == runs[-1]["moves_per_s"]
        assert (check["sustainable"] and not check["understated"]) == (not check["flags"])
        assert any(line.split()[:3] == ["pipeline", "capacity", "check"] for line in lines), table


async def test_a_closed_run_moves_once_per_channel_even_when_its_window_closed_before_it_began(tmp_path) -> None:
    """The load driver on a machine too slow for its window (simulated: a window of zero seconds): each
    channel still makes its first move, so what the smoke test asserts never depends on the clock."""
    from storage import open_storage
    from tools.bench.common import bench_games
    from tools.bench.pipeline import _tables, run_load
    from tools.bench.report import Report

    storage = await open_storage(str(tmp_path / "p.sqlite3"))
    try:
        _, tables = await _tables(QUICK, bench_games(), Report(), storage)
        res = await run_load(storage, tables[:3], render=False, think=0.0, warmup=0.0, window=0.0, seed=1)
    finally:
        await storage.close()
    assert res.started >= 3 and not res.errors


def test_only_runs_the_named_sections_and_refuses_an_unknown_one(tmp_path, capsys) -> None:
    """`playpost bench --only image` runs that section alone (a change compared back to back without the
    five-minute full run); a misspelt section name is refused with the list of sections."""
    out = tmp_path / "bench.json"
    assert bench.main(json_path=str(out), quick=True, only="image") == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {r["section"] for r in data["rows"]} == {"image"}
    assert set(data["section_s"]) == {"image"}
    capsys.readouterr()
    assert bench.main(quick=True, only="image,imag") == 2
    assert "unknown bench section(s): imag" in capsys.readouterr().err


def test_engine_speedup_is_taken_over_the_games_both_builds_played_identically() -> None:
    from tools.bench.engines import compare

    def run(*games: tuple[int, str, float]) -> dict:
        each = [{"seed": s, "actions": 10, "cpu_s": c, "fingerprint": f} for s, f, c in games]
        return {"actions_per_s": 10 * len(each) / sum(g["cpu_s"] for g in each), "each_game": each}

    same = compare(run((1, "a", 0.1), (2, "b", 0.1)), run((1, "a", 1.0), (2, "b", 3.0)))
    assert same["identical"] and same["identical_games"] == 2 and abs(same["speedup"] - 20.0) < 1e-9
    part = compare(run((1, "a", 0.1), (2, "b", 0.1)), run((1, "a", 1.0), (2, "X", 3.0)))
    assert not part["identical"] and part["identical_games"] == 1 and part["differing_seeds"] == [2]
    assert abs(part["speedup"] - 10.0) < 1e-9  # over seed 1 alone
    none = compare(run((1, "a", 0.1)), run((1, "X", 1.0)))
    assert none["identical_games"] == 0 and abs(none["speedup"] - none["speedup_all"]) < 1e-9
    assert compare(run((1, "a", 0.1)), None) == {"speedup": None}


def test_engine_rounds_count_each_games_least_cpu_time() -> None:
    from tools.bench.engines import merge_rounds

    def run(*cpus: float) -> dict:
        each = [{"seed": s, "actions": 10, "cpu_s": c, "fingerprint": f"g{s}"} for s, c in enumerate(cpus)]
        return {"cpu_s": sum(cpus), "wall_s": 1.0, "fingerprint": "all", "each_game": each, "move_p99_ms": 5.0}

    merged = merge_rounds([run(0.3, 0.1), run(0.2, 0.4), run(0.5, 0.2)])
    assert [g["cpu_s"] for g in merged["each_game"]] == [0.2, 0.1]
    assert merged["cpu_s"] == pytest.approx(0.3) and merged["actions_per_s"] == pytest.approx(20 / 0.3)
    assert merged["rounds"] == 3 and merged["same_every_round"] and merged["move_p99_ms"] == 5.0
    assert merge_rounds([run(0.3)]) == run(0.3)


def test_the_engine_child_times_the_moves_alone_when_asked_for_no_playouts() -> None:
    """`playouts` 0 used to crash (the mean of no games); it now gives the moves' figures and no made-up rate."""
    from tools.bench.engine_child import measure

    out = measure("heroball", 7, 1, 0, 1, 40)
    assert out["playouts"] == 0 and out["actions"] == 0 and out["each_game"] == []
    assert "actions_per_s" not in out and "mean_actions" not in out
    assert out["moves_timed"] > 0 and out["move_p99_ms"] >= out["move_p50_ms"] >= 0


def _answers(start: float, per_slice: list[int]) -> list[float]:
    """Answer times spread evenly within consecutive 1 s sub-windows from `start`."""
    return [start + i + (j + 0.5) / n for i, n in enumerate(per_slice) for j in range(n)]


def test_the_capacity_runs_sub_window_spread_shows_a_burst_or_a_stall() -> None:
    from tools.bench.pipeline import Load, rate_spread

    counts = [80, 90, 100, 110, 120, 85, 95]  # answers in each 1 s sub-window of a 7 s window
    steady = rate_spread(Load(window=(10.0, 17.0), answered_at=_answers(10.0, counts)))
    assert (steady["slices"], steady["slice_s"]) == (7, 1.0)
    assert steady["each"] == counts and (steady["min"], steady["median"], steady["max"]) == (80, 95, 120)
    # a burst of 500 answers in the busiest second, a stall in the slowest; answers outside the window ignored
    noisy = [*_answers(10.0, [0, 90, 100, 110, 620, 85, 95]), 9.99, 17.0, 18.5]
    spread = rate_spread(Load(window=(10.0, 17.0), answered_at=noisy))
    assert spread["median"] == 95 and (spread["min"], spread["max"]) == (0, 620)
    assert sum(spread["each"]) / 7 > 140  # what the whole window would have read


def test_a_slow_machine_cuts_the_capacity_window_into_fewer_sub_windows() -> None:
    from tools.bench.pipeline import slices, sub_window_rates

    assert slices(7.0, 1000) == 7 and slices(5.0, 1000) == 5
    assert slices(7.0, 60) == 3  # at least 20 answers in each on average
    assert slices(0.3, 100) == 1 and slices(7.0, 0) == 1
    assert sub_window_rates([0.1, 0.2, 1.6, 2.9], 0.0, 3.0, 2) == [2 / 1.5, 2 / 1.5]
    assert sub_window_rates([1.0], 0.0, 0.0, 1) == []


def test_the_capacity_check_flags_a_figure_the_runs_did_not_sustain() -> None:
    from tools.bench.pipeline import capacity_check

    ok = capacity_check(100.0, offered_70=70.0, answered_70=66.0, overload=150.0, again=90.0)
    assert ok["sustainable"] and not ok["understated"] and ok["flags"] == []
    assert (ok["answered_70_share_of_offered"], ok["overload_share_of_capacity"], ok["capacity_again_share"]) == (
        0.943, 1.5, 0.9)
    assert ok["offered_70_share_of_again"] == 0.778
    # the session's case: capacity 139, its overload answered 124, the 70 % run fell behind
    bad = capacity_check(139.0, offered_70=97.3, answered_70=80.0, overload=124.0, again=None)
    assert not bad["sustainable"] and len(bad["flags"]) == 2
    assert bad["flags"][0].startswith("10x overload answered 124 < capacity 139")
    assert bad["flags"][1].startswith("70 % run answered 80 of 97")
    assert capacity_check(100.0, 70.0, 63.5, 150.0, None)["sustainable"]  # 9 % behind: within the 10 %
    assert not capacity_check(100.0, 70.0, 62.5, 150.0, None)["sustainable"]  # 11 % behind
    fell = capacity_check(100.0, 70.0, 70.0, 150.0, again=79.0)
    assert fell["flags"] == ["capacity measured again 79 < 80% of 100 moves/s"]
    assert capacity_check(100.0, 70.0, 70.0, 150.0, again=81.0)["sustainable"]
    assert not fell["understated"]
    # a second read far above the first: the paced runs were offered less than their shares (not unsustainable)
    low = capacity_check(50.0, 35.0, 34.0, 195.0, again=118.0)
    assert low["sustainable"] and low["understated"] and low["flags"][0].startswith("capacity measured again 118 >")
    assert not capacity_check(100.0, 70.0, 70.0, 150.0, again=124.0)["understated"]
    none = capacity_check(100.0, None, None, None, None)  # a run without a 70 % share nor an overload
    assert none["sustainable"] and none["answered_70_share_of_offered"] is None
