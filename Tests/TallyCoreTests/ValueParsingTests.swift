import Testing
@testable import TallyCore

@Suite("Money, dates and timestamps as the contract writes them")
struct ValueParsingTests {
    let brl = Currency(code: "BRL")!
    let jpy = Currency(code: "JPY")!

    @Test("money: fewer decimals are fine, more are not", arguments: [
        ("1234.56", 123_456), ("-20.00", -2000), ("7", 700), ("12.5", 1250), ("0.01", 1), ("-0.05", -5),
    ])
    func moneyAccepted(text: String, minor: Int64) {
        #expect(Money.parseMinor(text, currency: brl) == .success(minor))
    }

    @Test func moneyRefused() {
        #expect(Money.parseMinor("10.005", currency: brl) == .failure(.tooManyDecimals("10.005", currency: "BRL", allowed: 2)))
        #expect(Money.parseMinor("3500.0", currency: jpy) == .failure(.tooManyDecimals("3500.0", currency: "JPY", allowed: 0)))
        #expect(Money.parseMinor("3500", currency: jpy) == .success(3500))
        #expect(Money.parseMinor("12,50", currency: brl) == .failure(.invalid("12,50")))
        #expect(Money.parseMinor("1,234.56", currency: brl) == .failure(.invalid("1,234.56")))
        #expect(Money.parseMinor("", currency: brl) == .failure(.empty))
        #expect(Money.parseMinor("1e3", currency: brl) == .failure(.invalid("1e3")))
        #expect(Money.parseMinor(".5", currency: brl) == .failure(.invalid(".5")))
        #expect(Money.parseMinor("5.", currency: brl) == .failure(.invalid("5.")))
        #expect(Money.parseMinor("92233720368547758.08", currency: brl) == .failure(.outOfRange("92233720368547758.08")))
    }

    @Test func moneyPrintsPlainDecimals() {
        #expect(Money.plain(123_450, brl) == "1234.50")
        #expect(Money.plain(-5, brl) == "-0.05")
        #expect(Money.plain(0, brl) == "0.00")
        #expect(Money.plain(3500, jpy) == "3500")
        #expect(Money.plain(Int64.min, brl) == "-92233720368547758.08")
    }

    @Test func dates() {
        #expect(LocalDate.parse("2026-02-28") == LocalDate(year: 2026, month: 2, day: 28))
        #expect(LocalDate.parse("2026-02-30") == nil)
        #expect(LocalDate.parse("2024-02-29") != nil)
        #expect(LocalDate.parse("2026-2-28") == nil)
        #expect(LocalDate.parse("2026-02-28T00:00:00Z") == nil)
        let d = LocalDate(year: 2026, month: 10, day: 3)!
        #expect(LocalDate(daysSinceEpoch: d.daysSinceEpoch) == d)
        #expect(LocalDate(daysSinceEpoch: 0).description == "1970-01-01")
        #expect(LocalDate(daysSinceEpoch: -1).description == "1969-12-31")
        #expect(YearMonth(year: 2026, month: 2)!.clampedDay(31).description == "2026-02-28")
        #expect(YearMonth("2026-12")!.adding(months: 1).description == "2027-01")
    }

    @Test func timestamps() throws {
        let a = try Timestamp.parse("2026-10-03T21:15:00-03:00").get()
        let b = try Timestamp.parse("2026-10-04T00:15:00Z").get()
        #expect(a == b)
        #expect(b.description == "2026-10-04T00:15:00Z")
        let frac = try Timestamp.parse("2026-10-04T00:15:00.123456789+00:00").get()
        #expect(frac.microseconds - b.microseconds == 123_456)
        #expect(try Timestamp.parse("2026-10-04 00:15:00+0000").get() == b)
        #expect(Timestamp.parse("2026-10-04T00:15:00") == .failure(.missingOffset))
        #expect(Timestamp.parse("2026-02-30T00:15:00Z") == .failure(.impossibleDate))
        #expect(Timestamp.parse("yesterday") == .failure(.notISO8601))
        #expect(Timestamp.parse("2026-10-04T00:15:00Zjunk") == .failure(.notISO8601))
    }

    @Test func reportTimeZoneDays() throws {
        let zone = try #require(ReportTimeZone(identifier: "America/Sao_Paulo"))
        let lateLocal = try Timestamp.parse("2026-10-03T23:59:59-03:00").get()
        #expect(zone.localDate(of: lateLocal).description == "2026-10-03")
        let utcNextDay = try Timestamp.parse("2026-10-04T02:30:00Z").get()
        #expect(zone.localDate(of: utcNextDay).description == "2026-10-03")
        #expect(zone.startOfDay(LocalDate(year: 2026, month: 10, day: 4)!) == (try Timestamp.parse("2026-10-04T03:00:00Z").get()))
        #expect(zone.endOfMonth(YearMonth("2026-10")!) == (try Timestamp.parse("2026-11-01T03:00:00Z").get()))
    }

    @Test func currencies() {
        #expect(Currency(code: "BRL")?.minorUnits == 2)
        #expect(Currency(code: "JPY")?.minorUnits == 0)
        #expect(Currency(code: "KWD")?.minorUnits == 3)
        #expect(Currency(code: "XXX") == nil)
        #expect(Currency(code: "brl") == nil)
    }
}
