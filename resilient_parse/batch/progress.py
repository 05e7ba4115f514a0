"""Progress of a batch run on stderr: a tqdm bar (rate, ETA) when tqdm is installed and stderr is a terminal,
else a plain line every few seconds, so logs of a CI job or a cluster stay readable. Never required."""

from __future__ import annotations

import sys
import time
from typing import Any

_PLAIN_EVERY_S = 5.0


class Progress:
    """Counts records; `enabled=False` prints nothing."""

    def __init__(self, total: int | None, *, initial: int = 0, enabled: bool = True) -> None:
        self.total, self.done, self.enabled = total, initial, enabled
        self._started = time.monotonic()
        self._initial = initial
        self._last_line = self._started
        self._bar: Any = None
        if enabled and sys.stderr.isatty():
            try:
                from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]
            except ImportError:
                pass
            else:
                self._bar = tqdm(total=total, initial=initial, unit="rec", file=sys.stderr, smoothing=0.1)

    def update(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
            return
        now = time.monotonic()
        if self.enabled and now - self._last_line >= _PLAIN_EVERY_S:
            self._last_line = now
            print(self.line(now - self._started), file=sys.stderr, flush=True)

    def line(self, elapsed: float) -> str:
        """'batch: 4,000/10,000 records (40%), 1,234/s, ETA 5 s', `elapsed` seconds after the start."""
        rate = (self.done - self._initial) / max(elapsed, 1e-9)
        if self.total:
            eta = (self.total - self.done) / rate if rate > 0 else float("inf")
            return (
                f"batch: {self.done:,}/{self.total:,} records ({100 * self.done / self.total:.0f}%), "
                f"{rate:,.0f}/s, ETA {eta:,.0f} s"
            )
        return f"batch: {self.done:,} records, {rate:,.0f}/s"

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
