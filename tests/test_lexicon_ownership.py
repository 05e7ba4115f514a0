"""The lexicon owns the prose: no other module keeps a list of cue words, the pre-filters are generated from the
tables, and one extraction reads a text's prose once, however many candidates it holds."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import resilient_parse
from resilient_parse.stages.extract import extract_candidates
from resilient_parse.text import clauses
from resilient_parse.text.lexicon import CATEGORIES, lexicon

PACKAGE = Path(resilient_parse.__file__).parent
LEXICON_DIR = PACKAGE / "text" / "lexicon"
# the modules that judge prose: they must take every cue word from the tables
PROSE_READERS = [
    *sorted((PACKAGE / "stages").glob("extract*.py")),  # the extraction stage and the modules it is split into
    PACKAGE / "stages" / "select.py",
    *sorted((PACKAGE / "stages").glob("plain*.py")),  # the plain-answer reader and the modules it is split into
    PACKAGE / "stages" / "coerce" / "choices.py",
    PACKAGE / "text" / "cues.py",
    PACKAGE / "text" / "clauses.py",
]
_JUDGING = ("example", "counter_example", "rejected", "retraction", "refusal", "designation", "negation", "hedge")


def _cue_phrases() -> set[str]:
    """Every judging phrase of every table, but the names of categories and of JSON and Python literals (words a
    reader of JSON needs whatever the prose around it says)."""
    phrases = {p for category in _JUDGING for p in lexicon().phrases(category)}
    return phrases - set(CATEGORIES) - {"true", "false", "null", "none", "nan", "infinity", "undefined"}


def _collections_of_words(tree: ast.AST) -> list[tuple[int, list[str]]]:
    """Literal sets, tuples, lists and dict keys of three or more strings: the shape a word list takes."""
    found = []
    for node in ast.walk(tree):
        items: list[ast.expr | None] = []
        if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
            items = list(node.elts)
        elif isinstance(node, ast.Dict):
            items = list(node.keys)
        strings = [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]
        if len(strings) >= 3:
            found.append((node.lineno, strings))
    return found


def _regex_sources(tree: ast.AST) -> list[tuple[int, str]]:
    """The constant patterns passed to re.compile."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "compile" and node.args:
            parts = [
                n.value for n in ast.walk(node.args[0]) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            ]
            found.append((node.lineno, "".join(parts)))
    return found


@pytest.mark.parametrize("path", PROSE_READERS, ids=lambda p: p.name)
def test_no_prose_reader_keeps_a_word_list_of_its_own(path: Path) -> None:
    cue_phrases = _cue_phrases()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for line, strings in _collections_of_words(tree):
        listed = {s.strip().lower() for s in strings} & cue_phrases
        assert not listed, f"{path.name}:{line} lists cue phrases {sorted(listed)[:5]}"
    for line, source in _regex_sources(tree):
        alternatives = {a.strip().lower() for a in re.split(r"[|()?:\\]+", source.replace("\\b", "|"))}
        matched = alternatives & cue_phrases
        assert not matched, f"{path.name}:{line} matches cue phrases {sorted(matched)[:5]}"


def test_the_english_clause_prefilter_is_generated_from_the_table() -> None:
    vocabulary = clauses._v()
    table = lexicon().clause("en")
    for key in ("example", "alternative", "designating", "negation", "rejecting_headings"):
        for row in table[key]:
            for phrase in lexicon_expand(row):
                # at least one word of every phrase the rules look for passes the pre-filter
                assert set(re.findall(r"[a-z]+", phrase)) & vocabulary.triggers, (key, phrase)


def lexicon_expand(row: str) -> list[str]:
    from resilient_parse.text.lexicon import expand

    return expand(row)


def test_every_table_has_every_category() -> None:
    languages = {t.language for t in lexicon().tables} - {"marks"}
    assert languages == {"en", "zh-Hans", "zh-Hant", "ja", "ko", "es", "pt", "fr", "de", "it", "ru"}
    for table in lexicon().tables:
        if table.language == "marks":
            continue
        missing = [c for c in CATEGORIES if not table.phrases.get(c)]
        assert not missing, f"{table.language} has no rows for {missing}"


def test_the_tables_hold_only_data() -> None:
    for path in LEXICON_DIR.glob("*.py"):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Import))], path


class _Counting:
    """Wraps the lexicon's matcher to count the characters it is asked to read."""

    def __init__(self) -> None:
        self.read = 0

    def __call__(self, original):  # type: ignore[no-untyped-def]
        def find(text: str, start: int = 0, end: int | None = None):  # type: ignore[no-untyped-def]
            self.read += (len(text) if end is None else end) - start
            return original(text, start, end)

        return find


@pytest.mark.parametrize("candidates", [1, 10, 200])
def test_one_extraction_reads_the_prose_once(candidates: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # however many candidates a text holds, the lexicon reads each character of its prose once: the windows before
    # and after each candidate and the refusal search are look-ups among the cues of that one pass
    text = "".join(
        f'Option {i}: for example the value could be {{"a": {i}}} but it is not final. Let me know.\n'
        for i in range(candidates)
    )
    counting = _Counting()
    monkeypatch.setattr(lexicon(), "find", counting(lexicon().find))
    extract_candidates(text, 16)
    assert counting.read <= len(text), (counting.read, len(text))
