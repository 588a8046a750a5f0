import TallyCore
import Foundation

/// Reading CSV: the header row, then the records.
extension TableReader {
    /// Scans to the end of the next record (true) or of the file (false),
    /// reading chunks as needed; a record over the size limit is scanned
    /// without being kept. With `resynchronising`, a record that spans lines
    /// and outgrows the limit stops at once (true, with ``csvRecordOverflows``
    /// set) while its first line is still held, so it can be read alone.
    private func nextCSVRecord(resynchronising: Bool = false) throws(ReaderError) -> Bool {
        csvRecordOverflows = false
        while true {
            switch csv.scan(buffer.current, count: buffer.available, atEnd: buffer.isAtEnd) {
            case .record:
                return true
            case .endOfInput:
                return false
            case .needMore:
                if resynchronising && csv.newlines > 0 && (csv.isSkipping || csv.position > maxRecordBytes) {
                    csvRecordOverflows = true
                    return true
                }
                if !csv.isSkipping && csv.position > maxRecordBytes { csv.beginSkipping() }
                // (Resynchronising, a skipped record that spans lines has stopped above: its first line is kept.)
                if csv.isSkipping { buffer.consume(csv.dropScanned()) }
                try buffer.fill()
            }
        }
    }

    /// Consumes the record just scanned and moves the line count past it.
    private func finishCSVRecord() {
        buffer.consume(csv.nextRecord)
        line += 1 + csv.newlines
        csv.reset()
    }

    /// Whether the record just scanned is an empty line.
    private var csvRecordIsBlank: Bool {
        guard csv.columnCount == 1, !csvRecordOverflows, !csv.isSkipping, !csv.isUnterminated, csv.problem == nil else { return false }
        let span = csv.span(0)
        return span.start == span.end && span.flags == 0
    }

    /// Reads the header row (the first non-blank record), if the file has one.
    func readHeader() throws(ReaderError) {
        while try nextCSVRecord() {
            if csvRecordIsBlank {
                finishCSVRecord()
                continue
            }
            try adoptHeader()
            finishCSVRecord()
            return
        }
    }

    /// Takes the record just scanned as the header: names, field columns,
    /// unknown and missing fields.
    private func adoptHeader() throws(ReaderError) {
        func bad(_ reason: String) -> ReaderError { ReaderError(.badHeader, file: url, reason: reason) }
        if csv.isUnterminated { throw bad("the header row (line \(line)) has an unterminated quote") }
        if csv.isSkipping || csv.recordEnd > maxRecordBytes { throw bad("the header row is longer than \(maxRecordBytes) bytes") }
        switch csv.problem {
        case .nul(let column): throw bad("the header row has a NUL byte in column \(column + 1)")
        case .textAfterClosingQuote(let column): throw bad("the header row has text after the closing quote of column \(column + 1)")
        case nil: break
        }
        let p = buffer.current
        if let offset = UTF8Validation.firstInvalidOffset(p, count: csv.recordEnd) {
            throw bad("the header row is not valid UTF-8 (byte \(offset + 1)): save the file as CSV UTF-8")
        }
        var columns = Array(repeating: -1, count: fields.count)
        var names: [String] = []
        var unknownSeen = Set<String>()
        for column in 0..<csv.columnCount {
            let start = csv.span(column).start
            let end = csv.unescape(p, column: column)
            let name = FieldName.trimmed(String(decoding: UnsafeBufferPointer(start: p + start, count: end - start), as: UTF8.self))
            names.append(name)
            if !name.isEmpty, let field = matcher.index(of: name) {
                if columns[field] >= 0 {
                    let first = columns[field]
                    throw bad("the header names the field '\(fields[field])' twice: column \(first + 1) '\(names[first])' and column \(column + 1) '\(name)'")
                }
                columns[field] = column
            } else {
                let label = name.isEmpty ? "(unnamed column \(column + 1))" : name
                if unknownSeen.insert(label).inserted { csvUnknownFields.append(label) }
            }
        }
        headerNames = names
        columnOfField = columns
        missingFields = fields.indices.filter { columns[$0] < 0 }.map { fields[$0] }
        hasHeader = true
    }

    /// Delivers every record after the header.
    ///
    /// A record whose quoted text runs over a line break and that turns out
    /// malformed (text after a closing quote, the wrong number of fields, the
    /// file ending inside the quote, or more than `maxRecordBytes` bytes) is
    /// most likely a stray opening quote that swallowed the lines after it:
    /// its first line is rejected alone, naming the field whose quote spans
    /// the line end, and reading resumes at the next physical line, whose
    /// lines are records again (each one counted in ``recordsRead``).
    ///
    /// ```
    /// id,description,amount
    /// 1,"Padaria,10.00        → malformed(line: 2, "unbalanced quote in field 'description'; the line was read alone")
    /// 2,Mercado,5.00          → record(line: 3)
    /// 3,"Rodízio ""X""",7.00  → record(line: 4)
    /// ```
    func readCSVRecords(_ body: (ReadEvent) throws -> Void) throws {
        guard hasHeader else { return }
        while try nextCSVRecord(resynchronising: true) {
            if csvRecordIsBlank {
                finishCSVRecord()
                continue
            }
            recordsRead += 1
            if let reason = csvResynchronisingReason() {
                try body(.malformed(line: line, reason: reason))
                buffer.consume(csv.firstLineBreak + 1)
                line += 1
                csv.reset()
                continue
            }
            if let reason = csvRecordProblem() {
                try body(.malformed(line: line, reason: reason))
            } else {
                fillCSVSpans()
                try body(.record(recordView(base: buffer.current)))
            }
            finishCSVRecord()
        }
    }

    /// When the record just scanned spans lines and is malformed in a way an
    /// unbalanced quote explains, why its first line is rejected alone; nil
    /// otherwise (the record is read, or rejected, whole).
    private func csvResynchronisingReason() -> RejectReason? {
        guard csv.newlines > 0 else { return nil }
        let field = columnName(csv.firstLineBreakColumn)
        if csv.isSkipping || csv.firstLineBreak > maxRecordBytes {
            // The first line alone is over the limit (skipping starts only before a line break).
            return .recordTooLong(maxRecordBytes, lineAlone: true)
        }
        if csvRecordOverflows || csv.recordEnd > maxRecordBytes {
            return .malformed("unbalanced quote in field '\(field)': the quoted text runs past \(maxRecordBytes) bytes; the line was read alone")
        }
        guard csv.isUnterminated || csv.columnCount != headerNames.count || csv.hasTextAfterClosingQuote else { return nil }
        return .malformed("unbalanced quote in field '\(field)'; the line was read alone")
    }

    /// The header name of `column`, for messages.
    private func columnName(_ column: Int) -> String {
        column < headerNames.count && !headerNames[column].isEmpty ? headerNames[column] : "column \(column + 1)"
    }

    /// Why the record just scanned cannot be read, or nil when it can.
    private func csvRecordProblem() -> RejectReason? {
        if csv.isUnterminated {
            let column = csv.columnCount - 1
            return .malformed("unterminated quoted field '\(columnName(column))': the quote opened on line \(line + csv.newlinesBeforeOpenQuote) is never closed")
        }
        if csv.isSkipping || csv.recordEnd > maxRecordBytes {
            return .recordTooLong(maxRecordBytes)
        }
        if csv.columnCount != headerNames.count {
            return .fieldCount(csv.columnCount, header: headerNames.count)
        }
        switch csv.problem {
        case .nul(let column): return .malformed("NUL byte in field '\(columnName(column))'")
        case .textAfterClosingQuote(let column): return .malformed("field '\(columnName(column))' has text after its closing quote")
        case nil: break
        }
        let p = buffer.current
        if let offset = UTF8Validation.firstInvalidOffset(p, count: csv.recordEnd) {
            // The offending byte lies inside a field: delimiters are ASCII.
            let column = (0..<csv.columnCount).first { csv.span($0).start <= offset && offset < csv.span($0).end }
            return .malformed("invalid UTF-8 in field '\(column.map(columnName) ?? "?")'")
        }
        return nil
    }

    /// Fills the field spans from the columns of the record just scanned,
    /// unescaping doubled quotes in place.
    private func fillCSVSpans() {
        let p = buffer.current
        let columns = csv.spans
        for field in 0..<fields.count {
            let column = columnOfField[field]
            guard column >= 0 else {
                spans[2 * field] = -1
                continue
            }
            let start = columns[3 * column]
            var end = columns[3 * column + 1]
            if columns[3 * column + 2] & CSVScanner.doubledQuoteFlag != 0 {
                end = csv.unescape(p, column: column)
            }
            if end > start {
                spans[2 * field] = start
                spans[2 * field + 1] = end
            } else {
                spans[2 * field] = -1
            }
        }
    }
}
