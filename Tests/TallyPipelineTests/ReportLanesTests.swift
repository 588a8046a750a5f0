import Foundation
import Logging
import Testing
import TallyCore
@testable import TallyPipeline
import TallyReports
import TallyWarehouse

/// Report stages in two lanes (ReportLanes): one-core readers beside the others.
@Suite("Report stages in two lanes")
struct ReportLanesTests {
    struct Boom: Error {}

    /// A stage that writes `<name>.txt` and records which connection it read.
    struct FakeStage: ReportStage {
        let name: String
        let readsOnOneCore: Bool
        var fails = false
        var seconds = 0.0
        var needs: Set<DerivedTable> = []
        let log: Log
        var derivedTables: Set<DerivedTable> { needs }

        func run(_ context: ReportContext) throws -> ReportOutcome {
            Thread.sleep(forTimeInterval: seconds)
            let onWarehouse = context.reads === context.warehouse
            let rows = try context.reads.read { try $0.inputFiles().count }
            log.add("\(name) \(onWarehouse ? "warehouse" : "own") \(rows)")
            if fails { throw Boom() }
            let file = try AtomicFile(destination: context.outDirectory.appendingPathComponent("\(name).txt"))
            try file.write(Array(name.utf8))
            context.outputs.add(file)
            return ReportOutcome(name: name, rows: 1)
        }
    }

    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    func context(_ out: URL) throws -> ReportContext {
        let warehouse = try Warehouse(path: out.appendingPathComponent("tally.sqlite").path)
        return ReportContext(config: TallyConfig(), locale: .default, period: YearMonth("2026-10")!,
                             timezone: ReportTimeZone(identifier: "UTC")!, outDirectory: out, warehouse: warehouse,
                             reads: warehouse, logger: Logger(label: "test"), progress: Progress(mode: .silent),
                             outputs: OutputSet())
    }

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func outcomesComeInStageOrderAndEveryLaneReadsOnAConnectionOfItsOwn() throws {
        let out = try folder(), log = Log()
        let stages: [any ReportStage] = [
            FakeStage(name: "a", readsOnOneCore: false, seconds: 0.05, log: log),
            FakeStage(name: "b", readsOnOneCore: true, log: log),
            FakeStage(name: "c", readsOnOneCore: false, log: log),
            FakeStage(name: "d", readsOnOneCore: true, log: log),
        ]
        let context = try context(out)
        let outcomes = try ReportLanes.run(stages, context: context)
        #expect(outcomes.map(\.name) == ["a", "b", "c", "d"])
        #expect(Set(log.all) == ["a own 0", "b own 0", "c own 0", "d own 0"])
        // Every lane's files wait in the run's one set, then go into place together.
        #expect(context.outputs.count == 4)
        try context.outputs.commit()
        for name in ["a", "b", "c", "d"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("\(name).txt").path))
        }
    }

    @Test func aFailingSideStageFailsTheRunAfterTheMainLaneAndPublishesNothing() throws {
        let out = try folder(), log = Log()
        let stages: [any ReportStage] = [
            FakeStage(name: "a", readsOnOneCore: false, seconds: 0.05, log: log),
            FakeStage(name: "b", readsOnOneCore: true, fails: true, log: log),
        ]
        let context = try context(out)
        #expect(throws: Boom.self) { try ReportLanes.run(stages, context: context) }
        #expect(log.all.contains("a own 0"))   // the main lane ran to its end
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("a.txt").path))
    }

    @Test func aFailingMainStageWaitsForTheSideLane() throws {
        let out = try folder(), log = Log()
        let stages: [any ReportStage] = [
            FakeStage(name: "a", readsOnOneCore: false, fails: true, log: log),
            FakeStage(name: "b", readsOnOneCore: true, seconds: 0.1, log: log),
        ]
        let context = try context(out)
        #expect(throws: Boom.self) { try ReportLanes.run(stages, context: context) }
        // The side lane had finished (its connection closed) before the error came back.
        #expect(log.all.contains("b own 0"))
    }

    @Test func aStageStartsOnceTheDerivedTablesItReadsAreRebuilt() throws {
        let out = try folder(), log = Log()
        let stages: [any ReportStage] = [
            FakeStage(name: "a", readsOnOneCore: false, needs: [.expenseWinners], log: log),
            FakeStage(name: "b", readsOnOneCore: true, log: log),
        ]
        var context = try context(out)
        let gate = DerivedTablesGate(pending: [.expenseWinners, .swipeMatches])
        context.derived = gate
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            log.add("rebuilt")
            gate.open(.expenseWinners)
        }
        _ = try ReportLanes.run(stages, context: context)
        // b needs nothing and ran at once; a waited for its table (not for the swipes).
        #expect(log.all.firstIndex(of: "b own 0")! < log.all.firstIndex(of: "rebuilt")!)
        #expect(log.all.firstIndex(of: "rebuilt")! < log.all.firstIndex(of: "a own 0")!)
    }

    @Test func aFailedRebuildStopsTheStagesWaitingForIt() throws {
        let out = try folder(), log = Log()
        let stages: [any ReportStage] = [
            FakeStage(name: "a", readsOnOneCore: false, needs: [.checkinWinners], log: log),
            FakeStage(name: "b", readsOnOneCore: true, log: log),
        ]
        var context = try context(out)
        let gate = DerivedTablesGate(pending: [.checkinWinners])
        context.derived = gate
        gate.fail(Boom())
        #expect(throws: DerivationFailed.self) { try ReportLanes.run(stages, context: context) }
        #expect(log.all == ["b own 0"])   // a never read
    }
}
