import Foundation
import GRDB
import Logging
import Testing
import TallyCore
@testable import TallyPipeline
import TallyReports
@testable import TallyWarehouse

/// A run's graph: derived tables rebuilt beside the report families, each
/// family reading what it declared, on a connection of its own.
@Suite("Run graph: derivations and report families")
struct RunGraphTests {
    struct Boom: Error {}

    /// A family that runs `reading` through `context.reads`, then writes `<name>.txt`.
    struct FakeStage: ReportStage {
        let name: String
        var cores = CoreUse.every
        var derivedTables: Set<DerivedTable> = []
        var fails = false
        var reading: @Sendable (WarehouseReader) throws -> String = { "\(try $0.inputFiles().count) files" }
        let log: Log

        func run(_ context: ReportContext) throws -> ReportOutcome {
            let read = try context.reads.read(reading)
            log.add("\(name) \(context.reads === context.warehouse ? "warehouse" : "own") \(read)")
            if fails { throw Boom() }
            let file = try AtomicFile(destination: context.outDirectory.appendingPathComponent("\(name).txt"))
            try file.write(Array(name.utf8))
            context.outputs.add(file)
            return ReportOutcome(name: name, rows: 1)
        }
    }

    final class Log: @unchecked Sendable {   // `lines` behind `lock`
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    func context(_ out: URL, _ warehouse: Warehouse) -> ReportContext {
        ReportContext(config: TallyConfig(), locale: .default, period: YearMonth("2026-10")!,
                      timezone: ReportTimeZone(identifier: "UTC")!, outDirectory: out, warehouse: warehouse,
                      reads: warehouse, logger: Logger(label: "test"), progress: Progress(mode: .silent),
                      outputs: OutputSet())
    }

    /// A warehouse holding sample-data/, its derived tables left pending.
    func loadedLeavingDerivations(_ out: URL) throws -> Warehouse {
        let warehouse = try Warehouse(path: out.appendingPathComponent("tally.sqlite").path)
        _ = try IngestStage(logger: Logger(label: "test"), progress: Progress(mode: .silent))
            .run(dataDirectory: repositoryRoot.appendingPathComponent("sample-data"), warehouse: warehouse, leavingDerivations: true)
        return warehouse
    }

    /// The derived tables still marked pending, as a read connection sees them.
    static func pending(_ reader: WarehouseReader) throws -> Set<String> {
        Set(try String.fetchAll(reader.db, sql: "SELECT name FROM derivation_pending"))
    }

    @Test func outcomesComeInFamilyOrderEachFamilyReadingOnAConnectionOfItsOwn() throws {
        let out = try temporaryFolder("run-graph"), log = Log()
        defer { try? FileManager.default.removeItem(at: out) }
        let context = context(out, try Warehouse(path: out.appendingPathComponent("tally.sqlite").path))
        let families: [any ReportStage] = [
            FakeStage(name: "a", log: log), FakeStage(name: "b", cores: .one, log: log),
            FakeStage(name: "c", log: log), FakeStage(name: "d", cores: .one, log: log),
        ]
        let (outcomes, timings) = try RunGraph.run(families, context: context, pending: [])
        #expect(outcomes.map(\.name) == ["a", "b", "c", "d"])
        #expect(timings.isEmpty)
        #expect(Set(log.all) == ["a own 0 files", "b own 0 files", "c own 0 files", "d own 0 files"])
        // Every family's files wait in the run's one set, then go into place together.
        #expect(context.outputs.count == 4)
        try context.outputs.commit()
        for name in ["a", "b", "c", "d"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("\(name).txt").path))
        }
    }

    @Test func aFamilyReadingADerivedTableItDidNotDeclareFails() throws {
        let out = try temporaryFolder("run-graph"), log = Log()
        defer { try? FileManager.default.removeItem(at: out) }
        let context = context(out, try loadedLeavingDerivations(out))
        // Reads the check-in winners, declares the expense winners only.
        let forgetful = FakeStage(name: "forgetful", derivedTables: [.expenseWinners], reading: { reader in
            var challenges = 0
            try reader.forEachChallengeKey { if $0.challenge != nil { challenges += 1 } }
            return "\(challenges) challenges"
        }, log: log)
        #expect(throws: UndeclaredDerivedTable(table: .checkinWinners)) {
            try RunGraph.run([forgetful], context: context, pending: try context.warehouse.pendingDerivations())
        }
        #expect(log.all.isEmpty)
        #expect(context.outputs.count == 0)
        // Declared, the same reads succeed (the tables are rebuilt by now or in this run).
        var declared = forgetful
        declared.derivedTables = [.checkinWinners]
        let (outcomes, _) = try RunGraph.run([declared], context: context, pending: try context.warehouse.pendingDerivations())
        #expect(outcomes.map(\.name) == ["forgetful"])
        #expect(log.all.count == 1)
        #expect(log.all.first?.hasPrefix("forgetful own ") == true && log.all.first?.hasSuffix(" challenges") == true)
    }

    @Test func realFamiliesReadOnlyWhatTheyDeclare() throws {
        // Every family, run from a warehouse read as it declares: a forgotten
        // declaration throws (the golden test compares their bytes).
        let out = try temporaryFolder("run-graph")
        defer { try? FileManager.default.removeItem(at: out) }
        let context = context(out, try loadedLeavingDerivations(out))
        let (outcomes, timings) = try RunGraph.run(ReportFamilies.standard.all, context: context,
                                                   pending: try context.warehouse.pendingDerivations())
        #expect(outcomes.map(\.name) == ReportFamilies.standard.all.map(\.name))
        #expect(Set(timings.map(\.name)) == Set(DerivedTable.allCases.map(\.rawValue)))
        #expect(try context.warehouse.pendingDerivations().isEmpty)
    }

    @Test func aFamilyStartsOnceItsDeclaredTablesAreCommittedBesideTheRebuild() throws {
        let out = try temporaryFolder("run-graph"), log = Log()
        defer { try? FileManager.default.removeItem(at: out) }
        let context = context(out, try loadedLeavingDerivations(out))
        let pending = try context.warehouse.pendingDerivations()
        #expect(pending == Set(DerivedTable.allCases))
        // Each family records which of its declared tables were still pending when it read.
        func stage(_ name: String, _ tables: Set<DerivedTable>, _ cores: CoreUse) -> FakeStage {
            FakeStage(name: name, cores: cores, derivedTables: tables, reading: { reader in
                let left = try Self.pending(reader).intersection(tables.map(\.rawValue))
                return left.isEmpty ? "committed" : "pending \(left.sorted())"
            }, log: log)
        }
        let families = [stage("statements", [.expenseWinners], .every), stage("leaderboards", [.checkinWinners], .every),
                        stage("kpis", [.swipeMatches, .subscriptionEvents], .one), stage("activity", [.activityRepeats], .one)]
        let (outcomes, timings) = try RunGraph.run(families, context: context, pending: pending)
        #expect(outcomes.map(\.name) == ["statements", "leaderboards", "kpis", "activity"])
        #expect(Set(log.all) == ["statements own committed", "leaderboards own committed", "kpis own committed",
                                 "activity own committed"])
        #expect(timings.count == DerivedTable.allCases.count)
        // The rebuild ran in WAL mode and the run went back to the rollback journal.
        #expect(try context.warehouse.read { try String.fetchOne($0.db, sql: "PRAGMA journal_mode") } == "truncate")
    }

    @Test func aFailingFamilyFailsTheRunAndPublishesNothing() throws {
        let out = try temporaryFolder("run-graph"), log = Log()
        defer { try? FileManager.default.removeItem(at: out) }
        let context = context(out, try Warehouse(path: out.appendingPathComponent("tally.sqlite").path))
        let families: [any ReportStage] = [FakeStage(name: "a", log: log), FakeStage(name: "b", cores: .one, fails: true, log: log)]
        #expect(throws: Boom.self) { try RunGraph.run(families, context: context, pending: []) }
        #expect(context.outputs.count == 0)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("a.txt").path))
    }
}
