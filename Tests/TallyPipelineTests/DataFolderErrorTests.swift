import Foundation
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyPipeline

/// A data folder that holds no input is an error (exit code 66)
/// that says what was found and what was expected, and creates nothing.
@Suite("Data folders that hold no input", .serialized)
struct DataFolderErrorTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
    let fm = FileManager.default

    /// Runs on `data` into `work/out` and returns the error's message; the
    /// out folder and the warehouse must not have been created.
    func failure(_ data: URL, work: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let out = work.appendingPathComponent("out"), db = work.appendingPathComponent("db/w.sqlite")
        let request = RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!, databasePath: db.path)
        do {
            _ = try runner.run(request)
            Issue.record("the run succeeded", sourceLocation: sourceLocation)
            return ""
        } catch let error as CatalogError {
            #expect(!fm.fileExists(atPath: out.path), "the out folder was created", sourceLocation: sourceLocation)
            #expect(!fm.fileExists(atPath: db.path), "a warehouse was created", sourceLocation: sourceLocation)
            return error.description
        }
    }

    @Test("--data sample-data/expenses, one level too deep")
    func oneLevelTooDeep() throws {
        let work = try temporaryFolder("datafolder")
        defer { try? fm.removeItem(at: work) }
        let data = work.appendingPathComponent("sample-data")
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: data)
        let message = try failure(data.appendingPathComponent("expenses"), work: work)
        #expect(message == "data folder \(data.path)/expenses looks like a dataset folder itself (it holds agreements.csv, cards.csv, couples.csv), one level too deep: pass the folder that holds it, --data \(data.path)")
    }

    @Test("a dataset folder typed expense/ gets a 'did you mean expenses/?'")
    func aTypoedDatasetFolder() throws {
        let work = try temporaryFolder("datafolder")
        defer { try? fm.removeItem(at: work) }
        let data = try copyOfSampleData(in: work)
        try fm.moveItem(at: data.appendingPathComponent("expenses"), to: data.appendingPathComponent("expense"))
        let message = try failure(data, work: work)
        #expect(message.hasPrefix("data folder \(data.path): expense/ is not a dataset folder: did you mean expenses/? (expected one sub-folder per dataset: checkins/, expenses/, health/, subscriptions/, swipes/)"), "\(message)")
        // Another case counts as a typo too.
        try fm.moveItem(at: data.appendingPathComponent("expense"), to: data.appendingPathComponent("Expenses"))
        #expect(try failure(data, work: work).contains("Expenses/ is not a dataset folder: did you mean expenses/?"))
        // Beside the real folder, a near name is only ignored.
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data/expenses"), to: data.appendingPathComponent("expenses"))
        let catalog = try InputCatalog.scan(data)
        #expect(catalog.ignored.contains { $0.path == "Expenses/" })
        #expect(catalog.files.contains { $0.relativePath == "expenses/couples.csv" })
    }

    @Test("an empty data folder")
    func anEmptyDataFolder() throws {
        let work = try temporaryFolder("datafolder")
        defer { try? fm.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try fm.createDirectory(at: data, withIntermediateDirectories: true)
        try Data("locale: pt-BR\n".utf8).write(to: data.appendingPathComponent("tally.yml"))
        #expect(try failure(data, work: work) == "data folder \(data.path) is empty: expected one sub-folder per dataset: checkins/, expenses/, health/, subscriptions/, swipes/")
    }

    @Test("dataset folders with nothing to load, and folders that are not datasets")
    func noInputFile() throws {
        let work = try temporaryFolder("datafolder")
        defer { try? fm.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try fm.createDirectory(at: data.appendingPathComponent("expenses"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: data.appendingPathComponent("expenses/notes.docx"))
        #expect(try failure(data, work: work).hasPrefix("data folder \(data.path) holds no input file: its dataset folders (expenses/) hold no .csv, .ndjson or .jsonl table"))
        try fm.removeItem(at: data.appendingPathComponent("expenses"))
        try fm.createDirectory(at: data.appendingPathComponent("exports-2026"), withIntermediateDirectories: true)
        #expect(try failure(data, work: work) == "data folder \(data.path) has no dataset folder: found exports-2026/; expected one sub-folder per dataset: checkins/, expenses/, health/, subscriptions/, swipes/")
    }

    @Test("a folder one level too high names the data folder inside it")
    func oneLevelTooHigh() throws {
        let work = try temporaryFolder("datafolder")
        defer { try? fm.removeItem(at: work) }
        let parent = work.appendingPathComponent("exports")
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: parent.appendingPathComponent("2026-10"))
        #expect(try failure(parent, work: work) == "data folder \(parent.path) holds no dataset folder, but 2026-10/ does: pass --data \(parent.path)/2026-10")
    }

    @Test("tally report with no warehouse is an error and creates nothing")
    func reportWithoutAWarehouse() throws {
        let work = try temporaryFolder("datafolder")
        defer { try? fm.removeItem(at: work) }
        let out = work.appendingPathComponent("new"), db = work.appendingPathComponent("w.sqlite")
        let request = RunRequest(dataDirectory: nil, outDirectory: out, period: YearMonth("2026-10")!, databasePath: db.path)
        #expect(throws: MissingInputError.self) { _ = try runner.run(request) }
        #expect(!fm.fileExists(atPath: out.path))
        #expect(!fm.fileExists(atPath: db.path))
    }

    @Test("names close to a dataset's", arguments: [
        ("expense", "expenses"), ("Swipes", "swipes"), ("checkin", "checkins"), ("heath", "health"), ("subscription", "subscriptions"),
    ])
    func nearNames(_ typed: String, _ meant: String) {
        #expect(DataFolderCheck.nearDataset(typed) == meant)
    }

    @Test("names far from every dataset's", arguments: ["archive", "reports", "2026-10", "exports", "x"])
    func farNames(_ name: String) {
        #expect(DataFolderCheck.nearDataset(name) == nil)
    }
}
