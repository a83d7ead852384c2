# Two commands do everything on a fresh machine with Python 3.10+:
#   make site   – venv, install, the problem sets of the seed in site-seed.txt, the MkDocs site and printable PDFs
#                 (make site SPEC=my.yaml: one's own course from a spec)
#   make test   – the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: site site-zensical test bench install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall whenever pyproject.toml changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,site]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

# The course's site is drawn from the seed kept in site-seed.txt, so the same
# checkout rebuilds the same site; `make site SEED=123` draws other sets once,
# and writing a new number into site-seed.txt changes them for good.
# `make site SPEC=my.yaml` builds one's own course from a spec instead (the
# spec's seed, or SEED=…; else a fresh one, printed): its pages replace the
# generated ones in docs/generated/ and site/; site-seed.txt is left as it is,
# and a plain `make site` builds the default course again.
SPEC ?=
ifeq ($(SPEC),)
SEED ?= $(shell cat site-seed.txt)
SITE_ARGS = --seed "$(SEED)"
else
SITE_ARGS = --spec "$(SPEC)" $(if $(SEED),--seed "$(SEED)")
endif
CLI_HINT = @echo "The command line: . $(BIN)/activate   once in your shell, then: attndrills --help"

site: $(STAMP)
	$(BIN)/attndrills site --pdf $(SITE_ARGS)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
	@echo "Site built in site/ (static files: host them anywhere)."
	@echo "Preview it with: $(BIN)/mkdocs serve   then open http://127.0.0.1:8000/"
	$(CLI_HINT)

# The same site built by Zensical (Material's successor), which reads mkdocs.yml.
site-zensical: $(STAMP)
	$(BIN)/attndrills site --pdf $(SITE_ARGS)
	$(BIN)/zensical build --clean --strict
	@echo "Site built by Zensical in site/ (static files: host them anywhere)."
	@echo "Preview it with: $(BIN)/zensical serve"
	$(CLI_HINT)

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf site docs/generated docs/assets/mathjax .cache .pytest_cache
