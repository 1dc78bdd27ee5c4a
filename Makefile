# nDCG Lab: `make app` sets up and starts the app; `make test` sets up and runs every test.
# Dependencies live in pyproject.toml only (runtime; extras spark, dev, bench).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8501

.PHONY: app test test-fast test-core lint system-deps bench clean

app: $(VENV)/.app-installed
	$(BIN)/ndcg-lab app --server.port $(PORT)

test: $(VENV)/.dev-installed system-deps lint
	$(BIN)/python -m pytest

# The core alone (unit, properties, doctests, the layer rule): seconds.
test-core: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -q ndcg_core tests/core tests/architecture

# The quick inner loop: everything but the real browser and Spark.
test-fast: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -m "not browser and not spark"

# Lint, format and types; part of `make test`.
lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

system-deps:
	bash scripts/system-deps

bench: $(VENV)/.dev-installed
	$(BIN)/pip install -q -e ".[dev,bench]"
	$(BIN)/python bench/bench_sklearn.py
	$(BIN)/python bench/bench_batch.py
	$(BIN)/python bench/bench_spark.py
	$(BIN)/python bench/bench_calculator.py
	$(BIN)/python bench/bench_classroom.py
	$(BIN)/python bench/bench_trec.py --queries 1000
	$(BIN)/python bench/bench_spark_trec.py
	$(BIN)/python bench/bench_live.py
	$(BIN)/python bench/bench_first_visit.py
	$(BIN)/python bench/bench_memory.py

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.app-installed: pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install -q -e ".[dev]"
	touch $@ $(VENV)/.app-installed

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis artifacts
