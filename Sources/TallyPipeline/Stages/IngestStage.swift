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
        public var kind: InputKind
        public var loaded: Bool
        public var rowsRead: Int
        public var rowsRejected: Int
        public var bytes: Int64
        public var seconds: Double
        /// The file's id in the warehouse, when loaded.
        var fileId: Int64?
    }

    /// What the stage did.
    public struct Outcome: Sendable {
        public var files: [FileOutcome]
        public var ignored: [(path: String, why: String)]
        public var seconds: Double
        /// The derived tables rebuilt at the end of the ingest, with their times.
        public var derivations: [DerivationTiming] = []
        public var filesLoaded: Int { files.filter(\.loaded).count }
        public var rowsRead: Int { files.filter(\.loaded).map(\.rowsRead).reduce(0, +) }
        public var bytesRead: Int64 { files.filter(\.loaded).map(\.bytes).reduce(0, +) }
    }

    let logger: Logger
    let progress: Progress
    /// The report time zone, which places Apple Health records on local days.
    let timezone: ReportTimeZone?

    /// The longest record a table file may have: 1 MiB, the most a Firestore
    /// document can hold, and far above any contract row. A longer record is
    /// rejected. A record that is read is copied a few times on its way to
    /// the reports (a String, the warehouse, the statement), so this bounds
    /// what one hostile row costs in memory (tens of MiB, not gigabytes).
    public static let maxRecordBytes = 1 << 20

    public init(logger: Logger, progress: Progress, timezone: ReportTimeZone? = nil) {
        self.logger = logger
        self.progress = progress
        self.timezone = timezone
    }

    /// Ingests `dataDirectory` into `warehouse`.
    public func run(dataDirectory: URL, warehouse: Warehouse) throws -> Outcome {
        let started = Date()
        let catalog = try InputCatalog.scan(dataDirectory)
        var ignored = catalog.ignored
        for item in ignored { logger.info("ignored \(item.path): \(item.why)") }
        let files = catalog.files.filter { file in
            guard InputLoaders.canLoad(file) else {
                ignored.append((file.relativePath, "dataset \(file.dataset)/ is not read by this version yet"))
                logger.notice("not ingested: \(file.relativePath) (dataset \(file.dataset)/ is not read by this version yet)")
                return false
            }
            return true
        }
        let folder = dataDirectory.standardizedFileURL.path
        let present = Set(catalog.files.map { $0.url.standardizedFileURL.path })
        let fingerprints = FingerprintsAhead(files.map(\.url))
        defer { fingerprints.cancel() }
        var outcomes = try warehouse.ingest { session in
            for path in try session.unloadVanished(under: folder, present: present) {
                logger.notice("\(path) is no longer in the data folder: its rows were unloaded")
                progress.step(["stage": "ingest", "file": path, "status": "unloaded"])
            }
            return try files.indices.map { i in try load(files[i], fingerprint: fingerprints.fingerprint(i), into: session) }
        }
        // Repeated ids of some tables (subscription events) are rejected after
        // the load, when the derived tables are built: take the final counts.
        let rejected = Dictionary(uniqueKeysWithValues: try warehouse.read { try $0.inputFiles() }.map { ($0.id, $0.rowsRejected) })
        for i in outcomes.indices {
            if let id = outcomes[i].fileId, let count = rejected[id] { outcomes[i].rowsRejected = count }
        }
        for derived in warehouse.lastDerivations {
            progress.step(["stage": "derive", "table": derived.name, "seconds": String(format: "%.3f", derived.seconds)])
        }
        return Outcome(files: outcomes, ignored: ignored, seconds: Date().timeIntervalSince(started),
                       derivations: warehouse.lastDerivations)
    }

    private func load(_ file: InputFile, fingerprint: FingerprintsAhead.Fingerprint,
                      into session: IngestSession) throws -> FileOutcome {
        let started = Date()
        let path = file.url.standardizedFileURL.path
        let (bytes, sha) = fingerprint
        if let known = try session.knownFile(path: path), known.sha256 == sha, try !summedInAnotherZone(file, known, session) {
            logger.info("unchanged, not reloaded: \(file.relativePath)")
            progress.step(["stage": "ingest", "file": file.relativePath, "status": "unchanged"])
            return FileOutcome(path: file.relativePath, kind: file.kind, loaded: false, rowsRead: 0, rowsRejected: 0,
                               bytes: bytes, seconds: Date().timeIntervalSince(started))
        }
        let fileId = try session.beginFile(file, absolutePath: path, bytes: bytes, sha256: sha)
        progress.begin("ingest \(file.relativePath)", totalBytes: bytes)
        let sink = LoadSink(
            reject: { line, id, reason in
                try session.reject(file: fileId, line: line, id: id, reason: reason)
            },
            progress: { bytes, rows in self.progress.update(bytes: bytes, rows: rows) })
        let (read, rejected, unknown): (Int, Int, [String])
        if let table = file.table, let loader = InputLoaders.tables[table] {
            (read, rejected, unknown) = try loadTable(file, table: table, loader: loader, fileId: fileId, session: session, sink: sink)
        } else if let loader = InputLoaders.export(for: file.kind, timezone: timezone) {
            (read, rejected) = try loader.load(file, fileId: fileId, session: session, sink: sink)
            unknown = []
        } else {
            preconditionFailure("no loader for \(file.relativePath)")
        }
        try session.finishFile(fileId, read: read, rejected: rejected, superseded: 0, unknownFields: unknown)
        if !unknown.isEmpty {
            logger.notice("\(file.relativePath): unknown fields ignored: \(unknown.joined(separator: ", "))")
        }
        let seconds = Date().timeIntervalSince(started)
        progress.step(["stage": "ingest", "file": file.relativePath, "rows": "\(read)",
                       "rejected": "\(rejected)", "seconds": String(format: "%.3f", seconds)])
        return FileOutcome(path: file.relativePath, kind: file.kind, loaded: true, rowsRead: read,
                           rowsRejected: rejected, bytes: bytes, seconds: seconds, fileId: fileId)
    }

    /// True for an Apple Health export whose days were summed in another time zone than this run's.
    private func summedInAnotherZone(_ file: InputFile, _ known: IngestSession.KnownFile, _ session: IngestSession) throws -> Bool {
        guard case .appleHealthExport = file.kind, let timezone else { return false }
        let zones = try session.exportTimezones(fileId: known.id)
        if zones.isEmpty || zones == [timezone.identifier] { return false }
        logger.notice("\(file.relativePath): days were summed in \(zones.sorted().joined(separator: ", ")), reloading for \(timezone.identifier)")
        return true
    }

    /// Reads a table file record by record; a record the loader cannot decode
    /// or whose key repeats is rejected with its line and reason.
    private func loadTable(_ file: InputFile, table: TableID, loader: TableLoader, fileId: Int64,
                           session: IngestSession, sink: LoadSink) throws -> (Int, Int, [String]) {
        let reader = try TableReader(url: file.url, fields: table.fields, maxRecordBytes: IngestStage.maxRecordBytes)
        for missing in reader.missingFields { logger.notice("\(file.relativePath): no column \(missing)") }
        var rejected = 0
        if let bulk = loader.bulk {
            rejected = try bulk(reader, table.fields, fileId, session, sink)
        } else {
            try loadRows(reader, table: table, loader: loader, fileId: fileId, session: session, sink: sink, rejected: &rejected)
        }
        for repeated in try loader.removeRepeats?(session, fileId) ?? [] {
            rejected += 1
            try sink.reject(repeated.line, repeated.id, loader.duplicateReason)
        }
        return (reader.recordsRead, rejected, reader.unknownFields)
    }

    /// The row-by-row load: decode and store each record in turn.
    private func loadRows(_ reader: TableReader, table: TableID, loader: TableLoader, fileId: Int64,
                          session: IngestSession, sink: LoadSink, rejected: inout Int) throws {
        let fields = table.fields
        let idIndex = fields.firstIndex(of: "id")
        try reader.read { event in
            switch event {
            case .malformed(let line, let reason):
                rejected += 1
                try sink.reject(line, "", reason)
            case .record(let view):
                let decoder = FieldDecoder(view: view, fields: fields)
                do {
                    if try !loader.store(decoder, session, fileId) {
                        rejected += 1
                        try sink.reject(view.line, idIndex.flatMap { view.string($0) } ?? "", loader.duplicateReason)
                    }
                } catch let error as FieldError {
                    rejected += 1
                    try sink.reject(view.line, idIndex.flatMap { view.string($0) } ?? "", error.reason)
                }
                if reader.recordsRead % 4096 == 0 { sink.progress(reader.bytesConsumed, reader.recordsRead) }
            }
        }
    }
}
