# Scorebook. `make run` and `make test` set everything up themselves (virtual environment, install, schema).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
BENCH_STAMP := $(VENV)/.bench-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
DEMO ?= 3
# CI runs the full suite; locally the slow property runs are skipped (`make test-full` runs them).
PYTEST_SELECT := $(if $(CI),,-m "not slow")
# With PYTHONDONTWRITEBYTECODE=1 (as some environments set) every pytest worker compiles and assert-rewrites
# ~600 modules (the tests, the plugins' packages) again on each run, 10 s or more a worker. The test targets
# keep that cache in .pytest_cache/pycache instead: nothing is written beside the sources.
PYTEST := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/.pytest_cache/pycache $(BIN)/python -m pytest

# The parts of the suite, one folder of tests/ each (tests/README.md): `make test-store`, or any folder below
# tests/ with `make test-part PART=games/hi_spot`. Selected as `make test` selects (slow runs in CI only; add
# PYTEST_SELECT= to run them too), without the lint.
PARTS := games domain store readmodels api dashboard browser system
PART ?=

.PHONY: run test test-full test-quick test-part $(addprefix test-,$(PARTS)) lint migrate bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(STAMP)

# The benchmarks also need the `bench` extra (the eventsourcing library, an anchor of bench/write_path.py).
$(BENCH_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e ".[dev,bench]"
	touch $(BENCH_STAMP)

run: $(STAMP)
	$(BIN)/scorebook serve --host $(HOST) --port $(PORT) --demo $(DEMO) --print-token

migrate: $(STAMP)
	$(BIN)/scorebook migrate

test: $(STAMP) lint
	$(PYTEST) -n 2 $(PYTEST_SELECT)

test-full: $(STAMP) lint
	$(PYTEST) -n 2

test-quick: $(STAMP)
	$(PYTEST) -n 2 -m "not slow and not browser"

test-part: $(STAMP)
	@test -n "$(PART)" && test -d "tests/$(PART)" || { echo "PART names a folder of tests/: $(PARTS), or one below it"; exit 2; }
	$(PYTEST) -n 2 $(PYTEST_SELECT) tests/$(PART)

$(addprefix test-,$(PARTS)): test-%: $(STAMP)
	$(PYTEST) -n 2 $(PYTEST_SELECT) tests/$*

lint: $(STAMP)
	$(BIN)/ruff check projections recorder dashboard scorebook tests bench migrations
	$(BIN)/mypy

bench: $(BENCH_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) var test-artifacts .pytest_cache .mypy_cache .ruff_cache *.egg-info
