extension ReportLocale {
    /// What the title of a continuation sheet adds, for a table longer than one
    /// sheet: which of the table's rows the sheet holds, or only that it
    /// continues (a sheet holding what follows the table).
    ///
    /// ```swift
    /// ReportLocale.ptBR.continuationNote(rows: 1_048_574...1_200_000)  // "(continuação, linhas 1.048.574–1.200.000)"
    /// ReportLocale.enUS.continuationNote(rows: nil)                     // "(continued)"
    /// ```
    public func continuationNote(rows: ClosedRange<Int>?) -> String {
        let words = Self.continuationWords[self]!
        guard let rows else { return "(\(words.continued))" }
        let first = formatInteger(Int64(rows.lowerBound)), last = formatInteger(Int64(rows.upperBound))
        return "(\(words.continued), \(words.rows) \(first)–\(last))"
    }

    /// How an index says that a table takes several sheets: `3 planilhas`, `3 sheets`, `3 hojas`.
    public func sheetCount(_ count: Int) -> String {
        "\(formatInteger(Int64(count))) \(Self.continuationWords[self]!.sheets)"
    }

    private static let continuationWords: [ReportLocale: (continued: String, rows: String, sheets: String)] = [
        .ptBR: ("continuação", "linhas", "planilhas"),
        .enUS: ("continued", "rows", "sheets"),
        .esES: ("continuación", "filas", "hojas"),
    ]
}
