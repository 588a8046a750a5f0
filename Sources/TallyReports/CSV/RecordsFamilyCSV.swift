import TallyCore

/// The renderer of a ``TallyCore/RecordsFamily``: one CSV in a folder of
/// its own under the out folder, a partition's rows its lines in key order,
/// and the lines the family adds to the terminal summary.
///
/// ```swift
/// struct ExpensesPerTagCSV: RecordsFamilyCSV {
///     let folder = "tags"
///     let layout = CSVLayout("tags.csv", ["tag", "expenses"])
///     func rows(_ rows: ExpensesPerTag.Rows) -> [[String]] { [[rows.tag, String(rows.count)]] }
///     func summary(_ report: ExpensesPerTag.Report) -> [String] { ["\(report.tags) tags"] }
/// }
/// ```
public protocol RecordsFamilyCSV: Sendable {
    associatedtype Family: RecordsFamily
    /// The family's folder under the out folder.
    var folder: String { get }
    /// The family's CSV file.
    var layout: CSVLayout { get }
    /// One partition's lines of the CSV.
    func rows(_ rows: Family.Rows) -> [[String]]
    /// The family's lines of the terminal summary.
    func summary(_ report: Family.Report) -> [String]
}
