# Atlas: `make run` starts the app on its embedded defaults, `make test` runs every test.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed
PYTHON_BOOT ?= python3

.PHONY: check run serve load profile capacity stop-check db test test-random mutation coverage lint format venv browser bench bench-recall bench-surfaces bench-seed eval eval-locomo screenshots faults

$(STAMP): requirements.txt
	@$(PYTHON_BOOT) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else "Atlas needs Python 3.12 or newer; found " + sys.version.split()[0] + ". Install 3.12 (pyenv install 3.12.1; the .python-version file selects it) or run make PYTHON_BOOT=python3.12 ...")'
	$(PYTHON_BOOT) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	@touch $(STAMP)

venv: $(STAMP)

# The app's database brought up to date (the embedded server starts on first use).
db: venv
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createcachetable

run: db
	$(PY) manage.py seed_demo --if-empty
	$(PY) manage.py runatlas

# Production mode: gunicorn (gthread) + the django-q2 cluster, DEBUG off, whitenoise, on
# ATLAS_ADDR (default 127.0.0.1:8000). TERM or INT (Ctrl-C) stops everything within seconds.
serve: db
	$(PY) manage.py seed_demo --if-empty
	$(PY) manage.py serveatlas

# The bounded load test (loopback only): 50 simulated users for 2 minutes against one
# production server, then two servers on two ports against one database; each run is
# followed by the database reconciliation. Not part of `make test`.
LOAD_USERS ?= 50
LOAD_SECONDS ?= 120
load: db
	$(PY) scripts/load_test.py --users $(LOAD_USERS) --seconds $(LOAD_SECONDS) --servers 1
	$(PY) scripts/load_test.py --users $(LOAD_USERS) --seconds $(LOAD_SECONDS) --servers 2

# Where the CPU goes under load: CPU ms per answered turn by stage (web, turn, gate task,
# django-q2, PostgreSQL by client, the load generator), PROFILE_USERS users for PROFILE_SECONDS.
PROFILE_USERS ?= 50
PROFILE_SECONDS ?= 90
profile: db
	$(PY) scripts/profile_load.py --users $(PROFILE_USERS) --seconds $(PROFILE_SECONDS) --servers 1

# Capacity: 25, 50, ... users (90 s each) until turn p95 passes 600 ms, an error or a failed
# reconciliation; prints the last step that held with its turns/s. About 3 minutes a step.
capacity: db
	$(PY) scripts/capacity.py --start 25 --step 25 --max 200 --seconds 90 --servers 1

# The production stop check, repeated: STOP_CYCLES starts of `make serve`, each stopped with TERM to
# its process group; prints how many left a process of the group or a PostgreSQL server running
# 15 s later (must be 0). Its own data folder and port. Not part of `make test`.
STOP_CYCLES ?= 20
stop-check: venv
	$(PY) scripts/stop_check.py --cycles $(STOP_CYCLES)

# Debian's chromium for the browser tests (installed once; needs root or sudo).
browser:
	@command -v chromium >/dev/null || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get install -y -qq chromium >/dev/null; }

lint: venv
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

format: venv
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

# The edit-test loop: ruff, then every test but the browser, the slow modules, the labelled sets
# (tests/conftest.py SLOW_MODULES) and the tests through a whole chat turn. `make test` runs everything.
check: venv
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest -n 2 -q -m "not browser and not slow and not evaluation and not turn" $(PYTEST_ARGS)

test: venv browser lint
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest -n 2 --dist worksteal $(PYTEST_ARGS)

# The suite in random order (pytest-randomly, off in `make test`); the seed is printed first,
# and PYTEST_ARGS="--randomly-seed=N" repeats that order.
test-random: venv
	$(PY) -m pytest -p randomly $(PYTEST_ARGS)

# Mutation testing (not in `make test`): mutmut over the core modules ([tool.mutmut] in
# pyproject.toml) with their tests, one mutant at a time against one kept test database, then
# each module's kill rate, the weighted overall rate and the survivors. By default a seeded
# random sample of at most MUTANTS_SAMPLE=12 mutants per module (MUTATION_SEED, default 17;
# about 230 mutants, about 20 minutes here with its set-up: seeds 73 and 79); MUTANTS_SAMPLE= (empty) runs all of the ~11,000
# (hours); MUTANTS='memory.recall* memory.suppression*' names the mutants to run instead.
MUTATION_SEED ?= 17
MUTANTS_SAMPLE ?= 12
mutation: venv
	rm -rf mutants
	names="$(MUTANTS)"; \
	if [ -z "$$names" ] && [ -n "$(MUTANTS_SAMPLE)" ]; then \
	  names=$$($(PY) scripts/mutation_report.py sample --per-module $(MUTANTS_SAMPLE) --seed $(MUTATION_SEED)) || exit 1; \
	fi; \
	ATLAS_PGDATA=$(CURDIR)/.atlas/pgdata ATLAS_TEST_DB_SUFFIX=mutation $(PY) scripts/mutation_report.py reset && \
	ATLAS_PGDATA=$(CURDIR)/.atlas/pgdata ATLAS_TEST_DB_SUFFIX=mutation $(VENV)/bin/mutmut run --max-children 1 $$names
	$(PY) scripts/mutation_report.py report

# Line coverage of the gate package, the planner and atlas/db.py over their test files (not in
# `make test`): one table for the gate package, one for the planner and atlas/db.py.
COV_TESTS ?= tests/memory/test_gate.py tests/memory/test_gate_findings.py tests/memory/test_timex.py tests/memory/test_eval_gate.py \
	tests/chat/test_planner.py tests/test_db_bootstrap.py tests/test_database_url.py tests/memory/test_rls.py
coverage: venv
	$(PY) -m pytest -q -p no:randomly $(COV_TESTS) --cov=memory.gate --cov=chat.planner --cov=atlas.db --cov-report=
	$(PY) -m coverage report --show-missing --include='memory/gate/*'
	$(PY) -m coverage report --show-missing --include='chat/planner.py,atlas/db.py'

# How long seed_demo takes to load the corpus (median of 3, rolled back).
bench-seed: db
	$(PY) manage.py bench_seed_demo --runs 3

# Measurements quoted in the README (each prints a table; --json adds one JSON line).
SHARED ?= ../shared
# The labelled sets: the shared dev sets, ours, then every regression fixture and every set still held
# out, by kind (the folders say which is which).
eval: db
	$(PY) manage.py eval_gate $(SHARED)/benchmarks/gate/dev.jsonl
	$(PY) manage.py eval_gate $(SHARED)/benchmarks/gate/dev2.jsonl
	$(PY) manage.py eval_gate $(SHARED)/benchmarks/gate/dev3.jsonl
	$(PY) manage.py eval_gate tests/fixtures/gate_own_cases.jsonl
	$(PY) manage.py eval_recall $(SHARED)/benchmarks/recall/dev.jsonl --k 6
	$(PY) manage.py seed_demo --if-empty
	$(PY) manage.py eval_answers $(SHARED)/benchmarks/answers/dev.jsonl
	$(PY) manage.py eval_answers $(SHARED)/benchmarks/answers/dev2.jsonl
	$(PY) manage.py eval_answers tests/fixtures/answer_own_cases.jsonl
	$(PY) manage.py eval_memory_effect $(SHARED)/benchmarks/memory_effect/dev.jsonl
	$(PY) manage.py eval_memory_effect tests/fixtures/memory_effect_own_cases.jsonl
	for f in tests/fixtures/regression/gate_set*.jsonl $$(ls tests/fixtures/heldout/gate_set*.jsonl 2>/dev/null); do echo $$f; $(PY) manage.py eval_gate $$f | tail -1; done
	for f in tests/fixtures/regression/answers_set*.jsonl $$(ls tests/fixtures/heldout/answers_set*.jsonl 2>/dev/null); do echo $$f; $(PY) manage.py eval_answers $$f | tail -1; done
	for f in tests/fixtures/regression/memory_effect_set*.jsonl $$(ls tests/fixtures/heldout/memory_effect_set*.jsonl 2>/dev/null); do echo $$f; $(PY) manage.py eval_memory_effect $$f | tail -1; done

eval-locomo: db
	$(PY) manage.py eval_recall $(SHARED)/benchmarks/locomo/locomo10_recall.jsonl --k 6

bench: db
	$(PY) manage.py seed_demo --if-empty
	$(PY) manage.py bench_session --turns 6
	$(PY) scripts/bench_embedder.py
	$(PY) manage.py bench_gate $(SHARED)/benchmarks/gate/dev.jsonl $(SHARED)/benchmarks/gate/dev2.jsonl
	$(PY) manage.py measure_parse

screenshots: venv browser
	ATLAS_SCREENSHOT_DIR=docs $(PY) -m pytest tests/browser -q

# The two-surfaces staff report over 100,000 synthetic events (rolled back afterwards).
bench-surfaces: db
	$(PY) manage.py bench_surfaces_report

bench-recall: venv
	$(PY) manage.py bench_recall --users 10000 --memories 1000000 --queries 300 --heavy-queries 100

# Fault injection (not in make test): a private Atlas whose PostgreSQL is stopped and restarted,
# whose Redis and embedder point at closed ports and whose worker is killed mid-task; prints
# requests sent, clear errors, 500s, memories lost and duplicates per scenario (README table).
faults: venv
	$(PY) scripts/fault_inject.py $(FAULTS_ARGS)

# The whole suite against a separately started PostgreSQL 18 + pgvector over TCP
# (scripts/tcp_postgres.py); the server is stopped and its data deleted even when tests fail.
.PHONY: test-tcp
test-tcp: venv
	@url=$$($(PY) scripts/tcp_postgres.py start) || exit 1; \
	trap '$(PY) scripts/tcp_postgres.py stop' EXIT; \
	echo "DATABASE_URL=$$url"; \
	DATABASE_URL="$$url" $(PY) -m pytest -q $(PYTEST_ARGS)
