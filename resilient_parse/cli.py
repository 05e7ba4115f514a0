"""The `resilient-parse` command: parse one output from a file or stdin, a whole log of them, benchmark a corpus,
measure speed.

    resilient-parse parse reply.txt --target myapp.models:ToolCall --report
    resilient-parse parse - --target schema.json --mode strict < reply.txt
    resilient-parse batch logs.jsonl -o results.jsonl --target myapp.models:ToolCall --workers 8
    resilient-parse bench                      # the bundled corpus (ours), our parser and every installed peer
    resilient-parse bench --out reports        # ... and writes reports/bench.html and reports/bench.json
    resilient-parse bench --peer-suites /work/peers   # plus the peers' own test suites, a separate section
    resilient-parse speed                      # throughput against json.loads, validate_json and json-repair
    resilient-parse speed --full               # the same up to 4 MB, every broken shape, longer rounds

`bench` writes files only where it is told (`--out DIR`, `--html FILE`, `--json FILE`); else it only prints.
Exit codes: 0 success, 1 the text could not be parsed (the errors are printed as JSON), 2 bad usage, printed as
one message (wrapped to 80 columns, continuation lines indented): a target that cannot be loaded (a missing
module, a syntax error in it, a type Pydantic cannot validate) is bad usage. Everything the commands print,
their --help included, fits 80 columns; `bench --wide` prints the full tables. `--version` says which version.
`--target` is an import path (`module:Name`, `list[module:Name]`) or a JSON Schema file; `resilient_parse.targets`
turns it into a type (see `model_from_json_schema` there for the supported subset). The `bench` and `speed` commands
live in `resilient_parse.bench`, and `batch` in `resilient_parse.batch`, imported only when they run.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from pydantic import TypeAdapter

from resilient_parse.errors import ConfigurationError, ParseError
from resilient_parse.parser import Parser
from resilient_parse.policy import resolve_policy
from resilient_parse.repairs import Repair
from resilient_parse.safe_text import json_safe
from resilient_parse.targets import TargetError, is_schema_file, load_target

PROG = "resilient-parse"
WIDTH = 80


class UsageError(Exception):
    """The command line was wrong: the message says what to fix; the command exits 2."""


def one_line(message: str) -> str:
    """An error message as one line: its first paragraph (Pydantic's add links and advice after a blank line)."""
    return " ".join(message.strip().split("\n\n", 1)[0].split())


def fit(text: str, indent: str = "  ") -> str:
    """`text` as one paragraph wrapped to 80 columns, continuation lines indented; a word longer than a line (a
    long path) is kept whole rather than cut where a copy and paste would miss half of it. The JSON `parse`
    prints is data and is not wrapped (a long string value stays on its line)."""
    lines = textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines) or text


# -- commands -----------------------------------------------------------------------------------------------------


def _import_from_the_working_directory() -> None:
    """Console scripts do not put the working directory on `sys.path` (`python -m` does): targets and corpus
    models in the current directory import the same either way."""
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def _load_target(spec: str) -> tuple[Any, bool]:
    """The target type and whether it came from a JSON Schema file (see `resilient_parse.targets`)."""
    if not is_schema_file(spec):
        _import_from_the_working_directory()
    try:
        return load_target(spec)
    except TargetError as exc:
        raise UsageError(str(exc)) from None


def _version() -> str:
    try:
        return importlib.metadata.version("resilient-parse")
    except importlib.metadata.PackageNotFoundError:  # a source tree that was never installed
        from resilient_parse import __version__

        return __version__


def _read_text(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {source!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{source!r} is not UTF-8 text: {exc}") from None


def _read_aliases(path: str | None) -> dict[str, str] | None:
    if path is None:
        return None
    try:
        table = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read the aliases file {path!r}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"the aliases file {path!r} is not valid JSON: {exc}") from None
    if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in table.items()):
        raise UsageError(f'the aliases file {path!r} must be a JSON object of "key the model writes": "field name"')
    return table


def describe_repair(repair: Repair) -> str:
    """One report line: the kind, where, and what changed; a repair that changed no value (extraction, a
    wrapper) says what it did instead of printing `None -> None`."""
    where = repair.path or (f"@{repair.offset}" if repair.offset is not None else "(root)")
    tag = "lossless" if repair.lossless else f"lossy, confidence {repair.confidence:.2f}"
    if repair.before is None and repair.after is None:
        change = repair.note or "no value changed"
    else:
        change = f"{json_safe(repair.before, limit=60)!r} -> {json_safe(repair.after, limit=60)!r}"
    return f"{repair.kind} at {where}: {change} ({tag})"


def describe_attempt(attempt: Any) -> str:
    """One report line for a candidate a failed parse tried: where it came from, and why it failed."""
    data = attempt if isinstance(attempt, dict) else attempt.to_dict()
    where = f" at @{data['offset']}" if data.get("offset") is not None else ""
    return f"{data.get('source', 'candidate')}{where}: {data.get('kind', 'error')}: {data.get('message', '')}"


def _print_json(value: Any, stream: Any = None) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False), file=stream or sys.stdout)


def cmd_parse(args: argparse.Namespace) -> int:
    """Parse one model output and print the recovered object as JSON (exit 0) or the errors as JSON (exit 1)."""
    target, from_schema = _load_target(args.target)
    aliases = _read_aliases(args.aliases)
    text = _read_text(args.file)
    try:
        parser = Parser(mode=args.mode)
        result = parser.parse_result(text, target, aliases=aliases)
    except ConfigurationError as exc:
        raise UsageError(str(exc)) from None
    except ParseError as err:
        _print_json(err.to_dict())
        if args.report:
            for attempt in err.attempts:
                print(fit(f"attempt: {describe_attempt(attempt)}", "    "), file=sys.stderr)
        return 1
    adapter: TypeAdapter[Any] = TypeAdapter(target)
    _print_json(adapter.dump_python(result.value, mode="json", by_alias=True, exclude_unset=from_schema))
    if args.report:
        if result.repairs:
            print(f"{len(result.repairs)} repair(s), mode {result.mode}:", file=sys.stderr)
            for repair in result.repairs:
                print(fit(f"  [{repair.stage}] {describe_repair(repair)}", "      "), file=sys.stderr)
        else:
            print(fit(f"no repairs: the input was valid JSON for the target (mode {result.mode})"), file=sys.stderr)
    return 0


def cmd_batch(args: argparse.Namespace) -> int:
    """Parse every record of a JSONL/Parquet log into an output file, in order; print the summary."""
    from resilient_parse.batch import ParserRecipe, RecordJob, default_workers, run_batch
    from resilient_parse.batch.files import BatchFileError

    if args.target is not None:
        _load_target(args.target)  # a bad target is a usage error now, not 10,000 invalid records later
    aliases = _read_aliases(args.aliases)
    job = RecordJob(
        recipe=ParserRecipe(policy=resolve_policy(args.mode), aliases=aliases or {}),
        target_spec=args.target,
        text_field=args.text_field,
        id_field=args.id_field or None,
        import_paths=(os.getcwd(),),
    )
    workers = default_workers() if args.workers is None else args.workers
    if workers < 0 or args.chunksize < 1 or args.timeout <= 0:
        raise UsageError("--workers must be >= 0, --chunksize >= 1 and --timeout > 0")
    try:
        run = run_batch(
            args.input,
            args.output,
            job,
            workers=workers,
            chunksize=args.chunksize,
            timeout=args.timeout,
            resume=args.resume,
            progress=not args.no_progress,
        )
    except (BatchFileError, ConfigurationError) as exc:
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        print(fit(f"{PROG} batch: interrupted; run it again with --resume to finish"), file=sys.stderr)
        return 130
    where = sys.stderr if args.output == "-" else sys.stdout
    if run.resumed:
        print(fit(f"resumed: {run.resumed:,} records were already in {args.output}"), file=where)
    print(run.summary.render(seconds=run.seconds, workers=workers, parsed=run.written), file=where)
    if run.hint is not None:  # most records failed the same way: say what to check (exit 2 if the setup is wrong)
        print(fit(f"{PROG} batch: {run.hint}"), file=sys.stderr)
    return run.exit_code


def cmd_bench(args: argparse.Namespace) -> int:
    """Run corpora through our parser and the installed peers; print the comparison."""
    from resilient_parse.bench import runner  # imported here: `import resilient_parse.cli` stays light

    _import_from_the_working_directory()
    return runner.main(args)


def cmd_speed(args: argparse.Namespace) -> int:
    """Throughput on valid and broken documents against json.loads, validate_json and json-repair."""
    from resilient_parse.bench import speed

    return speed.main(args)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help, at most 80 columns wide however wide the terminal (narrower on a narrower one)."""

    def __init__(self, prog: str) -> None:
        columns = shutil.get_terminal_size((WIDTH, 24)).columns
        super().__init__(prog, width=max(40, min(columns, WIDTH) - 2))


class _ArgumentParser(argparse.ArgumentParser):
    """Usage mistakes are one message with exit 2, like every other failure to start (the usage is `--help`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, fit(f"{self.prog}: error: {message} (see {self.prog} --help)") + "\n")


def build_parser() -> argparse.ArgumentParser:
    top = _ArgumentParser(prog=PROG, description="Turn LLM output into typed objects; benchmark the recovery.")
    top.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    sub = top.add_subparsers(dest="command", metavar="{parse,batch,bench,speed}", parser_class=_ArgumentParser)

    p = sub.add_parser("parse", help="parse one model output into a target type")
    p.add_argument("file", nargs="?", default="-", help="the model output (a file, or - for stdin; default -)")
    p.add_argument("--target", "-t", required=True, help="module:Model, list[module:Model], or a JSON Schema file")
    p.add_argument("--mode", choices=("strict", "lenient"), default="lenient", help="repair policy (default lenient)")
    p.add_argument("--aliases", metavar="FILE.json", help='JSON object {"key the model writes": "field name"}')
    p.add_argument("--report", action="store_true", help="print every repair (to stderr)")
    p.set_defaults(func=cmd_parse)

    m = sub.add_parser("batch", help="parse a JSONL/Parquet log of model outputs into a file of results")
    m.add_argument("input", help="JSONL (one record per line; - for stdin) or Parquet (*.parquet) input")
    m.add_argument("--output", "-o", required=True, help="JSONL or *.parquet output, one record per input record")
    m.add_argument("--target", "-t", help="module:Model, list[...] or a JSON Schema file (records may name their own)")
    m.add_argument("--mode", choices=("strict", "lenient"), default="lenient", help="repair policy (default lenient)")
    m.add_argument("--aliases", metavar="FILE.json", help='JSON object {"key the model writes": "field name"}')
    m.add_argument("--text-field", default="text", help="the field holding the model output (default text)")
    m.add_argument("--id-field", default="id", help="a field copied to the output to join on (default id)")
    m.add_argument("--workers", "-w", type=int, help="worker processes (default: the CPU count; 0: no pool)")
    m.add_argument("--chunksize", type=int, default=64, help="records per task sent to a worker (default 64)")
    m.add_argument("--timeout", type=float, default=10.0, metavar="S", help="per-record timeout (default 10 s)")
    m.add_argument("--resume", action="store_true", help="keep the records an interrupted run wrote; do the rest")
    m.add_argument("--no-progress", action="store_true", help="no progress bar or progress lines")
    m.set_defaults(func=cmd_batch)

    b = sub.add_parser("bench", help="benchmark recovery on corpora against peer libraries")
    b.add_argument("corpus", nargs="*", help="JSONL corpus files (default: the bundled corpus)")
    b.add_argument("--systems", help="comma-separated systems (default: all installed); see --list-systems")
    b.add_argument("--list-systems", action="store_true", help="list the systems and whether they are installed")
    b.add_argument(
        "--mode", choices=("strict", "lenient", "both"), default="both", help="which of our modes to run (default both)"
    )
    b.add_argument(
        "--out", metavar="DIR", help="write bench.html and bench.json into DIR (made if missing); default: print only"
    )
    b.add_argument("--html", metavar="FILE", help="write the self-contained HTML report to FILE")
    b.add_argument("--json", metavar="FILE", help="write every figure and per-case outcome as JSON to FILE")
    b.add_argument(
        "--peer-suites",
        metavar="DIR",
        help="a folder of peer repository snapshots (owner+name): also score their own test suites",
    )
    b.add_argument("--wide", action="store_true", help="the full tables (latency, full system names): >80 columns")
    b.add_argument("--timeout", type=float, default=5.0, metavar="S", help="per-case timeout in seconds (default 5)")
    b.add_argument("--category", action="append", help="only run cases of this category (repeatable)")
    b.add_argument("--show-failures", action="store_true", help="list each case our parser got wrong")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.set_defaults(func=cmd_bench)

    s = sub.add_parser("speed", help="throughput against json.loads, TypeAdapter.validate_json and json-repair")
    s.add_argument("--full", action="store_true", help="sizes up to 4 MB, longer rounds (minutes; default: quick)")
    s.add_argument(
        "--sizes", help="comma-separated document sizes, e.g. 2KB,10KB,1MB (default 2KB..1MB; 4MB with --full)"
    )
    s.add_argument("--budget", type=float, metavar="S", help="seconds per measurement (default 0.25; 1 with --full)")
    s.add_argument("--goals", action="store_true", help="also print the project's speed goals, met or missed")
    s.add_argument("--json", metavar="FILE", help="write the figures as JSON to FILE")
    s.add_argument("--profile", action="store_true", help="cProfile our parser on the largest broken document")
    s.add_argument("--only", choices=["wrapped"], help="only the valid JSON wrapped in prose (about 15 s)")
    s.set_defaults(func=cmd_speed)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = args.func(args)
    except UsageError as exc:
        print(fit(f"{PROG} {args.command}: error: {one_line(str(exc))}"), file=sys.stderr)
        return 2
    except BrokenPipeError:  # `resilient-parse ... | head`
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
