import Foundation
import Testing
import TallyCore
@testable import TallyIngest

/// The real exports in Tests/Fixtures/apple-health.
@Suite("Apple Health: real exports")
struct AppleHealthFixtureTests {
    let folder = appleHealthFixtures

    /// The upstream tool's expected per-record CSV (tdda): value and startDate per row.
    func golden(_ name: String) throws -> [(start: String, value: Double)] {
        let text = try String(contentsOf: folder.appendingPathComponent("tdda-applehealthdata/\(name)"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return (fields[6], Double(fields[8])!)
        }
    }

    @Test func tddaExportWithItsInlineDTDMatchesTheUpstreamCSVs() throws {
        let (records, invalid, summary) = try readAll(folder.appendingPathComponent("tdda-applehealthdata/export6s3sample.xml"))
        #expect(invalid.isEmpty)
        let steps = records.filter { $0.quantity == .steps }
        let distance = records.filter { $0.quantity == .walkingDistance }
        let expectedSteps = try golden("StepCount.csv")
        let expectedDistance = try golden("DistanceWalkingRunning.csv")
        #expect(steps.map(\.value) == expectedSteps.map(\.value))
        #expect(steps.map(\.startDate) == expectedSteps.map { AppleHealthDate.parse($0.start)! })
        #expect(distance.map(\.value) == expectedDistance.map(\.value))
        #expect(steps.reduce(0) { $0 + $1.value } == 2_517)
        #expect(abs(distance.reduce(0) { $0 + $1.value } - 0.01943) < 1e-12)
        #expect(Set(records.map(\.sourceName)) == ["Health"])
        #expect(summary.records == 15)
        // Days in the export's own zone (+0100) and in São Paulo are the same here (mid-morning).
        var totals = DailySourceTotals()
        let tz = ReportTimeZone(identifier: "America/Sao_Paulo")!
        for r in records { totals.add(r.quantity, value: r.value, day: tz.localDate(of: r.startDate), source: r.sourceName) }
        let days = totals.days(userId: "u")
        #expect(days.map(\.date.description) == ["2014-09-13", "2014-09-20"])
        #expect(days[0].steps == 2_517)
    }

    @Test func simonwExportWithoutDeclarationOrDTDHasNoQuantitiesTallyReads() throws {
        let (records, invalid, summary) = try readAll(folder.appendingPathComponent("simonw-healthkit-to-sqlite/export.xml"))
        #expect(records.isEmpty && invalid.isEmpty && summary.records == 0)
        let zipped = try readAll(folder.appendingPathComponent("simonw-healthkit-to-sqlite/zip_contents/apple_health_export/export.xml"))
        #expect(zipped.records.isEmpty && zipped.invalid.isEmpty)
    }

    @Test func alxdrciriloXMLAndItsMacOSZipReadAlike() throws {
        let xml = try readAll(folder.appendingPathComponent("alxdrcirilo-apple-health-parser/export.xml"))
        let zip = try readAll(folder.appendingPathComponent("alxdrcirilo-apple-health-parser/export.zip"))
        #expect(zip.summary.entry == "apple_health_export/export.xml")
        #expect(xml.invalid.isEmpty)
        #expect(!xml.records.isEmpty)
        #expect(xml.records.allSatisfy { $0.quantity == .activeEnergy && $0.sourceName == "Alexandre's Apple Watch" })
        #expect(xml.records == zip.records)
        #expect(xml.records[0].value == 0.12)
        #expect(xml.records[0].startDate == AppleHealthDate.parse("2024-01-01 01:02:27 +0200"))
    }
}
