#!/usr/bin/env python3
"""How long `--rates` takes on a file the size of the ECB's whole history.

    make release
    python3 Benchmarks/ecb_rates.py [--rows 7000] [--runs 7] [--binary .build/release/abacus]

Writes Benchmarks/data/ecb-hist-<rows>.csv (git-ignored) in the ECB's layout: the
header of the published eurofxref-hist.csv (40 currency columns, withdrawn ones
included), one row a weekday, newest first, a comma after the last field of every
line, `N/A` where the ECB has no rate (withdrawn currencies after they went, ISK in
2008-2018 and so on, as in the real file). Values are made up, deterministic
(random.Random(1999)), written as decimal text with the ECB's digits.

Then runs, --runs times each, the real binary on the demo ledger with and without
`--rates FILE` (`-e "count entries"`, one process each), and prints the medians and
their difference: the cost of reading, checking and adding the file. Python 3
standard library only; never part of `swift test`.
"""

import argparse
import datetime
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# The published header, in its order.
CODES = ("USD JPY BGN CYP CZK DKK EEK GBP HUF LTL LVL MTL PLN ROL RON SEK SIT SKK CHF ISK NOK HRK RUB "
         "TRL TRY AUD BRL CAD CNY HKD IDR ILS INR KRW MXN NZD PHP SGD THB ZAR").split()
# Currencies the ECB stopped quoting, and from when (their cells are N/A after).
GONE = {"CYP": "2008-01-01", "EEK": "2011-01-01", "LTL": "2015-01-01", "LVL": "2014-01-01", "MTL": "2008-01-01",
        "ROL": "2005-07-01", "SIT": "2007-01-01", "SKK": "2009-01-01", "TRL": "2005-01-01", "HRK": "2023-01-01",
        "RUB": "2022-03-01", "ISK": "2008-12-10"}
DIGITS = {"JPY": 2, "HUF": 2, "KRW": 2, "IDR": 2, "ISK": 1}


def generate(rows, path):
    rng = random.Random(1999)
    level = {c: rng.uniform(0.5, 200) for c in CODES}
    day = datetime.date(2025, 11, 21)
    lines = []
    while len(lines) < rows:
        if day.weekday() < 5:
            cells = [day.isoformat()]
            for c in CODES:
                if c in GONE and day.isoformat() >= GONE[c]:
                    cells.append("N/A")
                    continue
                level[c] *= 1 + rng.uniform(-0.004, 0.004)
                cells.append(f"{level[c]:.{DIGITS.get(c, 4)}f}")
            lines.append(",".join(cells) + ",")
        day -= datetime.timedelta(days=1)
    with open(path, "w") as f:
        f.write("Date," + ",".join(CODES) + ",\n")
        f.write("\n".join(lines) + "\n")


def timed(cmd):
    start = time.perf_counter()
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "HOME": "/nonexistent"})
    elapsed = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()}")
    return elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=7000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build/release/abacus"))
    a = ap.parse_args()
    os.makedirs(os.path.join(HERE, "data"), exist_ok=True)
    path = os.path.join(HERE, "data", f"ecb-hist-{a.rows}.csv")
    generate(a.rows, path)
    size = os.path.getsize(path)
    base = [a.binary, "Examples/demo.json", "--no-rc", "--offline", "-e", "count entries"]
    with_rates = base + ["--rates", path]
    timed(with_rates)  # the page cache, once
    plain, loaded = [], []
    for _ in range(a.runs):
        plain.append(timed(base))
        loaded.append(timed(with_rates))
    mp, ml = statistics.median(plain), statistics.median(loaded)
    print(f"file: {path} ({a.rows} rows x {len(CODES)} currencies, {size / 1e6:.1f} MB)")
    print(f"demo ledger alone:        median {mp * 1000:.0f} ms (min {min(plain) * 1000:.0f})")
    print(f"demo ledger + --rates:    median {ml * 1000:.0f} ms (min {min(loaded) * 1000:.0f})")
    print(f"the rate file's share:    {(ml - mp) * 1000:.0f} ms (difference of medians, {a.runs} runs)")


if __name__ == "__main__":
    main()
