# Two commands on a fresh machine (Python >= 3.11 with pip and venv):
#   make bench   # the main job: recovery report on the bundled default corpus (reports/bench.html)
#   make test    # ruff, mypy and the test suite (what CI runs)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PLUGINS := $(wildcard plugins/*/pyproject.toml)
PLUGIN_DIRS := $(patsubst %/pyproject.toml,%,$(PLUGINS))

.PHONY: install test test-slow lint bench speed clean

$(VENV)/.installed: pyproject.toml $(PLUGINS)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev,bench]" $(foreach d,$(PLUGIN_DIRS),-e $(d))
	touch $@

install: $(VENV)/.installed

lint: install
	$(BIN)/ruff check resilient_parse plugins tests benchmarks .ci
	$(BIN)/ruff format --check resilient_parse plugins tests benchmarks .ci
	$(BIN)/mypy resilient_parse plugins/planner/src/rp_planner plugins/toolcalls/src/rp_toolcalls
	$(BIN)/lint-imports --no-cache
	$(BIN)/python .ci/redos_scan.py resilient_parse plugins

# two workers (pytest-xdist), as for the slow tests: the default suite of ~6,500 tests took ~9 min on one core
test: lint
	$(BIN)/python -m pytest -q -n 2 --dist worksteal tests $(PLUGIN_DIRS)

test-slow: install
	$(BIN)/python -m pytest -q -m slow -n 2 --dist worksteal tests $(PLUGIN_DIRS) --hypothesis-profile=deep --durations=25

# `resilient-parse bench` alone only prints: the target asks for the HTML report (reports/ is git-ignored)
bench: install
	$(BIN)/resilient-parse bench --html reports/bench.html

# the full speed run (minutes): every size up to 4 MB, longer rounds; `resilient-parse speed` is the quick one
speed: install
	$(BIN)/resilient-parse speed --full

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
