// swift-tools-version:6.1
import PackageDescription

// tally: a batch analytics and reporting runner.
// Data flows one way: files → TallyIngest → TallyWarehouse → TallyReports → files.
// TallyCore holds the domain rules (pure, I/O-free); TallyWire the one line form
// of the records stages exchange; TallyPipeline wires the stages; the `tally`
// executable only parses arguments.
let package = Package(
    name: "tally",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tally", targets: ["tally"]),
        .library(name: "TallyCore", targets: ["TallyCore"]),
        // For the fuzz package (fuzz/Package.swift), which can only use products.
        .library(name: "TallyIngest", targets: ["TallyIngest"]),
        .library(name: "TallyPipeline", targets: ["TallyPipeline"]),
        .library(name: "TallyWire", targets: ["TallyWire"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // System libraries (Debian: libxlsxwriter-dev, zlib1g-dev, libisal-dev).
        .systemLibrary(name: "CXlsxWriter", pkgConfig: "xlsxwriter", providers: [.apt(["libxlsxwriter-dev"])]),
        .systemLibrary(name: "CGzip", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Intel's ISA-L: gzip inflate ~2–3× zlib's speed (the reading of gzip inputs).
        .systemLibrary(name: "CIsal", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
        // sqlite3_config, which Swift cannot call (variadic); libsqlite3-dev.
        .systemLibrary(name: "CSQLiteConfig", providers: [.apt(["libsqlite3-dev"])]),
        // OpenSSL's libcrypto: SHA-256 of input files and reports (libssl-dev).
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // The domain: money, splits, balances, settlements, statements. No I/O.
        .target(name: "TallyCore"),

        // Streaming readers (CSV, NDJSON, gzip), typed, validated records, file fingerprints.
        .target(name: "TallyIngest", dependencies: [
            "TallyCore", "CIsal", "CLibCrypto",
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The SQLite warehouse: schema migrations, idempotent loads, queries.
        .target(name: "TallyWarehouse", dependencies: [
            "TallyCore", "TallyIngest", "CSQLiteConfig",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Report writers: CSV, XLSX (libxlsxwriter), text charts.
        // ISA-L (CIsal) and zlib's CRC-32 (CGzip): numbers in a workbook's sheets respelled as exact decimals (XLSXExactNumbers).
        .target(name: "TallyReports", dependencies: ["TallyCore", "CXlsxWriter", "CGzip", "CIsal"]),

        // Deterministic generator of realistic exports for all five datasets.
        .target(name: "TallyGenerator", dependencies: ["TallyCore", "CGzip"]),

        // The record form: the one line encoding of every record that travels between stages
        // (TallyCore's values and partials, the dataflow's FlowRecord), its writer and reader.
        .target(name: "TallyWire", dependencies: ["TallyCore", "TallyIngest"]),

        // Stage wiring: configuration, ingest → warehouse → reports, run.json.
        .target(name: "TallyPipeline", dependencies: [
            "TallyCore", "TallyIngest", "TallyWire", "TallyWarehouse", "TallyReports", "TallyGenerator",
            .product(name: "Yams", package: "Yams"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The command line: argument parsing and wiring only.
        .executableTarget(name: "tally", dependencies: [
            "TallyPipeline", "TallyCore", "TallyGenerator",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        .testTarget(name: "TallyCoreTests", dependencies: [
            "TallyCore", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "TallyWireTests", dependencies: [
            "TallyWire", "TallyCore", "TallyIngest", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "TallyIngestTests", dependencies: [
            "TallyIngest", "TallyCore", "CGzip", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        .testTarget(name: "TallyWarehouseTests", dependencies: ["TallyWarehouse", "TallyIngest", "TallyCore"]),
        // Test helpers shared by the test targets (an XLSX reader for reading back workbooks).
        .target(name: "TallyTestSupport", dependencies: [
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ], path: "Tests/TallyTestSupport"),
        .testTarget(name: "TallyReportsTests", dependencies: ["TallyReports", "TallyTestSupport"]),
        .testTarget(name: "TallyGeneratorTests", dependencies: [
            "TallyGenerator", "TallyIngest", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        .testTarget(name: "TallyPipelineTests", dependencies: ["TallyPipeline", "TallyTestSupport"]),
    ]
)
