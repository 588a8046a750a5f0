import Testing
@testable import TallyCore

@Suite struct FxTableTests {
    @Test func sameCurrencyNeedsNoRate() {
        let table = FxTable()
        #expect(table.convert(12345, from: brl, to: brl, on: day("2026-01-01")) == 12345)
        #expect(table.convert(-7, from: jpy, to: jpy, on: day("2026-01-01")) == -7)
        #expect(table.rate(from: brl, to: brl, on: day("2026-01-01")) == nil)
    }

    @Test func usesTheLatestRateOnOrBeforeTheDate() {
        let table = FxTable([
            FxRate(date: day("2026-01-10"), currency: usd, base: brl, rate: dec("6")),
            FxRate(date: day("2026-01-01"), currency: usd, base: brl, rate: dec("5")),
            FxRate(date: day("2026-02-01"), currency: usd, base: brl, rate: dec("7")),
        ])
        #expect(table.count == 3)
        #expect(table.convert(100, from: usd, to: brl, on: day("2025-12-31")) == nil)
        #expect(table.convert(100, from: usd, to: brl, on: day("2026-01-01")) == 500)
        #expect(table.convert(100, from: usd, to: brl, on: day("2026-01-09")) == 500)
        #expect(table.convert(100, from: usd, to: brl, on: day("2026-01-10")) == 600)
        #expect(table.convert(100, from: usd, to: brl, on: day("2026-01-31")) == 600)
        #expect(table.convert(100, from: usd, to: brl, on: day("2030-01-01")) == 700)
        #expect(table.rate(from: usd, to: brl, on: day("2026-01-20"))?.rate == dec("6"))
        #expect(table.rate(from: usd, to: brl, on: day("2026-01-20"))?.date == day("2026-01-10"))
    }

    @Test func roundsHalfAwayFromZero() {
        let half = FxTable([FxRate(date: day("2026-01-01"), currency: usd, base: brl, rate: dec("0.5"))])
        #expect(half.convert(1, from: usd, to: brl, on: day("2026-01-01")) == 1)
        #expect(half.convert(-1, from: usd, to: brl, on: day("2026-01-01")) == -1)
        #expect(half.convert(3, from: usd, to: brl, on: day("2026-01-01")) == 2)
        #expect(half.convert(-3, from: usd, to: brl, on: day("2026-01-01")) == -2)
        let below = FxTable([FxRate(date: day("2026-01-01"), currency: usd, base: brl, rate: dec("0.4999"))])
        #expect(below.convert(1, from: usd, to: brl, on: day("2026-01-01")) == 0)
        #expect(below.convert(-1, from: usd, to: brl, on: day("2026-01-01")) == 0)
        // 10.00 USD × 5.4321 = 54.321 BRL → 54.32; 0.50 × 5.4321 = 2.71605 → 2.72.
        let real = FxTable([FxRate(date: day("2026-01-01"), currency: usd, base: brl, rate: dec("5.4321"))])
        #expect(real.convert(1000, from: usd, to: brl, on: day("2026-03-01")) == 5432)
        #expect(real.convert(50, from: usd, to: brl, on: day("2026-03-01")) == 272)
        #expect(real.convert(-50, from: usd, to: brl, on: day("2026-03-01")) == -272)
    }

    @Test func handlesDifferentMinorUnits() {
        let table = FxTable([
            FxRate(date: day("2026-01-01"), currency: jpy, base: brl, rate: dec("0.0365")),
            FxRate(date: day("2026-01-01"), currency: brl, base: jpy, rate: dec("27.4")),
        ])
        // 3500 JPY × 0.0365 = 127.75 BRL.
        #expect(table.convert(3500, from: jpy, to: brl, on: day("2026-01-02")) == 12775)
        // 1 JPY = 0.0365 BRL = 3.65 centavos → 4.
        #expect(table.convert(1, from: jpy, to: brl, on: day("2026-01-02")) == 4)
        // 12.34 BRL × 27.4 = 338.116 JPY → 338; 12.35 × 27.4 = 338.39 → 338; 12.37 × 27.4 = 338.938 → 339.
        #expect(table.convert(1234, from: brl, to: jpy, on: day("2026-01-02")) == 338)
        #expect(table.convert(1237, from: brl, to: jpy, on: day("2026-01-02")) == 339)
        let dinar = Currency(code: "KWD")!
        let kwd = FxTable([FxRate(date: day("2026-01-01"), currency: dinar, base: brl, rate: dec("17.5"))])
        // 1.005 KWD × 17.5 = 17.5875 BRL → 17.59.
        #expect(kwd.convert(1005, from: dinar, to: brl, on: day("2026-01-01")) == 1759)
    }

    @Test func noInverseOrCrossRates() {
        let table = FxTable([
            FxRate(date: day("2026-01-01"), currency: brl, base: usd, rate: dec("0.2")),
            FxRate(date: day("2026-01-01"), currency: usd, base: eur, rate: dec("0.9")),
            FxRate(date: day("2026-01-01"), currency: eur, base: brl, rate: dec("6")),
        ])
        #expect(table.convert(100, from: brl, to: usd, on: day("2026-01-01")) == 20)
        #expect(table.convert(100, from: usd, to: brl, on: day("2026-01-01")) == nil)
        #expect(table.rate(from: usd, to: brl, on: day("2026-01-01")) == nil)
        #expect(table.convert(100, from: usd, to: eur, on: day("2026-01-01")) == 90)
        #expect(table.convert(100, from: jpy, to: brl, on: day("2026-01-01")) == nil)
    }

    @Test func overflowIsNil() {
        let table = FxTable([FxRate(date: day("2026-01-01"), currency: usd, base: brl, rate: dec("2"))])
        #expect(table.convert(Int64.max, from: usd, to: brl, on: day("2026-01-01")) == nil)
        #expect(table.convert(Int64.max / 2, from: usd, to: brl, on: day("2026-01-01")) == Int64.max - 1)
        #expect(table.convert(Int64.min, from: usd, to: brl, on: day("2026-01-01")) == nil)
    }

    @Test func theLastRowOfADayWins() {
        let table = FxTable([
            FxRate(date: day("2026-01-01"), currency: usd, base: brl, rate: dec("5")),
            FxRate(date: day("2026-01-01"), currency: usd, base: brl, rate: dec("5.5")),
        ])
        #expect(table.count == 1)
        #expect(table.convert(100, from: usd, to: brl, on: day("2026-01-01")) == 550)
    }
}
