/// Finds the records and fields of RFC 4180 CSV in a byte buffer, one record at
/// a time, resuming where it stopped when the buffer ends in the middle of a
/// record.
///
/// Positions are relative to the start of the current record, which is the
/// start of the bytes passed to ``scan(_:count:atEnd:)``; the caller keeps the
/// record's bytes in place (moving them together is fine) until the record is
/// complete, except while ``isSkipping``, when it may drop the bytes before
/// ``position`` (see ``dropScanned()``).
///
/// Dialect: `,` separator; records end at LF or CRLF (a lone CR is data);
/// a field that starts with `"` is quoted and may hold `,`, CR, LF and `""`.
/// Lenient on one point: a `"` inside an unquoted field (`5" screen`) is kept
/// as data. Text after a closing quote (`"a"b`) is reported as a problem.
/// The end of a record's first physical line is noted (``firstLineBreak``), so
/// a caller can read that line alone when a quote turns out unbalanced.
/// The scanner does not modify the bytes; ``unescape(_:column:)`` turns `""`
/// into `"` in place once the record is complete.
final class CSVScanner {
    /// Where the scan stands inside the current record.
    enum State: UInt8 {
        case fieldStart, unquoted, quoted, afterQuote
    }

    /// The outcome of a scan.
    enum Step {
        /// A complete record: its fields are in the spans, it ends at
        /// ``recordEnd`` and the next record starts at ``nextRecord``.
        case record
        /// The bytes end inside a record; read more and scan again.
        case needMore
        /// The input ended between records.
        case endOfInput
    }

    /// Something wrong inside a record, first found only.
    enum Problem: Equatable {
        case nul(column: Int)
        case textAfterClosingQuote(column: Int)
    }

    private static let comma: UInt8 = 0x2C
    private static let quote: UInt8 = 0x22
    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D

    private var state = State.fieldStart
    /// Where scanning resumes.
    private(set) var position = 0
    private var fieldStart = 0
    private var fieldEnd = 0
    private var fieldFlags = 0
    /// Newlines inside quoted fields of the record so far.
    private(set) var newlines = 0
    /// When the last field is unterminated: the newlines before its opening quote.
    private(set) var newlinesBeforeOpenQuote = 0
    /// The offset of the record's first line break (always inside a quoted
    /// field), when ``newlines`` is above zero: where its first physical line ends.
    private(set) var firstLineBreak = 0
    /// The column whose quoted text holds the record's first line break.
    private(set) var firstLineBreakColumn = 0
    /// Whether the record is over the caller's size limit: fields are counted
    /// but not kept.
    private(set) var isSkipping = false
    /// Whether the input ended inside a quoted field.
    private(set) var isUnterminated = false
    /// The first problem met in the record.
    private(set) var problem: Problem?
    /// Whether the record has text after a closing quote (its first problem).
    var hasTextAfterClosingQuote: Bool {
        if case .textAfterClosingQuote = problem { true } else { false }
    }
    /// Fields in the record (also counted while skipping).
    private(set) var columnCount = 0
    /// The end of the record's bytes, terminator excluded.
    private(set) var recordEnd = 0
    /// Where the next record starts.
    private(set) var nextRecord = 0

    static let quotedFlag = 1
    static let doubledQuoteFlag = 2
    /// Three entries per column of the current record: start, end, flags.
    private(set) var spans: UnsafeMutablePointer<Int>
    private var spanCapacity = 64

    init() {
        spans = .allocate(capacity: 3 * spanCapacity)
    }

    deinit {
        spans.deallocate()
    }

    /// Forgets the record just delivered; the next scan starts a new one.
    func reset() {
        state = .fieldStart
        position = 0
        fieldStart = 0
        fieldEnd = 0
        fieldFlags = 0
        newlines = 0
        newlinesBeforeOpenQuote = 0
        firstLineBreak = 0
        firstLineBreakColumn = 0
        isSkipping = false
        isUnterminated = false
        problem = nil
        columnCount = 0
        recordEnd = 0
        nextRecord = 0
    }

    /// Stops keeping field positions for the current record (it is too long);
    /// the scan goes on to find where it ends.
    func beginSkipping() {
        isSkipping = true
    }

    /// While skipping: forgets the bytes before ``position`` and returns how
    /// many the caller may drop. Once the record spans lines, its first
    /// line's end (``firstLineBreak``) is no longer valid after a drop.
    func dropScanned() -> Int {
        precondition(isSkipping)
        let dropped = position
        position = 0
        fieldStart = 0
        fieldEnd = 0
        return dropped
    }

    /// Column `column`'s bytes: start and end offsets, and its flags.
    @inline(__always)
    func span(_ column: Int) -> (start: Int, end: Int, flags: Int) {
        (spans[3 * column], spans[3 * column + 1], spans[3 * column + 2])
    }

    @inline(__always)
    private func addColumn(start: Int, end: Int, flags fieldFlags: Int) {
        defer { columnCount += 1 }
        if isSkipping { return }
        if columnCount == spanCapacity {
            let grown = UnsafeMutablePointer<Int>.allocate(capacity: 6 * spanCapacity)
            grown.update(from: spans, count: 3 * spanCapacity)
            spans.deallocate()
            spans = grown
            spanCapacity *= 2
        }
        let slot = spans + 3 * columnCount
        slot[0] = start
        slot[1] = end
        slot[2] = fieldFlags
    }

    @inline(__always)
    private func noteNUL() {
        if problem == nil { problem = .nul(column: columnCount) }
    }

    /// Scans the `count` bytes at `p` (the current record's bytes, from its
    /// start) from where the last scan stopped. `atEnd`: no bytes follow.
    func scan(_ p: UnsafePointer<UInt8>, count n: Int, atEnd: Bool) -> Step {
        var i = position
        var state = self.state
        // Locals for speed; written back on every exit.
        var fieldStart = self.fieldStart
        var fieldEnd = self.fieldEnd
        var fieldFlags = self.fieldFlags
        var newlines = self.newlines
        defer {
            self.fieldStart = fieldStart
            self.fieldEnd = fieldEnd
            self.fieldFlags = fieldFlags
            self.newlines = newlines
        }
        outer: while true {
            switch state {
            case .fieldStart:
                guard i < n else { break outer }
                if p[i] == Self.quote {
                    fieldFlags = Self.quotedFlag
                    newlinesBeforeOpenQuote = newlines
                    i += 1
                    fieldStart = i
                    state = .quoted
                } else {
                    fieldFlags = 0
                    fieldStart = i
                    state = .unquoted
                }
            case .unquoted:
                while i < n {
                    let c = p[i]
                    if c > Self.comma {
                        i += 1
                        continue
                    }
                    if c == Self.comma {
                        addColumn(start: fieldStart, end: i, flags: fieldFlags)
                        i += 1
                        state = .fieldStart
                        continue outer
                    }
                    if c == Self.lf {
                        addColumn(start: fieldStart, end: i, flags: fieldFlags)
                        return finish(end: i, next: i + 1, at: i)
                    }
                    if c == Self.cr {
                        if i + 1 < n {
                            if p[i + 1] == Self.lf {
                                addColumn(start: fieldStart, end: i, flags: fieldFlags)
                                return finish(end: i, next: i + 2, at: i)
                            }
                        } else if atEnd {
                            addColumn(start: fieldStart, end: i, flags: fieldFlags)
                            return finish(end: i, next: i + 1, at: i)
                        } else {
                            break outer
                        }
                    } else if c == 0 {
                        noteNUL()
                    }
                    i += 1
                }
                break outer
            case .quoted:
                while i < n {
                    let c = p[i]
                    if c > Self.quote {
                        i += 1
                        continue
                    }
                    if c == Self.quote {
                        if i + 1 < n {
                            if p[i + 1] == Self.quote {
                                fieldFlags |= Self.doubledQuoteFlag
                                i += 2
                                continue
                            }
                        } else if !atEnd {
                            break outer
                        }
                        fieldEnd = i
                        i += 1
                        state = .afterQuote
                        continue outer
                    }
                    if c == Self.lf {
                        if newlines == 0 {
                            firstLineBreak = i
                            firstLineBreakColumn = columnCount
                        }
                        newlines += 1
                    } else if c == 0 {
                        noteNUL()
                    }
                    i += 1
                }
                break outer
            case .afterQuote:
                guard i < n else { break outer }
                let c = p[i]
                if c == Self.comma {
                    addColumn(start: fieldStart, end: fieldEnd, flags: fieldFlags)
                    i += 1
                    state = .fieldStart
                    continue outer
                }
                if c == Self.lf {
                    addColumn(start: fieldStart, end: fieldEnd, flags: fieldFlags)
                    return finish(end: i, next: i + 1, at: i)
                }
                if c == Self.cr {
                    if i + 1 < n {
                        if p[i + 1] == Self.lf {
                            addColumn(start: fieldStart, end: fieldEnd, flags: fieldFlags)
                            return finish(end: i, next: i + 2, at: i)
                        }
                    } else if atEnd {
                        addColumn(start: fieldStart, end: fieldEnd, flags: fieldFlags)
                        return finish(end: i, next: i + 1, at: i)
                    } else {
                        break outer
                    }
                }
                if problem == nil { problem = .textAfterClosingQuote(column: columnCount) }
                // Keep scanning the rest of the field as plain data.
                state = .unquoted
            }
        }
        // The bytes ran out inside a record (or between two).
        if !atEnd {
            position = i
            self.state = state
            return .needMore
        }
        switch state {
        case .fieldStart:
            if columnCount == 0 { return .endOfInput }
            addColumn(start: i, end: i, flags: 0)  // after a trailing comma: an empty last field
        case .unquoted:
            addColumn(start: fieldStart, end: i, flags: fieldFlags)
        case .quoted:
            isUnterminated = true
            addColumn(start: fieldStart, end: i, flags: fieldFlags)
        case .afterQuote:
            addColumn(start: fieldStart, end: fieldEnd, flags: fieldFlags)
        }
        self.state = state
        return finish(end: i, next: i, at: i)
    }

    @inline(__always)
    private func finish(end: Int, next: Int, at i: Int) -> Step {
        recordEnd = end
        nextRecord = next
        position = i
        return .record
    }

    /// Turns the doubled quotes of `column` (of a complete record at `p`) into
    /// single ones, in place, and returns the column's new end.
    func unescape(_ p: UnsafeMutablePointer<UInt8>, column: Int) -> Int {
        let (start, end, flags) = span(column)
        guard flags & Self.doubledQuoteFlag != 0 else { return end }
        var read = start
        var write = start
        while read < end {
            let c = p[read]
            p[write] = c
            write += 1
            read += c == Self.quote ? 2 : 1
        }
        spans[3 * column + 1] = write
        spans[3 * column + 2] = flags & ~Self.doubledQuoteFlag
        return write
    }
}
