// The tables Abacus keeps in PostgreSQL, created by Abacus and versioned (docs/postgres.md).
//
// `abacus_schema` holds one row: the version of this layout. A database without it holds
// no Abacus ledger; one with a newer version was written by a newer Abacus and is refused;
// an older one is upgraded, step by step, inside the transaction that reads it
// (`upgrades`). Entries are the one large table; books, rates, custom rates and budgets
// are small and read whole. Every value is stored as the ledger gives it: amounts and
// rates as exact `numeric`, days as `date`, currencies as their ISO 4217 codes.
//
// Version 2 holds the rest of a ledger: accounts (a book's opening balance and whether it
// counts in net worth), budget rules, split entries, and, as the ledger file writes them,
// the category tree, assets, liabilities, holdings and prices (`abacus_parts`). Version 3
// adds `abacus_names` (an entry for each name the entries use, read at start instead of
// the entries) and each import's number of entries. Older databases are upgraded in place.

public enum Schema {
    /// The layout this Abacus writes and reads.
    public static let version = 3

    /// The statements that create version 1's layout, in order.
    static let create: [String] = [
        """
        CREATE TABLE abacus_schema (
            version integer NOT NULL,
            created_by text NOT NULL
        )
        """,
        // One row per `--import`: the files it read, and the default currency they gave.
        """
        CREATE TABLE abacus_imports (
            import_no integer PRIMARY KEY,
            files text NOT NULL,
            default_currency char(3) NOT NULL
        )
        """,
        """
        CREATE TABLE abacus_books (
            id text PRIMARY KEY,
            import_no integer NOT NULL,
            position integer NOT NULL,
            name text NOT NULL,
            currency char(3) NOT NULL,
            locked_exchange_rate numeric,
            target_currency char(3) NOT NULL,
            rate_locked_at date,
            description text,
            archived boolean NOT NULL
        )
        """,
        """
        CREATE TABLE abacus_entries (
            id text PRIMARY KEY,
            import_no integer NOT NULL,
            position bigint NOT NULL,
            book_id text NOT NULL,
            day date NOT NULL,
            amount numeric NOT NULL,
            currency char(3) NOT NULL,
            category text NOT NULL,
            party text,
            payment text,
            remarks text,
            tags text[] NOT NULL,
            is_transfer boolean NOT NULL,
            normalized_amount numeric,
            normalized_currency char(3),
            conversion_rate numeric
        )
        """,
        "CREATE INDEX abacus_entries_day ON abacus_entries (day)",
        "CREATE INDEX abacus_entries_category_day ON abacus_entries (category, day)",
        "CREATE INDEX abacus_entries_book_day ON abacus_entries (book_id, day)",
        "CREATE INDEX abacus_entries_currency ON abacus_entries (currency)",
        // Market rates (`kind` 'snapshot' or 'pair') and custom rates ('custom'); a snapshot
        // is one row per quoted currency, all with its `position`.
        """
        CREATE TABLE abacus_rates (
            import_no integer NOT NULL,
            position integer NOT NULL,
            kind text NOT NULL,
            base char(3) NOT NULL,
            quote char(3) NOT NULL,
            rate numeric NOT NULL,
            day date,
            source text,
            fetched_at text
        )
        """,
        """
        CREATE TABLE abacus_budgets (
            import_no integer NOT NULL,
            position integer NOT NULL,
            category text NOT NULL,
            month date,
            limit_amount numeric NOT NULL,
            currency char(3) NOT NULL
        )
        """,
    ]

    /// Upgrades from each older version to the next: `upgrades[v]` takes version v to v + 1.
    static let upgrades: [Int: [String]] = [
        1: [
            "ALTER TABLE abacus_books ADD COLUMN opening_balance numeric, ADD COLUMN include_in_net_worth boolean NOT NULL DEFAULT true",
            "ALTER TABLE abacus_entries ADD COLUMN splits json",
            "ALTER TABLE abacus_budgets ADD COLUMN book_id text, ADD COLUMN alerts json, ADD COLUMN carry_over boolean NOT NULL DEFAULT false, ADD COLUMN start_month date",
            "CREATE TABLE abacus_parts (import_no integer NOT NULL, part text NOT NULL, position integer NOT NULL, body json NOT NULL)",
        ],
        2: [
            "CREATE TABLE abacus_names (kind text NOT NULL, name text, position bigint NOT NULL)",
            "CREATE INDEX abacus_entries_position ON abacus_entries (position)",
            "ALTER TABLE abacus_imports ADD COLUMN entries bigint",
            fillNames,
            "UPDATE abacus_imports SET entries = (SELECT count(*) FROM abacus_entries)",
        ],
    ]

    /// Fills `abacus_names` from the entries: for each category, party, payment, currency,
    /// book, tag and split part's category they use, the first entry (in the ledger's order)
    /// that uses it. Reading those entries at start is what binding statements needs. Each
    /// part is a `GROUP BY` on the entries alone, which a distributed database runs on its
    /// shards.
    static let fillNames = """
        INSERT INTO abacus_names (kind, name, position)
        SELECT 'category', category, min(position) FROM abacus_entries GROUP BY category
        UNION ALL SELECT 'party', party, min(position) FROM abacus_entries GROUP BY party
        UNION ALL SELECT 'payment', payment, min(position) FROM abacus_entries GROUP BY payment
        UNION ALL SELECT 'currency', currency, min(position) FROM abacus_entries GROUP BY currency
        UNION ALL SELECT 'book', book_id, min(position) FROM abacus_entries GROUP BY book_id
        UNION ALL SELECT 'tag', t.tag, min(e.position) FROM abacus_entries e CROSS JOIN LATERAL unnest(e.tags) AS t(tag) GROUP BY t.tag
        UNION ALL SELECT 'part', p.part->>'category', min(e.position) FROM abacus_entries e
            CROSS JOIN LATERAL json_array_elements(e.splits) AS p(part) WHERE e.splits IS NOT NULL GROUP BY p.part->>'category'
        """

    /// Every statement that makes the current layout in an empty database: version 1's, then
    /// each upgrade's.
    static var creation: [String] { create + (1..<version).flatMap { upgrades[$0] ?? [] } }

    /// What a connection finds: the layout's version, or none.
    static func installedVersion(_ db: Database) throws(DatabaseError) -> Int? {
        let found = try db.query("SELECT count(*)::text FROM information_schema.tables WHERE table_name = 'abacus_schema' AND table_schema = current_schema()")
        guard (found.first?.first ?? nil) == "1" else { return nil }
        let rows = try db.query("SELECT version::text FROM abacus_schema")
        guard rows.count == 1, let text = rows[0][0], let v = Int(text) else {
            throw DatabaseError("the database \(db.url.shown) has a damaged abacus_schema table (it must hold exactly one version row)")
        }
        return v
    }

    /// Makes sure the database holds the current layout: creates it when `create` and it is
    /// missing, upgrades an older one, refuses a newer one or (without `create`) none.
    static func ensure(_ db: Database, create allowCreate: Bool) throws(DatabaseError) {
        guard let v = try installedVersion(db) else {
            guard allowCreate else {
                throw DatabaseError("the database \(db.url.shown) holds no Abacus ledger (no abacus_schema table): load one with `abacus --db URL --import LEDGER.json`")
            }
            for statement in creation { try db.query(statement) }
            try db.query("INSERT INTO abacus_schema (version, created_by) VALUES ($1::integer, $2)", [String(version), "abacus"])
            return
        }
        if v > version {
            throw DatabaseError("the database \(db.url.shown) was written by a newer Abacus (schema version \(v); this Abacus reads up to \(version)): upgrade Abacus")
        }
        var at = v
        while at < version {
            guard let steps = upgrades[at] else {
                throw DatabaseError("the database \(db.url.shown) has schema version \(at), which this Abacus cannot upgrade")
            }
            for s in steps { try db.query(s) }
            at += 1
            try db.query("UPDATE abacus_schema SET version = $1::integer", [String(at)])
        }
    }
}
