import Foundation
import Testing
import TallyCore
@testable import TallyIngest

@Suite("Apple Health: reader")
struct AppleHealthReaderTests {
    @Test func unitsAreConvertedAndOtherTypesSkipped() throws {
        let dir = try TemporaryDirectory()
        let body = [
            record(value: "1234"),
            record("HKQuantityTypeIdentifierActiveEnergyBurned", unit: "Cal", value: "10.5"),
            record("HKQuantityTypeIdentifierActiveEnergyBurned", unit: "kJ", value: "418.4"),
            record("HKQuantityTypeIdentifierDistanceWalkingRunning", unit: "mi", value: "1"),
            record("HKQuantityTypeIdentifierDistanceWalkingRunning", unit: "m", value: "250"),
            record("HKQuantityTypeIdentifierHeartRate", unit: "count/min", value: "72"),
        ].joined(separator: "\n")
        let (records, invalid, summary) = try readAll(try dir.file("export.xml", export(body)))
        #expect(invalid.isEmpty)
        #expect(summary.records == 5)
        let expected = [1234, 10.5, 100, 1.609344, 0.25]
        #expect(records.count == expected.count)
        for (r, e) in zip(records, expected) { #expect(abs(r.value - e) < 1e-9) }
        #expect(records.map(\.line) == [4, 5, 6, 7, 8])
    }

    @Test func badRecordsAreInvalidWithTheirLine() throws {
        let dir = try TemporaryDirectory()
        let body = [record(unit: "km"), record(value: "12,5"), record(value: "-3"), record(start: "2026-10-10T10:00:00")].joined(separator: "\n")
        let (records, invalid, _) = try readAll(try dir.file("export.xml", export(body)))
        #expect(records.isEmpty)
        #expect(invalid.map(\.0) == [4, 5, 6, 7])
        #expect(invalid[0].1 == "HKQuantityTypeIdentifierStepCount unit 'km' is not one of count")
        #expect(invalid[1].1.contains("is not a decimal number"))
        #expect(invalid[2].1.contains("negative"))
        #expect(invalid[3].1.contains("startDate"))
    }

    @Test func recordsNestedInACorrelationAreNotCountedTwice() throws {
        let dir = try TemporaryDirectory()
        let body = """
         <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="App" startDate="2026-10-10 10:00:00 -0300" endDate="2026-10-10 10:00:00 -0300">
        \(record(value: "7"))
         </Correlation>
        \(record(value: "7"))
        """
        let (records, _, _) = try readAll(try dir.file("export.xml", export(body)))
        #expect(records.count == 1)
        #expect(records[0].line == 7)
    }

    @Test func escapedAttributesDecodeAndMultiLineTagsKeepTheirStartLine() throws {
        let dir = try TemporaryDirectory()
        let body = """
         <Record type="HKQuantityTypeIdentifierStepCount"
            sourceName="Bruno&#8217;s &lt;iPhone&gt; &amp; co"
            unit="count" startDate="2026-10-10 10:00:00 -0300" endDate="2026-10-10 10:00:00 -0300" value="5"/>
        """
        let (records, _, _) = try readAll(try dir.file("export.xml", export(body)))
        #expect(records.map(\.sourceName) == ["Bruno’s <iPhone> & co"])
        #expect(records[0].line == 4)
    }

    @Test func everyChunkSizeGivesTheSameRecords() throws {
        let text = export((0..<40).map { record(value: String($0)) }.joined(separator: "\n"),
                          dtd: "<!DOCTYPE HealthData [\n<!ATTLIST Record\n  type CDATA #REQUIRED\n>\n<!-- a ] and > -->\n]>\n")
        let bytes = Array(text.utf8)
        var reference: [Int]?
        for size in [1, 2, 3, 7, 64, 4096] {
            let scanner = FlatXMLScanner()
            var lines: [Int] = []
            var i = 0
            while i < bytes.count {
                let end = min(i + size, bytes.count)
                try bytes[i..<end].withUnsafeBytes { chunk in
                    try scanner.feed(chunk) { tag in if tag.isNamed("Record") { lines.append(tag.line) } }
                }
                i = end
            }
            try scanner.finish()
            #expect(lines.count == 40)
            if let reference { #expect(lines == reference) } else { reference = lines }
        }
    }

    @Test func theAppleDateFormat() {
        #expect(AppleHealthDate.parse("2014-09-13 10:27:54 +0100")?.description == "2014-09-13T09:27:54Z")
        #expect(AppleHealthDate.parse("2026-10-10 23:30:00 -0300")?.description == "2026-10-11T02:30:00Z")
        #expect(AppleHealthDate.parse("2026-10-10T23:30:00-03:00")?.description == "2026-10-11T02:30:00Z")
        #expect(AppleHealthDate.parse("2026-10-10 23:30:00") == nil)
    }

    @Test func aLocalisedEntryNameInsideTheZipIsRead() throws {
        let dir = try TemporaryDirectory()
        let zip = dir.url.appendingPathComponent("export.zip")
        try makeZip(zip, [
            ("apple_health_exportar/exportar.xml", Array(export(record(value: "42")).utf8)),
            ("apple_health_exportar/exportar_cda.xml", Array("<ClinicalDocument/>".utf8)),
            ("__MACOSX/apple_health_exportar/._exportar.xml", [0, 5, 22, 7]),
            ("apple_health_exportar/.DS_Store", [0, 0, 0, 1]),
            ("apple_health_exportar/workout-routes/route_1.gpx", Array("<gpx/>".utf8)),
        ])
        let (records, _, summary) = try readAll(zip)
        #expect(summary.entry == "apple_health_exportar/exportar.xml")
        #expect(records.map(\.value) == [42])
    }

    @Test func zipEntryChoice() throws {
        #expect(try AppleHealthZipEntries.choose(["a/export.xml", "a/export_cda.xml", "__MACOSX/a/._export.xml"]).get() == "a/export.xml")
        #expect(try AppleHealthZipEntries.choose(["export.xml"]).get() == "export.xml")
        #expect(try AppleHealthZipEntries.choose(["apple_health_export/exporter.xml", "apple_health_export/workout-routes/x.xml"]).get()
                == "apple_health_export/exporter.xml")
        guard case .failure(let none) = AppleHealthZipEntries.choose(["../../etc/export.xml", "x/../export.xml"]) else {
            Issue.record("unsafe paths chosen"); return
        }
        #expect(none.description.contains("unsafe"))
        guard case .failure(let two) = AppleHealthZipEntries.choose(["a/one.xml", "a/two.xml"]) else {
            Issue.record("ambiguous zip chosen"); return
        }
        #expect(two.description.contains("several"))
    }
}
