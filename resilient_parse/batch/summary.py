"""The table `resilient-parse batch` prints at the end: what recovered, what was repaired and how, what failed
and where. It is built record by record (a run of millions keeps only counters) and fits 80 columns."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from resilient_parse.batch.records import OUTCOMES, RecordResult, Tally, tally

WIDTH = 80
_TOP = 8


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


@dataclass
class Summary:
    """Counters over the records of one run."""

    outcomes: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    """Records that got no value, by error type (RefusalError, SchemaMismatchError, timeout, ...)."""
    repair_kinds: Counter[str] = field(default_factory=Counter)
    lossy_kinds: set[str] = field(default_factory=set)
    failing_paths: Counter[str] = field(default_factory=Counter)
    lossy_records: int = 0

    def add(self, result: RecordResult) -> None:
        self.add_tally(tally(result))

    def add_tally(self, counted: Tally) -> None:
        self.outcomes[counted.outcome] += 1
        if counted.repairs:
            self.repair_kinds.update(kind for kind, _ in counted.repairs)
            self.lossy_kinds.update(kind for kind, lossless in counted.repairs if not lossless)
            self.lossy_records += not all(lossless for _, lossless in counted.repairs)
        if counted.error_type is not None:
            self.failures[counted.error_type] += 1
        self.failing_paths.update(set(counted.failing_paths))

    @property
    def total(self) -> int:
        return sum(self.outcomes.values())

    def render(self, *, seconds: float | None = None, workers: int | None = None, parsed: int | None = None) -> str:
        """The table, at most 80 columns wide; `parsed` is how many of the records this run parsed (after a resume,
        fewer than the total), in `seconds`."""
        total = self.total
        parsed = total if parsed is None else parsed
        lines = []
        head = f"{total:,} records"
        if parsed != total:
            head += f", {parsed:,} parsed now"
        if seconds is not None:
            rate = parsed / seconds if seconds > 0 else 0.0
            head += f" in {seconds:.1f} s ({rate:,.0f}/s)"
        if workers is not None:
            head += f", {workers} worker{'s' if workers != 1 else ''}"
        lines += [head, "", f"{'outcome':<40}{'records':>12}{'share':>10}", "-" * 62]
        for outcome in OUTCOMES:
            count = self.outcomes.get(outcome, 0)
            if count or outcome in ("recovered", "repaired", "refused"):
                lines.append(f"{outcome:<40}{count:>12,}{_share(count, total):>10}")
            if outcome == "repaired" and self.lossy_records:
                lines.append(
                    f"{'  of which lossy':<40}{self.lossy_records:>12,}{_share(self.lossy_records, total):>10}"
                )
            if outcome == "refused":
                for kind, n in self.failures.most_common():
                    if kind not in ("invalid_record", "timeout", "crashed"):
                        lines.append(f"{'  ' + _cut(kind, 36):<40}{n:>12,}{_share(n, total):>10}")
        if self.repair_kinds:
            lines += ["", f"{'top repair kinds':<40}{'repairs':>12}{'':>10}", "-" * 62]
            for kind, n in self.repair_kinds.most_common(_TOP):
                tag = "lossy" if kind in self.lossy_kinds else "lossless"
                lines.append(f"{_cut(kind, 38):<40}{n:>12,}{tag:>10}")
        if self.failing_paths:
            lines += ["", f"{'top failing paths (refused records)':<50}{'records':>12}", "-" * 62]
            for path, n in self.failing_paths.most_common(_TOP):
                lines.append(f"{_cut(path or '(root)', 48):<50}{n:>12,}")
        return "\n".join(_cut(line, WIDTH) for line in lines)


def _share(count: int, total: int) -> str:
    return f"{100.0 * count / total:.1f}%" if total else "-"
