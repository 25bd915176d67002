// abacus-generate: writes a large, realistic, deterministic ledger (format
// version 1, see SPEC.md §2) for benchmarks and stress tests.
//
//     abacus-generate --entries 1000000 [--seed 42] [--output FILE]
//                     [--start 2024-01-01] [--days 730]
//
// The same arguments always give byte-for-byte the same file: all randomness
// comes from one SplitMix64 stream seeded with --seed, and every amount and
// rate is an integer of minor units printed as exact decimal text (no Double
// anywhere).

import AbacusCore
import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abacus-generate",
        abstract: "Write a deterministic synthetic Abacus ledger (JSON, version 1).")

    @Option(name: [.long, .customShort("n")], help: "Number of entries to write.")
    var entries: Int

    @Option(name: [.long, .customShort("s")], help: "Seed of the pseudo-random generator.")
    var seed: UInt64 = 42

    @Option(name: [.long, .customShort("o")], help: "Output file (default: standard output).")
    var output: String?

    @Option(help: "First day of the date range (YYYY-MM-DD).")
    var start: String = "2024-01-01"

    @Option(help: "Number of days in the date range.")
    var days: Int = 730

    func validate() throws {
        guard entries >= 0 else { throw ValidationError("--entries must be 0 or more") }
        guard entries <= 999_999_999 else { throw ValidationError("--entries must be below 1,000,000,000") }
        guard days >= 1, days <= 36_500 else { throw ValidationError("--days must be between 1 and 36500") }
        guard startDate != nil else { throw ValidationError("--start must be a date YYYY-MM-DD") }
    }

    func run() throws {
        let file: UnsafeMutablePointer<FILE>?
        if let output, output != "-" {
            file = fopen(output, "wb")
        } else {
            file = fdopen(1, "wb")
        }
        guard let file else {
            throw fail("cannot open \(output ?? "standard output") for writing: \(String(cString: strerror(errno)))")
        }
        let writer = Writer(file: file)
        var generator = LedgerGenerator(seed: seed, startDay: Int(startDate!.number), days: days, entryCount: entries)
        generator.write(to: writer)
        guard writer.close() else {
            throw fail("write to \(output ?? "standard output") failed: \(String(cString: strerror(errno)))")
        }
    }

    /// `--start` as a day: only the plain `YYYY-MM-DD` form (`Day.parse` also
    /// accepts date-times).
    private var startDate: Day? { start.utf8.count == 10 ? Day.parse(start) : nil }

    /// Prints `message` to standard error and returns the failure exit code.
    private func fail(_ message: String) -> ExitCode {
        var text = "abacus-generate: \(message)\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        return ExitCode.failure
    }
}

// MARK: - Generator

/// A lookup table that turns a uniform draw into a weighted choice in O(1).
struct WeightedTable {
    private let slots: [Int]
    init(_ weights: [Int]) {
        var s: [Int] = []
        for (i, w) in weights.enumerated() { s += Array(repeating: i, count: w) }
        slots = s
    }
    @inline(__always)
    func pick(_ rng: inout SplitMix64) -> Int { slots[rng.below(slots.count)] }
}

/// The per-book stream of entry days, in date order.
struct BookStream {
    let count: Int
    let windowStart: Int
    /// Cumulative day weights over the book's window.
    let cumulative: [Int]
    var emitted = 0
    var dayIndex = 0
    var headDay = 0
    var headKey = Int.max

    /// Moves to the day of the next entry; false when the book is exhausted.
    mutating func advance(_ rng: inout SplitMix64) -> Bool {
        guard emitted < count else { headKey = .max; return false }
        let total = cumulative[cumulative.count - 1]
        let target = ((2 * emitted + 1) * total) / (2 * count)
        while cumulative[dayIndex] <= target { dayIndex += 1 }
        headDay = windowStart + dayIndex
        // Up to three days of jitter between books: each book stays in date
        // order, the interleaving of books does not.
        headKey = headDay * 8 + rng.below(24)
        return true
    }
}

struct LedgerGenerator {
    var rng: SplitMix64
    let startDay: Int
    let days: Int
    let entryCount: Int

    /// USD-based rates per day, `Cur.count` per day, in units of the last
    /// written digit (4 decimals, JPY 2); the USD slot is unused.
    var rates: [Int] = []

    init(seed: UInt64, startDay: Int, days: Int, entryCount: Int) {
        rng = SplitMix64(seed: seed)
        self.startDay = startDay
        self.days = days
        self.entryCount = entryCount
    }

    func rateDecimals(_ cur: Int) -> Int { cur == Cur.JPY ? 2 : 4 }

    mutating func walkRates() {
        rates = Array(repeating: 0, count: days * Cur.count)
        var state = rateWalks.map { $0.start }
        for d in 0..<days {
            for (i, w) in rateWalks.enumerated() {
                var v = state[i]
                let mid = (w.low + w.high) / 2
                let drift = v > mid ? -(w.step / 4) : w.step / 4
                v += rng.range(-w.step, w.step) + (rng.chance(300) ? drift : 0)
                if v > w.high { v = 2 * w.high - v }
                if v < w.low { v = 2 * w.low - v }
                state[i] = v
                rates[d * Cur.count + w.currency] = v
            }
        }
    }

    /// Market INR per 1 `cur` on day `d` of the range, in units of 0.0001.
    func marketINR(_ cur: Int, _ d: Int) -> Int {
        if cur == Cur.INR { return 10_000 }
        let inr = rates[d * Cur.count + Cur.INR]
        if cur == Cur.USD { return inr }
        return divideHalfEven(inr * powersOfTen[rateDecimals(cur)], rates[d * Cur.count + cur])
    }

    /// A positive amount in minor units of `cur`, of a magnitude fitting `low`...`high` INR.
    @inline(__always)
    mutating func amount(low: Int, high: Int, round: Bool, cur: Int) -> Int {
        let u = rng.below(1 << 20)
        let f = (u * u) >> 20                       // skewed towards small amounts
        let paise = low * 100 + (((high - low) * 100 * f) >> 20)
        let e = minorExponent[cur]
        let minor = e == 2 ? paise * 100 / roughINRx100[cur] : paise / roughINRx100[cur]
        let step: Int
        if round {
            step = cur == Cur.JPY ? 1_000 : (cur == Cur.INR ? 10_000 : 1_000)
        } else if cur == Cur.JPY {
            step = rng.chance(750) ? 10 : 1
        } else if cur == Cur.INR {
            let r = rng.below(100)
            step = r < 55 ? 100 : (r < 65 ? 50 : 1)
        } else {
            let r = rng.below(100)
            step = r < 20 ? 100 : (r < 45 ? 10 : 1)
        }
        let rounded = minor / step * step
        return rounded > 0 ? rounded : max(1, minor)
    }

    mutating func write(to out: Writer) {
        walkRates()
        let books = bookSpecs
        let B = books.count

        // ---- header and books
        out.lit("{\n  \"version\": 1,\n  \"defaultCurrency\": \"INR\",\n  \"books\": [\n")
        var windows: [(Int, Int)] = []
        for b in books {
            let ws = min(days - 1, days * b.window.0 / 1000)
            let we = max(ws + 1, min(days, days * b.window.1 / 1000))
            windows.append((ws, we))
        }
        for (i, b) in books.enumerated() {
            var line = "    {\"id\": \(jsonStringText(b.id)), \"name\": \(jsonStringText(b.name)), "
            line += "\"currency\": \"\(currencyCodes[b.currency])\", "
            if let locked = b.lockedRate {
                line += "\"lockedExchangeRate\": \(decimalText(locked, scale: 4)), \"targetCurrency\": \"INR\", "
                line += "\"rateLockedAt\": \"\(isoDate(startDay + windows[i].0))\""
            } else {
                line += "\"lockedExchangeRate\": null, \"targetCurrency\": \"INR\", \"rateLockedAt\": null"
            }
            if let d = b.description { line += ", \"description\": \(jsonStringText(d))" }
            if let c = b.createdBefore {
                line += ", \"createdAt\": \"\(isoDate(startDay + windows[i].0 - c))T\(b.createdTime)\""
            }
            if let a = b.archived { line += ", \"archived\": \(a)" }
            line += i == B - 1 ? "}\n" : "},\n"
            out.text(line)
        }
        out.lit("  ],\n  \"entries\": [\n")

        // ---- pre-encoded fragments
        let dateBytes: [[UInt8]] = (0..<days).map { Array(isoDate(startDay + $0).utf8) }
        let bookIdBytes: [[UInt8]] = books.map { Array("\", \"bookId\": \(jsonStringText($0.id)), \"date\": \"".utf8) }
        let bookPartyBytes: [[UInt8]] = books.map { Array(", \"party\": ".utf8) + jsonString($0.name) }
        let tzBytes: [[UInt8]] = books.map { Array(":00\($0.timeZone)".utf8) }
        let currencyBytes: [[UInt8]] = currencyCodes.map { Array(", \"currency\": \"\($0)\"".utf8) }
        let expenseBytes = expenseCategories.map { Array(", \"category\": ".utf8) + jsonString($0.name) }
        let incomeBytes = incomeCategories.map { Array(", \"category\": ".utf8) + jsonString($0.name) }
        let transferBytes = Array(", \"category\": ".utf8) + jsonString(transferCategory)
        let partyBytes = partyNames.map { Array(", \"party\": ".utf8) + jsonString($0) }
        let modeBytes = paymentModes.map { Array(", \"paymentMode\": ".utf8) + jsonString($0) }
        let tagBytes = tagNames.map { jsonString($0) }
        let remarkBytes = remarkTexts.map { Array(jsonString($0).dropFirst().dropLast()) }
        let expenseTable = WeightedTable(expenseCategories.map(\.weight))
        let incomeTable = WeightedTable(incomeCategories.map(\.weight))
        let domesticModes = WeightedTable(domesticModeWeights)
        let foreignModes = WeightedTable(foreignModeWeights)
        let incomeModes = WeightedTable(incomeModeWeights)
        let minutes = [0, 5, 10, 15, 20, 30, 40, 45, 50]
        let idWidth = max(7, String(entryCount).count)

        // ---- per-book streams
        let totalWeight = books.reduce(0) { $0 + $1.weight }
        var counts = books.map { entryCount * $0.weight / totalWeight }
        counts[0] += entryCount - counts.reduce(0, +)
        var streams: [BookStream] = []
        for (i, _) in books.enumerated() {
            let (ws, we) = windows[i]
            var cum: [Int] = []
            var acc = 0
            for d in ws..<we {
                acc += rng.range(2, 10) + (Day(number: Int32(startDay + d)).isoWeekday >= 6 ? 4 : 0)
                cum.append(acc)
            }
            var s = BookStream(count: counts[i], windowStart: ws, cumulative: cum)
            _ = s.advance(&rng)
            streams.append(s)
        }

        // ---- entries
        for n in 0..<entryCount {
            var b = 0
            var best = Int.max
            for i in 0..<B where streams[i].headKey < best {
                best = streams[i].headKey
                b = i
            }
            let day = streams[b].headDay
            let book = books[b]

            if n > 0 { out.lit(",\n") }
            out.lit("    {\"id\": \"e-")
            out.uint(n + 1, width: idWidth)
            out.raw(bookIdBytes[b])
            out.raw(dateBytes[day])
            if rng.chance(30) {
                out.byte(UInt8(ascii: "T"))
                out.uint(rng.range(7, 22), width: 2)
                out.byte(UInt8(ascii: ":"))
                out.uint(minutes[rng.below(minutes.count)], width: 2)
                out.raw(tzBytes[b])
            }
            out.byte(UInt8(ascii: "\""))

            // currency
            var cur = book.currency
            var explicitCurrency = false
            if book.otherPerMille > 0 && rng.chance(book.otherPerMille) {
                cur = book.otherCurrencies[rng.below(book.otherCurrencies.count)]
                explicitCurrency = true
            } else if rng.chance(5) {
                explicitCurrency = true
            }

            // kind, category, amount
            let kind = rng.below(1000)      // < 20 transfer, < 120 income, else expense
            let minor: Int
            var category = 0
            let isTransfer = kind < 20
            if isTransfer {
                let m = amount(low: 1_000, high: 200_000, round: rng.chance(500), cur: cur)
                minor = rng.chance(500) ? -m : m
            } else if kind < 120 {
                category = incomeTable.pick(&rng)
                let c = incomeCategories[category]
                minor = amount(low: c.low, high: c.high, round: c.round, cur: cur)
            } else {
                category = expenseTable.pick(&rng)
                let c = expenseCategories[category]
                minor = -amount(low: c.low, high: c.high, round: c.round, cur: cur)
            }
            out.lit(", \"amount\": ")
            out.decimal(minor, scale: minorExponent[cur])
            if explicitCurrency { out.raw(currencyBytes[cur]) }

            if isTransfer {
                out.raw(transferBytes)
                out.raw(bookPartyBytes[(b + 1 + rng.below(B - 1)) % B])
                out.raw(modeBytes[rng.chance(900) ? 4 : 0])
            } else {
                out.raw(kind < 120 ? incomeBytes[category] : expenseBytes[category])
                if rng.chance(920) {
                    out.raw(partyBytes[min(rng.below(partyNames.count), rng.below(partyNames.count))])
                }
                let mode = (kind < 120 ? incomeModes : (book.domestic ? domesticModes : foreignModes)).pick(&rng)
                if mode < paymentModes.count { out.raw(modeBytes[mode]) }
            }

            if rng.chance(200) {
                out.lit(", \"remarks\": \"")
                out.raw(remarkBytes[rng.below(remarkBytes.count)])
                if rng.chance(300) {
                    out.lit(" #")
                    out.uint(rng.range(1_000, 99_999))
                }
                out.byte(UInt8(ascii: "\""))
            }

            let t = rng.below(100)
            let tagCount = t < 50 ? 0 : (t < 80 ? 1 : (t < 95 ? 2 : 3))
            if tagCount > 0 {
                let t1 = rng.below(tagNames.count)
                let t2 = (t1 + 1 + rng.below(tagNames.count - 1)) % tagNames.count
                out.lit(", \"tags\": [")
                out.raw(tagBytes[t1])
                if tagCount >= 2 {
                    out.lit(", ")
                    out.raw(tagBytes[t2])
                }
                if tagCount == 3 {
                    var t3 = rng.below(tagNames.count)
                    while t3 == t1 || t3 == t2 { t3 = rng.below(tagNames.count) }
                    out.lit(", ")
                    out.raw(tagBytes[t3])
                }
                out.byte(UInt8(ascii: "]"))
            }

            if isTransfer {
                out.lit(", \"isTransfer\": true")
            } else if rng.chance(10) {
                out.lit(", \"isTransfer\": false")
            }

            if cur != Cur.INR && rng.chance(300) {
                let market = marketINR(cur, day)
                let conv = max(1, market + divideHalfEven(market * rng.range(-30, 30), 10_000))
                let normalized = divideHalfEven(minor * conv, powersOfTen[minorExponent[cur] + 2])
                out.lit(", \"normalizedAmount\": ")
                out.decimal(normalized, scale: 2)
                out.lit(", \"normalizedCurrency\": \"INR\", \"conversionRate\": ")
                out.decimal(conv, scale: 4)
            }
            out.byte(UInt8(ascii: "}"))

            streams[b].emitted += 1
            _ = streams[b].advance(&rng)
        }
        out.lit(entryCount > 0 ? "\n  ],\n  \"rates\": [\n" : "  ],\n  \"rates\": [\n")

        // ---- rates: one snapshot per day, then a few pairs
        for d in 0..<days {
            out.lit("    {\"base\": \"USD\", \"date\": \"")
            out.raw(dateBytes[d])
            out.lit("\", \"rates\": {")
            for (i, w) in rateWalks.enumerated() {
                if i > 0 { out.lit(", ") }
                out.byte(UInt8(ascii: "\""))
                out.text(currencyCodes[w.currency])
                out.lit("\": ")
                out.decimal(rates[d * Cur.count + w.currency], scale: w.decimals)
            }
            out.lit("}, \"source\": \"generated\", \"fetchedAt\": \"")
            out.raw(dateBytes[d])
            out.lit("T23:59:00Z\"},\n")
        }
        let pairs: [(Int, Int, Int, String)] = [   // currency, day, scale, source
            (Cur.SGD, min(days - 1, windows[10].0 + 3), 2, "bank"),
            (Cur.GBP, min(days - 1, windows[7].0 + 10), 2, "forex counter"),
            (Cur.AED, min(days - 1, windows[8].0), 4, "exchange house"),
            (Cur.USD, days / 2, 4, "wire transfer"),
        ]
        for (i, p) in pairs.enumerated() {
            let r = pairRate(p.0, p.1, p.2)
            out.text("    {\"from\": \"\(currencyCodes[p.0])\", \"to\": \"INR\", \"rate\": \(decimalText(r, scale: p.2)), ")
            out.text("\"date\": \"\(isoDate(startDay + p.1))\", \"source\": \(jsonStringText(p.3))}")
            out.lit(i == pairs.count - 1 ? "\n" : ",\n")
        }

        // ---- custom rates and budgets
        let eurDay = min(days - 1, windows[5].0 + 5)
        out.lit("  ],\n  \"customRates\": [\n")
        out.text("    {\"from\": \"EUR\", \"to\": \"INR\", \"rate\": \(decimalText(pairRate(Cur.EUR, eurDay, 2), scale: 2)), \"date\": \"\(isoDate(startDay + eurDay))\", \"source\": \"card statement\"},\n")
        out.text("    {\"from\": \"CHF\", \"to\": \"INR\", \"rate\": \(decimalText(pairRate(Cur.CHF, windows[9].0, 4), scale: 4)), \"source\": \"manual\"}\n")
        out.lit("  ],\n  \"budgets\": [\n")
        out.text("    {\"category\": \"Food & Dining\", \"month\": \"\(isoMonth(startDay))\", \"limitAmount\": 15000, \"currencyCode\": \"INR\"},\n")
        out.text("    {\"category\": \"Groceries\", \"limitAmount\": 12000, \"currencyCode\": \"INR\"},\n")
        out.text("    {\"category\": \"Shopping\", \"month\": \"\(isoMonth(startDay + days / 3))\", \"limitAmount\": 40000, \"currencyCode\": \"INR\"},\n")
        out.text("    {\"category\": \"Entertainment\", \"limitAmount\": 3500.00, \"currencyCode\": \"INR\"},\n")
        out.text("    {\"category\": \"Sightseeing\", \"month\": \"\(isoMonth(startDay + windows[5].0))\", \"limitAmount\": 300, \"currencyCode\": \"EUR\"},\n")
        out.text("    {\"category\": \"Hotels\", \"month\": \"\(isoMonth(startDay + windows[7].0))\", \"limitAmount\": 1200.50, \"currencyCode\": \"GBP\"}\n")
        out.lit("  ]\n}\n")
    }

    /// The market rate of `cur` in INR on day `d`, nudged a little, at `scale` decimals.
    mutating func pairRate(_ cur: Int, _ d: Int, _ scale: Int) -> Int {
        let m = marketINR(cur, d)
        let nudged = m + divideHalfEven(m * rng.range(-80, 80), 10_000)
        return max(1, divideHalfEven(nudged, powersOfTen[4 - scale]))
    }
}

func decimalText(_ units: Int, scale: Int) -> String {
    let mag = units.magnitude
    let sign = units < 0 ? "-" : ""
    if scale == 0 { return sign + String(mag) }
    let p = UInt(powersOfTen[scale])
    return sign + String(mag / p) + "." + pad(Int(mag % p), scale)
}

Generate.main()
