// The optional parts of a ledger file beyond entries and rates (docs/ledger-format.md):
// budget months and alerts, entry splits, the category tree, assets, liabilities,
// holdings and prices. Each is checked as it is read; rules that look across objects
// (a budget's book, a category's parent, one currency per symbol) are checked once
// every file is read (`LedgerBuilder.checkNetWorthParts`).

/// What a budget is for: a category, a book (nil: every book) and a month (nil: every month).
struct BudgetKey: Hashable {
    var category: String
    var book: String?
    var month: Day?
}

/// Where an object was read, for errors found after every file is read.
struct Place {
    var file: Int
    var path: String
    var offset: Int
}

extension FileParser {
    /// A month `YYYY-MM` (its first day), or null.
    mutating func optionalMonth() throws -> Day? {
        let at = reader.skipSpace(from: reader.pos)
        guard let s = try optionalString() else { return nil }
        let text = reader.string(s)
        guard let d = Day.parse(text + "-01"), text.utf8.count == 7 else {
            throw rule("found \(quoted(text)), expected a month YYYY-MM", at: at)
        }
        return d
    }

    /// A budget's alert thresholds: positive percentages, kept ascending.
    mutating func parseAlerts() throws -> [ExactDecimal] {
        if try reader.consumeNull() { return Budget.defaultAlerts }
        try reader.beginArray("an array of percentages ([50, 80, 100])")
        var first = true
        var out: [ExactDecimal] = []
        subIndex = 0
        while try reader.nextElement(&first) {
            out.append(try positiveNumber("an alert threshold (a percentage)"))
            subIndex += 1
        }
        subIndex = -1
        return Array(Set(out)).sorted()
    }

    /// An entry's `splits`: `[{"amount", "category", "memo"}]`.
    mutating func parseSplits(into b: inout LedgerBuilder) throws -> [SplitPart]? {
        if try reader.consumeNull() { return nil }
        try reader.beginArray("an array of splits ([{\"amount\": -60, \"category\": \"Groceries\"}])")
        let outer = entryField
        var first = true
        var parts: [SplitPart] = []
        var k = 0
        while try reader.nextElement(&first) {
            entryField = -1
            let objectStart = reader.skipSpace(from: reader.pos)
            try reader.beginObject("a split object ({\"amount\", \"category\"})")
            var firstKey = true
            var seen: UInt32 = 0
            var unknown: [[UInt8]] = []
            var amount: ExactDecimal?, category: String?, memo: String?
            while let key = try reader.nextKey(&firstKey) {
                let keyOffset = reader.keyOffset
                let name = reader.string(key)
                let fieldName = "splits[\(k)].\(name)"
                switch name {
                case "amount": try markSeen(0, &seen, keyOffset, fieldName, key: name); amount = try number()
                case "category": try markSeen(1, &seen, keyOffset, fieldName, key: name); let s = try string(); category = reader.string(s)
                case "memo": try markSeen(2, &seen, keyOffset, fieldName, key: name); memo = try optionalString().map { reader.string($0) }
                default: field = fieldName; try skipUnknown(key, &unknown, keyOffset)
                }
            }
            field = "splits[\(k)]"
            guard let amount else { throw rule("missing \"amount\" in this split (in the entry's currency, negative for an expense)", at: objectStart) }
            guard let category else { throw rule("missing \"category\" in this split", at: objectStart) }
            parts.append(SplitPart(amount: amount, category: category, memo: memo))
            k += 1
        }
        field = ""
        entryField = outer
        return parts
    }

    /// Splits must add up exactly to their entry's amount.
    mutating func checkSplits(_ parts: [SplitPart], add amount: ExactDecimal, at offset: Int) throws {
        field = "splits"
        entryField = -1
        guard !parts.isEmpty else { throw rule("an empty splits array: leave splits out, or give the parts of the amount", at: offset) }
        var total = ExactDecimal.zero
        for p in parts {
            guard let t = try? total.adding(p.amount) else { throw rule("the splits' sum cannot be held exactly", at: offset) }
            total = t
        }
        guard total == amount else {
            throw rule("the splits add up to \(total.normalized), not to the entry's amount \(amount.normalized); splits must add up exactly", at: offset)
        }
        field = ""
    }

    // MARK: The category tree

    mutating func parseCategory(into b: inout LedgerBuilder) throws {
        var name: String?, parent: String?, parentOffset: Int?
        let objectStart = try object("a category object ({\"name\", \"parent\"})", keys: ["name", "parent"]) { p, k in
            if k == "name" { name = try p.text(); return }
            parentOffset = p.reader.skipSpace(from: p.reader.pos)
            parent = try p.optionalString().map { p.reader.string($0) }
        }
        let parentAt = parentOffset ?? objectStart
        guard let name else { throw rule("missing \"name\": the category's name as entries write it", at: objectStart) }
        if !b.categoryNames.insert(name).inserted {
            field = "name"
            throw rule("category \(quoted(name)) is listed twice; a category has one parent", at: objectStart)
        }
        if parent == name {
            field = "parent"
            throw rule("category \(quoted(name)) is its own parent", at: parentAt)
        }
        b.categoryLinks.append(CategoryLink(name: name, parent: parent))
        b.categoryPlaces.append(Place(file: fileIndex, path: "\(section)[\(index)].parent", offset: parentAt))
    }

    // MARK: Assets, liabilities, holdings, prices

    /// Reads an object's fields by name: `read` gets each key of `keys` (a repeat is refused);
    /// any other key is skipped (but must not repeat either). Returns where the object starts.
    mutating func object(_ what: String, keys: [String], _ read: (inout FileParser, String) throws -> Void) throws -> Int {
        let objectStart = reader.skipSpace(from: reader.pos)
        try reader.beginObject(what)
        var first = true, seen: UInt32 = 0
        var unknown: [[UInt8]] = []
        while let key = try reader.nextKey(&first) {
            let keyOffset = reader.keyOffset
            let k = reader.string(key)
            field = k
            if let bit = keys.firstIndex(of: k) {
                try markSeen(bit, &seen, keyOffset, k)
                try read(&self, k)
            } else {
                try skipUnknown(key, &unknown, keyOffset)
            }
        }
        field = ""
        return objectStart
    }

    mutating func required<T>(_ value: T?, _ name: String, _ what: String, at offset: Int) throws -> T {
        guard let value else { throw rule("missing \"\(name)\": \(what)", at: offset) }
        return value
    }

    mutating func nonNegative(_ what: String) throws -> ExactDecimal {
        let at = reader.skipSpace(from: reader.pos)
        let v = try number()
        guard !v.isNegative else { throw rule("\(what) must not be negative, found \(v)", at: at) }
        return v
    }

    mutating func text() throws -> String { let s = try string(); return reader.string(s) }

    mutating func parseAsset(into b: inout LedgerBuilder) throws {
        var id: String?, name: String?, tangible: Bool?, value: ExactDecimal?, currency: Currency?, day: Day?
        var volatile = false, core = true
        let start = try object("an asset object", keys: ["id", "name", "type", "value", "currency", "date", "volatile", "includeInCore"]) { p, k in
            switch k {
            case "id": id = try p.text()
            case "name": name = try p.text()
            case "type":
                let at = p.reader.skipSpace(from: p.reader.pos)
                let t = try p.text()
                guard t == "tangible" || t == "intangible" else { throw p.rule("found \(quoted(t)), expected \"tangible\" or \"intangible\"", at: at) }
                tangible = t == "tangible"
            case "value": value = try p.nonNegative("an asset's value")
            case "currency": currency = try p.currencyCode()
            case "date": day = try p.date()
            case "volatile": volatile = try p.bool() ?? false
            default: core = try p.bool() ?? true
            }
        }
        b.assets.append(AssetRecord(id: try required(id, "id", "an asset's id (records with one id are its history)", at: start),
                                    name: try required(name, "name", "the asset's name", at: start),
                                    tangible: try required(tangible, "type", "\"tangible\" or \"intangible\"", at: start),
                                    value: try required(value, "value", "what the asset is worth on its date", at: start),
                                    currency: try required(currency, "currency", "the value's ISO 4217 currency code", at: start),
                                    day: try required(day, "date", "the date the value is for (YYYY-MM-DD)", at: start),
                                    volatile: volatile, includeInCore: core))
    }

    mutating func parseLiability(into b: inout LedgerBuilder) throws {
        var id: String?, name: String?, type: String?, balance: ExactDecimal?, currency: Currency?, day: Day?
        var interest: ExactDecimal?, due: Day?
        let start = try object("a liability object", keys: ["id", "name", "type", "balance", "currency", "date", "interestRate", "dueDate"]) { p, k in
            switch k {
            case "id": id = try p.text()
            case "name": name = try p.text()
            case "type": type = try p.optionalString().map { p.reader.string($0) }
            case "balance": balance = try p.nonNegative("a liability's balance (what is owed)")
            case "currency": currency = try p.currencyCode()
            case "date": day = try p.date()
            case "interestRate": interest = try p.reader.consumeNull() ? nil : try p.nonNegative("an interest rate")
            default: due = try p.optionalDate()
            }
        }
        b.liabilities.append(LiabilityRecord(id: try required(id, "id", "a liability's id (records with one id are its history)", at: start),
                                             name: try required(name, "name", "the liability's name", at: start), type: type,
                                             balance: try required(balance, "balance", "what is owed on its date", at: start),
                                             currency: try required(currency, "currency", "the balance's ISO 4217 currency code", at: start),
                                             day: try required(day, "date", "the date the balance is for (YYYY-MM-DD)", at: start),
                                             interestRate: interest, dueDate: due))
    }

    mutating func parseHolding(into b: inout LedgerBuilder) throws {
        var id: String?, account: String?, symbol: String?, quantity: ExactDecimal?, cost: ExactDecimal?, fee = ExactDecimal.zero
        var currency: Currency?, day: Day?
        let start = try object("a holding (lot) object", keys: ["id", "account", "symbol", "quantity", "costPerUnit", "fee", "currency", "date"]) { p, k in
            switch k {
            case "id": id = try p.text()
            case "account": account = try p.optionalString().map { p.reader.string($0) }
            case "symbol": symbol = try p.text()
            case "quantity": quantity = try p.positiveNumber("a lot's quantity")
            case "costPerUnit": cost = try p.nonNegative("costPerUnit")
            case "fee": fee = try p.reader.consumeNull() ? .zero : try p.nonNegative("a lot's fee")
            case "currency": currency = try p.currencyCode()
            default: day = try p.date()
            }
        }
        let lotID = try required(id, "id", "a lot's unique id", at: start)
        if !b.holdingIDs.insert(lotID).inserted {
            field = "id"
            throw rule("duplicate holding id \(quoted(lotID)); each lot has its own id", at: start)
        }
        b.holdings.append(HoldingLot(id: lotID, account: account,
                                     symbol: try required(symbol, "symbol", "what was bought (a ticker such as \"VWRL\")", at: start),
                                     quantity: try required(quantity, "quantity", "how many units the lot holds", at: start),
                                     costPerUnit: try required(cost, "costPerUnit", "what one unit cost", at: start), fee: fee,
                                     currency: try required(currency, "currency", "the cost's ISO 4217 currency code", at: start),
                                     day: try required(day, "date", "the day the lot was bought (YYYY-MM-DD)", at: start)))
        b.holdingPlaces.append(Place(file: fileIndex, path: "\(section)[\(index)].currency", offset: start))
    }

    mutating func parsePrice(into b: inout LedgerBuilder) throws {
        var symbol: String?, day: Day?, price: ExactDecimal?, currency: Currency?, source: String?
        let start = try object("a price object", keys: ["symbol", "date", "price", "currency", "source"]) { p, k in
            switch k {
            case "symbol": symbol = try p.text()
            case "date": day = try p.date()
            case "price": price = try p.positiveNumber("a price")
            case "currency": currency = try p.currencyCode()
            default: source = try p.optionalString().map { p.reader.string($0) }
            }
        }
        b.prices.append(PriceRecord(symbol: try required(symbol, "symbol", "the symbol priced", at: start),
                                    day: try required(day, "date", "the day of the price (YYYY-MM-DD)", at: start),
                                    price: try required(price, "price", "what one unit is worth", at: start),
                                    currency: try required(currency, "currency", "the price's ISO 4217 currency code", at: start), source: source))
        b.pricePlaces.append(Place(file: fileIndex, path: "\(section)[\(index)].currency", offset: start))
    }
}

extension LedgerBuilder {
    func error(at place: Place, _ message: String) -> LoadError {
        let (line, column) = JSONReader(fileBytes[place.file]).lineAndColumn(of: place.offset)
        return LoadError(file: files[place.file], line: line, column: column, path: place.path, message: message)
    }

    /// The rules that look across objects and files: a budget's book exists, every parent is a
    /// listed category and the tree has no cycle, a symbol's lots and prices share a currency.
    func checkNetWorthParts() throws(LoadError) {
        // One budget per category, book and month (or every month): a second would be ignored.
        var firstBudget: [BudgetKey: Int] = [:]
        for (i, budget) in budgets.enumerated() {
            let key = BudgetKey(category: budget.category, book: budget.bookID, month: budget.month)
            guard let first = firstBudget[key] else { firstBudget[key] = i; continue }
            let month = budget.month.map { " in " + String($0.description.prefix(7)) } ?? " in every month"
            let firstAt = budgetPlaces[first].file == budgetPlaces[i].file ? budgetPlaces[first].path : "\(files[budgetPlaces[first].file]): \(budgetPlaces[first].path)"
            throw error(at: budgetPlaces[i], "a second budget for \(quoted(budget.category))" + (budget.bookID.map { " in book \(quoted($0))" } ?? "")
                        + month + " (the first is \(firstAt)); a category has one budget per book for every month and one per month")
        }
        for (i, budget) in budgets.enumerated() {
            guard let id = budget.bookID, bookIDs[id] == nil else { continue }
            var place = budgetPlaces[i]
            place.path += ".bookId"
            var message = "no book has id \(quoted(id))"
            if let near = nearest(id, in: books.map(\.id)) { message += "; did you mean \"\(near)\"?" }
            throw error(at: place, message)
        }
        let names = Set(categoryLinks.map(\.name))
        var parent: [String: String] = [:]
        for l in categoryLinks { if let p = l.parent { parent[l.name] = p } }
        // The categories on a cycle: each walk up stops at a root, at a category walked before or
        // back on its own path (a cycle), so every category is walked once.
        var onCycle: Set<String> = []
        var walked: Set<String> = []
        for l in categoryLinks where !walked.contains(l.name) {
            var path: [String] = []
            var position: [String: Int] = [:]
            var c: String? = l.name
            while let n = c, !walked.contains(n) {
                if let k = position[n] { onCycle.formUnion(path[k...]); break }
                position[n] = path.count
                path.append(n)
                c = parent[n]
            }
            walked.formUnion(path)
        }
        for (i, l) in categoryLinks.enumerated() {
            guard let p = l.parent else { continue }
            guard names.contains(p) else {
                var message = "unknown parent \(quoted(p)): a parent must itself be listed in categories"
                // In the file's order (the first of equals wins), and never the category itself:
                // being its own parent is a cycle, not a near miss.
                if let near = nearest(p, in: categoryLinks.map(\.name).filter { $0 != l.name }) { message += "; did you mean \(quoted(near))?" }
                throw error(at: categoryPlaces[i], message)
            }
            guard onCycle.contains(l.name) else { continue }
            var cycle = [l.name]
            var c = p
            while c != l.name, let next = parent[c] { cycle.append(c); c = next }
            // A long cycle shows its first names and how many more (it was the whole of 20,000).
            let shown = cycle.count <= 8 ? (cycle + [l.name]).map(quoted) : cycle.prefix(6).map(quoted) + ["… (\(cycle.count - 6) more)", quoted(l.name)]
            throw error(at: categoryPlaces[i], "the category tree has a cycle: " + shown.joined(separator: " → "))
        }
        var currencyOf: [String: Currency] = [:]
        for (i, lot) in holdings.enumerated() {
            if let c = currencyOf[lot.symbol], c != lot.currency {
                throw error(at: holdingPlaces[i], "\(quoted(lot.symbol)) is held in \(c) by another lot; a symbol's lots and prices are in one currency")
            }
            currencyOf[lot.symbol] = lot.currency
        }
        for (i, price) in prices.enumerated() {
            if let c = currencyOf[price.symbol], c != price.currency {
                throw error(at: pricePlaces[i], "\(quoted(price.symbol)) is priced in \(price.currency) here but held or priced in \(c) elsewhere; a symbol's lots and prices are in one currency")
            }
            currencyOf[price.symbol] = price.currency
        }
    }

    /// The split table by final row (`order[i]` is the load row of row i; nil: rows in load order),
    /// and every split and tree category in the category dictionary.
    mutating func finishSplits(order: [UInt32]?, scale: Int) throws(LoadError) -> SplitTable {
        for name in categoryLinks.map(\.name) + pendingSplits.flatMap({ $0.parts.map(\.category) }) {
            var bytes = Array(name.utf8)
            _ = bytes.withUnsafeMutableBufferPointer { categories.intern(UnsafeBufferPointer($0)) }
        }
        var table = SplitTable()
        guard !pendingSplits.isEmpty else { return table }
        // Parts at the store's scale, as the amounts are.
        for k in pendingSplits.indices {
            for j in pendingSplits[k].parts.indices {
                let amount = pendingSplits[k].parts[j].amount
                guard let v = try? amount.rescaled(to: scale) else {
                    let (file, index) = place(ofRow: pendingSplits[k].row)
                    throw LoadError(file: file, path: "entries[\(index)].splits[\(j)].amount",
                                    message: "\(amount) cannot be held exactly beside amounts with \(scale) decimals (38 digits at most)")
                }
                pendingSplits[k].parts[j].amount = v
            }
        }
        var finalRow: [Int: Int] = [:]
        if let order {
            let wanted = Set(pendingSplits.map(\.row))
            for (i, r) in order.enumerated() where wanted.contains(Int(r)) { finalRow[Int(r)] = i }
        }
        let sorted = pendingSplits.map { (finalRow[$0.row] ?? $0.row, $0.parts) }.sorted { $0.0 < $1.0 }
        table.rows = sorted.map { UInt32($0.0) }
        table.parts = sorted.map(\.1)
        return table
    }
}
