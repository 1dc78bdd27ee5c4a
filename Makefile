# nDCG Lab: `make app` sets up and starts the app; `make test` sets up and runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8501

.PHONY: app test test-fast system-deps bench clean

app: $(VENV)/.app-installed
	$(BIN)/streamlit run app.py --server.port $(PORT)

test: $(VENV)/.dev-installed system-deps
	$(BIN)/python -m pytest

# The quick inner loop: everything but the real browser and Spark.
test-fast: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -m "not browser and not spark"

system-deps:
	bash scripts/system-deps

bench: $(VENV)/.dev-installed
	$(BIN)/pip install -q -r bench/requirements.txt
	$(BIN)/python bench/bench_sklearn.py
	$(BIN)/python bench/bench_batch.py
	$(BIN)/python bench/bench_spark.py
	$(BIN)/python bench/bench_calculator.py
	$(BIN)/python bench/bench_classroom.py

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.app-installed: requirements.txt | $(VENV)/bin/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt requirements-spark.txt | $(VENV)/bin/python
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@ $(VENV)/.app-installed

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis artifacts
