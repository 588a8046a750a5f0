import Foundation

/// What an input file holds.
public enum InputKind: Sendable, Hashable {
    /// A table of the contract (`expenses/expenses.csv`).
    case table(TableID)
    /// An Apple Health export of one user (`health/<userId>/export.zip` or `export.xml`).
    case appleHealthExport(userId: String)
    /// An App Store Connect report, tab-separated (`subscriptions/*.tsv` or `*.txt`, optionally `.gz`);
    /// which report it is shows in its header.
    case appStoreConnectReport
}

/// One input file of a data folder, and what it holds.
public struct InputFile: Sendable, Hashable {
    public var url: URL
    /// The path relative to the data folder (`expenses/expenses.csv`), as reports show it.
    public var relativePath: String
    public var kind: InputKind
    /// Whether the file is one part of a table exported as a folder of parts
    /// (`swipes/swipes/part-00000.csv.gz`).
    public var isPart: Bool
    /// Whether the file is Parquet (`expenses/expenses/part-00000.parquet`):
    /// tally's readers do not read it; an engine that reads Parquet (the
    /// Spark job) sends its rows to the decode stage.
    public var isParquet: Bool

    public init(url: URL, relativePath: String, kind: InputKind, isPart: Bool = false, isParquet: Bool = false) {
        self.url = url
        self.relativePath = relativePath
        self.kind = kind
        self.isPart = isPart
        self.isParquet = isParquet
    }

    /// The table, when the file is one.
    public var table: TableID? {
        if case .table(let table) = kind { return table }
        return nil
    }

    /// The dataset folder it was found in.
    public var dataset: String {
        switch kind {
        case .table(let table): return table.dataset
        case .appleHealthExport: return "health"
        case .appStoreConnectReport: return "subscriptions"
        }
    }

    /// A name for what it holds, as run.json and the warehouse record it.
    public var tableName: String {
        switch kind {
        case .table(let table): return table.rawValue
        case .appleHealthExport: return "appleHealthExport"
        case .appStoreConnectReport: return "appStoreConnectReport"
        }
    }

    /// Load order: tables in contract order (referenced tables first), then a
    /// dataset's exports after its tables, then by path.
    var loadOrder: (Int, String) {
        switch kind {
        case .table(let table): return (TableID.allCases.firstIndex(of: table)! * 2, relativePath)
        case .appleHealthExport: return (TableID.allCases.firstIndex(of: .activity)! * 2 + 1, relativePath)
        case .appStoreConnectReport: return (TableID.allCases.firstIndex(of: .events)! * 2 + 1, relativePath)
        }
    }
}

/// The files of a data folder: one sub-folder per dataset, a table per file
/// (`<dataset>/<table>.<ext>`, ext one of csv, ndjson, jsonl, optionally `.gz`,
/// or parquet) or per folder of parts (`<dataset>/<table>/part-00000.csv.gz`,
/// `part-00000.parquet`, …),
/// plus Apple Health exports (`health/<userId>/export.zip|xml`) and App Store
/// Connect reports (`subscriptions/*.tsv|txt`). Anything else is listed in
/// ``ignored`` so the run log can name it.
public struct InputCatalog: Sendable {
    /// Recognised table files, in load order (referenced tables first).
    public var files: [InputFile]
    /// Relative paths of files that are not tables, with why.
    public var ignored: [(path: String, why: String)]

    /// Scans `directory`. Throws when it is not a readable folder, when one
    /// table has two files (which one would be the export is ambiguous), and
    /// when it is not a data folder at all (``DataFolderCheck``): empty, no
    /// dataset folder, a dataset folder itself (one level too deep), or a
    /// folder named almost like a dataset (`expense/`: did you mean expenses/?).
    public static func scan(_ directory: URL) throws -> InputCatalog {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: directory.path, isDirectory: &isDir), isDir.boolValue else {
            throw CatalogError("data folder \(directory.path) does not exist or is not a folder")
        }
        var files: [InputFile] = []
        var ignored: [(String, String)] = []
        let datasets = Set(TableID.allCases.map(\.dataset))
        let top = try names(in: directory)
        for entry in top where !entry.hasPrefix(".") {
            let url = directory.appendingPathComponent(entry)
            guard isDirectory(url) else {
                if entry != "tally.yml" { ignored.append((entry, "not inside a dataset folder")) }
                continue
            }
            guard datasets.contains(entry) else {
                // A typo of a dataset that is missing would silently empty its
                // reports; beside the real folder (checkins2/ and checkins/) it is
                // only ignored.
                if let near = DataFolderCheck.nearDataset(entry), !top.contains(near) {
                    throw CatalogError("data folder \(directory.path): \(entry)/ is not a dataset folder: did you mean \(near)/? (expected \(DataFolderCheck.expected))")
                }
                ignored.append((entry + "/", "not a dataset folder (expected one of \(datasets.sorted().joined(separator: ", ")))"))
                continue
            }
            for name in try names(in: url) where !name.hasPrefix(".") {
                let fileURL = url.appendingPathComponent(name)
                let relative = "\(entry)/\(name)"
                if isDirectory(fileURL) {
                    if entry == "health", let export = try appleHealthExport(in: fileURL, userId: name, relative: relative) {
                        files.append(export.file)
                        ignored += export.ignored
                    } else if let table = TableID.named(dataset: entry, stem: name) {
                        let parts = try partFiles(in: fileURL, table: table, relative: relative)
                        files += parts.files
                        ignored += parts.ignored
                    } else {
                        ignored.append((relative + "/", entry == "health"
                            ? "no export.zip or export.xml in this Apple Health export folder"
                            : "a folder inside a dataset folder, not named after one of its tables"))
                    }
                    continue
                }
                guard isRegularFile(fileURL) else {
                    // A pipe would block the run forever, /dev/zero would never end.
                    ignored.append((relative, "not a regular file (a pipe, a device, a socket or a broken link)"))
                    continue
                }
                if entry == "subscriptions", isAppStoreConnectName(name) {
                    files.append(InputFile(url: fileURL, relativePath: relative, kind: .appStoreConnectReport))
                    continue
                }
                let parquet = parquetStem(name)
                guard let stem = TableFileName(name)?.table ?? parquet else {
                    ignored.append((relative, "not a .csv, .ndjson or .jsonl file (optionally .gz), nor .parquet"))
                    continue
                }
                guard let table = TableID.named(dataset: entry, stem: stem) else {
                    ignored.append((relative, "no table named '\(stem)' in \(entry)/"))
                    continue
                }
                files.append(InputFile(url: fileURL, relativePath: relative, kind: .table(table), isParquet: parquet != nil))
            }
        }
        if files.isEmpty { throw DataFolderCheck.noInput(directory, entries: top) }
        // A table is one file, or one folder of parts: two files (or a file beside its
        // folder) leave it ambiguous which is the export.
        let byTable = Dictionary(grouping: files.filter { $0.table != nil && !$0.isPart }, by: { $0.table! })
        let partTables = Set(files.filter(\.isPart).compactMap(\.table))
        if let (table, twins) = byTable.sorted(by: { $0.key.qualifiedName < $1.key.qualifiedName })
            .first(where: { $0.value.count > 1 || partTables.contains($0.key) }) {
            let paths = twins.map(\.relativePath).sorted()
            if partTables.contains(table) {
                throw CatalogError("table \(table.qualifiedName) has both \(paths.joined(separator: ", ")) and the folder of parts \(table.dataset)/\(table.stem)/; keep one")
            }
            throw CatalogError("table \(table.qualifiedName) has \(twins.count) files (\(paths.joined(separator: ", "))); keep one")
        }
        files.sort { $0.loadOrder < $1.loadOrder }
        return InputCatalog(files: files, ignored: ignored)
    }

    /// `<dataset>/<table>/`: a table exported as parts (`part-00000.csv.gz`, …,
    /// as Firestore and Spark write them, or `part-00000.parquet`, as a data
    /// platform keeps a table), each part a file of the table with its own
    /// header and line numbers, loaded in name order. Files that are not
    /// tables (Spark's `_SUCCESS`, checksums) are ignored; a folder with no
    /// part is ignored with why.
    static func partFiles(in folder: URL, table: TableID, relative: String) throws
        -> (files: [InputFile], ignored: [(String, String)]) {
        var files: [InputFile] = []
        var ignored: [(String, String)] = []
        for name in try names(in: folder) where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            let path = "\(relative)/\(name)"
            if isDirectory(url) {
                ignored.append((path + "/", "a folder inside the folder of parts of \(table.qualifiedName)"))
            } else if !isRegularFile(url) {
                ignored.append((path, "not a regular file (a pipe, a device, a socket or a broken link)"))
            } else if TableFileName(name) == nil && parquetStem(name) == nil {
                ignored.append((path, "not a part of \(table.qualifiedName): not a .csv, .ndjson or .jsonl file (optionally .gz), nor .parquet"))
            } else {
                files.append(InputFile(url: url, relativePath: path, kind: .table(table), isPart: true, isParquet: TableFileName(name) == nil))
            }
        }
        if files.isEmpty {
            ignored.append((relative + "/", "a folder of parts of \(table.qualifiedName) with no .csv, .ndjson, .jsonl or .parquet part"))
        }
        return (files, ignored)
    }

    /// The name before `.parquet` (any case) of a Parquet file's name; nil for other names.
    static func parquetStem(_ name: String) -> String? {
        let suffix = ".parquet"
        guard name.utf8.count > suffix.utf8.count, name.lowercased().hasSuffix(suffix) else { return nil }
        return String(decoding: name.utf8.dropLast(suffix.utf8.count), as: UTF8.self)
    }

    /// The files only an engine that reads Parquet can read (``InputFile/isParquet``), in load order.
    public var parquetFiles: [InputFile] { files.filter(\.isParquet) }

    /// Throws, naming the tables, when the folder holds Parquet tables:
    /// `tally run` and `tally ingest` read the exports, and a run that
    /// skipped a table would publish reports without its rows.
    public func refusingParquet() throws {
        let parquet = parquetFiles
        guard let first = parquet.first else { return }
        var tables: [String] = []
        for file in parquet {
            let shown = file.isPart ? (file.relativePath as NSString).deletingLastPathComponent + "/" : file.relativePath
            if !tables.contains(shown) { tables.append(shown) }
        }
        throw CatalogError("\(tables.joined(separator: ", ")) \(tables.count > 1 ? "are Parquet tables" : "is a Parquet table") (\(first.relativePath)): tally run reads the exports (CSV, NDJSON, JSON Lines); the Spark job reads Parquet (make spark DATA=…, or spark/tally_spark.py), or write the table as CSV")
    }

    /// `health/<userId>/`: its `export.zip`, else its `export.xml`; other files there are ignored.
    static func appleHealthExport(in folder: URL, userId: String, relative: String) throws
        -> (file: InputFile, ignored: [(String, String)])? {
        let names = try names(in: folder)
        guard let chosen = ["export.zip", "export.xml"].first(where: {
            names.contains($0) && isRegularFile(folder.appendingPathComponent($0))
        }) else { return nil }
        let others = names.filter { $0 != chosen && !$0.hasPrefix(".") }.map {
            ("\(relative)/\($0)", $0 == "export.xml" ? "export.zip is read instead" : "not part of an Apple Health export")
        }
        let file = InputFile(url: folder.appendingPathComponent(chosen), relativePath: "\(relative)/\(chosen)",
                             kind: .appleHealthExport(userId: userId))
        return (file, others)
    }

    /// The names in a folder, sorted; a folder that cannot be listed is a
    /// ``CatalogError`` naming it and the cause (`permission denied`).
    static func names(in folder: URL) throws -> [String] {
        guard let dir = opendir(folder.path) else {
            let cause = errno == EACCES || errno == EPERM ? "permission denied" : String(cString: strerror(errno))
            throw CatalogError("cannot read the folder \(folder.path): \(cause)")
        }
        closedir(dir)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// App Store Connect reports are tab-separated text (`.tsv`, `.txt`, optionally gzip-compressed).
    static func isAppStoreConnectName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return [".tsv", ".txt", ".tsv.gz", ".txt.gz"].contains { lower.hasSuffix($0) }
    }

    /// Whether `url` is a regular file, following symbolic links.
    static func isRegularFile(_ url: URL) -> Bool {
        var info = stat()
        return stat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    static func isDirectory(_ url: URL) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
    }
}

/// A data folder that cannot be read as one.
public struct CatalogError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Why a folder given as `--data` holds no input, in words that say what was
/// found and what was expected.
enum DataFolderCheck {
    /// The dataset folders, as a message lists them.
    static var expected: String {
        "one sub-folder per dataset: " + Set(TableID.allCases.map(\.dataset)).sorted().map { $0 + "/" }.joined(separator: ", ")
    }

    /// The error for a data folder in which no input file was found.
    static func noInput(_ directory: URL, entries: [String]) -> CatalogError {
        let fm = FileManager.default
        let visible = entries.filter { !$0.hasPrefix(".") && $0 != "tally.yml" }
        let path = directory.path
        if visible.isEmpty {
            return CatalogError("data folder \(path) is empty: expected \(expected)")
        }
        // One level too deep: the folder is a dataset folder (its files are tables).
        let tables = visible.filter { name in
            TableFileName(name).map { stem in TableID.allCases.contains { $0.stem == stem.table } } ?? false
        }
        let name = directory.standardizedFileURL.lastPathComponent
        if !tables.isEmpty || Set(TableID.allCases.map(\.dataset)).contains(name) {
            let parent = directory.standardizedFileURL.deletingLastPathComponent().path
            let holds = tables.isEmpty ? "" : " (it holds \(tables.prefix(3).joined(separator: ", ")))"
            return CatalogError("data folder \(path) looks like a dataset folder itself\(holds), one level too deep: pass the folder that holds it, --data \(parent)")
        }
        // One level too high: a sub-folder holds the dataset folders.
        let datasets = Set(TableID.allCases.map(\.dataset))
        if let inner = visible.first(where: { entry in
            ((try? fm.contentsOfDirectory(atPath: directory.appendingPathComponent(entry).path)) ?? []).contains { datasets.contains($0) }
        }) {
            return CatalogError("data folder \(path) holds no dataset folder, but \(inner)/ does: pass --data \(directory.appendingPathComponent(inner).path)")
        }
        let found = visible.prefix(8).map { InputCatalog.isDirectory(directory.appendingPathComponent($0)) ? $0 + "/" : $0 }
        let present = visible.filter { datasets.contains($0) }
        if !present.isEmpty {
            return CatalogError("data folder \(path) holds no input file: its dataset folders (\(present.map { $0 + "/" }.joined(separator: ", "))) hold no .csv, .ndjson or .jsonl table (see the log for what was ignored)")
        }
        return CatalogError("data folder \(path) has no dataset folder: found \(found.joined(separator: ", "))\(visible.count > 8 ? ", …" : ""); expected \(expected)")
    }

    /// The dataset a folder name is close to (a typo, a singular, another
    /// case), if any.
    static func nearDataset(_ name: String) -> String? {
        let lower = name.lowercased()
        return Set(TableID.allCases.map(\.dataset)).sorted().first { dataset in
            lower == dataset || lower + "s" == dataset || editDistance(lower, dataset, limit: 2) <= 2
        }
    }

    /// The Levenshtein distance of `a` and `b`, or `limit + 1` when it is larger.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty, !b.isEmpty else { return min(max(a.count, b.count), limit + 1) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return min(previous[b.count], limit + 1)
    }
}
