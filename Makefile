# nDCG Lab: `make app` sets up and starts the app; `make test` sets up and runs every test.
# Dependencies are declared in pyproject.toml only (runtime; extras spark, postgres, dev, bench);
# requirements.txt and requirements-dev.txt pin the exact versions the suite passed with,
# compiled from it by pip-tools (`make requirements`), and are what `make app` / `make test` install.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8501
# pytest-xdist: one worker per core (this machine has 2); tests that share a server or a Spark
# session stay on one worker (xdist groups, tests/conftest.py).
WORKERS ?= 2
# Python keeps its compiled files (git-ignored __pycache__) even where the shell says not to:
# without them every run compiles each module again and pytest rewrites every test module's
# asserts (3 s of `make test-core`'s 20).
unexport PYTHONDONTWRITEBYTECODE
XDIST := -n $(WORKERS) --dist loadgroup
# Prerequisites build two at a time: `make test` installs the Python pins while scripts/system-deps
# installs the Debian packages, and lints while the Debian packages finish.
MAKEFLAGS += --jobs=2
COMPILE := $(BIN)/pip-compile -q --strip-extras --no-emit-index-url --no-emit-find-links --allow-unsafe

.PHONY: app test test-fast test-core lint system-deps bench clean requirements

app: $(VENV)/.app-installed
	$(BIN)/ndcg-lab app --server.port $(PORT)

test: $(VENV)/.dev-installed system-deps lint $(VENV)/.collected
	$(BIN)/python -m pytest $(XDIST) --durations=30

# A fresh clone compiles each module to bytecode when it is first imported, and pytest rewrites
# each test module's asserts: the suite's collection takes 17 s of CPU the first time, 5 s after.
# Collected once after each install, beside mypy (which keeps one core busy), the workers find
# the compiled files instead of compiling the same modules at once (a fresh clone's workers
# collected in 12.4-12.8 s, now 3.7-4.4 s); a warm checkout skips it.
$(VENV)/.collected: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -q --collect-only > $(VENV)/collect.log || (cat $(VENV)/collect.log; exit 1)
	touch $@

# The core and the teaching content over it (unit, properties, doctests, the layer rule): seconds.
# The comparisons with ranx (marker `ranx`: its Numba kernels take ~5 s to load in a process,
# a quarter of this target's time) run in test-fast and test.
test-core: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -q $(XDIST) -m "not ranx" ndcg_core ndcg_teach tests/core tests/teach tests/architecture

# The quick inner loop: everything but the real browser and Spark.
test-fast: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -q $(XDIST) -m "not browser and not spark"

# Lint, format and types; part of `make test`. mypy 2 type-checks modules that do not depend on
# each other in worker processes (`--num-workers`, documented as experimental): the same errors
# as one process (three planted errors, in the core, ui/ and a page), and beside the collection
# on a fresh clone 21 s of wall instead of 26-27 s.
lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --num-workers $(WORKERS)

system-deps:
	bash scripts/system-deps

bench: $(VENV)/.dev-installed
	$(BIN)/pip install -q -e ".[dev,spark,postgres,bench]"
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

# The pins are installed by uv (its version pinned in requirements-dev.txt, like every tool the
# suite runs): on a fresh machine with empty download caches, 25 s of wall time where pip takes
# 62 s (bench/README.md). Modules are compiled to bytecode on first import, not at install.
# --system-certs: uv trusts the system's certificate store, as pip does here through
# /etc/pip.conf; by default it trusts only its own bundled roots (or SSL_CERT_FILE), and
# refuses a network whose HTTPS proxy signs with a local authority ("invalid peer certificate").
# --no-deps: the two files are complete locks (pip-compile lists every package the pins need),
# installed as they are, without resolving them again; `uv pip check` then fails the target if a
# pin's requirements are not met. Resolving again made uv re-download PySpark's 400 MB source
# archive and rebuild its wheel on every fresh venv (the package index answers its revalidation
# as modified): 20 s of `make test`'s set-up; 0.8 s with the wheel uv built once.
UV := $(BIN)/uv pip install -q --system-certs --python $(BIN)/python --no-deps
UV_CHECK := $(BIN)/uv pip check -q --python $(BIN)/python
# PySpark is published as a source archive only, so a fresh machine builds its wheel; setuptools
# deflates the 280 jars inside it (zip files already) for 11 of the 17 s uv takes to download and
# build it; stored, 7 s, and the same files installed (every file's checksum compared).
SPARK_BUILD := --config-settings-package "pyspark:--build-option=--compression=stored"

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# Its own target, so a venv made before uv was used gets it too.
$(BIN)/uv: requirements-dev.txt | $(VENV)/bin/python
	$(BIN)/pip install -q "$$(grep '^uv==' requirements-dev.txt)"
	touch -c $@

$(VENV)/.app-installed: requirements.txt pyproject.toml | $(BIN)/uv
	$(UV) -r requirements.txt
	$(UV) -e .
	$(UV_CHECK)
	touch $@

$(VENV)/.dev-installed: requirements-dev.txt pyproject.toml | $(BIN)/uv
	$(UV) $(SPARK_BUILD) -r requirements-dev.txt
	$(UV) -e .
	$(UV_CHECK)
	touch $@ $(VENV)/.app-installed

# Re-pin after a change of pyproject.toml's dependencies (tests/architecture/test_requirements.py
# fails while a pin no longer satisfies pyproject.toml).
requirements: $(VENV)/.dev-installed
	$(COMPILE) -o requirements.txt pyproject.toml
	$(COMPILE) --extra dev --extra spark --extra postgres -o requirements-dev.txt pyproject.toml

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis artifacts
