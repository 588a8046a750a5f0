import CXlsxWriter

extension XLSXWorkbook {
    /// `style`, left-aligned and indented by one level: for text that follows
    /// right-aligned amounts (a note after a money column), so the two never
    /// touch.
    ///
    /// The indent is not part of ``XLSXStyle``: it is set on the format the
    /// workbook caches for the left-aligned style, so every cell of this
    /// workbook formatted with that same left-aligned style is indented too.
    func indentedLeft(_ style: XLSXStyle) throws -> XLSXFormat {
        var left = style
        left.alignment = .left
        let format = try format(left)
        format_set_indent(format.pointer, 1)
        return format
    }
}
