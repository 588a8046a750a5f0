import Testing
@testable import TallyCore

/// The rules behind readable KPI reports: rate changes in percentage points,
/// one sign for MRR movements, MRR totals per currency and for the studio,
/// and cohorts that are not judged while their window is open.
@Suite("KPI readable figures")
struct KPIReadableFiguresTests {
    let october = YearMonth("2026-10")!

    func mrr(_ app: String, _ plan: String, _ currency: Currency, _ month: YearMonth, subscribers: Int, _ minor: Int64) -> SubscriptionRows.MRR {
        SubscriptionRows.MRR(app: app, plan: plan, currency: currency, month: month, subscribers: subscribers, mrr: minor)
    }

    func rate(_ date: String, _ from: Currency, _ to: Currency, _ mantissa: Int64, scale: Int) -> FxRate {
        FxRate(date: day(date), currency: from, base: to, rate: Decimal10(mantissa: mantissa, scale: scale))
    }

    @Test("a rate's change is a percentage-point difference with a sign, exact on the parts")
    func pointChanges() {
        // The case: 22.6% (7/31) → 44.8% (13/29) is +22.2 pp, not "22.2%".
        let change = KPIRate(13, of: 29).pointChange(from: KPIRate(7, of: 31))
        #expect(change == 222)
        #expect(KPIRate.points(222) == "+22.2 pp")
        #expect(KPIRate(1, of: 2).pointChange(from: KPIRate(3, of: 4)).map(KPIRate.points) == "-25.0 pp")
        #expect(KPIRate(1, of: 3).pointChange(from: KPIRate(2, of: 6)).map(KPIRate.points) == "0.0 pp")
        #expect(KPIRate(1, of: 0).pointChange(from: KPIRate(1, of: 2)) == nil, "a rate over zero has no change")
        // 1/8 − 1/16 = 6.25 pp: half away from zero, both ways.
        #expect(KPIRate(2, of: 16).pointChange(from: KPIRate(1, of: 16)) == 63)
        #expect(KPIRate(1, of: 16).pointChange(from: KPIRate(2, of: 16)) == -63)
    }

    @Test("headline changes: counts and money signed, rates in pp")
    func headlineChanges() {
        let brl = Currency(code: "BRL")!
        func h(_ current: KPIHeadline.Value, _ previous: KPIHeadline.Value?) -> KPIHeadline {
            KPIHeadline(metric: "m", app: "a", scope: "s", current: current, previous: previous)
        }
        #expect(h(.count(1888), .count(1791)).change?.text == "+97")
        #expect(h(.count(5), .count(7)).change?.text == "-2")
        #expect(h(.money(50_000, brl), .money(50_540, brl)).change?.text == "-5.40 BRL")
        #expect(h(.rate(KPIRate(13, of: 29)), .rate(KPIRate(7, of: 31))).change == .points(222))
        #expect(h(.count(3), nil).change == nil)
    }

    @Test("MRR movements carry one sign: churn and contraction negative, start + movements = end")
    func movementSigns() {
        #expect(MRRMovement.allCases.map(\.sign) == [1, 1, -1, -1, 1])
        var m = SubscriptionRows.Movements(app: "FisioFlow", currency: Currency(code: "BRL")!, month: october)
        m.startMRR = 508_034
        m.amounts = [.new: 127_300, .expansion: 20_000, .churn: 29_400]
        m.endMRR = 625_934
        #expect(m.signedAmount(.churn) == -29_400)
        #expect(m.signedAmount(.contraction) == 0)
        #expect(m.signedAmount(.new) == 127_300)
        #expect(m.amount(.churn) == 29_400)
        #expect(m.computedEnd == m.endMRR)
        #expect(MRRMovement.allCases.map(m.signedAmount).reduce(0, +) == m.net)
    }

    @Test("MRR totals per currency and a studio total in the reporting currency, converted once per currency")
    func totalsWithRates() {
        let brl = Currency(code: "BRL")!, usd = Currency(code: "USD")!
        let rows = [mrr("FisioFlow", "gold", brl, october, subscribers: 17, 325_051),
                    mrr("LovU", "premium", brl, october, subscribers: 37, 67_702),
                    mrr("LovU", "premium", usd, october, subscribers: 1, 499),
                    mrr("LovU", "premium", usd, october.adding(months: -1), subscribers: 9, 9_999)]
        let fx = FxTable([rate("2026-10-30", usd, brl, 5_417_398, scale: 6), rate("2026-11-02", usd, brl, 9, scale: 0),
                          rate("2026-10-01", usd, brl, 5, scale: 0)])
        let totals = MRRTotals(rows, month: october, reportingCurrency: brl, fx: fx)
        #expect(totals.currencies.map(\.currency) == [brl, usd])
        #expect(totals.currencies[0].mrr == 392_753 && totals.currencies[0].subscribers == 54)
        #expect(totals.currencies[1].mrr == 499 && totals.currencies[1].subscribers == 1)
        // 4.99 × 5.417398 = 27.0328… → 27.03 BRL, the latest rate on or before 2026-10-31 (not the November one).
        #expect(totals.currencies[1].converted == 2_703)
        #expect(totals.currencies[1].rate?.date == day("2026-10-30"))
        #expect(totals.currencies[0].converted == 392_753 && totals.currencies[0].rate == nil)
        #expect(totals.studioTotal == 395_456)
        #expect(totals.missingRates.isEmpty)
        #expect(totals.note.contains("1 USD = 5.417398 BRL (2026-10-30)"))
    }

    @Test("a currency without a rate leaves the studio total empty and is named; no partial sum")
    func totalsWithoutRates() {
        let brl = Currency(code: "BRL")!, usd = Currency(code: "USD")!, jpy = Currency(code: "JPY")!
        let rows = [mrr("LovU", "premium", brl, october, subscribers: 2, 3_980),
                    mrr("LovU", "premium", usd, october, subscribers: 1, 499),
                    mrr("LovU", "premium", jpy, october, subscribers: 1, 800)]
        // A rate after the month's end and an inverse rate do not count.
        let fx = FxTable([rate("2026-11-01", usd, brl, 5, scale: 0), rate("2026-10-01", brl, jpy, 30, scale: 0),
                          rate("2026-10-01", jpy, brl, 365, scale: 4)])
        let totals = MRRTotals(rows, month: october, reportingCurrency: brl, fx: fx)
        #expect(totals.studioTotal == nil)
        #expect(totals.missingRates == [usd])
        #expect(totals.currencies.first { $0.currency == jpy }?.converted == 2_920)   // 800 × 0.0365 = 29.20 BRL
        #expect(totals.currencies.first { $0.currency == usd }?.converted == nil)
        #expect(totals.note == "no studio total in BRL: no fx rate from USD to BRL on or before 2026-10-31 in expenses/fx")

        let unset = MRRTotals(rows, month: october, reportingCurrency: nil, fx: fx)
        #expect(unset.studioTotal == nil && unset.missingRates.isEmpty)
        #expect(unset.currencies.allSatisfy { $0.converted == nil })
        #expect(unset.note.contains("kpis.reportingCurrency"))

        let none = MRRTotals([], month: october, reportingCurrency: brl, fx: fx)
        #expect(none.studioTotal == 0 && none.currencies.isEmpty)
    }

    @Test("a cohort still inside its window is pending, never below")
    func pendingCohorts() {
        #expect(TargetStatus.of(0.036, min: 0.15, max: 0.20, complete: false) == .pending)
        #expect(TargetStatus.of(0.036, min: 0.15, max: 0.20) == .below)
        #expect(TargetStatus.of(nil, min: 0.8, complete: false) == .pending)
        #expect(TargetStatus.pending.rawValue == "pending")
    }
}
