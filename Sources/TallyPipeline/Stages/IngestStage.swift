import Foundation
import Logging
import TallyCore
import TallyIngest
import TallyWarehouse

/// Loads every table file of a data folder into the warehouse, in one
/// transaction: a failure or an interruption leaves the warehouse as it was.
/// The derived tables are rebuilt after it (see ``RunGraph``).
///
/// A file whose path and sha256 match what is already loaded is skipped; a
/// changed file replaces its previous version and every row it brought.
/// A file that cannot be used as a whole is refused (``FileRefusal``): it
/// loads nothing and its previous version, if any, stays loaded.
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
        /// Why the file was refused as a whole (then nothing of it is loaded).
        public var refusal: FileRefusal?
    }

    /// What the stage did.
    public struct Outcome: Sendable {
        public var files: [FileOutcome]
        public var ignored: [(path: String, why: String)]
        public var seconds: Double
        /// The derived tables rebuilt after the loads, with their times.
        public var derivations: [DerivationTiming] = []
        public var filesLoaded: Int { files.filter(\.loaded).count }
        /// Files skipped as unchanged since they were loaded (refused files excluded).
        public var filesUnchanged: Int { files.filter { !$0.loaded && $0.refusal == nil }.count }
        /// The files refused as a whole, in load order.
        public var refusals: [FileRefusal] { files.compactMap(\.refusal) }

        /// Takes in the derived tables' rebuild (`timings`): repeated ids of
        /// some tables (subscription events) are rejected by it, so the
        /// files' reject counts are read again.
        public mutating func recordDerivations(_ timings: [DerivationTiming], from warehouse: Warehouse,
                                               progress: Progress) throws {
            derivations += timings
            let rejected = Dictionary(uniqueKeysWithValues: try warehouse.read { try $0.inputFiles() }.map { ($0.id, $0.rowsRejected) })
            for i in files.indices {
                if let id = files[i].fileId, let count = rejected[id] { files[i].rowsRejected = count }
            }
            for derived in timings {
                progress.step(["stage": "derive", "table": derived.name, "seconds": String(format: "%.3f", derived.seconds)])
            }
        }
        public var rowsRead: Int { files.filter(\.loaded).map(\.rowsRead).reduce(0, +) }
        public var bytesRead: Int64 { files.filter(\.loaded).map(\.bytes).reduce(0, +) }
    }

    let logger: Logger
    let progress: Progress
    /// The report time zone, whose local days the Apple Health exports'
    /// days are derived in (the ingest stores their records zone-free).
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

    /// Ingests `dataDirectory` into `warehouse`, then rebuilds the derived
    /// tables, unless `leavingDerivations`: the caller then rebuilds them
    /// (``RunGraph/run(_:context:pending:)``) and passes their times to
    /// ``Outcome/recordDerivations(_:from:progress:)``.
    public func run(dataDirectory: URL, warehouse: Warehouse, leavingDerivations: Bool = false) throws -> Outcome {
        let started = Date()
        let catalog = try InputCatalog.scan(dataDirectory)
        try catalog.refusingParquet()
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
        // A file refused once its rows began to load rolls the transaction
        // back (its earlier version is then whole again): the ingest starts
        // again without it. A file refused by its header loads nothing and
        // needs no new start.
        var refusedWhileLoading: [String: FileRefusal] = [:]
        var loaded: [FileOutcome?]
        while true {
            loaded = [FileOutcome?](repeating: nil, count: files.count)
            do {
                try ingest(files, folder: folder, present: present, refused: refusedWhileLoading,
                           into: warehouse, outcomes: &loaded)
                break
            } catch let refusal as FileRefusal where refusedWhileLoading[refusal.path] == nil {
                refusedWhileLoading[refusal.path] = refusal
                progress.step(["stage": "ingest", "file": refusal.displayPath, "status": "refused"])
            }
        }
        for refusal in loaded.compactMap({ $0?.refusal }) {
            logger.notice("refused \(refusal.displayPath): \(refusal.reason)\(refusal.earlierVersionKept ? " (the version loaded before is kept)" : "")")
        }
        var outcome = Outcome(files: loaded.map { $0! }, ignored: ignored, seconds: Date().timeIntervalSince(started))
        if !leavingDerivations {
            try outcome.recordDerivations(try RunGraph.derive(try warehouse.pendingDerivations(), in: warehouse),
                                          from: warehouse, progress: progress)
        }
        return outcome
    }

    /// One attempt at the ingest's transaction: loads `files` except those
    /// in `refused` (absolute paths), which keep what the warehouse holds.
    private func ingest(_ files: [InputFile], folder: String, present: Set<String>, refused: [String: FileRefusal],
                        into warehouse: Warehouse, outcomes loaded: inout [FileOutcome?]) throws {
        var outcomes = loaded
        defer { loaded = outcomes }
        try warehouse.ingestLeavingDerivations { session in
            for path in try session.unloadVanished(under: folder, present: present) {
                logger.notice("\(path) is no longer in the data folder: its rows were unloaded")
                progress.step(["stage": "ingest", "file": path, "status": "unloaded"])
            }
            // A file needs its fingerprint before it loads when the warehouse
            // holds its path (unchanged files are skipped) or when no table
            // reader will hash it as it loads (exports).
            let held = try session.loadedPaths()
            func hashedAhead(_ file: InputFile) -> Bool { held.contains(file.url.standardizedFileURL.path) || file.table == nil }
            // Derived tables are rebuilt once every lane has loaded (after the
            // transaction): run beside the swipes' reading, a derivation (one
            // writer job of seconds) stalled that reading thread for as long.
            try WriterLanes.serve(Self.lanes(files).map { lane in { writer in
                let fingerprints = FingerprintsAhead(lane.map {
                    hashedAhead(files[$0]) && refused[files[$0].url.standardizedFileURL.path] == nil ? files[$0].url : nil
                })
                defer { fingerprints.cancel() }
                for (k, i) in lane.enumerated() {
                    if var refusal = refused[files[i].url.standardizedFileURL.path] {
                        refusal.earlierVersionKept = held.contains(refusal.path)
                        let outcome = FileOutcome(path: files[i].relativePath, kind: files[i].kind, loaded: false, rowsRead: 0,
                                                  rowsRejected: 0, bytes: refusal.bytes, seconds: 0, refusal: refusal)
                        try writer.onWriter { outcomes[i] = outcome }
                        continue
                    }
                    let fingerprint = hashedAhead(files[i]) ? try fingerprints.fingerprint(k) : nil
                    let outcome = try load(files[i], fingerprint: fingerprint, into: session, writer: writer,
                                           earlierVersion: held.contains(files[i].url.standardizedFileURL.path))
                    try writer.onWriter { outcomes[i] = outcome }
                }
            } })
            try session.recordRefusals(under: folder, outcomes.compactMap { $0?.refusal })
            try session.useReportTimeZone(timezone?.identifier ?? TallyConfig().timezone)
        }
    }

    /// Loads one file from a lane's thread; the warehouse work runs on the
    /// writer's (`writer.onWriter`).
    /// A new table file comes without `fingerprint`: its reader takes it as it loads.
    /// A file that cannot be used as a whole is refused: by its header before
    /// anything is written (an outcome with its refusal), or, found while its
    /// rows load, by throwing a ``FileRefusal`` (the caller starts again without it).
    private func load(_ file: InputFile, fingerprint: FingerprintsAhead.Fingerprint?,
                      into session: IngestSession, writer: WriterLanes, earlierVersion: Bool) throws -> FileOutcome {
        let started = Date()
        let path = file.url.standardizedFileURL.path
        // Until the reader's fingerprint: the size on disk, and no sha256 (the
        // transaction commits only once finishFile recorded it).
        let (bytes, sha) = fingerprint ?? (Self.size(of: file.url), "")
        let unchanged = try writer.onWriter { () throws -> Bool in
            guard let fingerprint, let known = try session.knownFile(path: path) else { return false }
            return known.sha256 == fingerprint.sha256
        }
        if unchanged {
            logger.info("unchanged, not reloaded: \(file.relativePath)")
            progress.step(["stage": "ingest", "file": file.relativePath, "status": "unchanged"])
            return FileOutcome(path: file.relativePath, kind: file.kind, loaded: false, rowsRead: 0, rowsRejected: 0,
                               bytes: bytes, seconds: Date().timeIntervalSince(started))
        }
        func refusal(_ reason: String) -> FileRefusal {
            FileRefusal(path: path, displayPath: file.relativePath, dataset: file.dataset, table: file.tableName,
                        bytes: bytes, reason: reason, earlierVersionKept: earlierVersion)
        }
        // A table's header is read and judged before anything is written.
        var reader: TableReader?
        if let table = file.table {
            do {
                reader = try TableReader(url: file.url, fields: table.fields, maxRecordBytes: IngestStage.maxRecordBytes,
                                         fingerprinting: fingerprint == nil)
            } catch {
                return refused(file, refusal(error.reason), started: started)
            }
            if let reason = reader?.headerRefusal(required: table.requiredFields) {
                return refused(file, refusal(reason), started: started)
            }
        }
        let fileId = try writer.onWriter { try session.beginFile(file, absolutePath: path, bytes: bytes, sha256: sha) }
        let stage = "ingest \(file.relativePath)"
        progress.begin(stage, totalBytes: bytes)
        let sink = LoadSink(
            reject: { line, id, reason, refused in
                // At once when already on the writer (the usual case: inside a store).
                try writer.onWriter { try session.reject(file: fileId, line: line, id: id, reason: reason, refused: refused) }
            },
            progress: { bytes, rows in self.progress.update(stage, bytes: bytes, rows: rows) },
            onWriter: { work in try writer.onWriter(work) })
        var (read, rejected, unknown): (Int, Int, [String]) = (0, 0, [])
        var taken: FingerprintsAhead.Fingerprint?
        do {
            if let table = file.table, let reader, let loader = InputLoaders.tables[table] {
                (read, rejected, unknown, taken) = try loadTable(file, reader: reader, table: table, loader: loader, fileId: fileId,
                                                                 session: session, sink: sink)
            } else if let loader = InputLoaders.export(for: file.kind) {
                try writer.onWriter { (read, rejected) = try loader.load(file, fileId: fileId, session: session, sink: sink) }
            } else {
                preconditionFailure("no loader for \(file.relativePath)")
            }
        } catch {
            guard let reason = FileRefusal.reason(for: error, path: file.relativePath) else { throw error }
            throw refusal(reason)
        }
        if fingerprint == nil && taken == nil {
            // Not read to its end (cannot happen for a load that succeeded): hash it apart.
            taken = try FileFingerprint.of(url: file.url)
        }
        try writer.onWriter {
            try session.finishFile(fileId, read: read, rejected: rejected, superseded: 0, unknownFields: unknown, fingerprint: taken)
        }
        if !unknown.isEmpty {
            logger.notice("\(file.relativePath): unknown fields ignored: \(unknown.joined(separator: ", "))")
        }
        let seconds = Date().timeIntervalSince(started)
        progress.step(["stage": "ingest", "file": file.relativePath, "rows": "\(read)",
                       "rejected": "\(rejected)", "seconds": String(format: "%.3f", seconds)])
        return FileOutcome(path: file.relativePath, kind: file.kind, loaded: true, rowsRead: read,
                           rowsRejected: rejected, bytes: taken?.bytes ?? bytes, seconds: seconds, fileId: fileId)
    }

    /// The outcome of a file refused before anything of it was written.
    private func refused(_ file: InputFile, _ refusal: FileRefusal, started: Date) -> FileOutcome {
        progress.step(["stage": "ingest", "file": file.relativePath, "status": "refused"])
        return FileOutcome(path: file.relativePath, kind: file.kind, loaded: false, rowsRead: 0, rowsRejected: 0,
                           bytes: refusal.bytes, seconds: Date().timeIntervalSince(started), refusal: refusal)
    }

    /// A file's size on disk (0 when it cannot be read: its reader then says why).
    private static func size(of url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Reads a table file record by record; a record the loader cannot decode
    /// or whose key repeats is rejected with its line and reason. Called on
    /// a lane's thread: warehouse work goes through `sink.onWriter`.
    private func loadTable(_ file: InputFile, reader: TableReader, table: TableID, loader: TableLoader, fileId: Int64,
                           session: IngestSession, sink: LoadSink) throws -> (Int, Int, [String], FingerprintsAhead.Fingerprint?) {
        for missing in reader.missingFields { logger.notice("\(file.relativePath): no column \(missing)") }
        var rejected = try loader.load(reader, table.fields, fileId, session, sink)
        try sink.onWriter {
            for repeated in try loader.removeRepeats?(session, fileId) ?? [] {
                rejected += 1
                try sink.reject(repeated.line, repeated.id, repeated.reason, nil)
            }
        }
        return (reader.recordsRead, rejected, reader.unknownFields, reader.fingerprint)
    }
}
