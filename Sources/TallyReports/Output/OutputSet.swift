/// The report files of one run, written in full before any is moved into
/// place: a run that fails while writing (a full disk, a bad value) leaves
/// every previous report as it was, and its own temporary files are removed.
///
/// ``commit()`` renames them one by one (each rename is atomic); a run killed
/// during that loop leaves each report either its previous or its new
/// complete version. run.json, committed after the set, is the marker that
/// a run finished.
public final class OutputSet {
    private var files: [AtomicFile] = []

    public init() {}

    /// Adds a finished file, to be moved into place with the others.
    public func add(_ file: AtomicFile) {
        files.append(file)
    }

    /// Adds a CSV file once its last row is written (closing it may fail: a full disk).
    public func add(_ csv: CSVWriter) throws {
        try csv.close()
        files.append(csv.file)
    }

    /// How many files wait to be moved into place.
    public var count: Int { files.count }

    /// Moves every file into place, in the order added.
    public func commit() throws {
        for file in files { try file.commit() }
        files.removeAll()
    }
}
