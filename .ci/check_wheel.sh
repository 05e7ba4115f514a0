#!/usr/bin/env bash
# The wheel ships only the `resilient_parse` package (and its dist-info), and `resilient-parse bench` runs from it
# alone: build the wheel from a copy of the work tree, check its top-level names, install it into a fresh virtual
# environment (dependencies from the package index) and run the bench on the bundled corpus from a directory
# outside the checkout. Quiet when it passes (one line); on failure, the reason and the tail of the log.
#   bash .ci/check_wheel.sh            # uses .venv/bin/python to build, or $CI_VENV/bin/python
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python="${CI_VENV:-.venv}/bin/python"
[ -x "$python" ] || python=python3
export PIP_DISABLE_PIP_VERSION_CHECK=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log="$tmp/log"
: >"$log"

fail() {
    echo "check_wheel: FAILED: $*" >&2
    if [ -s "$log" ]; then tail -n 40 "$log" >&2; fi
    exit 1
}

# A copy of the work tree without virtual environments, caches and build leftovers: setuptools builds in the
# source tree, and a stale build/lib would put removed modules back into the wheel.
"$python" - "$root" "$tmp/src" <<'EOF' || fail "copying the work tree"
import shutil, sys
from pathlib import Path

SKIP = {".git", "build", "dist", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", "reports"}

def ignore(folder: str, names: list[str]) -> set[str]:
    return {n for n in names if n in SKIP or n.endswith(".egg-info") or (Path(folder, n, "pyvenv.cfg").exists())}

shutil.copytree(sys.argv[1], sys.argv[2], ignore=ignore, symlinks=True)
EOF

"$python" -m pip wheel "$tmp/src" --no-deps -q -w "$tmp/dist" >>"$log" 2>&1 || fail "building the wheel"
wheels=("$tmp"/dist/resilient_parse-*.whl)
[ "${#wheels[@]}" -eq 1 ] && [ -f "${wheels[0]}" ] || fail "expected one resilient_parse wheel in dist/"
wheel=${wheels[0]}

"$python" - "$wheel" <<'EOF' >>"$log" 2>&1 || fail "the wheel's contents (above)"
import re, sys, zipfile

names = zipfile.ZipFile(sys.argv[1]).namelist()
top = sorted({n.split("/", 1)[0] for n in names})
extra = [t for t in top if t != "resilient_parse" and not re.fullmatch(r"resilient_parse-[^/]+\.dist-info", t)]
if extra or len(top) != 2:
    sys.exit(f"top-level names are {top}: expected exactly resilient_parse and resilient_parse-*.dist-info")
for data in ("resilient_parse/bench/corpus/default.jsonl", "resilient_parse/bench/corpus/README.md",
             "resilient_parse/bench/corpus/models.py", "resilient_parse/py.typed"):
    if data not in names:
        sys.exit(f"the wheel lacks {data}")
print("top-level:", " ".join(top))
EOF

"$python" -m venv "$tmp/venv" >>"$log" 2>&1 || fail "creating a virtual environment"
"$tmp/venv/bin/python" -m pip install -q "$wheel" >>"$log" 2>&1 || fail "installing the wheel"

# a plain install is light: numpy and jsonpatch are optional extras (`fast`, `patch`)
light='import importlib.util as u, sys; f = [m for m in ("numpy", "jsonpatch") if u.find_spec(m)]
sys.exit(f"installed: {f}" if f else 0)'
"$tmp/venv/bin/python" -c "$light" >>"$log" 2>&1 || fail "a plain install of the wheel pulled in numpy or jsonpatch (above)"

mkdir "$tmp/work"
out="$tmp/bench.txt"
(cd "$tmp/work" && env -u PYTHONPATH "$tmp/venv/bin/resilient-parse" bench --no-progress --timeout 10) \
    >"$out" 2>>"$log" || { cat "$out" >>"$log"; fail "resilient-parse bench from the installed wheel"; }
grep -q "^resilient_parse:strict " "$out" && grep -q "^resilient_parse:lenient " "$out" \
    || { cat "$out" >>"$log"; fail "the bench printed no table with our two modes"; }

echo "check_wheel: $(basename "$wheel") holds only resilient_parse + dist-info, needs no numpy;" \
    "bench from a fresh venv outside the checkout: $(head -n 1 "$out")"
