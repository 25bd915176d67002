// `convert 5 kg to lb`, `convert 72 F to C`: a quantity of length, mass or
// temperature in another unit, with the exact definitions (1 in = 0.0254 m,
// 1 lb = 0.45359237 kg); exact when the answer ends within 10 decimals, else 10
// significant digits.

import AbacusCore

struct ConvertUnitsStatement: StatementRunner {
    let request: UnitRequest

    func run(in session: Session) throws(QueryError) -> Output {
        let r = request
        let result: UnitConversionResult
        do throws(UnitError) {
            result = try UnitConversion.convert(r.amount, from: r.from, to: r.to)
        } catch {
            // The unit at fault: an unknown one where it was typed, else the pair.
            let range: Range<Int>
            if case .unknownUnit(let text, _) = error { range = text == r.from ? r.fromRange : r.toRange } else { range = r.fromRange.lowerBound..<r.toRange.upperBound }
            throw QueryError(.unsupported(error.description), at: range)
        }
        return .table(ResultSet(columns: [Column("amount", .quantity), Column("from", .text), Column("converted", .quantity), Column("to", .text)],
                                // Every digit, in tables too (a rate's 12 significant digits would show
                                // 49.999999999999 m as 50): the amount without trailing zeros, the result as worked out.
                                rows: [[.decimal(r.amount.normalized), .text(result.from.symbol), .decimal(result.value), .text(result.to.symbol)]],
                                footnotes: result.exact ? [] : [.note("10 significant digits: the exact value does not end within 10 decimals")]))
    }
}
