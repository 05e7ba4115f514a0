"""Records per second for a log of mixed model outputs: one process, the batch pool, and Dask on a local cluster.

    python -m benchmarks.bench_batch [--records 100000] [--workers 2] [--chunksize 64] [--json out.json]

The log is JSONL, one record per line ({"id", "text"}), a fixed mix: valid JSON, fenced single-quoted JSON with a
trailing comma, a key in the wrong case, a refusal, a schema mismatch, prose with no JSON (one in six each). Each
route reads the file and writes or returns every result:

- one process: `resilient-parse batch --workers 0` (`run_batch` in this process);
- the pool: `run_batch` with `--workers` processes (per-record timeout on, as the command runs by default);
- Dask: `db.read_text(...)` on a `LocalCluster` of `--workers` processes with one thread each, `parse_bag`,
  the results brought back to the client (the cluster's start-up is reported apart, not counted).

Scaling efficiency = rate / (workers x one-process rate). Overhead per record = (workers x wall time - one-process
wall time) / records: the CPU a route spends per record beyond parsing it (pickling, pipes, the parent's writing;
for Dask also its scheduler), assuming the workers were busy the whole time. The parent's CPU per record is the
serial part: it caps the pool at 1 / (parent CPU per record) records per second however many cores there are.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from resilient_parse.batch import RecordJob, run_batch


class Call(BaseModel):
    action: str
    n: int = 0


SHAPES = (
    lambda i: f'{{"action": "a{i}", "n": {i}}}',
    lambda i: f"Sure!\n```json\n{{'action': 'b{i}', 'n': {i},}}\n```",
    lambda i: f'{{"Action": "c{i}"}}',
    lambda i: "I'm sorry, but I cannot help with that request.",
    lambda i: f'{{"action": "d{i}", "n": "many"}}',
    lambda i: "no json here at all",
)


def write_log(path: Path, records: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for i in range(records):
            out.write(json.dumps({"id": i, "text": SHAPES[i % len(SHAPES)](i)}) + "\n")


def timed_batch(log: Path, out: Path, workers: int, chunksize: int) -> dict[str, float]:
    job = RecordJob(target=Call)
    cpu, wall = time.process_time(), time.perf_counter()
    run = run_batch(str(log), str(out), job, workers=workers, chunksize=chunksize, timeout=10.0, progress=False)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert run.summary.total == run.written, "a record went missing"
    return {"seconds": wall, "parent_cpu": cpu, "records": run.written}


def timed_dask(log: Path, workers: int, records: int) -> dict[str, float] | None:
    try:
        import dask.bag as db
        from distributed import Client, LocalCluster
    except ImportError:
        print("dask/distributed not installed: pip install 'resilient-parse[dask]'", file=sys.stderr)
        return None
    from resilient_parse.integrations.dask import parse_bag

    started = time.perf_counter()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    startup = time.perf_counter() - started
    try:
        blocksize = max(1 << 16, log.stat().st_size // (workers * 8))  # ~8 partitions per worker
        cpu, wall = time.process_time(), time.perf_counter()
        results = parse_bag(db.read_text(str(log), blocksize=blocksize), Call, text_field="text").compute()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        client.close()
        cluster.close()
    assert len(results) == records, "a record went missing"
    return {"seconds": wall, "parent_cpu": cpu, "records": len(results), "startup": startup}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunksize", type=int, default=64)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)
    figures: dict[str, Any] = {"records": args.records, "workers": args.workers, "chunksize": args.chunksize}
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "log.jsonl"
        write_log(log, args.records)
        routes = {
            "one process": timed_batch(log, Path(tmp) / "one.jsonl", 0, args.chunksize),
            f"pool, {args.workers} workers": timed_batch(log, Path(tmp) / "pool.jsonl", args.workers, args.chunksize),
        }
        if not args.no_dask:
            dask = timed_dask(log, args.workers, args.records)
            if dask is not None:
                routes[f"dask, {args.workers} workers"] = dask
    single = routes["one process"]["seconds"]
    print(f"{args.records:,} mixed records, {args.workers} workers, chunksize {args.chunksize}\n")
    print(f"{'route':<22}{'seconds':>9}{'records/s':>11}{'efficiency':>12}{'overhead/rec':>14}{'parent CPU/rec':>16}")
    print("-" * 84)
    for name, f in routes.items():
        workers = 1 if name == "one process" else args.workers
        rate = f["records"] / f["seconds"]
        f["rate"] = rate
        f["efficiency"] = single / (workers * f["seconds"])
        f["overhead_us"] = 1e6 * (workers * f["seconds"] - single) / f["records"]
        f["parent_cpu_us"] = 1e6 * f["parent_cpu"] / f["records"]
        overhead = "-" if workers == 1 else f"{f['overhead_us']:.0f} µs"
        print(
            f"{name:<22}{f['seconds']:>9.2f}{rate:>11,.0f}{100 * f['efficiency']:>11.0f}%"
            f"{overhead:>14}{f['parent_cpu_us']:>13.0f} µs"
        )
        if "startup" in f:
            print(f"{'':<22}(cluster start-up {f['startup']:.1f} s, not counted)")
    figures["routes"] = routes
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
