# The two commands of README's quick start: `make run` and `make test`. Nothing else by hand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run dev test test-postgres lint format messages screenshots bench clean lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Exactly the locked versions, each checked against its hash (requirements/*.txt, made from
# pyproject.toml's ranges by `make lock`; docs/testing.md), then the app itself without
# dependencies. Reinstall only when the project's metadata or its lock changes.
$(VENV)/.installed: pyproject.toml requirements/app.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/app.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml requirements/test.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/test.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@ $(VENV)/.installed

# The lock files again, from pyproject.toml's ranges: the newest versions they allow, with the
# hashes of every file PyPI has for them (uv, in a virtual environment of its own, outside the
# checkout so that makemessages never reads it).
UV_VENV ?= $(HOME)/.cache/tarot-scoresheet/uv
LOCK := $(UV_VENV)/bin/uv pip compile pyproject.toml --quiet --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command 'make lock'
lock:
	test -x $(UV_VENV)/bin/uv || { $(PYTHON) -m venv $(UV_VENV) && $(UV_VENV)/bin/pip install --quiet uv; }
	$(LOCK) $(UPGRADE) --extra test --extra browser -o requirements/test.txt
	$(LOCK) $(UPGRADE) -c requirements/test.txt -o requirements/app.txt

# Production-grade: gunicorn on every interface (PORT overrides 8000), static files by WhiteNoise.
run: $(VENV)/.installed
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py collectstatic --no-input -v0
	PORT=$(PORT) $(BIN)/python manage.py serve

# Development: Django's autoreloading server with debug pages, on localhost only.
dev: $(VENV)/.installed
	$(BIN)/python manage.py migrate --no-input
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

# The whole suite on SQLite, the browser tests (tests/e2e, Debian's chromium) included, in one
# process per core (pytest-xdist). One module alone: .venv/bin/python -m pytest tests/test_x.py
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n auto

# What differs on PostgreSQL (the tests marked `postgres`, chosen in tests/conftest.py), on a
# throwaway PostgreSQL 15 cluster (apt-get install postgresql-15). `scripts/with-postgres make
# test` runs the whole suite there.
test-postgres: $(VENV)/.installed-test
	scripts/with-postgres $(BIN)/python -m pytest -n auto -m postgres

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.installed-test
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Needs gettext's tools; the compiled .mo files are committed so running the app does not.
messages: $(VENV)/.installed
	$(BIN)/python manage.py makemessages --all --no-location --no-obsolete \
	  --ignore '.venv/*' --ignore 'tests/*' --ignore 'scripts/*' --ignore 'staticfiles/*' --ignore 'benchmarks/*'
	$(BIN)/python manage.py compilemessages --ignore '.venv/*'

# Phone-width screenshots of the main pages into docs/ (needs Debian's chromium).
screenshots: $(VENV)/.installed-test
	$(BIN)/python scripts/screenshots.py

# The performance budget, each figure printed beside its target and the floor of one commit
# (benchmarks/harness.py's Report): in-process figures and the slow phone (benchmarks/run.py:
# the files and the printed sheet at 10,000 hands, the summary's ratio, a first visit's bytes),
# then the headline, over HTTP against `manage.py serve` with 3 workers and three phones saving
# (benchmarks/over_http.py: fails when a 10,000 / 20 hands ratio is over 1.5 or a response
# over 2 MB, or a correction, deletion, undo, change of rules or file misses its target); a
# worker's memory over 10,000 requests (benchmarks/memory.py: at most 1.5x its size after
# warm-up); then the club (benchmarks/club.py: club, player page, standings at 10 and 200 sessions
# of 60 hands, fails when a time ratio is over 1.5 or the queries differ); then a club night
# (benchmarks/night.py: 8 vs 60 players, same rule; then, in a club of 600 sessions over HTTP,
# nights of 16, 60 and 200 created and drawn within 1 s each, a table's save meanwhile within
# 0.2 s, a correction in its first session within 1.5x one in its latest); then the big writes
# (benchmarks/writes.py: imports, rule changes, corrections, merges, and a save at another table
# during a club's import, on the web too, the largest club backup at a load of 4, its request
# within 10 s; fails when one misses its target in seconds); the first
# request after a restart (benchmarks/first_request.py: fails when it costs over 2x a later one);
# the tables one and two app servers hold on PostgreSQL with p95 <= 200 ms (benchmarks/capacity.py,
# short steps; needs postgresql-15). About 12 minutes on 2 cores; `scripts/with-postgres make
# bench` runs the in-process and HTTP figures on PostgreSQL.
bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/run.py --players 5 --sizes 10,10000
	$(BIN)/python benchmarks/over_http.py
	$(BIN)/python benchmarks/memory.py
	$(BIN)/python benchmarks/club.py --sizes 10,200 --hands 60
	$(BIN)/python benchmarks/night.py
	$(BIN)/python benchmarks/writes.py
	$(BIN)/python benchmarks/first_request.py
	scripts/with-postgres $(BIN)/python benchmarks/capacity.py --quick

clean:
	rm -rf $(VENV) db.sqlite3
