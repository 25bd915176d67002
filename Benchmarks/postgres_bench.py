"""Ledgers in PostgreSQL against the in-memory engine and DuckDB, in one run
(docs/postgres.md; results in BENCHMARKS.md).

    Benchmarks/.venv/bin/python Benchmarks/postgres_bench.py LEDGER.json [--runs 5]

Starts a throwaway PostgreSQL server (initdb into a temporary folder, 127.0.0.1, a
free port, the server's default settings; as the `postgres` user when run as root),
then measures with the release build (.build/release/abacus):

- import: `abacus --db URL --import LEDGER.json` (one transaction), wall time;
- start + first answer: `abacus --db URL -e Q` against `abacus --no-cache LEDGER.json -e Q`
  and DuckDB loading the same JSON and answering (duckdb_bench.py e2e json), for a count
  and for a converted sum;
- per query, inside one process: `.timer on` times for Abacus on the database and in
  memory, and DuckDB's time on its in-memory tables (the same grouping in SQL).

Prints a Markdown table of medians. Stops and removes the server at the end.
"""

import glob
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ABACUS = os.path.join(ROOT, ".build/release/abacus")

# (Abacus statement, DuckDB SQL over peers' tables, whether Abacus runs it as SQL with --db)
QUERIES = [
    ("count entries by book", "SELECT book, count(*) FROM entries GROUP BY book", True),
    ("count entries by category, month",
     "SELECT category, strftime(day, '%Y-%m'), count(*) FROM entries GROUP BY ALL", True),
    ("sum expenses in native by category",
     "SELECT category, currency, -sum(amount) FROM entries WHERE amount < 0 AND NOT is_transfer GROUP BY ALL", True),
    ("count entries where category = Rent by month",
     "SELECT strftime(day, '%Y-%m'), count(*) FROM entries WHERE category = 'Rent' GROUP BY ALL", True),
    ("sum expenses in INR by category", peers.query_sql("duckdb", "booked"), True),
]


def as_server_user(cmd):
    return (["runuser", "-u", "postgres", "--"] + cmd) if os.getuid() == 0 else cmd


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_server():
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not bins:
        sys.exit("PostgreSQL's server is not installed (Debian package postgresql)")
    b = bins[-1]
    folder = tempfile.mkdtemp(prefix="abacus-pgbench-")
    with open(folder + "/pw", "w") as f:
        f.write("bench")
    if os.getuid() == 0:
        shutil.chown(folder, "postgres")
        shutil.chown(folder + "/pw", "postgres")
    subprocess.run(as_server_user([b + "/initdb", "-D", folder + "/data", "-U", "abacus", "--pwfile", folder + "/pw",
                                   "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--locale=C"]),
                   check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    subprocess.run(as_server_user([b + "/pg_ctl", "-D", folder + "/data", "-l", folder + "/log", "-w", "-o",
                                   f"-p {port} -k {folder} -c listen_addresses=127.0.0.1", "start"]),
                   check=True, stdout=subprocess.DEVNULL)
    return b, folder, f"postgres://abacus:bench@127.0.0.1:{port}/postgres"


def stop_server(b, folder):
    subprocess.run(as_server_user([b + "/pg_ctl", "-D", folder + "/data", "-m", "fast", "-w", "stop"]),
                   stdout=subprocess.DEVNULL)
    shutil.rmtree(folder, ignore_errors=True)


def wall(cmd, env=None):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {r.stderr}")
    return time.perf_counter() - t, r.stdout


def timers(args, statements, reps):
    """Per statement, the `.timer on` times of `reps` runs in one process."""
    script = ".timer on\n" + "".join(s + "\n" for s in statements for _ in range(reps))
    r = subprocess.run([ABACUS, "--no-rc", "--format", "csv"] + args, input=script, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    times = [float(line.split()[2]) for line in r.stderr.splitlines() if line.startswith("Run Time:")]
    if len(times) != len(statements) * reps:
        sys.exit(f"expected {len(statements) * reps} timings, got {len(times)}: {r.stderr[:500]}")
    return {s: times[i * reps:(i + 1) * reps] for i, s in enumerate(statements)}


def duckdb_queries(ledger, reps):
    import duckdb
    con = duckdb.connect()
    t = time.perf_counter()
    for s in peers.duckdb_load_json(ledger, os.path.getsize(ledger)):
        con.execute(s)
    load = time.perf_counter() - t
    out = {}
    for stmt, sql, _ in QUERIES:
        if sql is None:
            continue
        ts = []
        for _ in range(reps):
            t = time.perf_counter()
            con.execute(sql).fetchall()
            ts.append(time.perf_counter() - t)
        out[stmt] = ts
    return load, out


def med(xs):
    return statistics.median(xs)


def main():
    ledger = sys.argv[1]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    b, folder, url = start_server()
    try:
        imports = []
        for _ in range(max(1, runs // 2)):
            s, _ = wall([ABACUS, "--db", url, "--import", ledger])
            imports.append(s)
        first = "count entries by book"
        db_start = [wall([ABACUS, "--no-rc", "--db", url, "-e", first])[0] for _ in range(runs)]
        mem_start = [wall([ABACUS, "--no-rc", "--no-cache", ledger, "-e", first])[0] for _ in range(runs)]
        converted = "sum expenses in INR by category"
        db_start_converted = [wall([ABACUS, "--no-rc", "--db", url, "-e", converted])[0] for _ in range(runs)]
        mem_start_converted = [wall([ABACUS, "--no-rc", "--no-cache", ledger, "-e", converted])[0] for _ in range(runs)]
        duck_e2e = []
        for _ in range(runs):
            r = subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks/duckdb_bench.py"), "e2e", "json", ledger],
                               stdout=subprocess.PIPE, text=True, check=True)
            duck_e2e.append(r.stdout)
        statements = [q[0] for q in QUERIES]
        db_t = timers(["--db", url], statements, runs)
        mem_t = timers(["--no-cache", ledger], statements, runs)
        duck_load, duck_t = duckdb_queries(ledger, runs)
    finally:
        stop_server(b, folder)

    import json
    duck_first = [json.loads(x) for x in duck_e2e]
    print(f"ledger: {ledger} ({os.path.getsize(ledger) / 1e6:.0f} MB), {runs} runs, medians\n")
    print("| step | Abacus --db (PostgreSQL) | Abacus in memory | DuckDB |")
    print("|---|---|---|---|")
    print(f"| import into the database (one transaction) | {med(imports):.1f} s | – | (load below) |")
    duck_total = med([d['load_s'] + d['first_s'] for d in duck_first])
    print(f"| start + first answer (`{first}`) | {med(db_start):.2f} s | {med(mem_start):.2f} s | {duck_total:.2f} s |")
    print(f"| start + first answer (`{converted}`) | {med(db_start_converted):.2f} s | {med(mem_start_converted):.2f} s | |")
    print(f"| DuckDB: load the JSON into its tables, in process | | | {duck_load:.2f} s |")
    for stmt, sql, lowered in QUERIES:
        d = f"{med(duck_t[stmt]) * 1000:.1f} ms" if stmt in duck_t else "–"
        where = "SQL" if lowered else "in memory"
        print(f"| `{stmt}` | {med(db_t[stmt]):.1f} ms ({where}) | {med(mem_t[stmt]):.1f} ms | {d} |")


if __name__ == "__main__":
    main()
