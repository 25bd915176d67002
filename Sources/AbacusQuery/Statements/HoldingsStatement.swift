// `holdings [in CUR] [at DATE]` (docs/language.md#holdings): per symbol, the lots bought on
// or before DATE, their cost (quantity × costPerUnit + fee), the newest price on or before
// DATE, the value and the gain, in the holding's currency; with `in CUR` the value also
// converted at DATE (custom, then market). A symbol without a price by DATE is an error.

import AbacusCore

/// A symbol's lots on a day, valued at its price.
struct HoldingPosition {
    var symbol: String
    var currency: Currency
    var quantity = ExactDecimal.zero
    var cost = Fraction.zero
    var price: PriceRecord
    var value: Fraction { Fraction(quantity) * Fraction(price.price) }
}

extension Session {
    /// Each symbol held on `day` (lots dated after it do not count), in ascending order of
    /// symbol, as every result comes in ascending order of its key.
    func holdingPositions(on day: Day, trace: inout ReportTrace) throws(QueryError) -> [HoldingPosition] {
        var lots: [String: [HoldingLot]] = [:]
        for lot in ledger.holdings where lot.day <= day { lots[lot.symbol, default: []].append(lot) }
        var out: [HoldingPosition] = []
        for symbol in lots.keys.sorted() {
            let held = lots[symbol] ?? []
            // The newest price on or before the day; on one date the later in the file wins.
            var newest: PriceRecord?
            for p in ledger.prices where p.symbol == symbol && p.day <= day && newest.map({ $0.day <= p.day }) ?? true { newest = p }
            guard let price = newest else {
                throw QueryError(.noPrice(symbol: symbol, day: day), at: nil)
            }
            var p = HoldingPosition(symbol: symbol, currency: held[0].currency, price: price)
            for lot in held {
                guard let q = try? p.quantity.adding(lot.quantity) else { throw QueryError(.overflow, at: nil) }
                p.quantity = q
                p.cost = p.cost + Fraction(lot.quantity) * Fraction(lot.costPerUnit) + Fraction(lot.fee)
            }
            trace.plan.append("\(symbol): \(held.count) \(held.count == 1 ? "lot" : "lots") to \(day), price \(price.price) \(price.currency) of \(price.day)"
                              + (price.source.map { " (\($0))" } ?? ""))
            out.append(p)
        }
        return out
    }
}

struct HoldingsStatement: ReportRunner {
    let request: HoldingsRequest

    var summary: String { "holdings" + (request.currency.map { " in \($0.code)" } ?? "") + (request.at.map { " at \($0.description)" } ?? "") }

    func compute(in session: Session, trace: inout ReportTrace) throws(QueryError) -> ResultSet {
        let day = try session.reportDay(request.at)
        trace.plan.append("AT \(day)")
        var rows: [[Cell]] = []
        var total = Fraction.zero
        for h in try session.holdingPositions(on: day, trace: &trace) {
            let c = h.currency
            let gain = h.value - h.cost
            var cells: [Cell] = [.text(h.symbol), .currency(c), .number(h.quantity), try h.cost.money(c), .number(h.price.price), .date(h.price.day),
                                 try h.value.money(c), try gain.money(c), try gain.percent(of: h.cost).map(Cell.decimal) ?? .empty]
            if let target = request.currency {
                let v = try session.converted(h.value, c, target, on: day, trace: &trace)
                total = total + v
                cells.append(try v.money(target))
            }
            rows.append(cells)
        }
        var columns = [Column("symbol", .text), Column("currency", .key(.currency)), Column("quantity", .quantity), Column("cost", .money),
                       Column("price", .rate), Column("price date", .date), Column("value", .money), Column("gain", .money), Column("gain %", .quantity)]
        var totals: [[Cell]] = []
        if let target = request.currency {
            columns.append(Column("converted", .money))
            if !rows.isEmpty { totals = [[.total(.total)] + Array(repeating: Cell.empty, count: 8) + [try total.money(target)]] }
        }
        let warnings = session.ledger.holdings.isEmpty ? ["the ledger has no holdings"] : []
        return ResultSet(columns: columns, rows: rows, totals: totals, currency: request.currency, warnings: warnings)
    }
}
