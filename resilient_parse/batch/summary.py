"""The table `resilient-parse batch` prints at the end: what recovered, what was repaired and how, what failed
and where. It is built record by record (a run of millions keeps only counters) and fits 80 columns.

When most records failed the same way, `problem()` says so in one line, with what to check: a wrong
`--text-field` or input that is not JSONL (most records `invalid` for one reason: the run was set up wrong, a
usage error), a target that does not fit the outputs, a timeout that is too short (a warning)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from resilient_parse.batch.records import INVALID, OUTCOMES, RecordResult, Tally, tally
from resilient_parse.safe_text import escape_surrogates

WIDTH = 80
_TOP = 8
_MAX_REASONS = 64
_SAMPLE_CHARS = 160

_INVALID_ADVICE = {
    "no_text": "is --text-field the field that holds the model output?",
    "not_json": "is the input JSONL, one JSON object per line?",
    "not_object": "is the input JSONL, one JSON object per line?",
    "not_utf8": "is the input UTF-8?",
    "blank_line": "the input has blank lines where records should be",
    "bad_target": "check the records' own target field",
    "target_not_allowed": "a record's own target may be a JSON Schema file or a type from --target's module",
    "bad_setting": "check the records' own mode and aliases fields",
}
_REFUSED_ADVICE = {
    "SchemaMismatchError": "is --target the type these outputs were written for?",
    "NoCandidateError": "no JSON in the text: is --text-field the field that holds the model output?",
    "TruncatedOutputError": "were the outputs cut short (a max_tokens limit)?",
}


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


@dataclass(frozen=True)
class Problem:
    """Most records of a run failed the same way. `usage`: they are `invalid` for one reason, so the run was
    most likely set up wrong (a usage error: `resilient-parse batch` exits 2); otherwise a warning."""

    message: str
    usage: bool

    @property
    def line(self) -> str:
        """The one line for stderr: `error: ...` or `warning: ...`."""
        return f"{'error' if self.usage else 'warning'}: {self.message}"


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
    refusals: Counter[str] = field(default_factory=Counter)
    """Refused records, by error type."""
    invalid_reasons: Counter[str] = field(default_factory=Counter)
    """Invalid records, by why (`no_text`, `not_json`, ...; at most 64 reasons, the rest under `invalid_record`)."""
    invalid_samples: dict[str, str] = field(default_factory=dict)
    """The first invalid record's message for each reason."""

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
            if counted.outcome == "refused":
                self.refusals[counted.error_type] += 1
        if counted.outcome == "invalid":
            reason = counted.reason or INVALID
            if reason not in self.invalid_reasons and len(self.invalid_reasons) >= _MAX_REASONS:
                reason = INVALID
            self.invalid_reasons[reason] += 1
            if reason not in self.invalid_samples and counted.message:
                self.invalid_samples[reason] = _clip(counted.message, _SAMPLE_CHARS)
        self.failing_paths.update(set(counted.failing_paths))

    @property
    def total(self) -> int:
        return sum(self.outcomes.values())

    def problem(self) -> Problem | None:
        """What more than half of the records have in common when they failed the same way, else None."""
        total = self.total
        of = f"of {total:,} records"

        def most(count: int) -> bool:
            return 2 * count > total

        if self.invalid_reasons:
            reason, n = self.invalid_reasons.most_common(1)[0]
            if most(n):
                sample = self.invalid_samples.get(reason, "")
                advice = _INVALID_ADVICE.get(reason)
                text = f"{n:,} {of} are invalid ({reason}{': ' + sample if sample else ''})"
                return Problem(escape_surrogates(text + (f"; {advice}" if advice else "")), usage=True)
        if self.refusals:
            kind, n = self.refusals.most_common(1)[0]
            if most(n):
                where = ""
                if self.failing_paths:
                    where = f", most often at {_clip(self.failing_paths.most_common(1)[0][0] or '(root)', 60)}"
                advice = _REFUSED_ADVICE.get(kind)
                text = f"{n:,} {of} were refused with {kind}{where}" + (f"; {advice}" if advice else "")
                return Problem(escape_surrogates(text), usage=False)
        if most(self.outcomes.get("timeout", 0)):
            n = self.outcomes["timeout"]
            return Problem(f"{n:,} {of} timed out; raise --timeout, or look for a slow validator", usage=False)
        if most(self.outcomes.get("crashed", 0)):
            n = self.outcomes["crashed"]
            return Problem(
                f"{n:,} {of} crashed (see their error messages): a plugin or validator fails on them", usage=False
            )
        return None

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
                for kind, n in self.refusals.most_common():
                    lines.append(f"{'  ' + _clip(kind, 36):<40}{n:>12,}{_share(n, total):>10}")
        if self.repair_kinds:
            lines += ["", f"{'top repair kinds':<40}{'repairs':>12}{'':>10}", "-" * 62]
            for kind, n in self.repair_kinds.most_common(_TOP):
                tag = "lossy" if kind in self.lossy_kinds else "lossless"
                lines.append(f"{_clip(kind, 38):<40}{n:>12,}{tag:>10}")
        if self.failing_paths:
            lines += ["", f"{'top failing paths (refused records)':<50}{'records':>12}", "-" * 62]
            for path, n in self.failing_paths.most_common(_TOP):
                lines.append(f"{_clip(path or '(root)', 48):<50}{n:>12,}")
        return "\n".join(_clip(escape_surrogates(line), WIDTH) for line in lines)


def _share(count: int, total: int) -> str:
    return f"{100.0 * count / total:.1f}%" if total else "-"
