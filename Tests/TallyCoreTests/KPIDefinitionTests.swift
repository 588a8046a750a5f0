import Testing
@testable import TallyCore

/// The KPI definitions the workbook and docs/kpis.md list: one per KPI, with
/// the configuration's windows and targets written in.
@Suite("KPI definitions")
struct KPIDefinitionTests {
    @Test("every definition has a numerator, a denominator (or —), a window and a rule; KPI names are unique")
    func complete() {
        let rows = KPIDefinition.all(KPIReport.Targets(TallyConfig.KPIs()))
        #expect(rows.count == 20)
        #expect(Set(rows.map(\.kpi)).count == rows.count)
        for row in rows {
            #expect(row.fields.count == KPIDefinition.headings.count)
            #expect(row.fields.allSatisfy { !$0.isEmpty }, "\(row)")
        }
        // Rates have a denominator; counts and amounts show —.
        let rates = Set(rows.filter { $0.denominator != "—" }.map(\.kpi))
        #expect(rates == ["Like rate", "Match rate", "Free→paid conversion", "Paywall conversion rate", "ARPU", "ARPPU", "Churn", "30-day retention",
                          "Retention curve (M1–M6)", "Trial conversion"])
    }

    @Test("windows and targets come from the configuration, not from constants")
    func fromConfiguration() throws {
        var config = TallyConfig.KPIs()
        config.conversionWindowDays = 14
        config.retentionDays = 45
        config.conversionTargetMin = 0.1
        config.conversionTargetMax = 0.125
        config.retentionTarget = 0.9
        let rows = KPIDefinition.all(KPIReport.Targets(config))
        let conversion = try #require(rows.first { $0.kpi == "Free→paid conversion" })
        #expect(conversion.window == "first subscribed within 14 days (14 × 24 h) of signup")
        #expect(conversion.target == "10.0%–12.5%")
        let retention = try #require(rows.first { $0.kpi == "45-day retention" })
        #expect(retention.window == "first subscribed + 45 × 24 h")
        #expect(retention.numerator == "subscribers paid 45 days later")
        #expect(retention.target == "≥ 90.0%")
        #expect(try #require(rows.first { $0.kpi == "Trial conversion" }).window.contains("within 14 days"))
        #expect(!rows.contains { $0.fields.joined().contains("30") }, "no default window left over")
    }
}
