#!/usr/bin/env python3
"""Write Examples/demo.json, the Abacus demo ledger (ledger format version 1).

    python3 Examples/make-demo-ledger.py [OUTPUT.json]

Python 3 standard library only. The output is byte-for-byte deterministic: all
randomness comes from random.Random(2025), nothing depends on the clock, the
locale or hash ordering, and every number is a decimal.Decimal (or int) that is
written as exact decimal text -- no float ever reaches the file.

The ledger holds one person's 2025: a salaried job (Home, INR), a small office
(INR), US consulting work (USD) and three trips: Tokyo in April (JPY, locked
rate), Europe in June-July (EUR, plus a few days in London paid in GBP) and
Singapore in October (SGD, locked rate). Daily USD-based rate snapshots cover
every day of 2025.

After writing, the script reads the file back (numbers as Decimal, duplicate
keys refused) and checks the invariants of the ledger format; it exits non-zero
if any fails.
"""

import datetime as dt
import json
import random
import sys
from decimal import ROUND_HALF_EVEN, Context, Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "demo.json"

rng = random.Random(2025)
D = Decimal
CTX = Context(prec=34)
YEAR_START = dt.date(2025, 1, 1)
DAYS = [YEAR_START + dt.timedelta(days=i) for i in range(365)]
MINOR = {"INR": 2, "USD": 2, "EUR": 2, "GBP": 2, "SGD": 2, "JPY": 0}


def chance(p):
    return rng.random() < p


def pick(seq):
    return rng.choice(seq)


def d(s):
    return dt.date.fromisoformat(s)


def days_between(a, b):
    """Dates from a to b inclusive (ISO strings)."""
    a, b = d(a), d(b)
    return [a + dt.timedelta(days=i) for i in range((b - a).days + 1)]


def money(cur, lo, hi, step=None):
    """A positive amount in [lo, hi] major units with the currency's minor unit.

    Prices are made to look like prices: JPY mostly in tens of yen, others a mix
    of whole units, tenths and arbitrary cents (INR: whole rupees, 50 paise or
    arbitrary paise)."""
    exp = MINOR[cur]
    lo_u = int(D(str(lo)).scaleb(exp))
    hi_u = int(D(str(hi)).scaleb(exp))
    if step is None:
        if cur == "JPY":
            step = 10 if chance(0.75) else 1
        elif cur == "INR":
            r = rng.random()
            step = 100 if r < 0.55 else 50 if r < 0.65 else 1
        else:
            r = rng.random()
            step = 100 if r < 0.2 else 10 if r < 0.45 else 1
    else:
        step = int(D(str(step)).scaleb(exp))
    a, b = -(-lo_u // step), hi_u // step
    if a > b:
        a, b, step = lo_u, hi_u, 1
    return D(rng.randint(a, b) * step).scaleb(-exp)


def q2(x):
    return x.quantize(D("0.01"), rounding=ROUND_HALF_EVEN)


def q4(x):
    return x.quantize(D("0.0001"), rounding=ROUND_HALF_EVEN)


# --------------------------------------------------------------------------
# Exchange rates: one USD-based snapshot per day, a bounded random walk in
# integer units of the last written digit (so no float ever enters a rate).

RATE_WALK = {  # code: (decimals, low, high, start, max daily step) in units
    "INR": (4, 830000, 860000, 848500, 1400),
    "SGD": (4, 13300, 13700, 13520, 22),
    "EUR": (4, 9000, 9500, 9260, 28),
    "JPY": (2, 14000, 15500, 14850, 55),
    "GBP": (4, 7700, 8000, 7860, 18),
}


def walk_rates():
    state = {c: v[3] for c, v in RATE_WALK.items()}
    snaps = []
    for day in DAYS:
        rates = {}
        for cur, (dec, lo, hi, start, step) in RATE_WALK.items():
            v = state[cur]
            mid = (lo + hi) // 2
            # gentle pull towards the middle of the band, reflect at the edges
            drift = -step // 4 if v > mid else step // 4
            v += rng.randint(-step, step) + (drift if chance(0.3) else 0)
            if v > hi:
                v = 2 * hi - v
            if v < lo:
                v = 2 * lo - v
            state[cur] = v
            rates[cur] = D(v).scaleb(-dec)
        snaps.append({
            "base": "USD",
            "date": day.isoformat(),
            "rates": rates,
            "source": "demo",
            "fetchedAt": day.isoformat() + "T23:59:00Z",
        })
    return snaps


SNAPSHOTS = walk_rates()
SNAP_BY_DATE = {s["date"]: s["rates"] for s in SNAPSHOTS}


def market_inr(cur, day):
    """Market INR per 1 `cur` on `day`, from that day's snapshot (exact quotient)."""
    r = SNAP_BY_DATE[day.isoformat()]
    inr = r["INR"]
    if cur == "USD":
        return inr
    return CTX.divide(inr, r[cur])


RATE_PAIRS = [
    {"from": "SGD", "to": "INR", "rate": D("63.85"), "date": "2025-10-15", "source": "bank"},
    {"from": "GBP", "to": "INR", "rate": D("110.72"), "date": "2025-06-19", "source": "forex counter"},
]
CUSTOM_RATES = [
    {"from": "EUR", "to": "INR", "rate": D("94.25"), "date": "2025-07-01", "source": "card statement"},
]

# --------------------------------------------------------------------------
# Books

BOOKS = [
    {"id": "b-home", "name": "Home", "currency": "INR",
     "lockedExchangeRate": None, "targetCurrency": "INR", "rateLockedAt": None,
     "description": "Household: salary, rent, bills and day-to-day spending in Bengaluru",
     "createdAt": "2024-12-28T10:15:00+05:30", "archived": False},
    {"id": "b-office", "name": "Office", "currency": "INR",
     "lockedExchangeRate": None, "targetCurrency": "INR", "rateLockedAt": None,
     "description": "Coworking desk, supplies, team lunches and business travel in India",
     "createdAt": "2024-12-28T10:20:00+05:30"},
    {"id": "b-us-consulting", "name": "US Consulting", "currency": "USD",
     "lockedExchangeRate": None, "targetCurrency": "INR", "rateLockedAt": None,
     "description": "Freelance consulting for US clients, paid in USD"},
    {"id": "b-tokyo", "name": "Tokyo Trip", "currency": "JPY",
     "lockedExchangeRate": D("0.5712"), "targetCurrency": "INR", "rateLockedAt": "2025-04-01",
     "description": "Tokyo, Kyoto and Osaka, 3-14 April 2025",
     "createdAt": "2025-02-10T21:05:00+05:30", "archived": True},
    {"id": "b-europe", "name": "Europe Tour", "currency": "EUR",
     "lockedExchangeRate": None, "targetCurrency": "INR", "rateLockedAt": None,
     "description": "Paris, London, Amsterdam, Berlin, Munich and Rome, 14 June - 6 July 2025",
     "createdAt": "2025-03-02T09:40:00+05:30", "archived": False},
    {"id": "b-singapore", "name": "Singapore Trip", "currency": "SGD",
     "lockedExchangeRate": D("54.31"), "targetCurrency": "INR", "rateLockedAt": "2025-10-01",
     "createdAt": "2025-08-18T22:30:00+05:30"},
]
BOOK = {b["id"]: b for b in BOOKS}
TZ = {"b-home": "+05:30", "b-office": "+05:30", "b-us-consulting": "Z",
      "b-tokyo": "+09:00", "b-europe": "+02:00", "b-singapore": "+08:00"}

# --------------------------------------------------------------------------
# Entries. Collected with internal fields (leading underscore), sorted by date
# and numbered at the end.

ENTRIES = []


def add(book, day, amount, category, party=None, mode=None, remarks=None,
        tags=None, currency=None, time=None, tz=None, transfer=False):
    if isinstance(day, str):
        day = d(day)
    if isinstance(amount, str):
        amount = D(amount)
    assert isinstance(amount, Decimal) and amount != 0
    cur = currency or BOOK[book]["currency"]
    assert amount.as_tuple().exponent == -MINOR[cur], (cur, amount)
    if time is None and chance(0.03):
        time = "%02d:%02d:00" % (rng.randint(8, 22), rng.choice([0, 5, 10, 15, 20, 30, 40, 45, 50]))
    e = {"_book": book, "_day": day, "_time": time, "_tz": tz or TZ[book],
         "_seq": len(ENTRIES), "amount": amount, "_cur": cur, "category": category}
    if party:
        e["party"] = party
    if mode:
        e["paymentMode"] = mode
    if remarks:
        e["remarks"] = remarks
    if tags is not None:
        e["tags"] = tags
    if transfer:
        e["isTransfer"] = True
    ENTRIES.append(e)
    return e


def mode_in(weights):
    modes = list(weights)
    return rng.choices(modes, weights=[weights[m] for m in modes])[0]


INDIA_MODES = {"UPI": 55, "Credit Card": 25, "Debit Card": 8, "Cash": 10, None: 2}
TRIP_MODES = {"Credit Card": 50, "Cash": 30, "Debit Card": 15, None: 5}


def month_days(m):
    return [x for x in DAYS if x.month == m]


def last_working_day(year, month):
    nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
    day = nxt - dt.timedelta(days=1)
    while day.weekday() >= 5:
        day -= dt.timedelta(days=1)
    return day


# ---------------------------------------------------------------- Home (INR)

def gen_home_fixed():
    b = "b-home"
    for m in range(1, 13):
        salary = D("185000.00") if m < 4 else D("201650.00")
        add(b, last_working_day(2025, m), salary, "Salary", "Acme Technologies Pvt Ltd",
            "Bank Transfer", "Salary for %s 2025" % dt.date(2025, m, 1).strftime("%B"))
        rent = D("-38000.00") if m < 6 else D("-40000.00")
        add(b, dt.date(2025, m, 5), rent, "Rent", "Ramesh Iyer (landlord)", "Bank Transfer",
            "Rent revised from June" if m == 6 else None)
        summer = m in (3, 4, 5)
        add(b, dt.date(2025, m, rng.randint(9, 13)),
            -money("INR", 2100 if summer else 1150, 3900 if summer else 2200, step="0.01"),
            "Utilities", "BESCOM", "UPI", "Electricity bill")
        add(b, dt.date(2025, m, 14), D("-1178.82"), "Utilities", "ACT Fibernet", "Credit Card",
            tags=["subscription"] if chance(0.5) else None)
        add(b, dt.date(2025, m, 18), D("-399.00") if m < 7 else D("-449.00"), "Utilities",
            "Jio", "UPI", "Mobile recharge", tags=["subscription"] if chance(0.5) else None)
        add(b, dt.date(2025, m, 7), D("-649.00"), "Entertainment", "Netflix", "Credit Card",
            tags=["subscription"])
        add(b, dt.date(2025, m, 21), D("-119.00"), "Entertainment", "Spotify", "Credit Card",
            tags=["subscription"])
        add(b, dt.date(2025, m, 2), D("-1999.00"), "Health", "Cult.fit", "Credit Card",
            "Monthly membership", tags=["subscription"] if chance(0.5) else None)
        add(b, dt.date(2025, m, 1), D("-6500.00") if m < 7 else D("-7000.00"), "Household",
            "Lakshmi (house help)", "Cash" if m % 2 else "UPI", None, ["family"])
    for day in ["2025-01-19", "2025-03-02", "2025-04-16", "2025-05-30", "2025-07-13",
                "2025-08-27", "2025-10-09", "2025-11-22"]:
        add(b, day, D("-903.00") if day < "2025-08" else D("-853.00"), "Utilities",
            "Indane Gas", "UPI", "LPG cylinder refill")
    add(b, "2025-03-15", D("-24500.00"), "Insurance", "HDFC ERGO", "Credit Card",
        "Family health insurance, annual premium", ["family"])
    add(b, "2025-05-21", D("-6450.00"), "Taxes", "BBMP", "UPI", "Property tax 2025-26")
    add(b, "2025-03-14", D("75000.00"), "Salary", "Acme Technologies Pvt Ltd", "Bank Transfer",
        "Annual performance bonus")
    add(b, "2025-06-10", D("-3200.00"), "Shopping", "Decathlon", "Credit Card",
        "Rain jacket and daypack for Europe", ["travel-prep"])
    # Entries in another currency than the book's
    add(b, "2025-02-08", D("-399.00"), "Education", "Coursera", "Credit Card",
        "Coursera Plus, annual", currency="USD")
    add(b, "2025-10-12", D("-145.00"), "Gifts", "KrisShop", "Credit Card",
        "Gift for parents, bought on the way back from Singapore", ["family"], currency="SGD")
    add(b, "2025-11-27", D("-23.99"), "Shopping", "Amazon UK", "Credit Card",
        "Book not available in India", currency="GBP")
    # Diwali (20 Oct 2025) and other October specifics
    add(b, "2025-10-18", D("-32450.00"), "Shopping", "Tanishq", "Credit Card",
        "Dhanteras gold coin", ["festival", "family"])
    add(b, "2025-10-19", D("-2840.00"), "Gifts", "Anand Sweets", "UPI",
        "Diwali sweet boxes for neighbours", ["festival"])
    add(b, "2025-10-17", D("-6499.00"), "Gifts", "Amazon", "Credit Card",
        "Diwali gifts for family", ["festival", "family"])
    add(b, "2025-10-20", D("-1850.50"), "Household", "Sri Sai Flowers & Decor", "Cash",
        "Diyas, flowers, rangoli colours", ["festival", "family"])
    add(b, "2025-10-11", D("-6480.00"), "Food & Dining", "Toit", "Credit Card",
        "Birthday dinner, 6 people", ["family", "weekend"])
    # date-times written in the entry: the calendar date written counts (no shifting)
    add(b, "2025-10-01", D("-486.00"), "Food & Dining", "Swiggy", "UPI",
        "Late-night order", time="00:20:00")               # UTC: 30 Sep
    add(b, "2025-11-01", D("-612.40"), "Food & Dining", "Zomato", "UPI",
        "Halloween party snacks", time="00:30:00")         # UTC: 31 Oct
    add(b, "2025-09-30", D("-1290.00"), "Shopping", "Myntra", "Credit Card",
        time="23:50:00")
    add(b, "2025-10-15", D("-129.00"), "Entertainment", "Apple Services", "Credit Card",
        "iCloud+ 200 GB", ["subscription"], time="04:12:09", tz="Z")


HOME_CATS = {
    # category: (weight, [(party, lo, hi), ...], modes)
    "Groceries": (26, [("BigBasket", 400, 4800), ("Blinkit", 120, 1600), ("Zepto", 150, 1400),
                       ("DMart", 800, 5200), ("Nature's Basket", 350, 3200),
                       ("More Supermarket", 250, 2400), ("Sri Lakshmi Provision Stores", 60, 900),
                       ("Nandini Milk Parlour", 30, 180)], INDIA_MODES),
    "Food & Dining": (28, [("Swiggy", 180, 1400), ("Zomato", 200, 1600), ("Starbucks", 290, 900),
                           ("Third Wave Coffee", 220, 780), ("MTR 1924", 350, 1400),
                           ("Meghana Foods", 600, 2400), ("Truffles", 500, 1800),
                           ("Toit", 1800, 5200), ("Domino's", 300, 1100), ("Chai Point", 40, 240),
                           (None, 40, 300)], INDIA_MODES),
    "Transport": (16, [("Uber", 140, 780), ("Ola", 120, 650), ("Rapido", 45, 220),
                       ("Namma Metro", 200, 1000), ("Indian Oil", 1000, 3500), ("Shell", 1200, 3800),
                       ("FASTag", 500, 1000), (None, 30, 200)], INDIA_MODES),
    "Shopping": (10, [("Amazon", 249, 8999), ("Flipkart", 299, 12999), ("Myntra", 599, 4999),
                      ("Decathlon", 499, 6999), ("Croma", 1499, 32999), ("IKEA", 699, 14999),
                      ("Westside", 899, 4999), ("Nykaa", 299, 2999)],
                 {"Credit Card": 60, "UPI": 30, "Debit Card": 10}),
    "Entertainment": (6, [("PVR INOX", 380, 1600), ("BookMyShow", 500, 3500),
                          ("Timezone", 400, 1800), ("Kindle Store", 99, 599)],
                      {"Credit Card": 60, "UPI": 40}),
    "Health": (5, [("Apollo Pharmacy", 120, 2400), ("Practo", 500, 900),
                   ("Manipal Hospital", 900, 7800), ("Dr. Lal PathLabs", 650, 4200),
                   ("Tata 1mg", 199, 1800)], INDIA_MODES),
    "Personal Care": (3, [("Urban Company", 499, 2999), ("Naturals Salon", 300, 1600),
                          ("Lakme Salon", 600, 3500)], INDIA_MODES),
    "Gifts": (3, [("Archies", 199, 1499), ("Ferns N Petals", 699, 2999), ("Amazon", 499, 5999)],
              {"Credit Card": 60, "UPI": 40}),
    "Household": (3, [("Urban Company", 299, 1499), ("Pepperfry", 1999, 24999),
                      ("Sri Sai Hardware", 120, 1800), ("Tumbledry", 250, 900)], INDIA_MODES),
}
HOME_REMARKS = {
    "Groceries": ["Weekly groceries", "Fruits and vegetables", "Monthly stock-up", "Milk and bread"],
    "Food & Dining": ["Dinner with Priya", "Lunch with college friends", "Split 3 ways",
                      "Brunch", "Ordered in, movie night"],
    "Transport": ["Airport drop", "Fuel", "Metro card top-up", "Cab to Koramangala"],
    "Shopping": ["Kurta for Anjali", "Kitchen stuff", "Headphones", "Shoes", "Diwali sale"],
    "Entertainment": ["Movie night", "Concert tickets", "Stand-up show"],
    "Health": ["Medicines for Amma", "Annual health check-up", "Dentist", "Vitamins"],
    "Personal Care": ["Haircut", "Home salon"],
    "Gifts": ["Birthday gift for Rohan", "Wedding gift", "Anniversary flowers"],
    "Household": ["Tap repair", "Bookshelf", "Laundry", "Curtains"],
}
TRIP_DAYS_AWAY = set(days_between("2025-04-03", "2025-04-14") + days_between("2025-06-14", "2025-07-06")
                     + days_between("2025-10-08", "2025-10-16"))


def gen_home_discretionary(n):
    b = "b-home"
    day_w = []
    for day in DAYS:
        w = 1.0
        if day in TRIP_DAYS_AWAY:
            w = 0.35
        if day.month in (10, 11):
            w *= 1.25
        if day.weekday() >= 5:
            w *= 1.3
        day_w.append(w)
    cats = list(HOME_CATS)
    for _ in range(n):
        day = rng.choices(DAYS, weights=day_w)[0]
        cat_w = [HOME_CATS[c][0] * (2.0 if c in ("Shopping", "Gifts") and day.month in (10, 11)
                                    else 1.0) for c in cats]
        cat = rng.choices(cats, weights=cat_w)[0]
        _, parties, modes = HOME_CATS[cat]
        party, lo, hi = pick(parties)
        tags = None
        r = rng.random()
        if day.weekday() >= 5 and r < 0.3:
            tags = pick([["weekend"], ["family", "weekend"]])
        elif r < 0.12:
            tags = pick([["family"], ["family"], ["reimbursable"], []])
        remarks = pick(HOME_REMARKS[cat]) if chance(0.14) else None
        add(b, day, -money("INR", lo, hi), cat, party, mode_in(modes), remarks, tags)


# -------------------------------------------------------------- Office (INR)

def gen_office():
    b = "b-office"
    for m in range(1, 13):
        add(b, dt.date(2025, m, 3), D("-14500.00"), "Rent", "91springboard", "Bank Transfer",
            "Dedicated desk, %s" % dt.date(2025, m, 1).strftime("%b %Y"), ["work"])
        add(b, dt.date(2025, m, 12), D("-1177.64"), "Utilities", "Airtel Xstream", "Credit Card",
            tags=["work"] if chance(0.5) else None)
        add(b, dt.date(2025, m, 6), D("-1380.00") if m < 9 else D("-1450.00"), "Software",
            "Google Workspace", "Credit Card", tags=["work", "subscription"])
        for _ in range(2):
            add(b, pick(month_days(m)), -money("INR", 120, 6500), "Office Supplies",
                pick(["Amazon Business", "Ambika Stationers", "Croma", "Staples Office Mart"]),
                mode_in({"Credit Card": 60, "UPI": 40}),
                pick(["Printer paper", "Toner", "Whiteboard markers", "Keyboard", "Notebooks", None]),
                ["work"])
        for _ in range(3):
            add(b, pick(month_days(m)), -money("INR", 900, 5600), "Food & Dining",
                pick(["Truffles", "Empire Restaurant", "Nagarjuna", "Smoke House Deli", "Swiggy"]),
                mode_in({"Credit Card": 70, "UPI": 30}),
                pick(["Team lunch", "Team lunch", "Farewell lunch", "Sprint demo pizza", None]),
                ["work", "team"])
        for _ in range(2):
            add(b, pick(month_days(m)), -money("INR", 180, 900), "Food & Dining",
                pick(["Starbucks", "Third Wave Coffee", "Blue Tokai", "Dyu Art Cafe"]),
                mode_in({"UPI": 70, "Credit Card": 30}),
                pick(["Client coffee", "Coffee with candidate", None, None]), ["work"])
        for _ in range(3):
            add(b, pick(month_days(m)), -money("INR", 140, 850), "Transport",
                pick(["Uber", "Ola", "Rapido"]), mode_in({"UPI": 60, "Credit Card": 40}),
                tags=["work"] if chance(0.7) else None)
    for q, day in enumerate(["2025-03-28", "2025-06-27", "2025-09-26", "2025-12-19"], 1):
        add(b, day, D("-8850.00"), "Professional Services", "Mehta & Rao Chartered Accountants",
            "Bank Transfer", "Bookkeeping and GST filing, Q%d" % q, ["work"])
    add(b, "2025-04-22", D("-96.00"), "Software", "Notion", "Credit Card", "Notion Plus, annual",
        ["work", "subscription"], currency="USD")
    trips = [("Mumbai", "2025-02-17", "2025-02-19"), ("Delhi", "2025-08-05", "2025-08-07"),
             ("Hyderabad", "2025-11-12", "2025-11-13")]
    for city, start, end in trips:
        tag = ["work", "trip-" + city.lower()]
        add(b, start, -money("INR", 5400, 9800), "Travel", pick(["IndiGo", "Air India"]),
            "Credit Card", "Flights BLR-%s return" % city[:3].upper(), tag)
        add(b, end, -money("INR", 6500, 14000), "Hotels",
            pick(["Taj", "ITC Hotels", "Lemon Tree", "Marriott"]), "Credit Card",
            "%s hotel" % city, tag)
        for day in days_between(start, end):
            add(b, day, -money("INR", 250, 950), "Transport", pick(["Uber", "Ola"]), "UPI",
                tags=tag)
            add(b, day, -money("INR", 400, 2600), "Food & Dining", None,
                mode_in({"Credit Card": 60, "UPI": 40}), pick(["Client dinner", None]), tag)


# -------------------------------------------------------- US Consulting (USD)

def gen_us():
    b = "b-us-consulting"
    for m in range(1, 13):
        day = dt.date(2025, m, rng.randint(3, 7))
        add(b, day, D("4500.00"), "Consulting Fees", "Brightline Analytics LLC", "Bank Transfer",
            "Invoice BA-2025-%02d, monthly retainer" % m, ["client-brightline"])
        add(b, day, -money("USD", "4.10", "6.80", step="0.01"), "Bank Fees", "Wise", "Bank Transfer",
            "Incoming wire fee")
        add(b, dt.date(2025, m, 9), D("-21.00"), "Software", "GitHub", "Credit Card",
            tags=["subscription"] if chance(0.4) else None)
        add(b, dt.date(2025, m, 2), -money("USD", 38, 240, step="0.01"), "Software",
            "Amazon Web Services", "Credit Card", pick([None, "EC2 + S3", "Staging env"]),
            pick([None, ["client-brightline"]]))
        add(b, dt.date(2025, m, 15), D("-14.00"), "Software", "Google Workspace", "Credit Card")
        add(b, dt.date(2025, m, 11), D("-20.00"), "Software", "OpenAI", "Credit Card",
            "ChatGPT Plus", ["subscription"] if chance(0.5) else None)
        add(b, dt.date(2025, m, 19), D("-15.99"), "Software", "Zoom", "Credit Card")
        if m % 2 == 0:
            add(b, dt.date(2025, m, 24), -money("USD", 12, 60), "Software",
                pick(["Vercel", "DigitalOcean", "Cloudflare", "Sentry"]), "Credit Card")
    for m in (2, 4, 6, 8, 10, 12):
        day = dt.date(2025, m, rng.randint(12, 26))
        fee = money("USD", 2850, 7200, step=25)
        add(b, day, fee, "Consulting Fees", "Northwind Health Inc", "Bank Transfer",
            "Milestone %d" % (m // 2), ["client-northwind"])
        add(b, day, -money("USD", "4.10", "9.90", step="0.01"), "Bank Fees", "Wise", "Bank Transfer")
    for m in range(8, 13):
        hours = rng.randint(18, 40)
        day = dt.date(2025, m, rng.randint(20, 28))
        add(b, day, D(hours * 95).scaleb(0).quantize(D("0.01")), "Consulting Fees", "Keystone Labs",
            "Bank Transfer", "%d h @ $95" % hours, ["client-keystone"])
        add(b, day, -money("USD", "4.10", "6.80", step="0.01"), "Bank Fees", "Wise", "Bank Transfer")
    for q, day in enumerate(["2025-04-10", "2025-07-10", "2025-10-10", "2025-12-30"], 1):
        add(b, day, D("-350.00"), "Professional Services", "Cardinal CPA Group", "Credit Card",
            "US tax advisory, Q%d" % q)
    add(b, "2025-01-08", D("-2499.00"), "Equipment", "Apple", "Credit Card", "MacBook Pro 14",
        ["work"])
    add(b, "2025-01-22", D("-289.00"), "Software", "JetBrains", "Credit Card", "All Products Pack, annual")
    add(b, "2025-09-03", D("-179.99"), "Equipment", "Logitech", "Credit Card", "MX Keys + MX Master")
    # Entries in INR in the USD book: advance tax on the consulting income, flight to SF
    for day, amt in [("2025-06-13", "-45000.00"), ("2025-09-12", "-52000.00"),
                     ("2025-12-12", "-48500.00")]:
        add(b, day, D(amt), "Taxes", "Income Tax Department", "Bank Transfer",
            "Advance tax instalment", currency="INR")
    add(b, "2025-04-18", D("-112450.00"), "Travel", "Air India", "Credit Card",
        "BLR-SFO return for Data Council", ["work", "conference"], currency="INR")
    # Conference trip, San Francisco 12-16 May
    tag = ["work", "conference"]
    add(b, "2025-03-20", D("-899.00"), "Conferences", "Data Council", "Credit Card",
        "Conference pass", tag)
    add(b, "2025-05-16", D("-1240.00"), "Hotels", "Hotel Zetta", "Credit Card", "4 nights", tag,
        time="10:30:00", tz="-07:00")
    for day in days_between("2025-05-12", "2025-05-16"):
        for _ in range(2):
            add(b, day, -money("USD", 9, 75), "Food & Dining",
                pick(["Blue Bottle Coffee", "Tartine", "Sweetgreen", "In-N-Out Burger",
                      "Zuni Cafe", "Philz Coffee", None]),
                "Credit Card", None, tag if chance(0.6) else None)
        add(b, day, -money("USD", 12, 48), "Transport", pick(["Uber", "Lyft", "BART"]),
            "Credit Card", None, tag if chance(0.6) else None)
    add(b, "2025-10-03", D("-42.50"), "Bank Fees", "Mercury", "Bank Transfer",
        "Card replacement fee", time="14:05:27.000", tz="Z")


# ------------------------------------------------------------ Tokyo (JPY)

def gen_tokyo():
    b = "b-tokyo"
    add(b, "2025-02-20", D("-68450.00"), "Travel", "Air India", "Credit Card",
        "BLR-NRT return flights", ["vacation"], currency="INR")
    add(b, "2025-03-05", D("-2800.00"), "Travel", "VFS Global", "Debit Card", "Japan visa fee",
        currency="INR")
    add(b, "2025-04-01", D("-13.00"), "Travel", "Airalo", "Credit Card", "eSIM 10 GB",
        currency="USD")
    add(b, "2025-03-24", D("-50000"), "Transport", "Japan Rail Pass", "Credit Card",
        "7-day JR Pass", ["vacation"])
    add(b, "2025-04-03", D("-3070"), "Transport", "Narita Express", "Credit Card",
        time="16:40:00")
    stays = [("tokyo", "2025-04-03", "2025-04-07", "Hotel Gracery Shinjuku", "-78400", "2025-04-08"),
             ("kyoto", "2025-04-08", "2025-04-10", "Hotel Granvia Kyoto", "-54000", "2025-04-11"),
             ("osaka", "2025-04-11", "2025-04-12", "Cross Hotel Osaka", "-31600", "2025-04-13"),
             ("tokyo", "2025-04-13", "2025-04-14", "Tokyu Stay Ginza", "-16800", "2025-04-14")]
    sights = {
        "tokyo": [("teamLab Planets", "-3800"), ("Shibuya Sky", "-2500"), ("Tokyo Skytree", "-3100"),
                  ("Meiji Jingu", None), ("Ghibli Museum", "-1000"), ("Senso-ji", None)],
        "kyoto": [("Kiyomizu-dera", "-500"), ("Kinkaku-ji", "-500"), ("Fushimi Inari", None),
                  ("Arashiyama Bamboo Grove", None), ("Nijo Castle", "-1300")],
        "osaka": [("Osaka Castle", "-600"), ("Universal Studios Japan", "-9800"),
                  ("Umeda Sky Building", "-2000")],
    }
    food = ["Ichiran Ramen", "7-Eleven", "FamilyMart", "Lawson", "Sushi Zanmai", "Tsukiji Outer Market",
            "Nishiki Market", "Kura Sushi", "Gyukatsu Motomura", "Doutor Coffee", "Kuromon Market",
            "Afuri", "Mos Burger", None]
    shops = ["Uniqlo Ginza", "Don Quijote", "Daiso", "Bic Camera", "Loft", "Tokyu Hands",
             "Pokemon Center", "Muji"]
    for city, start, end, hotel, price, checkout in stays:
        add(b, checkout, D(price), "Hotels", hotel, "Credit Card",
            "Paid at check-out", ["vacation", city], time="10:15:00")
        pool = list(sights[city])
        rng.shuffle(pool)
        for day in days_between(start, end):
            tag = ["vacation", city]
            add(b, day, -money("JPY", 380, 1100), "Food & Dining", pick(["7-Eleven", "FamilyMart", "Lawson",
                "Doutor Coffee"]), "Cash", "Breakfast", tag if chance(0.5) else None)
            add(b, day, -money("JPY", 900, 2400), "Food & Dining", pick(food), mode_in(TRIP_MODES),
                None, tag if chance(0.5) else None)
            add(b, day, -money("JPY", 1800, 8500), "Food & Dining", pick(food), mode_in(TRIP_MODES),
                pick([None, None, "Dinner", "Izakaya night"]), tag if chance(0.5) else None)
            if chance(0.6):
                add(b, day, -money("JPY", 150, 900), "Food & Dining", pick(food), "Cash", "Snacks")
            for _ in range(pick([0, 1, 1, 2])):
                add(b, day, -D(pick([130, 150, 160, 180, 200])), "Food & Dining", None, "Cash",
                    pick(["Vending machine drink", "Vending machine drink", None]))
            if chance(0.5):
                add(b, day, -money("JPY", 450, 950), "Food & Dining",
                    pick(["Starbucks", "Blue Bottle Coffee", "% Arabica", "Tully's Coffee"]),
                    mode_in(TRIP_MODES))
            add(b, day, -D(pick([1000, 2000, 3000])), "Transport", "Suica", "Cash", "IC card top-up")
            if chance(0.5):
                add(b, day, -money("JPY", 180, 1600), "Transport",
                    pick(["Tokyo Metro", "Toei Subway", "Kyoto City Bus", "Osaka Metro", "Taxi"]),
                    mode_in(TRIP_MODES))
            for _ in range(pick([1, 1, 2])):
                if pool:
                    place, fee = pool.pop()
                    if fee:
                        add(b, day, D(fee), "Sightseeing", place, mode_in(TRIP_MODES), None,
                            ["vacation", city])
            if chance(0.55):
                add(b, day, -money("JPY", 500, 14800), "Shopping", pick(shops), mode_in(TRIP_MODES),
                    pick([None, None, "Tax-free", "Souvenirs"]), ["vacation", city] if chance(0.4) else None)
            if chance(0.2):
                add(b, day, -money("JPY", 600, 3500), "Gifts", pick(["Tokyo Banana", "Royce'", "Shiroi Koibito",
                    "Yatsuhashi shop"]), "Cash", "Gifts for office", ["vacation"])
    add(b, "2025-04-08", D("-14170"), "Transport", "JR Central", "Credit Card",
        "Nozomi Tokyo-Kyoto (not covered by JR Pass)")
    add(b, "2025-04-11", D("-580"), "Transport", "JR West", "Cash", "Kyoto-Osaka")
    add(b, "2025-04-09", D("-200"), "Sightseeing", None, "Cash", "Deer crackers, Nara")
    add(b, "2025-04-13", D("-14720"), "Transport", "JR Central", "Credit Card", "Shin-Osaka to Tokyo")
    add(b, "2025-04-14", D("-3070"), "Transport", "Narita Express", "Cash")
    add(b, "2025-04-14", D("3000"), "Hotels", "Tokyu Stay Ginza", "Cash", "Key deposit returned")


# ------------------------------------------------------- Europe (EUR, GBP)

def gen_europe():
    b = "b-europe"
    add(b, "2025-03-11", D("-92340.00"), "Travel", "Lufthansa", "Credit Card",
        "BLR-CDG, FCO-BLR flights", ["vacation"], currency="INR")
    add(b, "2025-04-15", D("-7650.00"), "Travel", "VFS Global", "Debit Card", "Schengen visa",
        currency="INR")
    add(b, "2025-04-21", D("-13650.00"), "Travel", "UK Visas and Immigration", "Credit Card",
        "UK standard visitor visa", currency="INR")
    add(b, "2025-05-30", D("-3480.00"), "Travel", "Tata AIG", "Credit Card", "Travel insurance",
        currency="INR")
    legs = [  # city, first day, last day, currency, hotel, price, checkout
        ("paris", "2025-06-14", "2025-06-18", "EUR", "Hôtel des Grands Boulevards", "-890.00", "2025-06-19"),
        ("london", "2025-06-19", "2025-06-21", "GBP", "The Hoxton, Holborn", "-612.00", "2025-06-22"),
        ("amsterdam", "2025-06-22", "2025-06-24", "EUR", "Hotel Pulitzer", "-705.00", "2025-06-25"),
        ("berlin", "2025-06-25", "2025-06-27", "EUR", "Hotel Amano", "-420.00", "2025-06-28"),
        ("munich", "2025-06-28", "2025-06-30", "EUR", "Motel One München", "-510.00", "2025-07-01"),
        ("rome", "2025-07-01", "2025-07-06", "EUR", "Hotel Artemide", "-780.00", "2025-07-06"),
    ]
    sights = {
        "paris": [("Louvre", "-22.00"), ("Eiffel Tower", "-29.40"), ("Musée d'Orsay", "-16.00"),
                  ("Château de Versailles", "-21.00"), ("Sainte-Chapelle", "-13.00")],
        "london": [("London Eye", "-29.00"), ("Tower of London", "-34.80"),
                   ("Lyceum Theatre", "-85.00"), ("Kew Gardens", "-22.00")],
        "amsterdam": [("Rijksmuseum", "-22.50"), ("Van Gogh Museum", "-22.00"),
                      ("Anne Frank House", "-16.00"), ("Those Dam Boat Guys", "-18.50")],
        "berlin": [("Berlin TV Tower", "-25.50"), ("Neues Museum", "-14.00"),
                   ("DDR Museum", "-13.50")],
        "munich": [("Neuschwanstein Castle", "-21.00"), ("BMW Welt", "-10.00"),
                   ("Deutsches Museum", "-15.00")],
        "rome": [("Colosseum", "-18.00"), ("Vatican Museums", "-25.00"), ("Galleria Borghese", "-17.00"),
                 ("Uffizi Gallery", "-25.00"), ("Pantheon", "-5.00")],
    }
    food = {
        "paris": ["Café de Flore", "Boulangerie Utopie", "Le Relais de l'Entrecôte", "Monoprix", "Carrefour City"],
        "london": ["Pret A Manger", "Dishoom", "Borough Market", "Tesco Express", "Flat Iron"],
        "amsterdam": ["Albert Heijn", "FEBO", "Foodhallen", "Winkel 43", "Café de Jaren"],
        "berlin": ["Mustafa's Gemüse Kebap", "Curry 36", "REWE", "Markthalle Neun", "Café Einstein"],
        "munich": ["Hofbräuhaus", "Viktualienmarkt", "Augustiner Bräustuben", "EDEKA"],
        "rome": ["Roscioli", "Da Enzo al 29", "Giolitti", "Antico Forno Roscioli", "Bar del Fico",
                 "Trapizzino"],
    }
    transport = {"paris": "RATP", "london": "Transport for London", "amsterdam": "GVB",
                 "berlin": "BVG", "munich": "MVG", "rome": "ATAC"}
    for city, start, end, cur, hotel, price, checkout in legs:
        tzo = "+01:00" if cur == "GBP" else "+02:00"
        cur_arg = cur if cur != "EUR" else None
        add(b, checkout, D(price), "Hotels", hotel, "Credit Card", "Paid at check-out",
            ["vacation", city], currency=cur_arg, tz=tzo)
        pool = list(sights[city])
        rng.shuffle(pool)
        for day in days_between(start, end):
            tag = ["vacation", city]
            for lo, hi, what in [(4, 14, "Breakfast"), (9, 32, None), (18, 95, None)]:
                if what == "Breakfast" and chance(0.3):
                    continue
                add(b, day, -money(cur, lo, hi), "Food & Dining", pick(food[city] + [None]),
                    mode_in(TRIP_MODES), what if what and chance(0.5) else
                    pick([None, None, None, "Dinner with Priya", "Split with Arjun"]),
                    tag if chance(0.5) else None, currency=cur_arg, tz=tzo)
            add(b, day, -money(cur, "2.10", 18), "Transport", transport[city], mode_in(TRIP_MODES),
                currency=cur_arg, tz=tzo)
            if chance(0.35):
                add(b, day, -money(cur, 12, 38), "Transport", pick(["Uber", "Bolt", "FreeNow"]),
                    "Credit Card", currency=cur_arg, tz=tzo)
            for _ in range(pick([0, 1, 1, 2])):
                if pool:
                    place, fee = pool.pop()
                    add(b, day, D(fee), "Sightseeing", place, mode_in(TRIP_MODES), None, tag,
                        currency=cur_arg, tz=tzo)
            if chance(0.35):
                add(b, day, -money(cur, 8, 140), "Shopping",
                    pick(["Zara", "Galeries Lafayette", "Shakespeare and Company", "Hema", "Primark",
                          "Souvenir stall", "KaDeWe", "Mercato Centrale"]),
                    mode_in(TRIP_MODES), pick([None, None, "Souvenirs", "Tax-free"]), None,
                    currency=cur_arg, tz=tzo)
            if chance(0.15):
                add(b, day, -money(cur, 6, 45), "Gifts", None, "Cash", "Gifts for family",
                    ["vacation", "family"], currency=cur_arg, tz=tzo)
    add(b, "2025-06-19", D("-114.00"), "Transport", "Eurostar", "Credit Card", "Paris to London",
        time="09:13:00")
    add(b, "2025-06-22", D("-98.00"), "Transport", "Eurostar", "Credit Card", "London to Amsterdam",
        currency="GBP", time="08:16:00", tz="+01:00")
    add(b, "2025-06-25", D("-54.90"), "Transport", "Deutsche Bahn", "Credit Card", "ICE Amsterdam to Berlin")
    add(b, "2025-06-28", D("-79.90"), "Transport", "Deutsche Bahn", "Credit Card", "ICE Berlin to Munich")
    add(b, "2025-07-01", D("-139.00"), "Travel", "ITA Airways", "Credit Card", "Munich to Rome")
    add(b, "2025-07-04", D("-45.80"), "Transport", "Trenitalia", "Credit Card", "Day trip to Florence")
    add(b, "2025-07-06", D("-48.00"), "Transport", "Leonardo Express", "Cash", "To FCO airport")
    add(b, "2025-06-14", D("-35.00"), "Transport", "G7 Taxi", "Credit Card", "CDG to hotel",
        time="21:45:00")
    add(b, "2025-07-09", D("42.30"), "Shopping", "Global Blue", "Credit Card", "VAT refund, Paris purchases")


# ------------------------------------------------------ Singapore (SGD)

def gen_singapore():
    b = "b-singapore"
    add(b, "2025-08-20", D("-24860.00"), "Travel", "IndiGo", "Credit Card", "BLR-SIN return flights",
        ["vacation"], currency="INR")
    add(b, "2025-09-02", D("-2850.00"), "Travel", "VFS Global", "Debit Card", "Singapore visa",
        currency="INR")
    add(b, "2025-09-29", D("-1180.00"), "Travel", "Tata AIG", "Credit Card", "Travel insurance",
        currency="INR")
    add(b, "2025-10-03", D("-68.00"), "Sightseeing", "Klook", "Credit Card",
        "Universal Studios Singapore ticket", ["vacation"], currency="USD")
    add(b, "2025-10-04", D("-9.90"), "Travel", "Airalo", "Credit Card", "eSIM 5 GB", currency="USD",
        time="19:30:00")
    add(b, "2025-10-16", D("-2380.00"), "Hotels", "PARKROYAL COLLECTION Pickering", "Credit Card",
        "8 nights", ["vacation"], time="11:05:00")
    add(b, "2025-10-16", D("200.00"), "Hotels", "PARKROYAL COLLECTION Pickering", "Credit Card",
        "Deposit refund", time="11:07:00")
    add(b, "2025-10-08", D("-24.60"), "Transport", "Grab", "Credit Card", "Changi to hotel",
        time="23:40:00")
    sights = [("Gardens by the Bay", "-53.00"), ("Singapore Zoo", "-49.00"), ("Night Safari", "-56.00"),
              ("Marina Bay Sands SkyPark", "-32.00"), ("Singapore Cable Car", "-35.00"),
              ("ArtScience Museum", "-30.00"), ("S.E.A. Aquarium", "-44.00"),
              ("National Gallery Singapore", "-20.00"), ("Universal Studios Singapore", "-35.00")]
    rng.shuffle(sights)
    hawker = ["Lau Pa Sat", "Maxwell Food Centre", "Chinatown Complex", "Tekka Centre",
              "Newton Food Centre", "Old Airport Road Food Centre", "Tian Tian Hainanese Chicken Rice"]
    cafe = ["Ya Kun Kaya Toast", "Toast Box", "Starbucks", "Tiong Bahru Bakery"]
    restaurants = ["Jumbo Seafood", "Din Tai Fung", "Komala Vilas", "Song Fa Bak Kut Teh",
                   "Lavo", "Candlenut", "Burnt Ends"]
    for day in days_between("2025-10-08", "2025-10-16"):
        tag = ["vacation"]
        cafe_name = pick(cafe)
        add(b, day, -money("SGD", "1.80", "8.50"), "Food & Dining", cafe_name, pick(["Cash", "Credit Card"]),
            "Kopi and kaya toast" if cafe_name in ("Ya Kun Kaya Toast", "Toast Box") and chance(0.5) else None)
        add(b, day, -money("SGD", "4.50", 16), "Food & Dining", pick(hawker + [None]), "Cash",
            pick([None, None, "Chicken rice", "Laksa", "Char kway teow"]))
        add(b, day, -money("SGD", 28, 180), "Food & Dining", pick(restaurants + hawker),
            mode_in(TRIP_MODES), pick([None, None, "Dinner with Priya", "Chilli crab"]),
            tag if chance(0.4) else None)
        if chance(0.5):
            add(b, day, -money("SGD", "2.50", 12), "Food & Dining", pick(["7-Eleven", "Mr Bean", "Bengawan Solo",
                "Old Chang Kee"]), "Cash", "Snacks")
        if chance(0.6):
            add(b, day, -money("SGD", "3.80", "6.90", step="0.10"), "Food & Dining",
                pick(["LiHO Tea", "KOI Thé", "Gong Cha", "Mr Coconut"]), pick(["Cash", "Credit Card"]))
        if chance(0.5):
            add(b, day, -money("SGD", "5.00", "14.00"), "Food & Dining", pick(hawker), "Cash",
                pick([None, "Satay", "Hokkien mee", "Roti prata"]))
        if chance(0.3):
            add(b, day, -money("SGD", 24, 120), "Entertainment",
                pick(["Atlas Bar", "Level33", "Smoke & Mirrors", "Clarke Quay"]), "Credit Card",
                pick([None, "Drinks"]), ["vacation"] if chance(0.5) else None)
        for _ in range(pick([1, 2, 2, 3])):
            if chance(0.5):
                add(b, day, -money("SGD", "1.09", "2.37", step="0.01"), "Transport", "SimplyGo",
                    "Credit Card", "MRT")
            else:
                add(b, day, -money("SGD", "9.80", "28.50"), "Transport", "Grab",
                    mode_in({"Credit Card": 80, "Cash": 20}))
        for _ in range(pick([0, 1, 1, 2])):
            if sights:
                place, fee = sights.pop()
                add(b, day, D(fee), "Sightseeing", place, mode_in(TRIP_MODES), None, tag)
        if chance(0.5):
            add(b, day, -money("SGD", 12, 260), "Shopping",
                pick(["Mustafa Centre", "ION Orchard", "Bugis Street", "Charles & Keith", "Uniqlo",
                      "Kinokuniya", "Daiso"]),
                mode_in(TRIP_MODES), pick([None, None, "Tax-free", "Electronics"]))
        if chance(0.3):
            add(b, day, -money("SGD", 18, 75), "Gifts", pick(["Bengawan Solo", "TWG Tea", "Bee Cheng Hiang"]),
                "Credit Card", "Gifts for family", ["vacation", "family"])
    add(b, "2025-10-12", D("-36.00"), "Entertainment", "Singapore Flyer", "Credit Card", None, ["vacation"])
    add(b, "2025-10-14", D("-88.00"), "Entertainment", "Esplanade", "Credit Card", "Concert", ["vacation"])


# ---------------------------------------------------------------- transfers

def transfer(day, src, dst, src_amount, dst_amount, remarks, party_src=None, party_dst=None):
    add(src, day, src_amount, "Transfer", party_src or BOOK[dst]["name"], "Bank Transfer", remarks,
        transfer=True)
    add(dst, day, dst_amount, "Transfer", party_dst or BOOK[src]["name"], "Bank Transfer", remarks,
        transfer=True)


def gen_transfers():
    transfer("2025-01-02", "b-home", "b-office", D("-50000.00"), D("50000.00"), "Office float")
    transfer("2025-07-01", "b-home", "b-office", D("-50000.00"), D("50000.00"), "Office float, H2")
    transfer("2025-03-28", "b-home", "b-tokyo", D("-57300.00"), D("100000"), "Forex card load",
             "Niyo Global", "Niyo Global")
    transfer("2025-06-10", "b-home", "b-europe", D("-150000.00"), D("1550.00"), "Forex card load",
             "Niyo Global", "Niyo Global")
    transfer("2025-10-06", "b-home", "b-singapore", D("-63900.00"), D("1000.00"), "Forex card load",
             "Niyo Global", "Niyo Global")
    for day, usd in [("2025-03-31", "-18000.00"), ("2025-06-30", "-20000.00"),
                     ("2025-09-30", "-22000.00"), ("2025-12-31", "-15000.00")]:
        usd = D(usd)
        inr = q2(-usd * market_inr("USD", d(day)) * D("0.994"))
        transfer(day, "b-us-consulting", "b-home", usd, inr, "Repatriation via Wise", "Wise", "Wise")


# --------------------------------------------------------------- assemble

TARGET_ENTRIES = 1200


def hist_rates(day):
    """1 INR = x CODE on that day, 6 significant digits (as a rates app stores them)."""
    c6 = Context(prec=6, rounding=ROUND_HALF_EVEN)
    r = SNAP_BY_DATE[day.isoformat()]
    out = {"USD": c6.divide(D(1), r["INR"])}
    for cur in ("EUR", "GBP", "SGD", "JPY"):
        out[cur] = c6.divide(r[cur], r["INR"])
    return out


def finish_entries():
    ENTRIES.sort(key=lambda e: (e["_day"], e["_seq"]))
    out = []
    for i, e in enumerate(ENTRIES, 1):
        book = BOOK[e["_book"]]
        day = e["_day"]
        date = day.isoformat()
        if e["_time"]:
            date += "T" + e["_time"] + e["_tz"]
        o = {"id": "e-%05d" % i, "bookId": e["_book"], "date": date, "amount": e["amount"]}
        cur = e["_cur"]
        if cur != book["currency"] or chance(0.01):
            o["currency"] = cur   # a few entries name their book's currency explicitly
        for k in ("category", "party", "paymentMode", "remarks", "tags", "isTransfer"):
            if k in e:
                o[k] = e[k]
        if "isTransfer" not in o and chance(0.04):
            o["isTransfer"] = False
        if cur != "INR" and chance(0.5):
            mkt = market_inr(cur, day)
            mode = e.get("paymentMode")
            spread = D(pick(["0", "0.0035", "0.0075", "0.01", "0.015", "0.0175", "0.02"]))
            if mode == "Bank Transfer" or e.get("isTransfer"):
                spread = D(pick(["-0.006", "-0.004", "0"]))
            rate = q4(mkt * (1 + spread))
            o["normalizedAmount"] = q2(e["amount"] * rate)
            o["normalizedCurrency"] = "INR"
            o["conversionRate"] = rate
            if chance(0.35):
                o["historicalRates"] = hist_rates(day)
        out.append(o)
    return out


# ------------------------------------------------- budgets and net worth

# The category tree: new parents over the entries' own categories (no entry names a parent,
# so every query that names an entry's category answers as before).
CATEGORY_TREE = [
    {"name": "Essentials", "parent": None},
    {"name": "Home Upkeep", "parent": "Essentials"},
    {"name": "Rent", "parent": "Essentials"},
    {"name": "Groceries", "parent": "Essentials"},
    {"name": "Health", "parent": "Essentials"},
    {"name": "Insurance", "parent": "Essentials"},
    {"name": "Utilities", "parent": "Home Upkeep"},
    {"name": "Household", "parent": "Home Upkeep"},
    {"name": "Lifestyle", "parent": None},
    {"name": "Food & Dining", "parent": "Lifestyle"},
    {"name": "Entertainment", "parent": "Lifestyle"},
    {"name": "Shopping", "parent": "Lifestyle"},
    {"name": "Personal Care", "parent": "Lifestyle"},
    {"name": "Gifts", "parent": "Lifestyle"},
    {"name": "Trips", "parent": None},
    {"name": "Travel", "parent": "Trips"},
    {"name": "Hotels", "parent": "Trips"},
    {"name": "Sightseeing", "parent": "Trips"},
    {"name": "Work", "parent": None},
    {"name": "Software", "parent": "Work"},
    {"name": "Office Supplies", "parent": "Work"},
    {"name": "Equipment", "parent": "Work"},
    {"name": "Conferences", "parent": "Work"},
    {"name": "Professional Services", "parent": "Work"},
]

# A flat (outside core net worth), a car whose value is written down, gold (volatile) and
# some crypto (volatile, outside core).
ASSETS = [
    {"id": "a-flat", "name": "Flat in Bengaluru", "type": "tangible", "value": D("8500000"), "currency": "INR", "date": "2025-01-01", "includeInCore": False},
    {"id": "a-car", "name": "Car", "type": "tangible", "value": D("650000"), "currency": "INR", "date": "2025-01-01"},
    {"id": "a-car", "name": "Car", "type": "tangible", "value": D("560000"), "currency": "INR", "date": "2025-07-01"},
    {"id": "a-gold", "name": "Gold coins", "type": "tangible", "value": D("310000"), "currency": "INR", "date": "2025-06-30", "volatile": True},
    {"id": "a-gold", "name": "Gold coins", "type": "tangible", "value": D("365000"), "currency": "INR", "date": "2025-12-01", "volatile": True},
    {"id": "a-crypto", "name": "Crypto wallet", "type": "intangible", "value": D("1850.00"), "currency": "USD", "date": "2025-11-15", "volatile": True, "includeInCore": False},
]

# The flat's loan, paid down through the year.
LIABILITIES = [
    {"id": "l-home-loan", "name": "Home loan", "type": "loan", "balance": D("4200000"), "currency": "INR", "date": "2025-01-01", "interestRate": D("8.45"), "dueDate": "2040-03-31"},
    {"id": "l-home-loan", "name": "Home loan", "type": "loan", "balance": D("4010000"), "currency": "INR", "date": "2025-07-01", "interestRate": D("8.45"), "dueDate": "2040-03-31"},
    {"id": "l-home-loan", "name": "Home loan", "type": "loan", "balance": D("3905000"), "currency": "INR", "date": "2025-12-01", "interestRate": D("8.25"), "dueDate": "2040-03-31"},
]

# Lots of two funds, one in USD and one in INR; one lot is bought after the year ends.
HOLDINGS = [
    {"id": "h-1", "account": "Brokerage", "symbol": "VWRA", "quantity": D("40"), "costPerUnit": D("118.20"), "fee": D("4.95"), "currency": "USD", "date": "2025-02-14"},
    {"id": "h-2", "account": "Brokerage", "symbol": "VWRA", "quantity": D("25"), "costPerUnit": D("124.10"), "fee": D("4.95"), "currency": "USD", "date": "2025-08-20"},
    {"id": "h-3", "account": "Demat", "symbol": "NIFTYBEES", "quantity": D("500"), "costPerUnit": D("248.35"), "fee": D("20"), "currency": "INR", "date": "2025-03-10"},
    {"id": "h-4", "account": "Demat", "symbol": "NIFTYBEES", "quantity": D("200"), "costPerUnit": D("282.10"), "fee": D("20"), "currency": "INR", "date": "2026-01-15"},
]

PRICES = [
    {"symbol": "VWRA", "date": "2025-02-14", "price": D("118.20"), "currency": "USD", "source": "LSE close"},
    {"symbol": "VWRA", "date": "2025-06-30", "price": D("121.75"), "currency": "USD", "source": "LSE close"},
    {"symbol": "VWRA", "date": "2025-12-31", "price": D("131.40"), "currency": "USD", "source": "LSE close"},
    {"symbol": "NIFTYBEES", "date": "2025-03-10", "price": D("248.35"), "currency": "INR", "source": "NSE close"},
    {"symbol": "NIFTYBEES", "date": "2025-06-30", "price": D("271.90"), "currency": "INR", "source": "NSE close"},
    {"symbol": "NIFTYBEES", "date": "2025-12-31", "price": D("286.45"), "currency": "INR", "source": "NSE close"},
]

# Two accounts: the household's bank account and the consulting account.
OPENING_BALANCES = {"b-home": D("250000.00"), "b-us-consulting": D("1500.00")}


def add_splits(entries):
    """Split a few entries across categories: the first three large Groceries bills of the
    Home book (part household goods, one also personal care) and the first Europe Tour
    dinner with a normalizedAmount (part sightseeing). No randomness is used."""
    groceries = [e for e in entries if e["category"] == "Groceries" and e["bookId"] == "b-home" and e["amount"] <= D("-2000")][:3]
    for k, e in enumerate(groceries):
        amount = e["amount"]
        food = q2(amount * D("0.6"))
        if k == 2:
            care = q2(amount * D("0.15"))
            e["splits"] = [{"amount": food, "category": "Groceries"},
                           {"amount": amount - food - care, "category": "Household", "memo": "cleaning supplies"},
                           {"amount": care, "category": "Personal Care", "memo": "toiletries"}]
        else:
            e["splits"] = [{"amount": food, "category": "Groceries"},
                           {"amount": amount - food, "category": "Household", "memo": "kitchen things"}]
    europe = [e for e in entries if e["bookId"] == "b-europe" and e["category"] == "Food & Dining" and "normalizedAmount" in e][:1]
    for e in europe:
        dinner = q2(e["amount"] * D("0.7"))
        e["splits"] = [{"amount": dinner, "category": "Food & Dining"},
                       {"amount": e["amount"] - dinner, "category": "Sightseeing", "memo": "museum tickets with dinner"}]


def build():
    gen_home_fixed()
    gen_office()
    gen_us()
    gen_tokyo()
    gen_europe()
    gen_singapore()
    gen_transfers()
    n = TARGET_ENTRIES - len(ENTRIES)
    assert n > 0, len(ENTRIES)
    gen_home_discretionary(n)
    entries = finish_entries()
    add_splits(entries)
    for b in BOOKS:
        if b["id"] in OPENING_BALANCES:
            b["openingBalance"] = OPENING_BALANCES[b["id"]]
    budgets = [
        {"category": "Food & Dining", "month": "2025-10", "limitAmount": D("15000"), "currencyCode": "INR"},
        {"category": "Groceries", "limitAmount": D("12000"), "currencyCode": "INR"},
        {"category": "Shopping", "month": "2025-10", "limitAmount": D("40000"), "currencyCode": "INR"},
        {"category": "Entertainment", "limitAmount": D("5000.00"), "currencyCode": "INR", "carryOver": True, "startMonth": "2025-11"},
        {"category": "Sightseeing", "month": "2025-10", "limitAmount": D("300"), "currencyCode": "SGD"},
        {"category": "Lifestyle", "limitAmount": D("40000"), "currencyCode": "INR", "alerts": [D("75"), D("90"), D("100")]},
        {"category": "Transport", "limitAmount": D("6000"), "currencyCode": "INR"},
        {"category": "Transport", "month": "2025-12", "limitAmount": D("9000"), "currencyCode": "INR"},
        {"category": "Software", "bookId": "b-us-consulting", "limitAmount": D("120"), "currencyCode": "USD"},
    ]
    return {
        "version": 1,
        "defaultCurrency": "INR",
        "books": BOOKS,
        "entries": entries,
        "rates": SNAPSHOTS + RATE_PAIRS,
        "customRates": CUSTOM_RATES,
        "budgets": budgets,
        "categories": CATEGORY_TREE,
        "assets": ASSETS,
        "liabilities": LIABILITIES,
        "holdings": HOLDINGS,
        "prices": PRICES,
    }


# ---------------------------------------------------------------- writing

def enc(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Decimal):
        assert v.is_finite()
        return format(v, "f")
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(enc(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(json.dumps(k) + ": " + enc(x) for k, x in v.items()) + "}"
    raise TypeError("not writable as exact JSON: %r" % (v,))


def write(ledger, path):
    lines = ["{"]
    keys = list(ledger)
    for i, k in enumerate(keys):
        v = ledger[k]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(v, list):
            lines.append('  %s: [' % json.dumps(k))
            for j, item in enumerate(v):
                lines.append("    " + enc(item) + ("," if j < len(v) - 1 else ""))
            lines.append("  ]" + comma)
        else:
            lines.append("  %s: %s%s" % (json.dumps(k), enc(v), comma))
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# --------------------------------------------------------------- checking

ISO_CODES = {"INR", "USD", "EUR", "GBP", "SGD", "JPY"}


def no_dupes(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key in %r" % keys)
    return dict(pairs)


def parse_date(s):
    day = dt.date.fromisoformat(s[:10])
    if len(s) > 10:
        assert s[10] == "T", s
        dt.datetime.fromisoformat(s.replace("Z", "+00:00"))
    return day


def check(path):
    text = path.read_text(encoding="utf-8")
    led = json.loads(text, parse_float=Decimal, object_pairs_hook=no_dupes)
    assert led["version"] == 1 and led["defaultCurrency"] == "INR"
    books = {b["id"]: b for b in led["books"]}
    assert len(books) == len(led["books"])
    assert len({b["name"] for b in led["books"]}) == len(books)
    for b in led["books"]:
        assert b["currency"] in ISO_CODES and b["targetCurrency"] in ISO_CODES
        if b["lockedExchangeRate"] is not None:
            assert b["lockedExchangeRate"] > 0
            parse_date(b["rateLockedAt"])
    ids = set()
    foreign = pre = 0
    for e in led["entries"]:
        assert e["id"] not in ids
        ids.add(e["id"])
        b = books[e["bookId"]]
        cur = e.get("currency", b["currency"])
        assert cur in ISO_CODES
        day = parse_date(e["date"])
        assert day.year == 2025
        amt = e["amount"]
        assert isinstance(amt, (int, Decimal)) and amt != 0
        if cur == "JPY":
            assert isinstance(amt, int), e
        else:
            assert isinstance(amt, Decimal) and amt.as_tuple().exponent == -2, e
        if e.get("isTransfer"):
            assert e["category"] == "Transfer"
        if "splits" in e:
            assert sum(D(p["amount"]) for p in e["splits"]) == D(amt), e
        if cur != "INR":
            foreign += 1
        if "normalizedAmount" in e:
            pre += 1
            assert cur != "INR" and e["normalizedCurrency"] == "INR"
            r = e["conversionRate"]
            assert r.as_tuple().exponent == -4
            assert e["normalizedAmount"] == q2(D(amt) * r), e
            mkt = market_inr(cur, day)
            assert abs(r / mkt - 1) < D("0.025"), (e, mkt)
    assert len(ids) == TARGET_ENTRIES
    assert 0.4 < pre / foreign < 0.6, (pre, foreign)
    snaps = [r for r in led["rates"] if "base" in r]
    assert [s["date"] for s in snaps] == [x.isoformat() for x in DAYS]
    for s in snaps:
        assert set(s["rates"]) == {"INR", "SGD", "EUR", "JPY", "GBP"}
        assert all(v > 0 for v in s["rates"].values())
    for r in led["rates"] + led["customRates"]:
        if "from" in r:
            assert r["from"] in ISO_CODES and r["to"] in ISO_CODES and r["rate"] > 0
    return led


if __name__ == "__main__":
    ledger = build()
    write(ledger, OUT)
    check(OUT)
    print("wrote %s: %d entries, %d bytes" % (OUT, len(ledger["entries"]), OUT.stat().st_size))
