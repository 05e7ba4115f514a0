"""ReDoS scan for `make lint`: every regular expression literal in the given Python files, run through regexploit.

regexploit (1.0) does not know Python 3.11's possessive quantifiers and atomic groups; both never give characters
back, so they cannot backtrack and are left out of the analysis. A finding with starriness >= MIN_STARRINESS
(2: quadratic backtracking or worse) fails the scan unless `ALLOWED` lists it with the reason it is safe (its input
is bounded). Usage: python .ci/redos_scan.py resilient_parse plugins
"""

from __future__ import annotations

import ast
import re
import sys
import warnings
from pathlib import Path

from regexploit.ast.sre import SreOpParser
from regexploit.languages.python_node_visitor import PythonNodeVisitor
from regexploit.redos import find

MIN_STARRINESS = 2
ALLOWED: dict[str, str] = {}
"""pattern -> why it cannot be fed unbounded text."""


class _Parser(SreOpParser):  # type: ignore[misc]
    def from_POSSESSIVE_REPEAT(self, data: object) -> None:
        return None

    def from_ATOMIC_GROUP(self, data: object) -> None:
        return None


def scan(path: Path) -> list[str]:
    findings: list[str] = []
    visitor = PythonNodeVisitor()
    visitor.visit(ast.parse(path.read_bytes()))
    lines = path.read_text(encoding="utf-8").splitlines()
    for regex in visitor.patterns:
        try:
            parsed = _Parser().parse_sre(regex.pattern, regex.flags)
        except (re.error, RecursionError):
            continue  # many string literals are not regular expressions
        for redos in find(parsed):
            if redos.starriness < MIN_STARRINESS or regex.pattern in ALLOWED:
                continue
            where = f"{path}:{regex.lineno}"
            findings.append(
                f"{where}: starriness {redos.starriness}: {regex.pattern!r}\n    {lines[regex.lineno - 1].strip()}"
            )
    return findings


def main(argv: list[str]) -> int:
    warnings.simplefilter("ignore")
    files = [p for arg in argv for p in (sorted(Path(arg).rglob("*.py")) if Path(arg).is_dir() else [Path(arg)])]
    findings = [f for path in files for f in scan(path)]
    for finding in findings:
        print(finding)
    print(f"redos_scan: {len(files)} files, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
