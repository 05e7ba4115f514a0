"""The README, ARCHITECTURE.md and docs/*.md cannot drift from the code: every example runs and prints what the page
says, every link resolves, and the pages keep their shape.

How examples run: each ```python block is executed on its own, in a fresh namespace (a reader copies one block,
so each must stand alone), with network connections refused. When a ```text block follows it (blank lines
between allowed), what the block prints must equal that text exactly; a block that prints must be followed by
one. A block whose first line starts with `# Needs your own` (an API key, the user's models or log files) is only
compiled; the same calls run on generated data elsewhere in the tests (test_batch, test_integration_dask,
test_spark, test_adapters).
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import socket
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest

import resilient_parse

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_BYTES = 10_240
MAX_LINE = 120
NEEDS_YOUR_OWN = "# Needs your own"


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    source: str
    output: str | None  # the ```text block right after a ```python block

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def needs_your_own(self) -> bool:
        return self.source.startswith(NEEDS_YOUR_OWN)


def fenced(page: Path) -> list[tuple[int, int, str, str]]:
    """(first line, last line, language, body) of each fenced block; fences may be indented (inside a list)."""
    found: list[tuple[int, int, str, str]] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    start: int | None = None
    lang = ""
    body: list[str] = []
    indent = 0
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if start is None and stripped.startswith("```") and not stripped.startswith("````"):
            start, lang, body, indent = number, stripped[3:].strip(), [], len(line) - len(line.lstrip())
        elif start is not None and stripped == "```":
            found.append((start, number, lang, "\n".join(body)))
            start = None
        elif start is not None:
            body.append(line[indent:])
    assert start is None, f"{page.name}: the fence opened on line {start} is never closed"
    return found


def blocks(page: Path) -> list[Block]:
    raw = fenced(page)
    lines = page.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    for i, (start, end, lang, body) in enumerate(raw):
        output = None
        if lang == "python" and i + 1 < len(raw):
            nxt_start, _, nxt_lang, nxt_body = raw[i + 1]
            between = lines[end : nxt_start - 1]
            if nxt_lang == "text" and all(not line.strip() for line in between):
                output = nxt_body
        out.append(Block(page, start, lang, body, output))
    return out


ALL_BLOCKS = [b for page in PAGES for b in blocks(page)]
PYTHON = [b for b in ALL_BLOCKS if b.lang == "python"]
RUNNABLE = [b for b in PYTHON if not b.needs_your_own]
COMPILED_ONLY = [b for b in PYTHON if b.needs_your_own]


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a docs example tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_the_pages_have_examples() -> None:
    assert (ROOT / "ARCHITECTURE.md").exists()
    assert len(PAGES) >= 8
    assert len(RUNNABLE) >= 10
    assert [b for b in RUNNABLE if b.page == README], "the README's example must run"


@pytest.mark.usefixtures("no_network")
@pytest.mark.parametrize("block", RUNNABLE, ids=lambda b: b.name)
def test_example_runs_and_prints_what_the_page_says(block: Block) -> None:
    out = io.StringIO()
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=r"resilient_parse\.\w+ moved", category=DeprecationWarning)
        with contextlib.redirect_stdout(out):
            exec(compile(block.source, block.name, "exec", dont_inherit=True), {"__name__": "docs_example"})
    printed = out.getvalue()
    if block.output is None:
        assert not printed, f"{block.name} prints, so a ```text block with its output must follow it"
    else:
        assert printed == block.output + "\n"


@pytest.mark.parametrize("block", COMPILED_ONLY, ids=lambda b: b.name)
def test_example_that_needs_your_own_setup_compiles(block: Block) -> None:
    compile(block.source, block.name, "exec", dont_inherit=True)


def top_level_names(source: str) -> list[str]:
    """Every name a block takes from the top level: `from resilient_parse import X` and `resilient_parse.X`."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "resilient_parse" and node.level == 0:
            names.extend(alias.name for alias in node.names)
        elif (
            isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "resilient_parse"
        ):
            names.append(node.attr)
    return names


@pytest.mark.parametrize("block", PYTHON, ids=lambda b: b.name)
def test_example_imports_only_the_public_top_level(block: Block) -> None:
    moved = [n for n in top_level_names(block.source) if n not in resilient_parse.__all__]
    assert not moved, f"{block.name} imports {moved} from resilient_parse; they live in a namespace now"


def test_top_level_names_are_found() -> None:
    source = "import resilient_parse\nfrom resilient_parse import parse, OpenAIAdapter\nresilient_parse.ToolCall"
    assert sorted(top_level_names(source)) == ["OpenAIAdapter", "ToolCall", "parse"]


def test_the_readme_is_short() -> None:
    assert len(README.read_bytes()) <= README_MAX_BYTES


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_lines_fit(page: Path) -> None:
    long = [n for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1) if len(line) > MAX_LINE]
    assert not long, f"{page.name}: lines over {MAX_LINE} characters: {long}"


def prose(page: Path) -> str:
    """The page without fenced blocks and inline code, where a bracket is code, not a link."""
    text = page.read_text(encoding="utf-8")
    lines = text.splitlines()
    for start, end, _, _ in reversed(fenced(page)):
        del lines[start - 1 : end]
    return re.sub(r"(`+).+?\1", "", "\n".join(lines))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out: set[str] = set()
    for line in prose(page).splitlines():
        match = re.match(r"#{1,6} (.+)", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            out.add(base if count == 0 else f"{base}-{count}")
    return out


def links(page: Path) -> list[str]:
    return re.findall(r"\]\(([^)\s]+)\)", prose(page))


def test_slugs_follow_github() -> None:
    assert slug("When to use it beside json_repair, instructor and pydantic-ai") == (
        "when-to-use-it-beside-json_repair-instructor-and-pydantic-ai"
    )
    assert slug("Asking again: `correct`") == "asking-again-correct"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_and_anchors_resolve(page: Path) -> None:
    for link in links(page):
        if re.match(r"[a-z]+:", link):  # https:, mailto:
            continue
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        relative = target.relative_to(ROOT).as_posix()
        assert target.exists(), f"{page.name} links to missing {link}"
        if anchor:
            assert target.suffix == ".md", f"{page.name}: an anchor into a non-page: {link}"
            assert anchor in anchors(target), f"{page.name}: no heading for #{anchor} in {relative}"


def makefile_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Za-z][\w.-]*):", text, re.MULTILINE))


def test_the_readme_offers_the_makefiles_two_commands() -> None:
    commands = [
        line.split("#")[0].strip()
        for b in blocks(README)
        if b.lang == "sh"
        for line in b.source.splitlines()
        if line.startswith("make")
    ]
    assert commands == ["make bench", "make test"]
    assert {"bench", "test"} <= makefile_targets()
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")  # what CI runs
