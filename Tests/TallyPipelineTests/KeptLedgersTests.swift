import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyPipeline
import TallyWarehouse

/// A run builds a couple's statement from the opening kept by the run
/// before (``KeptLedgers``) and the expenses dated from its month on, and
/// its statements equal those of a run that keeps nothing, whatever changed
/// in between: each case below is one way a kept opening stops holding, or
/// a change it must survive.
///
/// Each case loads `sample-data/` and runs September (every couple's
/// opening of October is kept), then loads a second folder and runs
/// October (and, where said, a third folder and November), into one
/// warehouse; a second warehouse gets the same folders and runs, with the
/// statements' kept openings dropped before every run after the first. The
/// statements folders (every CSV, text file and workbook) and rejects.csv
/// of the last runs are compared byte for byte.
@Suite("Kept ledgers", .serialized)
struct KeptLedgersTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
    let fm = FileManager.default
    static let september = YearMonth("2026-09")!
    static let october = YearMonth("2026-10")!
    static let november = YearMonth("2026-11")!
    static let header = "id,couple_id,paid_by,amount,currency,date,description,tag,card_id,agreement_id,split_type,split,created_at,updated_at,deleted_at"
    static let couples = ["cpl-000001", "cpl-000002", "cpl-000003", "cpl-000004", "cpl-000005"]

    /// An expense line of couple `couple` paid by `paidBy`, split equally.
    static func expense(_ id: String, _ couple: String, _ paidBy: String, _ amount: String, date: String,
                        updatedAt: String = "2026-10-28T10:00:00-03:00", deletedAt: String = "", currency: String = "BRL") -> String {
        "\(id),\(couple),\(paidBy),\(amount),\(currency),\(date),Kept test,mercado,,,equal,,2026-10-28 13:00:00+00,\(updatedAt),\(deletedAt)"
    }

    /// A folder named `name` under `work` holding `files`, `sample-data/`'s `tally.yml` beside them.
    func folder(_ work: URL, _ name: String, _ files: [String: [String]]) throws -> URL {
        let made = try secondMonthFolder(work.appendingPathComponent(name), files)
        return made
    }

    func request(_ data: URL, out: URL, db: URL, period: YearMonth, config: String? = nil) -> RunRequest {
        var request = RunRequest(dataDirectory: data, outDirectory: out, period: period, databasePath: db.path, reproducible: true)
        if let config { request.configText = (file: "tally.yml", text: config) }
        return request
    }

    /// Drops the statements' kept openings of the warehouse at `db`.
    func dropOpenings(_ db: URL) throws {
        try DatabaseQueue(path: db.path).write { db in
            try db.execute(sql: "DELETE FROM key_state WHERE family = 'statements'; DELETE FROM key_state_set WHERE family = 'statements'")
        }
    }

    /// The couples whose kept openings the warehouse at `db` takes for `period`, once `data` is loaded
    /// (read from their month on, their opening reading back with their fingerprint).
    func couplesFromOpenings(_ db: URL, after data: URL, period: YearMonth, trendMonths: Int = 6) throws -> Set<String> {
        let warehouse = try Warehouse(path: db.path)
        _ = try IngestStage(logger: .init(label: "test"), progress: Progress(mode: .silent)).run(dataDirectory: data, warehouse: warehouse)
        return try warehouse.read { reader in
            let settings = StatementsFamily.Settings(period: period, fx: FxTable(try reader.fxRates()), trendMonths: trendMonths)
            let kept = try KeptLedgers(reader, settings: settings, fx: try reader.fxRates())
            var taken = Set<String>()
            let stored = try reader.keyStateCursor(family: KeptLedgers.family)
            try reader.forEachCoupleKey(openings: kept.openings) { rows in
                if kept.readsFromMonth(rows.key), kept.opening(rows, stored: try stored.take(key: rows.key)) != nil {
                    taken.insert(rows.key)
                }
            }
            return taken
        }
    }

    /// September over `sample-data/` (or `first`), then each of `later` (a folder and its period, with
    /// `config` for the runs after the first), into a warehouse that keeps openings and one that drops
    /// them before every later run; the last runs' statements and rejects compared. `between` runs on
    /// the keeping warehouse before the later runs; `check`, once the last folder is loaded into it,
    /// gets the couples its last run reads from openings.
    func compare(_ work: URL, first: URL? = nil, later: [(URL, YearMonth)], config: String? = nil,
                 between: (URL) throws -> Void = { _ in }, check: (Set<String>) -> Void,
                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let first = first ?? repositoryRoot.appendingPathComponent("sample-data")
        let (kept, plain) = (work.appendingPathComponent("kept.sqlite"), work.appendingPathComponent("plain.sqlite"))
        for db in [kept, plain] {
            _ = try runner.run(request(first, out: work.appendingPathComponent("one"), db: db, period: Self.september))
        }
        #expect(try Warehouse(path: kept.path).read { try $0.keyStates(family: KeptLedgers.family) }?.states.count ?? 0 >= 5,
                "September keeps every couple's opening", sourceLocation: sourceLocation)
        try between(kept)
        for (index, (data, period)) in later.enumerated() {
            if index == later.count - 1 {
                check(try couplesFromOpenings(kept, after: data, period: period,
                                              trendMonths: config?.contains("trendMonths: 3") == true ? 3 : 6))
            }
            _ = try runner.run(request(data, out: work.appendingPathComponent("kept-\(index)"), db: kept, period: period, config: config))
            try dropOpenings(plain)
            _ = try runner.run(request(data, out: work.appendingPathComponent("plain-\(index)"), db: plain, period: period, config: config))
        }
        let last = later.count - 1
        let (actual, expected) = (work.appendingPathComponent("kept-\(last)"), work.appendingPathComponent("plain-\(last)"))
        let paths = try reportFiles(expected).filter { $0.hasPrefix("statements/") || $0 == "rejects.csv" }
        #expect(paths.count > 10, sourceLocation: sourceLocation)
        #expect(try reportFiles(actual).filter { $0.hasPrefix("statements/") || $0 == "rejects.csv" } == paths,
                sourceLocation: sourceLocation)
        for path in paths {
            let want = try Data(contentsOf: expected.appendingPathComponent(path))
            let got = try? Data(contentsOf: actual.appendingPathComponent(path))
            #expect(got == want, "\(path) differs from the run that keeps nothing", sourceLocation: sourceLocation)
        }
    }

    /// An October folder of `expenses` lines (after the header), and other files.
    func october(_ work: URL, _ expenses: [String], _ files: [String: [String]] = [:], name: String = "october") throws -> URL {
        var files = files
        if !expenses.isEmpty { files["expenses/expenses.csv"] = [Self.header] + expenses }
        return try folder(work, name, files)
    }

    @Test("expenses of the month only: every couple's statement starts from its opening")
    func monthOnly() throws {
        let work = try temporaryFolder("kept-ledgers-month")
        defer { try? fm.removeItem(at: work) }
        let data = try october(work, [Self.expense("kl-1", "cpl-000001", "mbr-000001", "120.00", date: "2026-10-20")])
        try compare(work, later: [(data, Self.october)]) { couples in
            #expect(couples.isSuperset(of: Self.couples))
        }
    }

    @Test("a late expense of August: its couple's every row is read, the others start from their openings")
    func lateExpense() throws {
        let work = try temporaryFolder("kept-ledgers-late")
        defer { try? fm.removeItem(at: work) }
        let data = try october(work, [Self.expense("kl-2", "cpl-000002", "mbr-000003", "75.10", date: "2026-08-20")])
        try compare(work, later: [(data, Self.october)]) { couples in
            #expect(!couples.contains("cpl-000002"))
            #expect(couples.contains("cpl-000001"))
        }
    }

    @Test("an expense of March edited, moved into October, and one deleted: their couples are read in full")
    func editedAndDeleted() throws {
        let work = try temporaryFolder("kept-ledgers-edited")
        defer { try? fm.removeItem(at: work) }
        let data = try october(work, [
            // exp-0000001 (cpl-000001, 13 March) moved to October with another amount.
            Self.expense("exp-0000001", "cpl-000001", "mbr-000001", "191.47", date: "2026-10-05"),
            // exp-0001005 (cpl-000002, 7 August) deleted.
            Self.expense("exp-0001005", "cpl-000002", "mbr-000003", "28.46", date: "2026-08-07", deletedAt: "2026-10-28T10:00:00-03:00"),
        ])
        try compare(work, later: [(data, Self.october)]) { couples in
            #expect(couples.isDisjoint(with: ["cpl-000001", "cpl-000002"]))
            #expect(couples.contains("cpl-000003"))
        }
    }

    @Test("a changed fx rate of March: no opening is taken; a new rate of October changes none")
    func fxRates() throws {
        let work = try temporaryFolder("kept-ledgers-fx")
        defer { try? fm.removeItem(at: work) }
        let changed = try folder(work, "changed", ["expenses/fx.csv": ["date,currency,base,rate", "2026-03-02,USD,BRL,5.517398"]])
        try compare(work.appendingPathComponent("a"), later: [(changed, Self.october)]) { #expect($0.isEmpty) }
        let added = try folder(work, "added", ["expenses/fx.csv": ["date,currency,base,rate", "2026-10-15,USD,BRL,5.317398"]])
        try compare(work.appendingPathComponent("b"), later: [(added, Self.october)]) { #expect($0.isSuperset(of: Self.couples)) }
    }

    @Test("the agreements delivered again, one ended early: its couple is read in full; identical reference rows change nothing")
    func referenceRows() throws {
        let work = try temporaryFolder("kept-ledgers-reference")
        defer { try? fm.removeItem(at: work) }
        let agreements = try sampleLines("expenses/agreements.csv")
        let again = try folder(work, "again", [
            "expenses/agreements.csv": agreements, "expenses/couples.csv": try sampleLines("expenses/couples.csv"),
            "expenses/members.csv": try sampleLines("expenses/members.csv"),
        ])
        try compare(work.appendingPathComponent("a"), later: [(again, Self.october)]) { #expect($0.isSuperset(of: Self.couples)) }
        // Spotify of cpl-000001 (since 2025-08, ongoing) ended in May.
        let ended = agreements.map { $0.hasPrefix("agr-000002,") ? $0 + "2026-05-31" : $0 }
        #expect(ended != agreements)
        let endedFolder = try folder(work, "ended", ["expenses/agreements.csv": ended])
        try compare(work.appendingPathComponent("b"), later: [(endedFolder, Self.october)]) { couples in
            #expect(!couples.contains("cpl-000001"))
            #expect(couples.contains("cpl-000002"))
        }
    }

    @Test("a member added to a couple: the couple is read in full")
    func newMember() throws {
        let work = try temporaryFolder("kept-ledgers-member")
        defer { try? fm.removeItem(at: work) }
        let members = try sampleLines("expenses/members.csv") + ["mbr-kept-1,cpl-000003,Ana Kept,member,2026-10-02T10:00:00Z"]
        let data = try folder(work, "october", ["expenses/members.csv": members])
        try compare(work, later: [(data, Self.october)]) { couples in
            #expect(!couples.contains("cpl-000003"))
            #expect(couples.contains("cpl-000001"))
        }
    }

    @Test("another trend length, an earlier period: no opening is taken")
    func settings() throws {
        let work = try temporaryFolder("kept-ledgers-settings")
        defer { try? fm.removeItem(at: work) }
        let data = try october(work, [Self.expense("kl-3", "cpl-000001", "mbr-000001", "12.00", date: "2026-10-21")])
        let config = try String(contentsOf: repositoryRoot.appendingPathComponent("sample-data/tally.yml"), encoding: .utf8)
            .replacingOccurrences(of: "trendMonths: 6", with: "trendMonths: 3")
        try compare(work.appendingPathComponent("a"), later: [(data, Self.october)], config: config) { #expect($0.isEmpty) }
        try compare(work.appendingPathComponent("b"), later: [(data, Self.september)]) { #expect($0.isEmpty) }
    }

    @Test("openings kept by another build of tally: no opening is taken")
    func anotherBuild() throws {
        let work = try temporaryFolder("kept-ledgers-build")
        defer { try? fm.removeItem(at: work) }
        let data = try october(work, [Self.expense("kl-9", "cpl-000001", "mbr-000001", "18.00", date: "2026-10-23")])
        try compare(work, later: [(data, Self.october)], between: { try keptByAnotherBuild($0) }) { #expect($0.isEmpty) }
    }

    @Test("a damaged opening: its couple is read in full")
    func damaged() throws {
        let work = try temporaryFolder("kept-ledgers-damaged")
        defer { try? fm.removeItem(at: work) }
        let data = try october(work, [Self.expense("kl-4", "cpl-000004", "mbr-000007", "9.99", date: "2026-10-22")])
        try compare(work, later: [(data, Self.october)], between: { db in
            try DatabaseQueue(path: db.path).write { db in
                try db.execute(sql: "UPDATE key_state SET state = x'6c65646765722d6f70656e696e672e7631090a' WHERE family = 'statements' AND key = 'cpl-000004'")
            }
        }) { couples in
            #expect(!couples.contains("cpl-000004"))
            #expect(couples.contains("cpl-000001"))
        }
    }

    @Test("failed versions without a readable month, in October then kept: listed and rejected in November as from every row")
    func undatedFailedVersions() throws {
        let work = try temporaryFolder("kept-ledgers-undated")
        defer { try? fm.removeItem(at: work) }
        let octoberData = try october(work, [
            Self.expense("kl-5", "cpl-000003", "mbr-000005", "10.00", date: "31/08/2026"),
            Self.expense("kl-6", "cpl-000003", "mbr-000005", "\"10,00\"", date: "2026-09-12"),
            Self.expense("kl-7", "cpl-000005", "mbr-000009", "33.00", date: "2026-10-02"),
        ])
        let novemberData = try october(work, [Self.expense("kl-8", "cpl-000001", "mbr-000002", "45.00", date: "2026-11-03")],
                                       name: "november")
        try compare(work, later: [(octoberData, Self.october), (novemberData, Self.november)]) { couples in
            #expect(couples.isSuperset(of: Self.couples), "November reads every couple from its October opening")
        }
        let text = try String(contentsOf: work.appendingPathComponent("kept-1/statements/cpl-000003.txt"), encoding: .utf8)
        #expect(text.contains("31/08/2026"), "the unreadable date is listed on November's statement too")
        let rejects = try String(contentsOf: work.appendingPathComponent("kept-1/rejects.csv"), encoding: .utf8)
        #expect(rejects.contains("kl-5") && rejects.contains("kl-6"))
    }

    @Test("random expenses: of the month, late, edited, deleted and unreadable, then a month after", arguments: 0..<4)
    func randomChanges(seed: UInt64) throws {
        let work = try temporaryFolder("kept-ledgers-random-\(seed)")
        defer { try? fm.removeItem(at: work) }
        var random = SplitMix64(seed: 0x5eed_1ed9 &+ seed)
        let members = ["cpl-000001": ["mbr-000001", "mbr-000002"], "cpl-000002": ["mbr-000003", "mbr-000004"],
                       "cpl-000003": ["mbr-000005", "mbr-000006"]]
        let sample = try sampleLines("expenses/expenses.csv").dropFirst().filter { line in members.keys.contains { line.contains(",\($0),") } }
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        var lines: [String] = []
        for i in 0..<24 {
            let couple = pick(Array(members.keys).sorted())
            let payer = pick(members[couple]!)
            let amount = "\(1 + random.next() % 300).\(10 + random.next() % 89)"
            switch random.next() % 6 {
            case 0, 1: lines.append(Self.expense("kr-\(i)", couple, payer, amount, date: "2026-10-\(10 + random.next() % 18)"))
            case 2: lines.append(Self.expense("kr-\(i)", couple, payer, amount, date: "2026-0\(3 + random.next() % 7)-1\(random.next() % 9)"))
            case 3, 4:
                // An existing expense edited (a later version), its date kept or moved, or deleted.
                let fields = pick(sample).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                let deleted = random.next() % 3 == 0 ? "2026-10-28T10:00:00-03:00" : ""
                let date = random.next() % 2 == 0 ? fields[5] : "2026-10-0\(1 + random.next() % 9)"
                lines.append(Self.expense(fields[0], fields[1], fields[2], amount, date: date, deletedAt: deleted))
            default: lines.append(Self.expense("kr-\(i)", couple, payer, amount, date: pick(["2026-13-01", "", "10/2026", "2026-09-31"])))
            }
        }
        let octoberData = try october(work, lines)
        let novemberData = try october(work, [Self.expense("kr-n", "cpl-000002", "mbr-000004", "5.00", date: "2026-11-02")], name: "november")
        try compare(work, later: [(octoberData, Self.october), (novemberData, Self.november)]) { couples in
            #expect(couples.isSuperset(of: Self.couples), "November reads every couple from its October opening")
        }
    }
}
