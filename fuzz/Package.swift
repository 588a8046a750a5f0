// swift-tools-version:6.1
import Foundation
import PackageDescription

// tally's libFuzzer targets. A separate package, because `-sanitize=fuzzer`
// links libFuzzer's own `main` into every executable it builds, which would
// break the `tally` executable and the test runner of the main package.
//
// Every folder `Sources/Fuzz<Name>` except `FuzzSupport` is one fuzz target:
// an executable whose single file has an `@main` that hands its body to
// `FuzzDriver.run` (libFuzzer's LLVMFuzzerRunDriver). Adding a target is
// adding one such folder with one file; nothing here changes.
//
// Build and run with `make fuzz` (see scripts/fuzz.sh and docs/reliability.md).

let sources = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("Sources")
let names = ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? [])
    .filter { $0.hasPrefix("Fuzz") && $0 != "FuzzSupport" }
    .sorted()

let package = Package(
    name: "tally-fuzz",
    platforms: [.macOS(.v15)],
    products: names.map { .executable(name: $0, targets: [$0]) },
    dependencies: [.package(name: "tally", path: "..")],
    targets: [
        // libFuzzer's driver entry point, declared for Swift.
        .target(name: "CFuzzDriver"),
        // Helpers shared by the targets: the driver, scratch files, reading a table to the end.
        .target(name: "FuzzSupport", dependencies: [
            "CFuzzDriver",
            .product(name: "TallyCore", package: "tally"),
            .product(name: "TallyIngest", package: "tally"),
        ]),
    ] + names.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "FuzzSupport",
                .product(name: "TallyCore", package: "tally"),
                .product(name: "TallyIngest", package: "tally"),
                .product(name: "TallyPipeline", package: "tally"),
            ])
    }
)
