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

    public init(url: URL, relativePath: String, kind: InputKind) {
        self.url = url
        self.relativePath = relativePath
        self.kind = kind
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
/// (`<dataset>/<table>.<ext>`, ext one of csv, ndjson, jsonl, optionally `.gz`),
/// plus Apple Health exports (`health/<userId>/export.zip|xml`) and App Store
/// Connect reports (`subscriptions/*.tsv|txt`). Anything else is listed in
/// ``ignored`` so the run log can name it.
public struct InputCatalog: Sendable {
    /// Recognised table files, in load order (referenced tables first).
    public var files: [InputFile]
    /// Relative paths of files that are not tables, with why.
    public var ignored: [(path: String, why: String)]

    /// Scans `directory`. Throws when it is not a readable folder or when one
    /// table has two files (which one would be the export is ambiguous).
    public static func scan(_ directory: URL) throws -> InputCatalog {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: directory.path, isDirectory: &isDir), isDir.boolValue else {
            throw CatalogError("data folder \(directory.path) does not exist or is not a folder")
        }
        var files: [InputFile] = []
        var ignored: [(String, String)] = []
        let datasets = Set(TableID.allCases.map(\.dataset))
        let top = try fm.contentsOfDirectory(atPath: directory.path).sorted()
        for entry in top where !entry.hasPrefix(".") {
            let url = directory.appendingPathComponent(entry)
            guard isDirectory(url) else {
                if entry != "tally.yml" { ignored.append((entry, "not inside a dataset folder")) }
                continue
            }
            guard datasets.contains(entry) else {
                ignored.append((entry + "/", "not a dataset folder (expected one of \(datasets.sorted().joined(separator: ", ")))"))
                continue
            }
            for name in try fm.contentsOfDirectory(atPath: url.path).sorted() where !name.hasPrefix(".") {
                let fileURL = url.appendingPathComponent(name)
                let relative = "\(entry)/\(name)"
                if isDirectory(fileURL) {
                    if entry == "health", let export = try appleHealthExport(in: fileURL, userId: name, relative: relative) {
                        files.append(export.file)
                        ignored += export.ignored
                    } else {
                        ignored.append((relative + "/", entry == "health"
                            ? "no export.zip or export.xml in this Apple Health export folder"
                            : "a folder inside a dataset folder"))
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
                guard let stem = TableFileName(name)?.table else {
                    ignored.append((relative, "not a .csv, .ndjson or .jsonl file (optionally .gz)"))
                    continue
                }
                guard let table = TableID.named(dataset: entry, stem: stem) else {
                    ignored.append((relative, "no table named '\(stem)' in \(entry)/"))
                    continue
                }
                files.append(InputFile(url: fileURL, relativePath: relative, kind: .table(table)))
            }
        }
        let byTable = Dictionary(grouping: files.filter { $0.table != nil }, by: { $0.table! })
        if let (table, twins) = byTable.first(where: { $0.value.count > 1 }) {
            throw CatalogError("table \(table.qualifiedName) has \(twins.count) files (\(twins.map(\.relativePath).sorted().joined(separator: ", "))); keep one")
        }
        files.sort { $0.loadOrder < $1.loadOrder }
        return InputCatalog(files: files, ignored: ignored)
    }

    /// `health/<userId>/`: its `export.zip`, else its `export.xml`; other files there are ignored.
    static func appleHealthExport(in folder: URL, userId: String, relative: String) throws
        -> (file: InputFile, ignored: [(String, String)])? {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
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
