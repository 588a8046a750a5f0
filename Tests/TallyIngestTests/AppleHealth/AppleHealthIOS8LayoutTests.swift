import Foundation
import Testing
import TallyCore
@testable import TallyIngest

/// Exports in the iOS 8 layout: `source=` instead of `sourceName=`, dates like `20150701161900+0100`.
@Suite("Apple Health: the iOS 8 export layout")
struct AppleHealthIOS8LayoutTests {
    @Test("compact iOS 8 timestamps are read with their offset; malformed ones are not dates")
    func compactTimestamps() {
        #expect(AppleHealthDate.parse("20150701161900+0100") == AppleHealthDate.parse("2015-07-01 16:19:00 +0100"))
        #expect(AppleHealthDate.parse("20121114171900-0300") == AppleHealthDate.parse("2012-11-14 17:19:00 -0300"))
        for bad in ["20151301161900+0100", "20150230161900+0100", "2015070116190+01000", "2015070116190X+0100", "20150701161900 0100"] {
            #expect(AppleHealthDate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("a hand-written iOS 8 export: sources from `source=`, days from compact dates, metres to km")
    func syntheticExport() throws {
        let dir = try TemporaryDirectory()
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_DE">
         <ExportDate value="20151107171924+0100"/>
         <Record type="HKQuantityTypeIdentifierStepCount" source="Data Manager" unit="count" startDate="20150701161900+0100" endDate="20150702161900+0100" value="4639" recordCount="1"/>
         <Record type="HKQuantityTypeIdentifierStepCount" source="Data Manager" unit="count" startDate="20150701201900+0100" endDate="20150701211900+0100" value="361" recordCount="1"/>
         <Record type="HKQuantityTypeIdentifierStepCount" source="Phone" unit="count" startDate="20150701120000+0100" endDate="20150701130000+0100" value="2000" recordCount="1"/>
         <Record type="HKQuantityTypeIdentifierDistanceWalkingRunning" source="Data Manager" unit="m" startDate="20150701161900+0100" endDate="20150702161900+0100" value="3425" recordCount="1"/>
         <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" source="Data Manager" unit="kcal" startDate="20150701161900+0100" endDate="20150702161900+0100" value="307.04" recordCount="1"/>
         <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" source="Data Manager" unit="kcal" startDate="2015-07-01 16:19 +0100" endDate="20150702161900+0100" value="1" recordCount="1"/>
         <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" unit="kcal" startDate="20150701161900+0100" endDate="20150702161900+0100" value="1" recordCount="1"/>
        </HealthData>

        """
        let (records, invalid, summary) = try readAll(try dir.file("export.xml", xml))
        #expect(summary.records == 7)
        #expect(records.count == 5)
        #expect(invalid.map(\.0) == [9, 10])
        #expect(invalid[0].1.contains("startDate '2015-07-01 16:19 +0100' is not a valid date"))
        #expect(invalid[1].1 == "sourceName is empty")
        #expect(records.map(\.sourceName) == ["Data Manager", "Data Manager", "Phone", "Data Manager", "Data Manager"])
        #expect(records[0].startDate == AppleHealthDate.parse("2015-07-01 16:19:00 +0100"))
        #expect(records[3].quantity == .walkingDistance && abs(records[3].value - 3.425) < 1e-12)

        var totals = DailySourceTotals()
        let zone = ReportTimeZone(identifier: "Europe/Berlin")!
        for r in records { totals.add(r.quantity, value: r.value, day: zone.localDate(of: r.startDate), source: r.sourceName) }
        let days = totals.days(userId: "u")
        #expect(days.map(\.date.description) == ["2015-07-01"])
        #expect(days[0].steps == 5_000)   // Data Manager's 4,639 + 361 beats the phone's 2,000
        #expect(days[0].activeCalories == 307.04)
        #expect(abs(days[0].walkingDistanceKm - 3.425) < 1e-12)
    }
}

/// The real iOS 8 export in Tests/Fixtures/apple-health.
@Suite("Apple Health: a real iOS 8 export")
struct AppleHealthIOS8FixtureTests {
    let file = appleHealthFixtures.appendingPathComponent("ericwolter-apple-healthkit-csv/export.xml")

    @Test func ericwolterExportReadsEveryStepDistanceAndEnergyRecord() throws {
        let (records, invalid, summary) = try readAll(file)
        #expect(invalid.isEmpty)
        #expect(summary.records == 534 + 534 + 1_171)
        let steps = records.filter { $0.quantity == .steps }
        let distance = records.filter { $0.quantity == .walkingDistance }
        let energy = records.filter { $0.quantity == .activeEnergy }
        #expect((steps.count, distance.count, energy.count) == (534, 534, 1_171))
        #expect(Set(records.map(\.sourceName)) == ["Data Manager"])
        #expect(steps.reduce(0) { $0 + $1.value } == 3_506_893)
        #expect(abs(distance.reduce(0) { $0 + $1.value } - 2_534.504548) < 1e-6)
        #expect(energy.reduce(0) { $0 + $1.value } == 2_229_122)
        #expect(steps.first?.value == 389)
        #expect(steps.first?.startDate == AppleHealthDate.parse("2012-11-14 17:19:00 +0100"))
        #expect(steps.last?.startDate == AppleHealthDate.parse("2015-09-13 16:19:00 +0100"))
        #expect(abs((distance.first?.value ?? 0) - 0.279302) < 1e-12)
    }
}
