/// File-level checks of a CSV header: whether the file can be used at all.
extension TableReader {
    /// Why the file cannot be used as a whole, judged from its CSV header:
    /// a header in another delimiter, a header that matches no field of the
    /// table, or one that lacks a field of `required` (every row would be
    /// rejected for the same reason), or no header at all (an empty file: an
    /// export of an empty table still has its header row, so this is an
    /// export cut short). Nil when the header is usable, and for NDJSON (no
    /// header; an empty NDJSON file is an empty table).
    ///
    /// ```swift
    /// let reader = try TableReader(url: couplesCSV, fields: TableID.couples.fields)
    /// reader.headerRefusal(required: TableID.couples.requiredFields)
    /// // "the header is separated by ';' as Excel writes CSV in some locales; tally reads ',': …"
    /// ```
    public func headerRefusal(required: [String]) -> String? {
        guard format == .csv else { return nil }
        guard hasHeader else { return "the file is empty, without even a header row: was the export cut short?" }
        let missing = required.filter { missingFields.contains($0) }
        guard !missing.isEmpty else { return nil }
        if headerNames.count == 1, let separator = [";", "\t", "|"].first(where: { headerNames[0].contains($0) }) {
            let how = separator == ";" ? "';' as Excel writes CSV in some locales"
                : separator == "\t" ? "tabs (tab-separated text)" : "'|'"
            return "the header is separated by \(how); tally reads ',': export as CSV UTF-8 (comma delimited)"
        }
        let shown = Self.shownHeader(headerNames)
        if missingFields.count == fields.count {
            return "the header (\(shown)) matches no column of this table; expected \(fields.joined(separator: ", "))"
        }
        return Self.missingWords(missing, listed: "the header has \(shown)")
    }

    /// Why a file whose columns are listed apart from its rows (a Parquet
    /// part, whose rows an engine sends) cannot be used as a whole, in the
    /// words of ``headerRefusal(required:)``: columns that match no field of
    /// the table, or that lack a field of `required`. Also the columns that
    /// are no field of the table (``unknownFields``' form), matched as header
    /// names are (``FieldName``).
    ///
    /// ```swift
    /// TableReader.columnsCheck(["id", "couple_id"], fields: TableID.couples.fields,
    ///                          required: TableID.couples.requiredFields).refusal
    /// // "no column 'currency': every row needs it (the columns are id, couple_id)"
    /// ```
    public static func columnsCheck(_ names: [String], fields: [String], required: [String])
        -> (refusal: String?, unknown: [String]) {
        let matcher = FieldMatcher(fields: fields)
        var present = Set<Int>()
        var unknown: [String] = []
        for name in names {
            if let field = matcher.index(of: name) { present.insert(field) } else if !unknown.contains(name) { unknown.append(name) }
        }
        let shown = shownHeader(names)
        if present.isEmpty {
            return ("the columns (\(shown)) match no column of this table; expected \(fields.joined(separator: ", "))", unknown)
        }
        let missing = required.filter { field in fields.firstIndex(of: field).map { !present.contains($0) } ?? true }
        return (missing.isEmpty ? nil : missingWords(missing, listed: "the columns are \(shown)"), unknown)
    }

    /// `no column 'a', 'b': every row needs them (LISTED)`.
    static func missingWords(_ missing: [String], listed: String) -> String {
        "no column \(missing.map { "'\($0)'" }.joined(separator: ", ")): every row needs \(missing.count > 1 ? "them" : "it") (\(listed))"
    }

    /// The first names of a header, each cut short, for a message.
    static func shownHeader(_ names: [String]) -> String {
        let first = names.prefix(12).map { $0.isEmpty ? "(empty)" : String($0.prefix(40)) }
        return first.joined(separator: ", ") + (names.count > 12 ? ", … (\(names.count) columns)" : "")
    }
}
