"""The rows every section adds, and the table and JSON they are printed as."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ORDER = ("image", "replay", "pipeline", "scale", "scale-out", "undo/export", "durability", "engines")


@dataclass
class Row:
    section: str
    subject: str
    measure: str
    text: str
    value: Any = None
    target: str = ""
    ok: bool | None = None


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def add(self, section: str, subject: str, measure: str, text: str, value: Any = None,
            target: str = "", ok: bool | None = None) -> None:
        self.rows.append(Row(section, subject, measure, " ".join(text.split()), value, target, ok))

    def ordered(self) -> list[Row]:
        return sorted(self.rows, key=lambda r: ORDER.index(r.section) if r.section in ORDER else len(ORDER))


def format_table(rep: Report) -> str:
    head = ("section", "subject", "measure", "value", "target")
    rows = [(r.section, r.subject, r.measure, r.text,
             "" if not r.target else f"{r.target} {'held' if r.ok else 'MISSED'}") for r in rep.ordered()]
    widths = [min(60, max(len(h), *(len(x[i]) for x in rows))) if rows else len(h) for i, h in enumerate(head)]
    widths[3] = max(len(head[3]), *(len(x[3]) for x in rows)) if rows else len(head[3])
    line = "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    last = None
    for x in rows:
        if last is not None and x[0] != last:
            out.append("")
        last = x[0]
        out.append("  ".join(v.ljust(w) for v, w in zip(x, widths, strict=True)).rstrip())
    return "\n".join(out)


def to_json(rep: Report) -> dict[str, Any]:
    return {"rows": [r.__dict__ for r in rep.ordered()], **rep.details}
