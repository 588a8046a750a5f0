import Foundation
import Logging
import TallyCore
import TallyIngest
import TallyWarehouse

/// Loads every table file of a data folder into the warehouse, in one
/// transaction: a failure or an interruption leaves the warehouse as it was.
///
/// A file whose path and sha256 match what is already loaded is skipped; a
/// changed file replaces its previous version and every row it brought.
public struct IngestStage {
    /// What happened to one input file.
    public struct FileOutcome: Sendable {
        public var path: String
        public var table: TableID
        public var loaded: Bool
        public var rowsRead: Int
        public var rowsRejected: Int
        public var bytes: Int64
        public var seconds: Double
    }

    /// What the stage did.
    public struct Outcome: Sendable {
        public var files: [FileOutcome]
        public var ignored: [(path: String, why: String)]
        public var seconds: Double
        public var filesLoaded: Int { files.filter(\.loaded).count }
        public var rowsRead: Int { files.filter(\.loaded).map(\.rowsRead).reduce(0, +) }
        public var bytesRead: Int64 { files.filter(\.loaded).map(\.bytes).reduce(0, +) }
    }

    /// Tables this version loads. The other datasets' files are named in the log, not loaded.
    public static let supportedTables: Set<TableID> = [.couples, .members, .cards, .fx, .agreements, .expenses, .settlements]

    let logger: Logger
    let progress: Progress

    public init(logger: Logger, progress: Progress) {
        self.logger = logger
        self.progress = progress
    }

    /// Ingests `dataDirectory` into `warehouse`.
    public func run(dataDirectory: URL, warehouse: Warehouse) throws -> Outcome {
        let started = Date()
        let catalog = try InputCatalog.scan(dataDirectory)
        var ignored = catalog.ignored
        for item in ignored { logger.info("ignored \(item.path): \(item.why)") }
        let files = catalog.files.filter { file in
            guard IngestStage.supportedTables.contains(file.table) else {
                ignored.append((file.relativePath, "dataset \(file.table.dataset)/ is not read by this version yet"))
                logger.notice("not ingested: \(file.relativePath) (dataset \(file.table.dataset)/ is not read by this version yet)")
                return false
            }
            return true
        }
        let outcomes = try warehouse.ingest { session in
            try files.map { file in try load(file, into: session) }
        }
        return Outcome(files: outcomes, ignored: ignored, seconds: Date().timeIntervalSince(started))
    }

    private func load(_ file: InputFile, into session: IngestSession) throws -> FileOutcome {
        let started = Date()
        let path = file.url.standardizedFileURL.path
        let (bytes, sha) = try FileFingerprint.of(url: file.url)
        if let known = try session.knownFile(path: path), known.sha256 == sha {
            logger.info("unchanged, not reloaded: \(file.relativePath)")
            progress.step(["stage": "ingest", "file": file.relativePath, "status": "unchanged"])
            return FileOutcome(path: file.relativePath, table: file.table, loaded: false, rowsRead: 0, rowsRejected: 0,
                               bytes: bytes, seconds: Date().timeIntervalSince(started))
        }
        let fileId = try session.beginFile(file, absolutePath: path, bytes: bytes, sha256: sha)
        let reader = try TableReader(url: file.url, fields: file.table.fields)
        for missing in reader.missingFields { logger.notice("\(file.relativePath): no column \(missing)") }
        progress.begin("ingest \(file.relativePath)", totalBytes: bytes)
        var rejected = 0
        let fields = file.table.fields
        let idIndex = fields.firstIndex(of: "id")
        try reader.read { event in
            switch event {
            case .malformed(let line, let reason):
                rejected += 1
                try session.reject(file: fileId, line: line, id: "", reason: reason)
            case .record(let view):
                let decoder = FieldDecoder(view: view, fields: fields)
                do {
                    if try !store(decoder, table: file.table, file: fileId, session: session) {
                        rejected += 1
                        let id = idIndex.flatMap { view.string($0) } ?? ""
                        try session.reject(file: fileId, line: view.line, id: id,
                                           reason: "duplicate \(IngestStage.keyDescription(file.table)) in this file (the first row is kept)")
                    }
                } catch let error as FieldError {
                    rejected += 1
                    let id = idIndex.flatMap { view.string($0) } ?? ""
                    try session.reject(file: fileId, line: view.line, id: String(id.prefix(200)), reason: error.reason)
                }
                if reader.recordsRead % 4096 == 0 {
                    progress.update(bytes: reader.bytesConsumed, rows: reader.recordsRead)
                }
            }
        }
        try session.finishFile(fileId, read: reader.recordsRead, rejected: rejected, superseded: 0,
                               unknownFields: reader.unknownFields)
        if !reader.unknownFields.isEmpty {
            logger.notice("\(file.relativePath): unknown fields ignored: \(reader.unknownFields.joined(separator: ", "))")
        }
        let seconds = Date().timeIntervalSince(started)
        progress.step(["stage": "ingest", "file": file.relativePath, "rows": "\(reader.recordsRead)",
                       "rejected": "\(rejected)", "seconds": String(format: "%.3f", seconds)])
        return FileOutcome(path: file.relativePath, table: file.table, loaded: true, rowsRead: reader.recordsRead,
                           rowsRejected: rejected, bytes: bytes, seconds: seconds)
    }

    /// Decodes and stores one record; false when its key repeats within the file.
    private func store(_ f: FieldDecoder, table: TableID, file: Int64, session: IngestSession) throws -> Bool {
        switch table {
        case .couples: return try session.insert(ExpenseDecoders.couple(f), file: file, line: f.line)
        case .members: return try session.insert(ExpenseDecoders.member(f), file: file, line: f.line)
        case .cards: return try session.insert(ExpenseDecoders.card(f), file: file, line: f.line)
        case .fx: return try session.insert(ExpenseDecoders.fx(f), file: file, line: f.line)
        case .agreements: return try session.insert(ExpenseDecoders.agreement(f), file: file, line: f.line)
        case .settlements: return try session.insert(ExpenseDecoders.settlement(f), file: file, line: f.line)
        case .expenses:
            try session.insert(ExpenseDecoders.expenseVersion(f), file: file, line: f.line)
            return true
        default:
            preconditionFailure("\(table) is not a supported table")
        }
    }

    static func keyDescription(_ table: TableID) -> String {
        table == .fx ? "rate (same date, currency and base)" : "id"
    }
}
