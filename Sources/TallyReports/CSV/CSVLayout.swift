import Foundation

/// One CSV file of a report family: its name within the family's folder and
/// its columns. The family's renderer gives the rows.
///
/// ```swift
/// let writer = try LeaderboardCSV.layout.writer(in: folder)   // leaderboards/leaderboard.csv
/// for row in LeaderboardCSV.rows(board) { try writer.writeRow(row) }
/// ```
public struct CSVLayout: Sendable {
    public let name: String
    public let columns: [CSVColumn]

    public init(_ name: String, _ columns: [CSVColumn]) {
        self.name = name
        self.columns = columns
    }

    /// A writer of this file in `folder` (an ``AtomicFile`` until committed).
    public func writer(in folder: URL) throws -> CSVWriter {
        try CSVWriter(url: folder.appendingPathComponent(name), columns: columns)
    }
}

/// A whole CSV file held in memory (small reports: the KPIs).
public struct CSVTable: Sendable {
    public let layout: CSVLayout
    public var rows: [[String]]

    public init(_ layout: CSVLayout, rows: [[String]] = []) {
        self.layout = layout
        self.rows = rows
    }
}
