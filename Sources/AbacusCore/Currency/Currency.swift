// Currencies: ISO 4217 codes packed into 16 bits, with their minor units and names.
//
// A code is three ASCII letters A–Z, so it packs into 1...17576; 0 means "none".
// Packing lets the store keep a currency column as `[Currency]` of two bytes each
// and look up minor units in a flat table instead of hashing strings.

public struct Currency: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let packed: UInt16

    /// The currency with this packed code (from a column or a group key).
    @inlinable
    public init(packed: UInt16) { self.packed = packed }

    public static let none = Currency(packed: 0)

    /// Packs three uppercase ASCII letters; nil for anything else.
    @inlinable
    public static func pack(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Currency? {
        let x = a &- 65, y = b &- 65, z = c &- 65
        guard x < 26, y < 26, z < 26 else { return nil }
        return Currency(packed: UInt16(x) * 676 + UInt16(y) * 26 + UInt16(z) + 1)
    }

    /// The ISO 4217 currency with this code (exact, uppercase), or nil.
    public init?(code: String) {
        let u = Array(code.utf8)
        guard u.count == 3, let c = Currency.pack(u[0], u[1], u[2]), c.isISO else { return nil }
        self = c
    }

    /// The currency for `code` in any letter case, when it is an ISO 4217 code.
    public init?(caseInsensitiveCode code: String) {
        self.init(code: code.uppercased())
    }

    public var code: String {
        guard packed > 0 else { return "" }
        let v = Int(packed) - 1
        let bytes: [UInt8] = [UInt8(v / 676 + 65), UInt8(v / 26 % 26 + 65), UInt8(v % 26 + 65)]
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { code }

    /// True when ISO 4217 lists the code as active.
    public var isISO: Bool { packed > 0 && CurrencyTable.shared.minorUnits[Int(packed)] >= 0 }

    /// ISO 4217 minor unit: 2 for most, 0 for JPY, 3 for KWD.
    public var minorUnits: Int { max(0, Int(CurrencyTable.shared.minorUnits[Int(packed)])) }

    /// ISO 4217 English name ("Singapore Dollar").
    public var name: String { CurrencyTable.shared.names[self] ?? code }

    public static func < (a: Currency, b: Currency) -> Bool { a.packed < b.packed }

    /// Every active ISO 4217 currency, in code order.
    public static var all: [Currency] { CurrencyTable.shared.all }
}

/// The ISO 4217 table, parsed once from `iso4217Table`.
final class CurrencyTable: Sendable {
    static let shared = CurrencyTable()

    /// Minor units by packed code; -1 where the code is not ISO 4217. Every `UInt16` has a
    /// place, so that any packed value (say, one read from a damaged store image) can be asked.
    let minorUnits: [Int8]
    let names: [Currency: String]
    let all: [Currency]

    private init() {
        var units = [Int8](repeating: -1, count: Int(UInt16.max) + 1)
        var names: [Currency: String] = [:]
        var all: [Currency] = []
        for line in iso4217Table.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            let code = Array(fields[0].utf8)
            guard fields.count == 3, code.count == 3,
                  let currency = Currency.pack(code[0], code[1], code[2]),
                  let digits = Int8(fields[1]) else { continue }
            units[Int(currency.packed)] = digits
            names[currency] = String(fields[2])
            all.append(currency)
        }
        self.minorUnits = units
        self.names = names
        self.all = all
    }
}
