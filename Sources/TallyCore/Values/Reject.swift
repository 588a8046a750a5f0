/// A row that could not be used, with where it came from and why, in words a
/// person can act on. Every reject ends up in `rejects.csv`.
public struct Reject: Hashable, Sendable {
    /// The dataset folder (`expenses`, `health`, …).
    public var dataset: String
    /// The input file, relative to the data folder (`expenses/expenses.csv`).
    public var file: String
    /// The physical 1-based line where the record starts (the header is line 1).
    public var line: Int
    /// The record's id when it has one, else empty.
    public var id: String
    public var reason: String

    public init(dataset: String, file: String, line: Int, id: String, reason: String) {
        self.dataset = dataset
        self.file = file
        self.line = line
        self.id = id
        self.reason = reason
    }
}
