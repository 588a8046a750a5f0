/// Rows of a log table staged as bytes on a reading thread, for
/// ``IngestSession/append(_:to:columns:file:)`` to store on the writer's, 64
/// rows to an `INSERT`.
///
/// Cells are copied once, into one arena per batch: no String per field.
/// The reading thread decodes and stages; the writer's thread, which every
/// load shares, only binds.
public struct RowBatch: Sendable {
    private enum Cell: Sendable {
        case null
        case text(start: Int, end: Int)
        case integer(Int64)
        case real(Double)
    }

    private var arena: [UInt8] = []
    private var cells: [Cell] = []
    /// The line each row was read at.
    public private(set) var lines: [Int] = []
    /// Cells per row, set by the first ``endRow(line:)``.
    public private(set) var width = 0

    public init() {}

    /// The rows staged.
    public var count: Int { lines.count }

    /// Adds a text cell to the current row (nil: NULL).
    public mutating func append(_ text: UnsafeBufferPointer<UInt8>?) {
        guard let text else { cells.append(.null); return }
        let start = arena.count
        arena.append(contentsOf: text)
        cells.append(.text(start: start, end: arena.count))
    }

    /// Adds a text cell to the current row (nil: NULL).
    public mutating func append(_ text: String?) {
        guard var copy = text else { cells.append(.null); return }
        copy.withUTF8 { append($0) }
    }

    /// Adds an integer cell to the current row (nil: NULL).
    public mutating func append(_ value: Int64?) {
        cells.append(value.map(Cell.integer) ?? .null)
    }

    /// Adds a floating-point cell to the current row (nil: NULL).
    public mutating func append(_ value: Double?) {
        cells.append(value.map(Cell.real) ?? .null)
    }

    /// Ends the current row, read at `line`. Every row has as many cells as the first.
    public mutating func endRow(line: Int) {
        if width == 0 { width = cells.count }
        precondition(cells.count == (count + 1) * width, "a staged row has \(cells.count - count * width) cells, not \(width)")
        lines.append(line)
    }

    /// Binds row `row`'s cells to `statement` from parameter `first` on
    /// (the arena is borrowed: bind, then step before the batch changes).
    func bind(row: Int, to statement: BulkStatement, from first: Int32) {
        arena.withUnsafeBufferPointer { arena in
            for column in 0..<width {
                let index = first + Int32(column)
                switch cells[row * width + column] {
                case .null:
                    statement.bind(index, nil as Int64?)
                case .integer(let value):
                    statement.bind(index, value)
                case .real(let value):
                    statement.bind(index, value)
                case .text(let start, let end):
                    statement.bind(index, text: UnsafeBufferPointer(rebasing: arena[start..<end]))
                }
            }
        }
    }

    /// The bytes of text cell `column` of row `row` (empty for NULL), valid during `body`.
    public func withText<T>(row: Int, column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try arena.withUnsafeBufferPointer { arena in
            guard case .text(let start, let end) = cells[row * width + column] else {
                return try body(UnsafeBufferPointer(start: nil, count: 0))
            }
            return try body(UnsafeBufferPointer(rebasing: arena[start..<end]))
        }
    }
}
