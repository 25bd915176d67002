// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Abacus",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "abacus", targets: ["abacus"]),
        .executable(name: "abacus-generate", targets: ["abacus-generate"]),
        .executable(name: "abacus-hash", targets: ["abacus-hash"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/attaswift/BigInt", from: "6.0.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // Exact money, currencies, dates, the JSON ledger loader, the columnar store and rates.
        .target(
            name: "AbacusCore",
            dependencies: [.product(name: "BigInt", package: "BigInt")]
        ),
        // Lexer → parser → planner → executor: the query language over the store.
        .target(name: "AbacusQuery", dependencies: ["AbacusCore", .product(name: "BigInt", package: "BigInt")]),
        // libedit, used through a small header of wrappers (its variadic calls are unavailable to Swift).
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // The system's libsqlite3, for reading the expense tracker app's database.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Where ledgers come from besides JSON files: the app's SQLite database, turned into
        // the loader's own input so that one set of rules checks every source.
        .target(name: "AbacusSources", dependencies: ["AbacusCore", "CSQLite"]),
        // Bank statements (CSV) turned into ledger files of entries by rules in TOML.
        .target(
            name: "AbacusImport",
            dependencies: ["AbacusCore", "AbacusSources", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        // Ledgers kept in PostgreSQL: the schema, the one-transaction import and the SQL
        // lowering of the logical plan (docs/postgres.md). Only this target and the
        // executable depend on postgres-nio.
        .target(
            name: "AbacusPostgres",
            dependencies: [
                "AbacusCore", "AbacusQuery",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "BigInt", package: "BigInt"),
            ]
        ),
        // libcurl's functions as URLSession calls them, loading libcurl on first use, so
        // that a start which fetches no rates does not load it (Makefile, `release`).
        .target(name: "CCurlOnDemand", linkerSettings: [.linkedLibrary("dl")]),
        // The REPL, scripts, dot commands and result rendering.
        .target(name: "AbacusShell", dependencies: ["AbacusCore", "AbacusQuery", "AbacusSources", "CEditLine", "CCurlOnDemand"]),
        // Command-line parsing and nothing else.
        .executableTarget(
            name: "abacus",
            dependencies: [
                "AbacusShell",
                "AbacusImport",
                "AbacusPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Deterministic synthetic ledgers for benchmarks (not part of the CLI).
        .executableTarget(
            name: "abacus-generate",
            dependencies: ["AbacusCore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Benchmarks/Generator"
        ),
        // The content hash of ledger files and its speed (benchmarks only).
        .executableTarget(name: "abacus-hash", dependencies: ["AbacusCore"], path: "Benchmarks/Hash"),
        .testTarget(name: "AbacusCoreTests", dependencies: ["AbacusCore"]),
        .testTarget(name: "AbacusQueryTests", dependencies: ["AbacusCore", "AbacusQuery"]),
        .testTarget(name: "AbacusShellTests", dependencies: ["AbacusShell"]),
        .testTarget(name: "AbacusSourcesTests", dependencies: ["AbacusCore", "AbacusSources", "CSQLite"]),
        .testTarget(name: "AbacusImportTests", dependencies: ["AbacusCore", "AbacusImport"]),
        // The binary as a user runs it, and ledgers in a throwaway PostgreSQL server that the
        // tests start themselves (Tests/EndToEndTests/PostgresServer.swift).
        .testTarget(name: "EndToEndTests", dependencies: ["abacus", "CSQLite", "AbacusCore", "AbacusQuery", "AbacusShell", "AbacusPostgres"]),
    ]
)
