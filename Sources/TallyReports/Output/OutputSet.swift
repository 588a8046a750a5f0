import Foundation
import TallyCore

/// The report files of one run, written in full before any is moved into
/// place: a run that fails while writing (a full disk, a bad value) leaves
/// every previous report as it was, and its own temporary files are removed.
///
/// ``commit()`` renames them one by one (each rename is atomic); a run killed
/// during that loop leaves each report either its previous or its new
/// complete version. run.json, committed after the set, is the marker that
/// a run finished.
///
/// With a spreadsheet ``CSVDialect`` (`csv.dialect` in `tally.yml`), every CSV
/// added also gets its spreadsheet-ready copy (``CSVSpreadsheetCopy``) in the
/// `excel/` folder beside it, moved into place with the others.
public final class OutputSet {
    private var files: [AtomicFile] = []
    private var entityFolders: [(folder: URL, fileExtension: String)] = []
    /// The dialect of the CSV copies; ``CSVDialect/rfc4180`` writes none.
    public let csvDialect: CSVDialect

    public init(csvDialect: CSVDialect = .rfc4180) {
        self.csvDialect = csvDialect
    }

    /// Adds a finished file, to be moved into place with the others.
    public func add(_ file: AtomicFile) {
        files.append(file)
    }

    /// Adds a CSV file once its last row is written (closing it may fail: a full disk).
    public func add(_ csv: CSVWriter) throws {
        try csv.close()
        files.append(csv.file)
        if csvDialect.writesCopies {
            files.append(try CSVSpreadsheetCopy.write(report: csv.file.temporary, destination: csv.file.destination,
                                                      isFreeText: csv.isFreeText, dialect: csvDialect))
        }
    }

    /// Takes over `other`'s files and entity folders (to be moved into place
    /// after this set's own), leaving `other` empty.
    public func absorb(_ other: OutputSet) {
        files += other.files
        entityFolders += other.entityFolders
        other.files.removeAll()
        other.entityFolders.removeAll()
    }

    /// How many files wait to be moved into place.
    public var count: Int { files.count }

    /// Declares `folder` as holding one `.<fileExtension>` file per entity
    /// (a couple, a challenge): at ``commit()``, such files this run did not
    /// write are removed, so a report of an entity that no longer exists
    /// does not linger beside the current ones.
    public func ownEntityFiles(in folder: URL, fileExtension: String) {
        entityFolders.append((folder.standardizedFileURL, fileExtension))
    }

    /// Moves every file into place, in the order added, then removes stale
    /// per-entity files.
    public func commit() throws {
        for file in files { try file.commit() }
        // The names written, by folder; each distinct folder is standardized
        // once (a run writes tens of thousands of files into a few folders).
        var namesByFolder: [Substring: Set<Substring>] = [:]
        for file in files {
            let (folder, name) = file.destinationFolderAndName
            namesByFolder[folder, default: []].insert(name)
        }
        var written: [String: Set<Substring>] = [:]
        for (folder, names) in namesByFolder {
            written[URL(fileURLWithPath: String(folder)).standardizedFileURL.path, default: []].formUnion(names)
        }
        files.removeAll()
        let fm = FileManager.default
        for (folder, ext) in entityFolders {
            guard let names = try? fm.contentsOfDirectory(atPath: folder.path) else { continue }
            let kept = written[folder.path] ?? []
            for name in names where name.hasSuffix("." + ext) && !name.hasPrefix(".") && !kept.contains(Substring(name)) {
                try? fm.removeItem(atPath: folder.path + "/" + name)
            }
        }
    }
}
