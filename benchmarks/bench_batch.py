"""Records per second for a log of mixed model outputs: one process, the batch pool, and Dask on a local cluster.

    python -m benchmarks.bench_batch [--records 100000] [--workers 2] [--chunksize 64] [--cores 64] [--json out.json]

The log is JSONL, one record per line ({"id", "text"}), a fixed mix: valid JSON, fenced single-quoted JSON with a
trailing comma, a key in the wrong case, a refusal, a schema mismatch, prose with no JSON (one in six each).
Each route reads the file and writes (or returns) every result:

- one process: what `resilient-parse batch --workers 0` does, in this process;
- the pool: a `RecordPool` of `--workers` processes with the command's per-record timeout, written to JSONL;
- Dask: `db.read_text(...)` on a `LocalCluster` of `--workers` processes with one thread each, `parse_bag`, the
  results brought back to the client (the cluster's start-up is reported apart, not counted).

Wall-clock figures: records/s and scaling efficiency = rate / (workers x one-process rate). They are only as good
as the machine is quiet, so CPU figures are measured too: the CPU a route spends per record, in the parent and in
the workers (as they report it), and the overhead = that minus the one-process CPU per record (pickling, pipes,
the parent's reading and writing; Dask's scheduler and transport). The parent's CPU per record is the serial part:
with more cores the pool's rate tends to min(cores / worker CPU per record, 1 / parent CPU per record), which is
the projection printed for `--cores`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from pydantic import BaseModel

from resilient_parse.batch import RecordJob, RecordPool, Summary, process_encoded
from resilient_parse.batch.files import JsonlWriter, read_records


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


def timed_file_route(log: Path, out: Path, workers: int, chunksize: int) -> dict[str, float]:
    """Read the log, parse every record (here, or on a pool), write the results and count them."""
    job = RecordJob(target=Call)
    summary, writer = Summary(), JsonlWriter(str(out))
    cpu, wall = time.process_time(), time.perf_counter()
    pool = RecordPool(job, workers, chunksize=chunksize, timeout=10.0, encoded=True) if workers else None
    records = read_records(str(log))
    results = pool.imap(records) if pool is not None else process_encoded(job, records, workers=0)
    for result in results:
        writer.write(result)
        summary.add_tally(result.tally)
    writer.close()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    worker_cpu = 0.0
    if pool is not None:
        pool.close()
        worker_cpu = pool.worker_cpu_seconds
    return {"seconds": wall, "parent_cpu": cpu, "worker_cpu": worker_cpu, "records": summary.total}


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
        worker_cpu = client.run(time.process_time)
        cpu, wall = time.process_time(), time.perf_counter()
        results = parse_bag(db.read_text(str(log), blocksize=blocksize), Call, text_field="text").compute()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        after = client.run(time.process_time)
    finally:
        client.close()
        cluster.close()
    assert len(results) == records, "a record went missing"
    spent = sum(after[w] - worker_cpu[w] for w in after if w in worker_cpu)
    return {"seconds": wall, "parent_cpu": cpu, "worker_cpu": spent, "records": len(results), "startup": startup}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunksize", type=int, default=64)
    ap.add_argument("--cores", type=int, default=64, help="the core count to project the pool's rate to")
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "log.jsonl"
        write_log(log, args.records)
        routes = {
            "one process": timed_file_route(log, Path(tmp) / "one.jsonl", 0, args.chunksize),
            f"pool, {args.workers} workers": timed_file_route(
                log, Path(tmp) / "pool.jsonl", args.workers, args.chunksize
            ),
        }
        if not args.no_dask:
            dask = timed_dask(log, args.workers, args.records)
            if dask is not None:
                routes[f"dask, {args.workers} workers"] = dask
    one = routes["one process"]
    one_cpu_us = 1e6 * one["parent_cpu"] / one["records"]
    print(f"{args.records:,} mixed records, {args.workers} workers, chunksize {args.chunksize}, load {load:.1f}\n")
    print(
        f"{'':<20}{'wall':>8}{'records/s':>11}{'effic.':>8}{'CPU/rec':>10}{'overhead':>10}{'parent':>9}{'workers':>9}"
    )
    print(f"{'route':<20}{'s':>8}{'':>11}{'':>8}{'µs':>10}{'µs/rec':>10}{'µs/rec':>9}{'µs/rec':>9}")
    print("-" * 85)
    for name, f in routes.items():
        n = f["records"]
        workers = 1 if name == "one process" else args.workers
        f["rate"] = n / f["seconds"]
        f["efficiency"] = one["seconds"] / (workers * f["seconds"])
        f["parent_us"] = 1e6 * f["parent_cpu"] / n
        f["worker_us"] = 1e6 * f["worker_cpu"] / n
        f["cpu_us"] = f["parent_us"] + f["worker_us"]
        f["overhead_us"] = f["cpu_us"] - one_cpu_us
        print(
            f"{name:<20}{f['seconds']:>8.2f}{f['rate']:>11,.0f}{100 * f['efficiency']:>7.0f}%{f['cpu_us']:>10.0f}"
            f"{f['overhead_us']:>10.0f}{f['parent_us']:>9.1f}{f['worker_us']:>9.0f}"
        )
    pool = routes[f"pool, {args.workers} workers"]
    by_workers = args.cores / (pool["worker_us"] * 1e-6)
    by_parent = 1 / (pool["parent_us"] * 1e-6)
    print(
        f"\nprojected pool rate on {args.cores} cores: min({by_workers:,.0f} by the workers, "
        f"{by_parent:,.0f} by the parent) = {min(by_workers, by_parent):,.0f} records/s "
        f"({min(by_workers, by_parent) * one_cpu_us * 1e-6:.1f}x one process)"
    )
    if args.json:
        figures = {"records": args.records, "workers": args.workers, "chunksize": args.chunksize, "load": load}
        Path(args.json).write_text(json.dumps({**figures, "routes": routes}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
