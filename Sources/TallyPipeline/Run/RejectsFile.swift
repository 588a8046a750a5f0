import Foundation
import TallyCore
import TallyReports

/// Writes `rejects.csv`: every row that could not be used, in dataset, file
/// and line order, with the reason and its stable code, `reason_code`
/// (``TallyCore/RejectCode``; ``RejectList``'s order).
enum RejectsFile {
    /// The reason quotes the rejected text, so it is neutralised free text; the id never is.
    static let columns: [CSVColumn] = ["dataset", "file", "line", "id", .text("reason"), "reason_code"]

    /// Writes the file and adds it to `outputs` (to be moved into place with the other reports).
    static func write(_ rejects: [Reject], to url: URL, outputs: OutputSet) throws -> Int {
        let sorted = RejectList(rejects).sorted
        let csv = try CSVWriter(url: url, columns: columns)
        for r in sorted { try csv.writeRow([r.dataset, r.file, String(r.line), r.id, r.reason, r.code.rawValue]) }
        try outputs.add(csv)
        return sorted.count
    }
}
