# tally: the two quick-start commands are `make run` and `make test`.
# Each installs what it needs first (Debian packages when missing), then builds.

SWIFT        ?= swift
PERIOD       ?= 2026-10
DATA         ?= sample-data
OUT          ?= reports
APT_PACKAGES := libsqlite3-dev libxlsxwriter-dev zlib1g-dev libisal-dev libssl-dev pkg-config
RELEASE_BIN   = .build/release/tally
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test deps build build-tally release sample bench bench-growth fuzz crash preview spark spark-deps spark-test spark-cluster-test bench-spark

## make run [BUILD=release]: the main job on sample-data/ (embedded SQLite), writing reports/.
## A fresh warehouse each time (.tally/make-run.sqlite, git-ignored), so the
## run is reproducible; the out folder holds reports only. tally is built in
## the debug configuration, the one make test builds, so the two quick-start
## commands compile it once (the reports are the same bytes; a debug build
## takes about twice the time per row). BUILD=release runs the optimised
## build, for data larger than the sample.
DB           ?= .tally/make-run.sqlite
BUILD        ?= debug
run: $(if $(filter release,$(BUILD)),release,build-tally)
	rm -f $(DB) $(DB)-wal $(DB)-shm $(DB)-journal $(DB).lock $(OUT)/tally.sqlite $(OUT)/tally.sqlite-wal $(OUT)/tally.sqlite-shm $(OUT)/tally.sqlite.lock
	.build/$(BUILD)/tally run --data $(DATA) --out $(OUT) --period $(PERIOD) --reproducible --db $(DB)

## make test: every test, including the golden end-to-end test on sample-data/,
## then the scale-out path (scripts/spark-test.sh): sample-data/ through tally
## plan, worker and merge chained with sort, and through Apache Spark in
## local[2] with both wirings and 1, 3 and 7 partitions, each compared byte for byte with
## `tally run --reproducible` (Java and the pinned pyspark installed when missing),
## and on a Spark standalone cluster of two workers started on this machine
## (scripts/spark-cluster-test.sh: 1, 3 and 7 partitions, then a worker killed
## mid-job); and the monthly routine (scripts/incremental-test.sh): sample-data/ split by
## month and run month after month into one warehouse gives the from-scratch reports
## (but for the sections that say what was restated since the month before).
test: deps spark-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	scripts/incremental-test.sh .build/debug/tally
	SPARK_PYTHON=$(SPARK_PYTHON) scripts/spark-test.sh .build/debug/tally
	SPARK_PYTHON=$(SPARK_PYTHON) scripts/spark-cluster-test.sh .build/debug/tally

## Installs the Debian packages tally builds against, when any is missing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

build-tally: deps
	$(SWIFT) build --product tally

release: deps
	$(SWIFT) build -c release --product tally

## Regenerates sample-data/ from the generator (seed 20261031, small scale).
sample: release
	rm -rf $(DATA)/expenses $(DATA)/health $(DATA)/swipes $(DATA)/checkins $(DATA)/subscriptions
	$(RELEASE_BIN) generate --out $(DATA) --seed 20261031 --scale small --month $(PERIOD)

## make bench [SHAPE=default|studio|skewed|many-couples] [SCALE=small|medium|large]:
## generates the data set once (bench-data/<shape>-<scale>/), runs the whole
## pipeline twice and the DuckDB baseline (scripts/duckdb_baseline.py) on the
## same files; prints per-stage rows/s, MB/s, wall times, peak RSS and the
## ratio tally / duckdb (DUCKDB=0 skips the baseline), then the monthly routine
## (INCREMENTAL=0 skips it) and a reports-only pass with couple workbooks
## (WORKBOOKS=0 skips it; use it for SHAPE=many-couples: 400,000 workbooks).
bench: release
	@command -v python3 >/dev/null && command -v bc >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3 bc; }
	scripts/bench.sh

## make bench-growth [SHAPE=studio] [SCALE=small|medium|0.1] [HISTORIES="6 12 24 36"] [DUCKDB=0]:
## how a month's run grows with history: the shape generated over each number
## of months (`tally generate --months`, the same customers and a month's
## volume each month), split by month; the period's folder run into a
## warehouse holding every earlier month, against a from-scratch run and the
## DuckDB baseline; CSVs compared; the month's run stage by stage.
bench-growth: release
	@command -v python3 >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3; }
	BIN=$(RELEASE_BIN) scripts/bench-growth.sh

## make fuzz: builds the libFuzzer targets (fuzz/, into .build-fuzz/) and runs
## each for FUZZ_SECONDS from a corpus seeded with sample-data/ (see docs/reliability.md).
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh $(FUZZ_TARGETS)

## make crash: the crash-safety harness, 50 SIGKILLs at random moments (CI runs 5).
CRASH_ITERATIONS ?= 50
crash: deps
	$(SWIFT) build --build-tests
	TALLY_CRASH_ITERATIONS=$(CRASH_ITERATIONS) $(SWIFT) test --skip-build --filter CrashSafetyTests

## make preview: renders every workbook in $(OUT) to PNG pages in preview/ (LibreOffice
## headless, then pdftoppm; installs libreoffice-calc and poppler-utils when missing).
PREVIEW ?= preview
preview:
	scripts/preview.sh $(OUT) $(PREVIEW)

## make spark DATA=dir OUT=dir PERIOD=YYYY-MM [TZ=zone] [PARTITIONS=n] [WIRING=transform|arrow]:
## the same out folder as `make run`, computed on Apache Spark in local[2] by
## spark/tally_spark.py (tally plan, tally worker per partition, tally merge;
## docs/scale-out.md). Installs Java and pyspark first when missing.
## TZ counts only when given on the command line (not an inherited $$TZ).
PARTITIONS   ?= 3
WIRING       ?= transform
SPARK_VENV   ?= .tally/spark-venv
SPARK_PYTHON  = $(SPARK_VENV)/bin/python
SPARK_PIP    := pyspark==4.3.0 pyarrow==26.0.1 pandas==2.3.3 \
                grpcio==1.85.3 grpcio-status==1.85.3 googleapis-common-protos==1.76.0 zstandard==0.25.0
SPARK_TZ      = $(if $(filter command line,$(origin TZ)),--timezone $(TZ))
spark: release spark-deps
	$(SPARK_PYTHON) spark/tally_spark.py --tally $(RELEASE_BIN) --data $(DATA) --out $(OUT) --period $(PERIOD) \
	  $(SPARK_TZ) --partitions $(PARTITIONS) --wiring $(WIRING) --master 'local[2]' --reproducible

## Java 17 (Debian's headless JRE) and a venv (git-ignored) with the pinned
## pyspark, pyarrow and pandas for the arrow wiring, and the Spark Connect
## client's packages (grpcio, …); each when missing.
spark-deps:
	@command -v java >/dev/null 2>&1 || { \
	  echo "Installing: openjdk-17-jre-headless"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless; }
	@$(SPARK_PYTHON) -c 'import sys, pyspark, pyarrow, pandas, grpc, zstandard; sys.exit(pyspark.__version__ != "4.3.0" or pandas.__version__ != "2.3.3")' 2>/dev/null || { \
	  echo "Installing into $(SPARK_VENV): $(SPARK_PIP)"; \
	  python3 -m venv $(SPARK_VENV) 2>/dev/null || { $(SUDO) apt-get update -qq && \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv && python3 -m venv $(SPARK_VENV); }; \
	  $(SPARK_VENV)/bin/pip install -q $(SPARK_PIP); }

## make spark-test [TALLY=path]: the driver's own tests (spark/tests, against a
## fake tally), then scripts/spark-test.sh: sample-data/ through the no-engine
## chain and through Spark with both wirings and 1, 3 and 7 partitions, each
## compared byte for byte with `tally run --reproducible`.
TALLY        ?= $(RELEASE_BIN)
spark-test: $(if $(filter $(RELEASE_BIN),$(TALLY)),release) spark-deps
	$(SPARK_PYTHON) -m unittest discover -s spark/tests
	SPARK_PYTHON=$(SPARK_PYTHON) DATA=$(DATA) PERIOD=$(PERIOD) scripts/spark-test.sh $(TALLY)

## make spark-cluster-test [TALLY=path] [DATA=dir|file://…] [OUT=dir|file://…] [PERIOD=YYYY-MM] [TZ=zone]
## [PARTITIONS=1,3,7]: a Spark standalone master and two one-core workers on
## this machine (spark-class), the driver submitted to them (spark-submit), the
## binary and its libraries shipped as an archive; each out folder compared byte
## for byte with `tally run --reproducible`, then once more with a worker killed
## mid-job. Stops every process it started. Only what is given on the command
## line is passed on (by default a copy of sample-data/ and a work folder, both
## as file:// URIs of paths with spaces).
CLUSTER_ARGS  = $(foreach v,DATA OUT PERIOD TZ PARTITIONS,$(if $(filter command line,$(origin $(v))),$(v)='$($(v))'))
spark-cluster-test: $(if $(filter $(RELEASE_BIN),$(TALLY)),release) spark-deps
	SPARK_PYTHON=$(SPARK_PYTHON) $(CLUSTER_ARGS) scripts/spark-cluster-test.sh $(TALLY)

## make bench-spark [SHAPE=default|studio|skewed|many-couples] [SCALE=medium] [PARTITIONS=n] [JVM=job|quick]:
## the bench set (generated as `make bench` does) through `tally run` and
## through the Spark path in local[2], its JVM set up as a long job's; wall
## time, CPU time (and per input row) and peak memory of each whole process
## tree (the Spark JVM and every worker included), and of the driver's side.
bench-spark: release spark-deps
	SPARK_PYTHON=$(SPARK_PYTHON) PARTITIONS=$(PARTITIONS) WIRING=$(WIRING) scripts/bench-spark.sh
