#!/usr/bin/env python3
"""json2csv.py LEDGER.json OUTDIR -- export an Abacus ledger (SPEC §2) as CSV for the
peers of the benchmark (DuckDB, sqlite3).

Python 3 standard library only. The file is streamed: the top-level object is walked
by hand and each element of `books`, `entries`, `rates` and `customRates` is decoded
on its own with json's raw_decode, so memory stays small whatever the ledger's size.
Every JSON number is read with `decimal.Decimal` (parse_float/parse_int) and written
back as plain decimal text: no value ever passes through binary floating point.

Writes into OUTDIR:
  books.csv    id,name,currency,locked_rate,target_currency,rate_locked_at
  entries.csv  id,book_id,date,amount,currency,category,party,payment_mode,remarks,
               tags,is_transfer,normalized_amount,normalized_currency,conversion_rate
               (date as written in the file; currency empty when the entry has
               none, i.e. it is the book's; tags as a JSON array text)
  rates.csv    seq,date,base,currency,rate   one row per currency of each snapshot
               (seq = index in the `rates` array; the base itself is not a row)
  pairs.csv    kind,seq,from,to,rate,date,source   kind = market (a RatePair in
               `rates`) or custom (`customRates`); date empty when undated
"""

import csv
import decimal
import json
import os
import sys

CHUNK = 1 << 20


class Stream:
    """A pull reader over the top level of a JSON document."""

    def __init__(self, f):
        self.f = f
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.dec = json.JSONDecoder(parse_float=decimal.Decimal, parse_int=decimal.Decimal)

    def more(self):
        if self.eof:
            return False
        data = self.f.read(CHUNK)
        if not data:
            self.eof = True
            return False
        if self.pos > 0:
            self.buf = self.buf[self.pos:]
            self.pos = 0
        self.buf += data
        return True

    def peek(self):
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in " \t\r\n":
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.more():
                return ""

    def expect(self, ch):
        got = self.peek()
        if got != ch:
            raise ValueError(f"expected {ch!r}, found {got!r} near offset {self.pos}")
        self.pos += 1

    def value(self):
        """Decodes one complete JSON value (reading more of the file as needed)."""
        self.peek()
        while True:
            try:
                v, end = self.dec.raw_decode(self.buf, self.pos)
                # A number at the very end of the buffer may continue in the next chunk.
                if end < len(self.buf) or self.eof:
                    self.pos = end
                    return v
            except json.JSONDecodeError:
                if self.eof:
                    raise
            if not self.more():
                v, end = self.dec.raw_decode(self.buf, self.pos)
                self.pos = end
                return v

    def array(self):
        """Yields the elements of the array that starts here."""
        self.expect("[")
        if self.peek() == "]":
            self.pos += 1
            return
        while True:
            yield self.value()
            c = self.peek()
            self.pos += 1
            if c == "]":
                return
            if c != ",":
                raise ValueError(f"expected ',' or ']' in array, found {c!r}")


def num(v):
    """Exact decimal text of a JSON number (None stays empty)."""
    if v is None:
        return ""
    if isinstance(v, bool) or not isinstance(v, decimal.Decimal):
        raise ValueError(f"expected a number, found {v!r}")
    return format(v, "f")


def text(v):
    return "" if v is None else str(v)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    files = {name: open(os.path.join(out, name + ".csv"), "w", newline="", encoding="utf-8")
             for name in ("books", "entries", "rates", "pairs")}
    w = {name: csv.writer(f, lineterminator="\n") for name, f in files.items()}
    w["books"].writerow(["id", "name", "currency", "locked_rate", "target_currency", "rate_locked_at"])
    w["entries"].writerow(["id", "book_id", "date", "amount", "currency", "category", "party",
                           "payment_mode", "remarks", "tags", "is_transfer", "normalized_amount",
                           "normalized_currency", "conversion_rate"])
    w["rates"].writerow(["seq", "date", "base", "currency", "rate"])
    w["pairs"].writerow(["kind", "seq", "from", "to", "rate", "date", "source"])
    counts = dict.fromkeys(files, 0)

    with open(src, "r", encoding="utf-8") as f:
        s = Stream(f)
        s.expect("{")
        while s.peek() != "}":
            key = s.value()
            s.expect(":")
            if key == "books":
                for b in s.array():
                    w["books"].writerow([b["id"], b["name"], b["currency"], num(b.get("lockedExchangeRate")),
                                         text(b.get("targetCurrency")), text(b.get("rateLockedAt"))])
                    counts["books"] += 1
            elif key == "entries":
                row = w["entries"].writerow
                for e in s.array():
                    tags = e.get("tags")
                    tr = e.get("isTransfer")
                    row([e["id"], e["bookId"], e["date"], num(e["amount"]), text(e.get("currency")),
                         e["category"], text(e.get("party")), text(e.get("paymentMode")),
                         text(e.get("remarks")),
                         json.dumps(tags, ensure_ascii=False) if tags else "",
                         "" if tr is None else ("true" if tr else "false"),
                         num(e.get("normalizedAmount")), text(e.get("normalizedCurrency")),
                         num(e.get("conversionRate"))])
                    counts["entries"] += 1
            elif key in ("rates", "customRates"):
                kind = "market" if key == "rates" else "custom"
                for seq, r in enumerate(s.array()):
                    if "base" in r:
                        for cur, rate in r["rates"].items():
                            w["rates"].writerow([seq, r["date"], r["base"], cur, num(rate)])
                            counts["rates"] += 1
                    else:
                        w["pairs"].writerow([kind, seq, r["from"], r["to"], num(r["rate"]),
                                             text(r.get("date")), text(r.get("source"))])
                        counts["pairs"] += 1
            else:
                s.value()
            if s.peek() == ",":
                s.pos += 1
        s.expect("}")
    for f in files.values():
        f.close()
    print(" ".join(f"{k}={v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
