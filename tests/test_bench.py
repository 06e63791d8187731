"""Smoke test of `playpost bench --quick`: it runs, every section reports, the JSON is written.

No timing assertions: the benchmark reports, it never fails on a slow machine.
"""
from __future__ import annotations

import json

from tools.bench import run as bench

SECTIONS = ("image", "pipeline", "scale", "scale-out", "undo/export", "engines")


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
    # the move pipeline really moved, without a refused move
    runs = data["pipeline"]["runs"]
    assert runs and all(r["moves"] > 0 and not r["errors"] for r in runs)
