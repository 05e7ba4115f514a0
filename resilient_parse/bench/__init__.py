"""What `resilient-parse bench` and `resilient-parse speed` run, shipped with the package.

    runner          the recovery benchmark: every corpus case through every system, scored, printed, reported
    headline        the headline split (syntax/extraction, schema repair, plain text) and the strict-policy score
    peer_suites     the peers' own test suites, read at run time from repository snapshots (`--peer-suites`)
    corpus_loader   reading JSONL corpora into `Case`s (bare target names resolve in `corpus.models`)
    corpus/         the bundled corpus (default.jsonl), its README and its target models (corpus/models.py)
    peers           the systems compared: our parser in each mode, and peer libraries behind one adapter
    report          the self-contained HTML report (`bench --html`)
    speed           throughput against json.loads, TypeAdapter.validate_json and json-repair
    speed_core      the speed benchmark's documents and median timer

The command line imports these only when one of the two commands runs. Nothing here imports
`resilient_parse.cli`; targets are resolved by `resilient_parse.targets`. Hand-run benchmark scripts stay in
the repository's `benchmarks/` folder and are not installed.
"""
