import Testing
@testable import TallyReports

@Suite("Exact numbers: a chart axis's own number format")
struct XLSXExactNumbersTests {
    private func format(_ axis: String, _ xml: String) -> String? {
        XLSXExactNumbers.axisFormat(axis, in: Array(xml.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("the format is the first one inside the axis, not one before or after it")
    func insideTheAxisOnly() {
        let xml = #"<c:numFmt formatCode="before"/><c:catAx><c:numFmt formatCode="dd/mm" sourceLinked="0"/></c:catAx>"#
            + ##"<c:valAx><c:axId/><c:numFmt formatCode="#,##0.00" sourceLinked="0"/></c:valAx><c:numFmt formatCode="after"/>"##
        #expect(format("valAx", xml) == "#,##0.00")
        #expect(format("catAx", xml) == "dd/mm")
        #expect(format("dateAx", xml) == nil, "no such axis")
    }

    @Test("an axis linked to its cells, or without a format, has none of its own")
    func linkedOrMissing() {
        #expect(format("valAx", #"<c:valAx><c:numFmt formatCode="General" sourceLinked="1"/></c:valAx>"#) == nil)
        #expect(format("valAx", "<c:valAx><c:axId/></c:valAx><c:numFmt formatCode=\"0.0\"/>") == nil)
        #expect(format("valAx", "<c:valAx><c:numFmt formatCode=\"0.0\"") == nil, "an axis never closed")
        #expect(format("valAx", "") == nil)
    }

    @Test("near misses of the tags are skipped: a search resumes after each false start")
    func nearMisses() {
        let xml = #"<c:val<c:valA<c:valAx><c:numFmt formatCod<c:numFmt formatCode="0%" sourceLinked="0"/></c:valA</c:valAx>"#
        #expect(format("valAx", xml) == "0%")
    }
}
