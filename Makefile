# Sift — common tasks. `make demo` and `make test` do all the set-up they need.

GO        ?= go
PYTHON    ?= /usr/bin/python3
SESSIONS  ?= $(CURDIR)/.sift/sessions
DEMO_Q    ?= What is the monthly revenue trend in 2024, and which region sells most?

.PHONY: demo demo-agents test setup python-deps build vet bench bench-steps bench-preview bench-kernel bench-routes bench-tokens clean

## demo: offline demo on the example data: built-in analyses, no model, no API key
demo: python-deps
	$(GO) run ./cmd/sift run --file examples/data/sales.csv --sessions-dir $(SESSIONS) \
		"monthly revenue trend"

## demo-agents: the agents' plan-execute-replan loop, played by a scripted model
demo-agents: python-deps
	$(GO) run ./cmd/sift run --mode plan --script examples/demo/script.json \
		--file examples/data/sales.csv --sessions-dir $(SESSIONS) "$(DEMO_Q)"

## test: vet and run every test
test: python-deps
	$(GO) vet ./...
	$(GO) test -count=1 ./...

## setup: install what Sift needs to run generated code
setup: python-deps

# Python with pandas, numpy, matplotlib and openpyxl: Debian's packages
# where apt-get is available, otherwise a virtualenv in .venv.
python-deps:
	@if $(PYTHON) -c 'import pandas, numpy, matplotlib, openpyxl' 2>/dev/null; then \
		echo "python-deps: $(PYTHON) has pandas, numpy, matplotlib and openpyxl"; \
	elif command -v apt-get >/dev/null 2>&1; then \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		echo "python-deps: installing Debian's python3-pandas python3-matplotlib python3-openpyxl bubblewrap"; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq python3-pandas python3-numpy python3-matplotlib python3-openpyxl bubblewrap >/dev/null; \
	else \
		echo "python-deps: no apt-get; creating .venv (then run with SIFT_PYTHON=$(CURDIR)/.venv/bin/python)"; \
		python3 -m venv .venv && .venv/bin/pip install -q pandas numpy matplotlib openpyxl; \
	fi

build:
	$(GO) build -o bin/sift ./cmd/sift

vet:
	$(GO) vet ./...

## bench-steps: calls, prompt and cached tokens and input cost per plan step, classic vs Sift
bench-steps: python-deps
	$(GO) test ./agents -run '^$$' -bench CallsPerStep -benchtime 1x -v

## bench-preview: previewing a 200 MB CSV (time and memory)
bench-preview:
	$(GO) test ./generic -run '^$$' -bench PreviewCSV200MB -benchtime 3x -benchmem

## bench-kernel: kernel vs process mode, five cells on a 1M-row CSV
bench-kernel: python-deps
	$(GO) test ./operator -run '^$$' -bench 'KernelVsProcess|KernelSandboxOverhead' -benchtime 1x

## bench-routes: model calls and wall time per request, --mode plan vs auto
bench-routes: python-deps
	$(GO) test ./agents -run '^$$' -bench Routes -benchtime 1x -v

## bench-tokens: prompt tokens of an 8-step analysis, context management off vs on
bench-tokens: python-deps
	$(GO) test ./agents -run '^$$' -bench ContextManagement -benchtime 1x -v

bench: bench-steps bench-preview bench-kernel bench-routes bench-tokens

clean:
	rm -rf bin .sift
