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
        let plural = missing.count > 1
        return "no column \(missing.map { "'\($0)'" }.joined(separator: ", ")): every row needs \(plural ? "them" : "it") (the header has \(shown))"
    }

    /// The first names of a header, each cut short, for a message.
    static func shownHeader(_ names: [String]) -> String {
        let first = names.prefix(12).map { $0.isEmpty ? "(empty)" : String($0.prefix(40)) }
        return first.joined(separator: ", ") + (names.count > 12 ? ", … (\(names.count) columns)" : "")
    }
}
