# What the benches share; sourced by scripts/bench.sh and scripts/bench-growth.sh.

# The DuckDB the baseline (scripts/duckdb_baseline.py) is pinned to.
DUCKDB_VERSION=2.0.1

# Installs it (pip) when python3 has none; a no-op with DUCKDB=0.
ensure_duckdb() {
  if [ "${DUCKDB:-1}" != 0 ] && ! python3 -c 'import duckdb' 2>/dev/null; then
    echo "installing duckdb $DUCKDB_VERSION for the baseline (pip)…"
    python3 -m pip install -q "duckdb==$DUCKDB_VERSION"
  fi
}

# A fixed CPU task, timed before and after the runs: this machine is a VM
# whose CPU speed varies by up to ~1.7× over the day (the same loop took
# 1.25–2.2 s), so runs compare only at similar probes. Prints its seconds.
probe() { /usr/bin/time -f '%e' python3 -c 's = 0
for i in range(20_000_000): s += i' 2>&1 >/dev/null | tail -1; }
