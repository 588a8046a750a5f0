import TallyCore
import TallyIngest
import TallyWarehouse

/// How one table's records are decoded and stored.
struct TableLoader: Sendable {
    /// Loads the whole file: decoding on a reading thread while the writer
    /// stores (``PipelinedLoad``, ``TableLoader/staged(stage:store:removeRepeats:)``,
    /// ``TableLoader/keyed(keyDescription:decode:store:)``). Returns the rows rejected.
    var load: @Sendable (_ reader: TableReader, _ fields: [String], _ fileId: Int64, IngestSession, LoadSink) throws -> Int
    /// What makes a row unique, for the duplicate-key reject ("id").
    var keyDescription = "id"
    /// For a table stored as an append-only log: after the file's last row,
    /// removes the rows its version rule rejects (a key an earlier row of the
    /// file has) and returns them (line, key and the rule's reason), to be rejected.
    var removeRepeats: (@Sendable (IngestSession, _ fileId: Int64) throws -> [(line: Int, id: String, reason: RejectReason)])?

    init(load: @escaping @Sendable (TableReader, [String], Int64, IngestSession, LoadSink) throws -> Int,
         keyDescription: String = "id",
         removeRepeats: (@Sendable (IngestSession, _ fileId: Int64) throws -> [(line: Int, id: String, reason: RejectReason)])? = nil) {
        self.load = load
        self.keyDescription = keyDescription
        self.removeRepeats = removeRepeats
    }
}


/// Where a loader reports what it refused and how far it got.
struct LoadSink {
    /// Stores a reject for the current file (the work runs on the writer thread), with the couple's
    /// row as written when it is an expense or settlement that names its couple (``RefusedRows``).
    var reject: (_ line: Int, _ id: String, _ reason: RejectReason, _ refused: RefusedRow?) throws -> Void
    /// Reports progress (bytes of the file consumed, records read).
    var progress: (_ bytes: Int64, _ rows: Int) -> Void
    /// Runs warehouse work on the writer thread, when the load runs in a
    /// lane of its own (``WriterLanes``); else where it is called.
    var onWriter: (_ work: () throws -> Void) throws -> Void = { work in try work() }
}

/// Loads a whole input file that is not a contract table (an Apple Health
/// export, an App Store Connect report), with its own reader.
protocol ExportLoader: Sendable {
    /// Loads `file`; returns the records read and how many the loader rejected
    /// (each also given to `sink.reject`).
    func load(_ file: InputFile, fileId: Int64, session: IngestSession, sink: LoadSink) throws -> (read: Int, rejected: Int)
}

/// Every loader tally has, by input kind. A dataset adds its loaders here once.
enum InputLoaders {
    static let tables: [TableID: TableLoader] = ExpensesLoaders.tables
        .merging(FitnessLoaders.tables) { first, _ in first }
        .merging(KPILoaders.tables) { first, _ in first }

    /// The loader of an export.
    static func export(for kind: InputKind) -> ExportLoader? {
        switch kind {
        case .table: return nil
        case .appleHealthExport:
            return AppleHealthLoader()
        case .appStoreConnectReport: return AppStoreConnectLoader()
        }
    }

    /// True when this version can load `file`.
    static func canLoad(_ file: InputFile) -> Bool {
        if let table = file.table { return tables[table] != nil }
        return export(for: file.kind) != nil
    }
}
