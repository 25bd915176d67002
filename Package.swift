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
        // The REPL, scripts, dot commands and result rendering.
        .target(name: "AbacusShell", dependencies: ["AbacusCore", "AbacusQuery", "CEditLine"]),
        // Command-line parsing and nothing else.
        .executableTarget(
            name: "abacus",
            dependencies: [
                "AbacusShell",
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
        .testTarget(name: "EndToEndTests", dependencies: ["abacus"]),
    ]
)
