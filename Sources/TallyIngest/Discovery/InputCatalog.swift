import Foundation

/// One input file of a data folder, and the table it holds.
public struct InputFile: Sendable, Hashable {
    public var url: URL
    /// The path relative to the data folder (`expenses/expenses.csv`), as reports show it.
    public var relativePath: String
    public var table: TableID
}

/// The files of a data folder: one sub-folder per dataset, a table per file
/// (`<dataset>/<table>.<ext>`, ext one of csv, ndjson, jsonl, optionally `.gz`).
/// Anything else is listed in ``ignored`` so the run log can name it.
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
                    ignored.append((relative + "/", entry == "health"
                        ? "Apple Health exports are not read by this version yet"
                        : "a folder inside a dataset folder"))
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
                files.append(InputFile(url: fileURL, relativePath: relative, table: table))
            }
        }
        let byTable = Dictionary(grouping: files, by: \.table)
        if let (table, twins) = byTable.first(where: { $0.value.count > 1 }) {
            throw CatalogError("table \(table.qualifiedName) has \(twins.count) files (\(twins.map(\.relativePath).sorted().joined(separator: ", "))); keep one")
        }
        files.sort { ($0.table, $0.relativePath) < ($1.table, $1.relativePath) }
        return InputCatalog(files: files, ignored: ignored)
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
