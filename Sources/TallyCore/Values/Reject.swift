/// A row that could not be used, with where it came from and why, in words a
/// person can act on, and the kind of reject as a stable code. Every reject
/// ends up in `rejects.csv`.
///
/// ```swift
/// Reject(dataset: "expenses", file: "expenses/expenses.csv", line: 12, id: "e9",
///        reason: .dateInvalid(field: "date", value: "2026-09-31"))
/// // rejects.csv: expenses,expenses/expenses.csv,12,e9,date '2026-09-31' is not a valid date YYYY-MM-DD,date_invalid
/// ```
public struct Reject: Hashable, Sendable {
    /// The dataset folder (`expenses`, `health`, …).
    public var dataset: String
    /// The input file, relative to the data folder (`expenses/expenses.csv`).
    public var file: String
    /// The physical 1-based line where the record starts (the header is line 1).
    public var line: Int
    /// The record's id when it has one, else empty.
    public var id: String
    /// Why, in English (`rejects.csv`'s `reason`).
    public var reason: String
    /// The kind of reject (`rejects.csv`'s `reason_code`).
    public var code: RejectCode

    public init(dataset: String, file: String, line: Int, id: String, reason: RejectReason) {
        self.dataset = dataset
        self.file = file
        self.line = line
        self.id = id
        self.reason = reason.text
        self.code = reason.code
    }

    /// The reason and its code together.
    public var why: RejectReason { RejectReason(code: code, text: reason) }
}
