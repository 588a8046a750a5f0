import ArgumentParser
import Foundation
import TallyCore
import TallyGenerator

extension Tally {
    /// `tally generate`: deterministic sample data for every dataset.
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate realistic exports for all five datasets (deterministic for a seed).",
            discussion: "The data includes the awkward cases real exports have (quoted newlines, CRLF, BOM, snake_case headers, refunds, superseded and deleted rows, foreign currencies) and bad rows of every reject kind.")

        @Option(help: ArgumentHelp("The folder to write (created if missing).", valueName: "dir"))
        var out: String

        @Option(help: "The random seed: the same seed and scale give byte-identical files.")
        var seed: UInt64 = 42

        @Option(help: "small (a few MB), medium (about 1.5 GB) or large (5× medium).")
        var scale: GeneratorScale = .small

        @Option(help: "default, studio (a studio's real mix: 50k couples, Jan to mid-July), skewed (a few huge couples, swipers and a huge challenge) or many-couples; --scale multiplies it (other shapes: small is 1/100 of medium).")
        var shape: GeneratorShape = .default

        @Option(help: ArgumentHelp("The last month of the data, YYYY-MM.", valueName: "YYYY-MM"))
        var month: String = "2026-10"

        @Option(help: ArgumentHelp("The size as a multiple of the shape's medium (0.001 to 10; shapes other than default), instead of --scale: 0.01 is small, 5 is large.", valueName: "x"))
        var factor: Double?

        @Option(help: ArgumentHelp("Months of history, 1 to 120, ending with --month: the same customers, each month with the volume the shape and scale give a month, so the data grows with the months (default: the shape and scale's own, 7 to 12).", valueName: "n"))
        var months: Int?

        func validate() throws {
            guard YearMonth(month) != nil else { throw ValidationError("--month '\(month)' is not a month like 2026-10") }
            if let factor {
                guard shape != .default else { throw ValidationError("--factor needs a shape other than default (the default shape has its own scales)") }
                guard factor.isFinite, (0.001...10).contains(factor) else { throw ValidationError("--factor \(factor) is not between 0.001 and 10") }
            }
            if let months, !DataGenerator.monthsRange.contains(months) {
                throw ValidationError("--months \(months) is not a number of months from \(DataGenerator.monthsRange.lowerBound) to \(DataGenerator.monthsRange.upperBound)")
            }
        }

        func run() throws {
            let generator = factor.map { DataGenerator(seed: seed, shape: shape, factor: $0, anchorMonth: YearMonth(month)!, months: months) }
                ?? DataGenerator(seed: seed, scale: scale, shape: shape, anchorMonth: YearMonth(month)!, months: months)
            let summary = try runReportingErrors {
                try generator.generate(to: URL(fileURLWithPath: out)) { line in
                    FileHandle.standardError.write(Data((line + "\n").utf8))
                }
            }
            let rows = summary.files.map(\.records).reduce(0, +)
            let planted = summary.badRows.values.reduce(0, +)
            print("generated \(summary.files.count) files, \(rows) records, \(summary.totalBytes / 1024) KiB in \(out) "
                  + "(seed \(seed), \(factor.map { "factor \($0)" } ?? scale.rawValue)\(shape == .default ? "" : ", shape " + shape.rawValue), "
                  + "\(summary.firstMonth)–\(summary.lastDay)\(months == nil ? "" : ", \(summary.months) months"); "
                  + "\(planted) awkward rows planted)")
        }
    }
}

extension GeneratorScale: ExpressibleByArgument {}
extension GeneratorShape: ExpressibleByArgument {}
