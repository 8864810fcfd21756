# Sift — common tasks. `make demo` and `make test` do all the set-up they need.

GO        ?= go
PYTHON    ?= /usr/bin/python3
SESSIONS  ?= $(CURDIR)/.sift/sessions
DEMO_Q    ?= What is the monthly revenue trend in 2024, and which region sells most?

REC_SESSIONS ?= $(CURDIR)/.sift/recordings
EVAL_DIR     ?= $(CURDIR)/.sift/eval-native

.PHONY: recordings eval eval-understanding eval-understanding-gen serve bench-serve demo demo-agents test setup python-deps build vet bench bench-steps bench-preview bench-kernel bench-routes bench-tokens bench-memory bench-parallel bench-workers bench-builtin clean

## demo: offline demo on the example data: built-in analyses, no model, no API key
demo: python-deps
	$(GO) run ./cmd/sift run --file examples/data/sales.csv --sessions-dir $(SESSIONS) \
		"monthly revenue trend"

## demo-agents: the agents' plan-execute-replan loop, played by a scripted model
demo-agents: python-deps
	$(GO) run ./cmd/sift run --mode plan --script examples/demo/script.json \
		--file examples/data/sales.csv --sessions-dir $(SESSIONS) "$(DEMO_Q)"

## serve: the web app and HTTP API on http://127.0.0.1:8080 (no model needed for built-in analyses)
serve: python-deps
	$(GO) run ./cmd/sift serve --sessions-dir $(SESSIONS)

## test: vet and run every test; the summary lists the tests skipped for what this machine lacks, and the command that installs it (bash .ci/deps)
test: python-deps
	$(GO) vet ./...
	$(GO) run ./internal/testsummary -count=1 -timeout 30m ./...

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
	@# Charts with Chinese, Japanese or Korean text need a CJK font.
	@if fc-list 2>/dev/null | grep -qiE 'Noto Sans CJK|WenQuanYi'; then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		echo "python-deps: installing Debian's fonts-noto-cjk, for charts in Chinese, Japanese and Korean"; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq fonts-noto-cjk >/dev/null; \
	else \
		echo "python-deps: no CJK font found: install Noto Sans CJK, or Chinese, Japanese and Korean text in charts shows as boxes"; \
	fi

## eval: score the pipeline on the native suite (33 questions, CSV and SQLite), scripted model, offline
eval: python-deps
	rm -rf $(EVAL_DIR)
	$(GO) run ./eval/native/gen $(EVAL_DIR)
	$(GO) run ./cmd/sift eval --scripted --jobs 2 --out $(EVAL_DIR)/results.json $(EVAL_DIR)

## eval-understanding: precision and coverage of the built-ins' grounded parse, per language, on 346 questions
## (and 60 held-out, 117 fresh, 232 unseen, 200 blind, 308 novel, 291 untried, 289 probe, 283 probe2, 263 probe3, 286 probe4 ones) over 17 real public tables; fails below the floors (eval/understanding)
eval-understanding: python-deps
	$(GO) run ./eval/understanding/cmd/understand

## eval-understanding-gen: recompute the understanding questions' expected answers with pandas
eval-understanding-gen:
	cd eval/understanding && $(PYTHON) gen.py

## recordings: re-record eval/testdata/recordings/ (after an intended prompt or graph change): the scripted
## demo, and a two-question session captured on the wire from the OpenAI client against the scripted server
recordings: python-deps
	rm -rf $(REC_SESSIONS) eval/testdata/recordings/demo
	$(GO) run ./cmd/sift run --mode plan --script examples/demo/script.json \
		--file examples/data/sales.csv --sessions-dir $(REC_SESSIONS) "$(DEMO_Q)"
	$(GO) run ./cmd/sift export-session --sessions-dir $(REC_SESSIONS) --inputs \
		"$$(ls $(REC_SESSIONS) | head -1)" eval/testdata/recordings/demo
	$(GO) test ./eval -run '^TestOpenAICapturedRecording$$' -update-capture -count=1

build:
	$(GO) build -o bin/sift ./cmd/sift

vet:
	$(GO) vet ./...

## bench-steps: model calls and prompt tokens as sent over HTTP (o200k) per plan step and agent, classic vs Sift, on three datasets
bench-steps: python-deps
	$(GO) test ./agents -run '^$$' -bench CallsPerStep -benchtime 1x -v

## bench-builtin: sift run of a monthly trend and a top-N on a 1M-row CSV, end to end, vs pandas.read_csv of the same file
bench-builtin: python-deps
	$(GO) test ./cmd/sift -run '^$$' -bench BuiltinVsPandasRead -benchtime 5x

## bench-preview: previewing a 200 MB CSV (time and memory)
bench-preview:
	$(GO) test ./preview -run '^$$' -bench PreviewCSV200MB -benchtime 3x -benchmem

## bench-kernel: kernel vs process mode (five cells on a 1M-row CSV), the sandbox's and each session limit's cost
bench-kernel: python-deps
	$(GO) test ./operator -run '^$$' -bench 'KernelVsProcess|KernelSandboxOverhead|KernelLimits' -benchtime 1x

## bench-routes: model calls and wall time per request, --mode plan vs auto
bench-routes: python-deps
	$(GO) test ./agents -run '^$$' -bench Routes -benchtime 1x -v

## bench-tokens: prompt tokens of an 8-step analysis, context management off vs on
bench-tokens: python-deps
	$(GO) test ./agents -run '^$$' -bench ContextManagement -benchtime 1x -v

## bench-memory: model calls, tokens and questions to the person of a first question, the same again and a second one on the same data, memory off vs on
bench-memory: python-deps
	$(GO) test ./agents -run '^$$' -bench BenchmarkMemory -benchtime 1x -v

## bench-parallel: wall time and peak kernel memory of a 7-step plan (three 2-step branches, then a summary), model answering after 1 s, --parallel 1 vs 3
bench-parallel: python-deps
	$(GO) test ./agents -run '^$$' -bench ParallelSteps -benchtime 1x -v

## bench-serve: 200 event-stream clients on one run, 20 sessions at once, event JSON sonic vs encoding/json
bench-serve: python-deps
	$(GO) test ./server -run '^$$' -bench 'SSEFanout|ConcurrentSessions' -benchtime 1x
	$(GO) test ./session -run '^$$' -bench EventJSON -benchmem

## bench-workers: run queue throughput with 1, 2 and 3 sift worker processes (real Redis), 24 sessions, model answering after 1 s
bench-workers: python-deps
	$(GO) test ./cmd/sift -run '^$$' -bench RunQueueWorkers -benchtime 1x -v

bench: bench-steps bench-preview bench-kernel bench-routes bench-tokens bench-parallel bench-serve bench-workers

clean:
	rm -rf bin .sift
