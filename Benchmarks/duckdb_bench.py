"""DuckDB side of the benchmark; run by `Benchmarks/run` with the suite's virtual
environment (Benchmarks/.venv, `pip install duckdb`).

    duckdb_bench.py e2e json LEDGER.json        load + first answer, one process
    duckdb_bench.py e2e csv CSVDIR
    duckdb_bench.py queries csv CSVDIR RUNS     load once, then every query RUNS times
    duckdb_bench.py makedb csv CSVDIR DBFILE    load into a database file, then close it
    duckdb_bench.py open DBFILE                 open that file (read only), first answer

Prints one JSON object on stdout: load_s, first_s (e2e), or load_s and per query
the list of seconds and the first result (queries). In-memory database, DuckDB's
default thread count.
"""

import json
import os
import sys
import time

t_start = time.perf_counter()
import duckdb  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402

t_imported = time.perf_counter()


def load(con, source, path):
    stmts = peers.duckdb_load_json(path, os.path.getsize(path)) if source == "json" else peers.duckdb_load_csv(path)
    for s in stmts:
        con.execute(s)


def run(con, key):
    t = time.perf_counter()
    rows = con.execute(peers.query_sql("duckdb", key)).fetchall()
    return time.perf_counter() - t, rows


def makedb(csvdir, dbfile):
    if os.path.exists(dbfile):
        os.remove(dbfile)
    con = duckdb.connect(dbfile)
    con.execute("SET enable_progress_bar = false")
    load(con, "csv", csvdir)
    con.execute("CHECKPOINT")
    con.close()


def open_and_answer(dbfile):
    t0 = time.perf_counter()
    con = duckdb.connect(dbfile, read_only=True)
    con.execute("SET enable_progress_bar = false")
    opened = time.perf_counter()
    rows = con.execute(peers.query_sql("duckdb", peers.FIRST_ANSWER[0])).fetchall()
    done = time.perf_counter()
    out = {"open_s": opened - t0, "first_s": done - opened, "import_s": t_imported - t_start,
           "result": [[None if v is None else str(v) for v in r] for r in rows]}
    json.dump(out, sys.stdout)


def main():
    if sys.argv[1] == "makedb":
        return makedb(sys.argv[3], sys.argv[4])
    if sys.argv[1] == "open":
        return open_and_answer(sys.argv[2])
    mode, source, path = sys.argv[1:4]
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    t0 = time.perf_counter()
    load(con, source, path)
    load_s = time.perf_counter() - t0
    out = {"load_s": load_s, "import_s": t_imported - t_start, "version": duckdb.__version__}
    if mode == "e2e":
        out["first_s"], rows = run(con, peers.FIRST_ANSWER[0])
        out["rows"] = len(rows)
        out["result"] = [[None if v is None else str(v) for v in r] for r in rows]
    else:
        runs = int(sys.argv[4])
        times = {k: [] for k, _, _ in peers.QUERIES}
        results = {}
        for _ in range(runs):
            for k, _, _ in peers.QUERIES:
                s, rows = run(con, k)
                times[k].append(s)
                if k not in results:
                    results[k] = [[None if v is None else str(v) for v in r] for r in rows]
        out["times"] = times
        out["results"] = results
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
