import Foundation
import Testing
import TallyCore
import TallyIngest

/// Values that parse as text but not as what they claim to be: numbers out of
/// range, impossible dates, timestamps without offsets. Each gives the row a
/// reason naming the field; none crashes.
@Suite("Hostile input: values")
struct HostileValueTests {
    /// Each record of an expenses fixture, decoded: the version's error (nil
    /// when usable), or the error that stops the row from being versioned.
    static func decode(_ name: String) throws -> [String: String?] {
        let fields = TableID.expenses.fields
        let reader = try TableReader(url: HostileFixtures.reader(name), fields: fields)
        var out: [String: String?] = [:]
        try reader.read { event in
            guard case .record(let view) = event else { Issue.record("malformed: \(event)"); return }
            let id = view.string(0) ?? "?"
            do {
                let error: String? = try ExpenseDecoders.expenseVersion(FieldDecoder(view: view, fields: fields)).error?.text
                out[id] = .some(error)
            } catch {
                out[id] = "row: \((error as? FieldError)?.reason ?? "\(error)")"
            }
        }
        return out
    }

    @Test func amountsOutOfRangeAreRejectedWithTheAmount() throws {
        let results = try Self.decode("out-of-range.csv")
        #expect(results["e1"]! == "amount: amount '92233720368547758.07' is out of range")
        #expect(results["e2"]! == "amount: amount '92233720368547758.08' is out of range")
        #expect(results["e3"]! == "amount: amount '1e400' is not a decimal number like 1234.56 (no comma decimal, no thousands separator)")
        #expect(results["e4"]! == "amount: amount '-99999999999999999999999999.99' is out of range")
        #expect(results["e5"]! == "amount: amount '10.005' has more than 2 decimals, the most BRL allows")
        #expect(results["e6"]! == "amount: amount '1,50' is not a decimal number like 1234.56 (no comma decimal, no thousands separator)")
        #expect(results["e7"]! == nil)   // a refund
        #expect(results["e8"]!?.contains("is not a decimal number") == true)
        #expect(results["e9"]!?.contains("is not a decimal number") == true)
    }

    @Test func amountsAreBoundedSoThatSumsCannotOverflow() throws {
        let brl = Currency(code: "BRL")!
        #expect(Money.parseMinor("10000000000000.00", currency: brl) == .success(Money.maxMinorMagnitude))
        #expect(Money.parseMinor("-10000000000000.00", currency: brl) == .success(-Money.maxMinorMagnitude))
        #expect(Money.parseMinor("10000000000000.01", currency: brl) == .failure(.outOfRange("10000000000000.01")))
    }

    @Test func impossibleDatesAndTimestampsWithoutOffsetsAreRejected() throws {
        let r = try Self.decode("impossible-dates.csv")
        #expect(r["e1"]! == "date '2026-02-30' is not a valid date YYYY-MM-DD")
        #expect(r["e2"]! == "date '2026-13-01' is not a valid date YYYY-MM-DD")
        #expect(r["e3"]! == "date '2026-10-5' is not a valid date YYYY-MM-DD")
        #expect(r["e4"]! == "row: updatedAt '2026-10-05T10:00:00' has no time zone offset (expected like 2026-10-03T21:15:00-03:00)")
        #expect(r["e5"]! == "row: updatedAt '2026-10-05 10:00' is not an ISO 8601 timestamp like 2026-10-03T21:15:00-03:00")
        #expect(r["e6"]! == "row: updatedAt '2026-02-29T10:00:00Z' is not a real date and time")
        #expect(r["e7"]! == "row: updatedAt '2026-10-05T25:00:00Z' is not a real date and time")
        #expect(r["e8"]! == "date '0000-01-01' is not a valid date YYYY-MM-DD")
        #expect(r["e9"]! == "row: updatedAt '9999-12-31T23:59:59-18:00' is not a real date and time")
        #expect(r["e10"]! == nil)
    }

    @Test func negativeOrHugeWholeNumbersAreOutsideTheirRange() throws {
        let folder = try TemporaryDirectory()
        let header = TableID.agreements.fields.joined(separator: ",")
        func row(_ id: String, day: String) -> String {
            "\(id),c1,rent,100.00,BRL,m1,equal,,home,\(day),2026-01-01,\n"
        }
        let url = try folder.file("agreements.csv", header + "\n" + row("a1", day: "-5") + row("a2", day: "1e400")
                                  + row("a3", day: "99999999999999999999") + row("a4", day: "31") + row("a5", day: "7.5"))
        let fields = TableID.agreements.fields
        var results: [String: String] = [:]
        try TableReader(url: url, fields: fields).read { event in
            guard case .record(let view) = event else { return }
            do {
                _ = try ExpenseDecoders.agreement(FieldDecoder(view: view, fields: fields))
                results[view.string(0)!] = "ok"
            } catch {
                results[view.string(0)!] = (error as? FieldError)?.reason ?? "\(error)"
            }
        }
        #expect(results == [
            "a1": "dayOfMonth -5 is outside 1...31",
            "a2": "dayOfMonth '1e400' is not a decimal number",
            "a3": "dayOfMonth '99999999999999999999' is out of range",
            "a4": "ok",
            "a5": "dayOfMonth '7.5' is not a whole number",
        ])
    }

    @Test func timestampsThatLeaveTheCalendarAfterTheirOffsetAreRefused() {
        // Found writing the FuzzValues round-trip property: these parsed to instants outside
        // 0001-01-01...9999-12-31 UTC, which print as dates no parser reads.
        #expect(Timestamp.parse("9999-12-31T23:59:59-18:00") == .failure(.impossibleDate))
        #expect(Timestamp.parse("0001-01-01T00:00:00+01:00") == .failure(.impossibleDate))
        #expect(Timestamp.parse("9999-12-31T23:59:59Z").map(\.description) == .success("9999-12-31T23:59:59Z"))
        #expect(Timestamp.parse("0001-01-01T00:00:00Z").map(\.description) == .success("0001-01-01T00:00:00Z"))
    }
}
