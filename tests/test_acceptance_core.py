"""Acceptance table: messy outputs written the way chat models really answer when asked for JSON.

Each row states the input, the target, and what a careful human would accept in *both* modes: the exact object,
or the error class (with its kind/path where that matters). Where recovering would be a guess, the row expects an
error. Strict may only apply lossless repairs; lenient may guess, but records every guess as a lossy repair.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from resilient_parse import (
    AmbiguousMatchError,
    NoCandidateError,
    ParseError,
    Parser,
    RefusalError,
    SchemaMismatchError,
    TruncatedOutputError,
    UnrecoverableSyntaxError,
)

# -- targets -----------------------------------------------------------------------------------------------------


class Person(BaseModel):
    name: str
    age: int
    email: str | None = None


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, Any] = {}


class Item(BaseModel):
    name: str
    price: float
    tags: list[str] = []


class Priority(str, Enum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


class Task(BaseModel):
    title: str
    done: bool
    priority: Priority = Priority.MEDIUM
    notes: str | None = None


class Sentiment(BaseModel):
    label: Literal["positive", "negative", "neutral"]
    confidence: float = Field(ge=0, le=1)


class Review(BaseModel):
    rating: int = Field(ge=1, le=5)
    summary: str


class Address(BaseModel):
    city: str
    country: str = "unknown"


class Customer(BaseModel):
    name: str
    address: Address


class Order(BaseModel):
    order_id: str
    items: list[Item]


class Quote(BaseModel):
    text: str
    author: str


class Movie(TypedDict):
    title: str
    year: int


@dataclass
class Point:
    x: float
    y: float


# -- expectations ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ok:
    """The parse succeeds with exactly `value`; every kind in `kinds` appears in the repair trace."""

    value: Any
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class Err:
    """The parse fails with exactly this class (or a subclass, when not `exact`); `kind`/`path` must appear among
    its error details."""

    cls: type[ParseError]
    kind: str | None = None
    path: str | None = None
    exact: bool = True


@dataclass(frozen=True)
class Case:
    id: str
    text: str
    target: Any
    strict: Ok | Err
    lenient: Ok | Err | None = None  # None: the same as strict
    tags: tuple[str, ...] = field(default=())

    def expected(self, mode: str) -> Ok | Err:
        if mode == "lenient" and self.lenient is not None:
            return self.lenient
        return self.strict


BOB = Person(name="Bob", age=30)
ALICE = Person(name="Alice", age=25)
SEARCH = ToolCall(action="search", arguments={"query": "weather in Paris"})
WIDGET = Item(name="Widget", price=9.99)
GADGET = Item(name="Gadget", price=19.5)

CASES: list[Case] = [
    # --- prose around the JSON --------------------------------------------------------------------------------
    Case(
        "gpt4o-mini-sure-heres",
        'Sure! Here\'s the JSON:\n\n{"name": "Bob", "age": 30}',
        Person,
        Ok(BOB, ("extract_prose",)),
    ),
    Case(
        "claude-prose-before-and-after",
        'Here is the extracted information as JSON:\n\n{"name": "Bob", "age": 30}\n\n'
        "I've included only the fields you asked for. Let me know if you'd like any changes!",
        Person,
        Ok(BOB, ("extract_prose",)),
    ),
    Case(
        "llama3-here-is-the-json-output",
        'Here is the JSON output:\n{"action": "search", "arguments": {"query": "weather in Paris"}}',
        ToolCall,
        Ok(SEARCH),
    ),
    Case(
        "braces-in-prose-before",
        'I will fill in the {name} and {age} placeholders for you:\n{"name": "Bob", "age": 30}',
        Person,
        Ok(BOB),
    ),
    Case(
        "braces-in-prose-after",
        '{"name": "Bob", "age": 30}\n\nNote: the template used {curly braces} for placeholders.',
        Person,
        Ok(BOB),
    ),
    Case(
        "prose-with-apostrophes-and-brackets",
        "Okay [as requested], here's Bob's record (don't worry, it's valid):\n"
        '{"name": "Bob", "age": 30, "email": "bob@example.com"}',
        Person,
        Ok(Person(name="Bob", age=30, email="bob@example.com")),
    ),
    Case(
        "leading-and-trailing-whitespace",
        '\n\n   {"name": "Bob", "age": 30}   \n\n',
        Person,
        Ok(BOB),
    ),
    # --- markdown fences --------------------------------------------------------------------------------------
    Case(
        "fence-json",
        '```json\n{"name": "Bob", "age": 30}\n```',
        Person,
        Ok(BOB, ("extract_fence",)),
    ),
    Case(
        "fence-JSON-uppercase-with-prose",
        'Certainly! Here is the result:\n\n```JSON\n{"name": "Bob", "age": 30}\n```\n\nHope this helps.',
        Person,
        Ok(BOB, ("extract_fence",)),
    ),
    Case(
        "fence-bare",
        '```\n{"action": "search", "arguments": {"query": "weather in Paris"}}\n```',
        ToolCall,
        Ok(SEARCH, ("extract_fence",)),
    ),
    Case(
        "fence-tildes",
        '~~~json\n{"name": "Bob", "age": 30}\n~~~',
        Person,
        Ok(BOB, ("extract_fence",)),
    ),
    Case(
        "fence-four-backticks-containing-three",
        '````json\n{"name": "Bob", "age": 30, "email": "```not a fence```"}\n````',
        Person,
        Ok(Person(name="Bob", age=30, email="```not a fence```")),
    ),
    Case(
        "fence-unclosed-at-end",
        'Here you go:\n```json\n{"name": "Bob", "age": 30}\n',
        Person,
        Ok(BOB),
    ),
    Case(
        "fence-inside-json-string-is-not-a-fence",
        '{"title": "Show code", "done": false, "notes": "Use:\\n```\\nprint(1)\\n```"}',
        Task,
        Ok(Task(title="Show code", done=False, notes="Use:\n```\nprint(1)\n```")),
    ),
    Case(
        "fence-raw-newlines-in-string-with-fence-lines",
        '{"title": "Docs", "done": true, "notes": "Example:\n```\nls -la\n```\nend"}',
        Task,
        Ok(Task(title="Docs", done=True, notes="Example:\n```\nls -la\n```\nend"), ("control_character",)),
    ),
    Case(
        "fence-python-tag-with-dict",
        "```python\n{'name': 'Bob', 'age': 30}\n```",
        Person,
        Ok(BOB, ("extract_fence", "single_quotes")),
    ),
    Case(
        "fence-indented-in-list",
        'Result:\n\n  ```json\n  {"name": "Bob", "age": 30}\n  ```\n',
        Person,
        Ok(BOB),
    ),
    # --- reasoning blocks -------------------------------------------------------------------------------------
    Case(
        "deepseek-think-then-answer",
        '<think>\nThe user wants Bob. A first draft: {"name": "Bob", "age": 31}. No wait, he is 30.\n</think>\n\n'
        '{"name": "Bob", "age": 30}',
        Person,
        Ok(BOB, ("skip_reasoning",)),
    ),
    Case(
        "qwq-thinking-tag-then-fenced-answer",
        '<thinking>I should include the city. {"name": "Ann"} is incomplete.</thinking>\n'
        '```json\n{"name": "Ann", "address": {"city": "Oslo", "country": "Norway"}}\n```',
        Customer,
        Ok(Customer(name="Ann", address=Address(city="Oslo", country="Norway"))),
    ),
    Case(
        "think-close-tag-without-opening",
        'Okay, the user needs JSON. Draft: {"name": "Bobby", "age": 3}\n</think>\n\n{"name": "Bob", "age": 30}',
        Person,
        Ok(BOB),
    ),
    Case(
        "reasoning-tag-with-braces-only-prose",
        "<reasoning>Fields are {name} and {age}; age must be an integer.</reasoning>\n"
        'Answer: {"name": "Bob", "age": 30}',
        Person,
        Ok(BOB),
    ),
    Case(
        "json-only-inside-think",
        '<think>The answer is {"name": "Bob", "age": 30}</think>',
        Person,
        Err(NoCandidateError, "reasoning_only"),  # issue 13: a draft inside reasoning is never the answer in strict
        Ok(BOB, ("reasoning_candidate",)),
    ),
    Case(
        "think-unclosed-cut-off",
        '<think>Let me build it: {"name": "Bob", "age": 30, "email": "bob@exa',
        Person,
        Err(TruncatedOutputError, "truncated", "/email"),
    ),
    # --- several objects: the text designates one, or it is ambiguous -----------------------------------------
    Case(
        "example-then-answer",
        'The format is, for example: {"name": "John Doe", "age": 0}\n\n'
        'For your text the result is:\n{"name": "Bob", "age": 30}',
        Person,
        Ok(BOB),
    ),
    Case(
        "answer-then-corrected",
        '{"name": "Bob", "age": 3}\n\nOops, I made a typo. Corrected:\n{"name": "Bob", "age": 30}',
        Person,
        Ok(BOB),
    ),
    Case(
        "final-answer-label",
        'Draft: {"name": "Bob", "age": 29}\nFinal answer: {"name": "Bob", "age": 30}',
        Person,
        Ok(BOB),
    ),
    Case(
        "two-different-objects-no-designation",
        'Here are two options:\n\n{"name": "Bob", "age": 30}\n\n{"name": "Alice", "age": 25}',
        Person,
        Err(AmbiguousMatchError, "ambiguous_candidates"),
    ),
    Case(
        "two-fences-different-objects",
        'Option A:\n```json\n{"name": "Bob", "age": 30}\n```\nOption B:\n```json\n{"name": "Alice", "age": 25}\n```',
        Person,
        Err(AmbiguousMatchError, "ambiguous_candidates"),
    ),
    Case(
        "same-object-twice",
        '{"name": "Bob", "age": 30}\n\nTo repeat, the JSON is:\n```json\n{"name": "Bob", "age": 30}\n```',
        Person,
        Ok(BOB),
    ),
    Case(
        "broken-draft-then-valid-second",
        'First try: {"name": "Bob", "age": }\nSorry, corrected: {"name": "Bob", "age": 30}',
        Person,
        Ok(BOB),
    ),
    Case(
        "schema-irrelevant-object-before-answer",
        'Input received: {"request_id": 17}\nOutput:\n{"name": "Bob", "age": 30}',
        Person,
        Ok(BOB),
    ),
    Case(
        "template-shape-then-answer",
        'Each record has the shape {"name": "<string>", "age": 0}. For the text you gave:\n\n'
        '{"name": "Bob", "age": 30}',
        Person,
        Ok(BOB),
    ),
    Case(
        "looks-like-then-here-is",
        'The output looks like this:\n```json\n{"name": "Jane", "age": 1}\n```\n'
        'Here is the one for your message:\n```json\n{"name": "Bob", "age": 30}\n```',
        Person,
        Ok(BOB),
    ),
    # --- commas -----------------------------------------------------------------------------------------------
    Case(
        "trailing-comma-object",
        '{"name": "Bob", "age": 30,}',
        Person,
        Ok(BOB, ("trailing_comma",)),
    ),
    Case(
        "trailing-commas-nested",
        '{\n  "order_id": "A-1",\n  "items": [\n    {"name": "Widget", "price": 9.99,},\n  ],\n}',
        Order,
        Ok(Order(order_id="A-1", items=[WIDGET]), ("trailing_comma",)),
    ),
    Case(
        "missing-comma-between-members",
        '{\n  "name": "Bob"\n  "age": 30\n}',
        Person,
        Ok(BOB, ("missing_comma",)),
    ),
    Case(
        "missing-comma-in-list",
        '{"name": "Widget", "price": 9.99, "tags": ["tools" "metal"]}',
        Item,
        Ok(Item(name="Widget", price=9.99, tags=["tools", "metal"]), ("missing_comma",)),
    ),
    Case(
        "missing-comma-between-list-objects",
        '[\n  {"name": "Widget", "price": 9.99}\n  {"name": "Gadget", "price": 19.5}\n]',
        list[Item],
        Ok([WIDGET, GADGET], ("missing_comma",)),
    ),
    Case(
        "double-comma-is-not-guessed",
        '{"name": "Bob",, "age": 30}',
        Person,
        Err(UnrecoverableSyntaxError),
        Ok(BOB, ("json_repair",)),
    ),
    # --- comments ---------------------------------------------------------------------------------------------
    Case(
        "line-comments",
        '{\n  "name": "Bob", // the user\'s name\n  "age": 30 // years\n}',
        Person,
        Ok(BOB, ("comment",)),
    ),
    Case(
        "block-comment",
        '{"name": "Bob", /* TODO: verify */ "age": 30}',
        Person,
        Ok(BOB, ("comment",)),
    ),
    Case(
        "hash-comments",
        '{\n  "name": "Bob",  # full name\n  "age": 30  # in years\n}',
        Person,
        Ok(BOB, ("comment",)),
    ),
    Case(
        "url-in-string-is-not-a-comment",
        '{"name": "Bob", "age": 30, "email": "http://bob.example.com/#me",}',
        Person,
        Ok(Person(name="Bob", age=30, email="http://bob.example.com/#me"), ("trailing_comma",)),
    ),
    Case(
        "comment-mentioning-braces",
        '{\n  // fields: {name, age}\n  "name": "Bob",\n  "age": 30\n}',
        Person,
        Ok(BOB, ("comment",)),
    ),
    # --- Python and JavaScript-isms ---------------------------------------------------------------------------
    Case(
        "python-true-false-none",
        "{'title': 'Ship it', 'done': True, 'priority': 'high', 'notes': None}",
        Task,
        Ok(Task(title="Ship it", done=True, priority=Priority.HIGH), ("python_literal", "single_quotes")),
    ),
    Case(
        "python-false-in-fence",
        '```python\n{"title": "Write tests", "done": False}\n```',
        Task,
        Ok(Task(title="Write tests", done=False), ("python_literal",)),
    ),
    Case(
        "bare-keys",
        '{name: "Bob", age: 30}',
        Person,
        Ok(BOB, ("bare_key",)),
    ),
    Case(
        "bare-keys-nested-js-object",
        "{name: 'Ann', address: {city: 'Oslo', country: 'Norway'}}",
        Customer,
        Ok(Customer(name="Ann", address=Address(city="Oslo", country="Norway")), ("bare_key", "single_quotes")),
    ),
    Case(
        "number-formats-leading-dot-and-plus",
        '{"label": "positive", "confidence": .87}',
        Sentiment,
        Ok(Sentiment(label="positive", confidence=0.87), ("number_format",)),
    ),
    Case(
        "javascript-undefined",
        '{"name": "Bob", "age": 30, "email": undefined}',
        Person,
        Err(UnrecoverableSyntaxError, "js_literal", "/email"),
        Ok(BOB, ("js_literal",)),
    ),
    # --- single quotes and apostrophes ------------------------------------------------------------------------
    Case(
        "single-quotes-with-apostrophe",
        "{'name': 'Bob's Diner', 'age': 12}",
        Person,
        Ok(Person(name="Bob's Diner", age=12), ("single_quotes",)),
    ),
    Case(
        "single-quotes-several-apostrophes",
        "{'text': 'It's not what you've got, it's what you do', 'author': 'Anon'}",
        Quote,
        Ok(Quote(text="It's not what you've got, it's what you do", author="Anon")),
    ),
    Case(
        "single-quotes-containing-double-quotes",
        """{'text': 'He said "hi" twice', 'author': 'Bob'}""",
        Quote,
        Ok(Quote(text='He said "hi" twice', author="Bob")),
    ),
    Case(
        "double-quoted-with-apostrophe-stays",
        '{"text": "Don\'t panic", "author": "Douglas Adams",}',
        Quote,
        Ok(Quote(text="Don't panic", author="Douglas Adams")),
    ),
    Case(
        "escaped-single-quote-inside-single-quotes",
        "{'text': 'It\\'s fine', 'author': 'Me'}",
        Quote,
        Ok(Quote(text="It's fine", author="Me")),
    ),
    Case(
        "curly-single-quotes-with-apostrophe",
        "Here you go: {‘text’: ‘Don’t panic’, ‘author’: ‘Douglas Adams’}",
        Quote,
        Ok(Quote(text="Don’t panic", author="Douglas Adams"), ("fullwidth_punctuation",)),
    ),
    # --- control characters inside strings --------------------------------------------------------------------
    Case(
        "raw-newlines-in-string",
        '{"text": "Roses are red,\nViolets are blue", "author": "Anon"}',
        Quote,
        Ok(Quote(text="Roses are red,\nViolets are blue", author="Anon"), ("control_character",)),
    ),
    Case(
        "raw-tab-in-string",
        '{"text": "col1\tcol2", "author": "Anon"}',
        Quote,
        Ok(Quote(text="col1\tcol2", author="Anon"), ("control_character",)),
    ),
    # --- full-width and curly punctuation, invisible characters -----------------------------------------------
    Case(
        "fullwidth-braces-colon-comma",
        '｛"name"："Bob"，"age"：30｝',
        Person,
        Ok(BOB, ("fullwidth_punctuation",)),
    ),
    Case(
        "curly-quotes-as-json-quotes",
        "{“name”: “Bob”, “age”: 30}",
        Person,
        Ok(BOB, ("fullwidth_punctuation",)),
    ),
    Case(
        "qwen-chinese-fullwidth",
        "好的，这是JSON：\n｛“name”：“张三”，“age”：30｝",
        Person,
        Ok(Person(name="张三", age=30)),
    ),
    Case(
        "curly-quotes-inside-valid-string-stay",
        '{"text": "He said “hello”", "author": "Bob"}',
        Quote,
        Ok(Quote(text="He said “hello”", author="Bob")),
    ),
    Case(
        "bom-before-json",
        '\ufeff{"name": "Bob", "age": 30}',
        Person,
        Ok(BOB),
    ),
    Case(
        "nbsp-indentation",
        '{\n\u00a0\u00a0"name": "Bob",\n\u00a0\u00a0"age": 30\n}',
        Person,
        Ok(BOB, ("invisible_character",)),
    ),
    Case(
        "nbsp-inside-string-is-kept",
        '{"name": "Bob\u00a0Smith", "age": 30,}',
        Person,
        Ok(Person(name="Bob\u00a0Smith", age=30)),
    ),
    Case(
        "fullwidth-quotation-marks",
        "｛＂name＂：＂李雷＂，＂age＂：30｝",
        Person,
        Ok(Person(name="李雷", age=30), ("fullwidth_punctuation",)),
    ),
    # --- truncated output -------------------------------------------------------------------------------------
    Case(
        "truncated-inside-string",
        '{"name": "Bob", "age": 30, "email": "bob@exam',
        Person,
        Err(TruncatedOutputError, "truncated", "/email"),
    ),
    Case(
        "truncated-inside-number",
        '```json\n{"name": "Bob", "age": 3',
        Person,
        Err(TruncatedOutputError, "truncated", "/age"),
    ),
    Case(
        "truncated-inside-list",
        '{"order_id": "A-1", "items": [{"name": "Widget", "price": 9.99}, ',
        Order,
        Err(TruncatedOutputError, "truncated", "/items"),
    ),
    Case(
        "truncated-inside-list-of-strings",
        '{"name": "Widget", "price": 9.99, "tags": ["tools", "metal"',
        Item,
        Err(TruncatedOutputError, "truncated", "/tags"),
    ),
    Case(
        "truncated-root-list",
        '[{"name": "Widget", "price": 9.99}, {"name": "Gadget", "price": 19.5}',
        list[Item],
        Err(TruncatedOutputError, "truncated"),
    ),
    Case(
        "truncated-after-key-before-value",
        '{"name": "Bob", "age":',
        Person,
        Err(TruncatedOutputError, "truncated", "/age"),
    ),
    Case(
        "truncated-after-complete-value",
        '{"name": "Bob", "age": 30, "email": "bob@example.com"',
        Person,
        Err(TruncatedOutputError, "truncated"),
        Ok(Person(name="Bob", age=30, email="bob@example.com"), ("close_truncated",)),
    ),
    Case(
        "truncated-after-comma",  # the comma promised another member (maybe "email"): it may have been cut
        '{"name": "Bob", "age": 30,\n',
        Person,
        Err(TruncatedOutputError, "truncated", ""),
        # issue 12: lenient defaults the optional fields after the cut, one recorded lossy truncated_defaults
        Ok(BOB, ("truncated_extra", "truncated_defaults")),
    ),
    Case(
        "truncated-nested-objects-closed",
        '{"name": "Ann", "address": {"city": "Oslo", "country": "Norway"',
        Customer,
        Err(TruncatedOutputError, "truncated"),
        Ok(Customer(name="Ann", address=Address(city="Oslo", country="Norway")), ("close_truncated",)),
    ),
    Case(
        "truncated-in-fence-after-number-and-newline",
        '```json\n{\n  "name": "Bob",\n  "age": 30,\n  "email": null\n',
        Person,
        Err(TruncatedOutputError, "truncated"),
        Ok(BOB, ("close_truncated",)),
    ),
    Case(
        "truncated-before-an-optional-field-could-be-written",
        '```json\n{\n  "name": "Bob",\n  "age": 30\n',
        Person,
        Err(TruncatedOutputError, "truncated"),
        Ok(BOB, ("truncated_defaults",)),  # issue 12: email may have been cut off: defaulted as a recorded guess
    ),
    Case(
        "truncated-missing-required-field",
        '{"name": "Ann", "address": {"country": "Norway"',
        Customer,
        Err(TruncatedOutputError, "truncated"),
        Err(TruncatedOutputError, "truncated", "/address"),  # city was cut off: closing cannot bring it back
    ),
    Case(
        "truncated-inside-key",
        '{"name": "Bob", "age": 30, "ema',
        Person,
        Err(TruncatedOutputError, "truncated"),
    ),
    Case(
        "elided-list-items",
        '```json\n{"order_id": "A-17", "items": [\n  {"name": "Widget", "price": 9.99},\n  ...\n]}\n```',
        Order,
        Err(UnrecoverableSyntaxError, "elided", "/items"),
    ),
    Case(
        "elided-with-unicode-ellipsis-after-a-guess",
        '{"order_id": "the "big" one", "items": [{"name": "Widget", "price": 9.99}, …]}',
        Order,
        Err(UnrecoverableSyntaxError, "syntax"),
        Err(UnrecoverableSyntaxError, "elided"),
    ),
    # --- unescaped inner quotes: only json-repair's guess can read them ---------------------------------------
    Case(
        "unescaped-inner-quotes",
        '{"text": "He said "hi" to me", "author": "Bob"}',
        Quote,
        Err(UnrecoverableSyntaxError, "syntax"),
        Ok(Quote(text='He said "hi" to me', author="Bob"), ("inner_quote",)),  # issue 12: the reader's own repair
    ),
    Case(
        "unescaped-quotes-title",
        '```json\n{"text": "The "Best" Pizza", "author": "Tony"}\n```',
        Quote,
        Err(UnrecoverableSyntaxError, "syntax"),
        Ok(Quote(text='The "Best" Pizza', author="Tony"), ("inner_quote",)),
    ),
    Case(
        "unescaped-quotes-with-words-between-strings",
        '{"text": "Fast", cheap and "good", "author": "Bob"}',
        Quote,
        Err(UnrecoverableSyntaxError, "syntax"),
        Err(UnrecoverableSyntaxError, "syntax"),  # json-repair would return text "Fast" and drop "cheap and"
    ),
    Case(
        "fenced-json-string-holding-json",
        '```json\n"{\\"name\\": \\"Bob\\", \\"age\\": 30}"\n```',
        Person,
        Err(SchemaMismatchError, path=""),  # decoding JSON from a string is a guess strict does not make
        Ok(BOB),
    ),
    # --- refusals and no JSON ---------------------------------------------------------------------------------
    Case(
        "refusal-im-sorry",
        "I'm sorry, but I can't help with that request.",
        Person,
        Err(RefusalError, "refusal"),
    ),
    Case(
        "refusal-i-cannot",
        "I cannot provide personal information about private individuals.",
        Person,
        Err(RefusalError, "refusal"),
    ),
    Case(
        "refusal-as-an-ai",
        "As an AI language model, I don't have access to that person's data.",
        Person,
        Err(RefusalError, "refusal"),
    ),
    Case(
        "no-json-plain-answer",
        "Bob is 30 years old.",
        Person,
        Err(NoCandidateError, "no_candidate"),
    ),
    Case(
        "no-json-empty",
        "   \n",
        Person,
        Err(NoCandidateError),
    ),
    Case(
        "prose-with-placeholder-braces-only",
        "The object should look like {name} with an {age} field.",
        Person,
        Err(ParseError, exact=False),
    ),
    # --- echoed schema instead of an instance -----------------------------------------------------------------
    Case(
        "schema-echo",
        '```json\n{"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},'
        ' "required": ["name", "age"]}\n```',
        Person,
        Err(SchemaMismatchError, "schema_echo"),
    ),
    Case(
        "schema-echo-with-title",
        '{"title": "Person", "type": "object", "properties": {"name": {"title": "Name", "type": "string"}}}',
        Person,
        Err(SchemaMismatchError, "schema_echo"),
    ),
    # --- values that do not fit -------------------------------------------------------------------------------
    Case(
        "rating-out-of-range",
        '```json\n{"rating": 7, "summary": "Great value"}\n```',
        Review,
        Err(SchemaMismatchError, "less_than_equal", "/rating"),
    ),
    Case(
        "confidence-above-one",
        '{"label": "positive", "confidence": 87}',
        Sentiment,
        Err(SchemaMismatchError, "less_than_equal", "/confidence"),
    ),
    Case(
        "literal-not-in-choices",
        '{"label": "mixed", "confidence": 0.5}',
        Sentiment,
        Err(SchemaMismatchError, path="/label"),
    ),
    Case(
        "missing-required-field",
        'Sure: {"name": "Bob"}',
        Person,
        Err(SchemaMismatchError, "missing", "/age"),
    ),
    Case(
        "wrong-type-nested-path",
        '{"order_id": "A-1", "items": [{"name": "Widget", "price": "cheap"}]}',
        Order,
        Err(SchemaMismatchError, path="/items/0/price"),
    ),
    Case(
        "numeric-string-pydantic-lax",
        '{"name": "Bob", "age": "30"}',
        Person,
        Ok(BOB),
    ),
    # --- lenient-only alignment, as chat models write it ------------------------------------------------------
    Case(
        "capitalised-keys",
        '{"Name": "Bob", "Age": 30}',
        Person,
        Err(SchemaMismatchError, "missing"),
        Ok(BOB, ("key_case",)),
    ),
    Case(
        "enum-case-differs",
        '{"title": "Deploy", "done": false, "priority": "HIGH"}',
        Task,
        Err(SchemaMismatchError, path="/priority"),
        Ok(Task(title="Deploy", done=False, priority=Priority.HIGH), ("enum_value",)),
    ),
    # --- list targets -----------------------------------------------------------------------------------------
    Case(
        "list-in-fence-with-trailing-comma",
        '```json\n[\n  {"name": "Widget", "price": 9.99},\n  {"name": "Gadget", "price": 19.5},\n]\n```',
        list[Item],
        Ok([WIDGET, GADGET], ("extract_fence", "trailing_comma")),
    ),
    Case(
        "list-wrapped-in-object",
        '{"items": [{"name": "Widget", "price": 9.99}, {"name": "Gadget", "price": 19.5}]}',
        list[Item],
        Err(SchemaMismatchError),
        Ok([WIDGET, GADGET], ("unwrap_wrapper",)),
    ),
    Case(
        "list-empty",
        "Here is the list:\n```json\n[]\n```",
        list[Item],
        Ok([]),
    ),
    Case(
        "list-with-prose-and-brackets-in-prose",
        'Items [2 total]:\n[{"name": "Widget", "price": 9.99, "tags": ["tools"]}, {"name": "Gadget", "price": 19.5}]',
        list[Item],
        Ok([Item(name="Widget", price=9.99, tags=["tools"]), GADGET]),
    ),
    Case(
        "list-python-style",
        "[{'name': 'Widget', 'price': 9.99, 'tags': ['tools',]}, {'name': 'Gadget', 'price': 19.5}]",
        list[Item],
        Ok([Item(name="Widget", price=9.99, tags=["tools"]), GADGET], ("single_quotes", "trailing_comma")),
    ),
    # --- TypedDict and dataclass targets ----------------------------------------------------------------------
    Case(
        "typeddict-fenced-with-comment",
        '```json\n{\n  "title": "Alien", // 1979 film\n  "year": 1979\n}\n```',
        Movie,
        Ok(Movie(title="Alien", year=1979), ("comment",)),
    ),
    Case(
        "typeddict-list",
        '[{"title": "Alien", "year": 1979}, {"title": "Heat", "year": 1995,},]',
        list[Movie],
        Ok([Movie(title="Alien", year=1979), Movie(title="Heat", year=1995)]),
    ),
    Case(
        "typeddict-truncated-number",
        '{"title": "Alien", "year": 19',
        Movie,
        Err(TruncatedOutputError, "truncated", "/year"),
    ),
    Case(
        "dataclass-single-quotes",
        "The point is {'x': 1.5, 'y': -2}.",
        Point,
        Ok(Point(x=1.5, y=-2.0), ("single_quotes",)),
    ),
    Case(
        "dataclass-missing-field",
        '{"x": 1.5}',
        Point,
        Err(SchemaMismatchError, "missing", "/y"),
    ),
    # --- more shapes chat models produce ---------------------------------------------------------------------
    Case(
        "double-encoded-json-string",
        '"{\\"name\\": \\"Bob\\", \\"age\\": 30}"',
        Person,
        Err(SchemaMismatchError, "model_type"),
        Ok(BOB, ("decode_json_string",)),
    ),
    Case(
        "claude-xml-answer-tags",
        '<json>\n{"name": "Bob", "age": 30}\n</json>',
        Person,
        Ok(BOB, ("extract_prose",)),
    ),
    Case(
        "llama-python-tag-and-eom",
        '<|python_tag|>{"action": "search", "arguments": {"query": "weather in Paris"}}<|eom_id|>',
        ToolCall,
        Ok(SEARCH),
    ),
    Case(
        "alternatively-is-not-a-designation",
        'Here is the JSON: {"name": "Bob", "age": 30}\n\nAlternatively: {"name": "Robert", "age": 30}',
        Person,
        Err(AmbiguousMatchError, "ambiguous_candidates"),
    ),
    Case(
        "updated-version-wins",
        '{"name": "Bob", "age": 31}\n\nHere is the updated version:\n{"name": "Bob", "age": 30}',
        Person,
        Ok(BOB),
    ),
    Case(
        "explanation-with-braces-after-answer",
        'Output:\n{\n  "name": "Bob",\n  "age": 30\n}\n\nExplanation: I set "age" to 30 because {the text says so}.',
        Person,
        Ok(BOB),
    ),
    Case(
        "empty-object",
        "```json\n{}\n```",
        Person,
        Err(SchemaMismatchError, "missing", "/name"),
    ),
    Case(
        "fractional-age-is-not-rounded",
        '{"name": "Bob", "age": 30.5}',
        Person,
        Err(SchemaMismatchError, "int_from_float", "/age"),
    ),
    Case(
        "single-quotes-irish-name",
        "{'name': 'O'Brien', 'age': 41}",
        Person,
        Ok(Person(name="O'Brien", age=41), ("single_quotes",)),
    ),
    Case(
        "single-quotes-rock-n-roll",
        "{'text': 'Rock 'n' roll', 'author': 'Bob'}",
        Quote,
        Ok(Quote(text="Rock 'n' roll", author="Bob")),
    ),
    Case(
        "single-quoted-word-followed-by-comma-inside-string",
        "{'text': 'I said 'hi', then left', 'author': 'Bob'}",
        Quote,
        Err(UnrecoverableSyntaxError, "syntax"),
        Ok(Quote(text="I said 'hi', then left", author="Bob"), ("json_repair",)),
    ),
    Case(
        "currency-string-for-float",
        '[{"name": "Widget", "price": "$9.99"}]',
        list[Item],
        Err(SchemaMismatchError, "float_parsing", "/0/price"),
        Ok([WIDGET], ("number_from_string",)),
    ),
    Case(
        "wait-the-correct-json-is",
        '{"name": "Bob", "age": 13}\n\nWait, I made a mistake reading the age. The correct JSON is:\n'
        '{"name": "Bob", "age": 30}',
        Person,
        Ok(BOB),
    ),
    Case(
        "corrected-beside-previous",
        '```json\n{"name": "Bob", "age": 13}\n```\nI corrected the age from the previous answer:\n'
        '```json\n{"name": "Bob", "age": 30}\n```',
        Person,
        Ok(BOB),
    ),
    Case(
        "judgement-words-alone-are-ambiguous",
        '{"name": "Bob", "age": 13}\nOops, the previous JSON was invalid. Here it is again:\n'
        '{"name": "Bob", "age": 30}',
        Person,
        Err(AmbiguousMatchError, "ambiguous_candidates"),
    ),
    # --- everything at once -----------------------------------------------------------------------------------
    Case(
        "kitchen-sink-mistral",
        "Sure, here's the tool call you asked for:\n\n```json\n{\n  // search tool\n"
        "  'action': 'search',\n  arguments: {'query': 'weather in Paris',},\n}\n```\n",
        ToolCall,
        Ok(SEARCH, ("extract_fence", "comment", "single_quotes", "bare_key", "trailing_comma")),
    ),
    Case(
        "kitchen-sink-llama-python-dict",
        "Here's the task:\n{'title': 'Bob\\'s report', 'done': False, 'notes': None, # none yet\n}",
        Task,
        Ok(Task(title="Bob's report", done=False), ("python_literal", "comment", "trailing_comma")),
    ),
    Case(
        "nested-order-with-prose-and-comments",
        'Based on the receipt, the order is:\n\n```json\n{\n  "order_id": "A-1", /* from header */\n'
        '  "items": [\n    {"name": "Widget", "price": 9.99, "tags": ["tools"],},\n'
        '    {"name": "Gadget", "price": 19.5}\n  ]\n}\n```\nThe total is $29.49.',
        Order,
        Ok(Order(order_id="A-1", items=[Item(name="Widget", price=9.99, tags=["tools"]), GADGET])),
    ),
]


# -- running the table -------------------------------------------------------------------------------------------

PARSERS = {"strict": Parser("strict", entrypoints=False), "lenient": Parser("lenient", entrypoints=False)}
MODES = ("strict", "lenient")


def test_the_table_has_at_least_80_cases_with_unique_ids() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) >= 80
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_acceptance(case: Case, mode: str) -> None:
    parser = PARSERS[mode]
    text_before = str(case.text)
    expected = case.expected(mode)
    if isinstance(expected, Ok):
        result = parser.parse_result(case.text, case.target)
        assert result.value == expected.value
        kinds = [r.kind for r in result.repairs]
        missing = [k for k in expected.kinds if k not in kinds]
        assert not missing, f"expected repairs {missing} in trace {kinds}"
        if mode == "strict":
            assert all(r.lossless for r in result.repairs), [str(r) for r in result.repairs]
        for repair in result.repairs:
            json.dumps(repair.to_dict())
    else:
        with pytest.raises(ParseError) as info:
            parser.parse_result(case.text, case.target)
        err = info.value
        if expected.exact:
            assert type(err) is expected.cls, f"{type(err).__name__}: {err}"
        if expected.kind is not None:
            assert expected.kind in [e["kind"] for e in err.errors], err.errors
        if expected.path is not None:
            assert expected.path in [e["path"] for e in err.errors], err.errors
        json.dumps(err.to_dict())
        if mode == "strict":
            assert all(getattr(r, "lossless", True) for r in err.repairs)
    assert case.text == text_before


def test_strict_never_records_a_lossy_repair_on_any_case() -> None:
    for case in CASES:
        try:
            result = PARSERS["strict"].parse_result(case.text, case.target)
        except ParseError:
            continue
        lossy = [str(r) for r in result.repairs if not r.lossless]
        assert not lossy, (case.id, lossy)


def test_lenient_marks_its_guesses_as_lossy() -> None:
    result = PARSERS["lenient"].parse_result('{"name": "Bob", "age": 30, "email": null\n', Person)
    closes = [r for r in result.repairs if r.kind == "close_truncated"]
    assert len(closes) == 1 and not closes[0].lossless
