import Testing
@testable import TallyCore

@Suite("Unknown products")
struct UnknownProductRuleTests {
    let catalog = ProductCatalog(primary: [.init(productId: "pro_monthly", app: "LovU", plan: "pro", yearly: false,
                                                 price: 1990, currency: Currency(code: "BRL")!)])

    func event(_ kind: SubscriptionEventKind, _ product: String?) -> SubscriptionEvent {
        SubscriptionEvent(kind: kind, timestamp: ts("2026-10-01T10:00:00Z"), productId: product)
    }

    @Test func aPaidEventOfAProductNobodyPricedIsRejectedWithItsName() {
        #expect(UnknownProductRule.reason(event(.subscribed, "pro_weekly"), catalog: catalog)?.code == .unknownProduct)
        #expect(UnknownProductRule.reason(event(.subscribed, "pro_weekly"), catalog: catalog)?.text
                == "productId 'pro_weekly' is in neither subscriptions/products nor the products of tally.yml")
        #expect(UnknownProductRule.reason(event(.refunded, "x"), catalog: catalog) != nil)
    }

    @Test func knownProductsSignupsPaywallViewsAndEventsWithoutAProductCount() {
        #expect(UnknownProductRule.reason(event(.subscribed, "pro_monthly"), catalog: catalog) == nil)
        #expect(UnknownProductRule.reason(event(.signup, "pro_weekly"), catalog: catalog) == nil)
        #expect(UnknownProductRule.reason(event(.paywallShown, "pro_weekly"), catalog: catalog) == nil)
        #expect(UnknownProductRule.reason(event(.cancelled, nil), catalog: catalog) == nil)
    }

    @Test func aLongProductIdIsCutToSixtyCharactersInTheReason() {
        let long = String(repeating: "p", count: 100)
        let reason = UnknownProductRule.reason(event(.renewed, long), catalog: catalog)!
        #expect(reason.text.contains("'\(String(repeating: "p", count: 60))'"))
    }

    @Test func theKPIFamilyRejectsThemAndCountsTheRest() {
        let family = KPIsFamily(settings: .init(
            subscriptions: .init(period: YearMonth("2026-10")!, firstMonth: YearMonth("2026-10")!, timezone: ReportTimeZone(identifier: "UTC")!),
            catalog: catalog, targets: KPIReport.Targets(TallyConfig.KPIs())))
        let events = [event(.signup, nil), event(.subscribed, "pro_weekly"), event(.subscribed, "pro_monthly")]
        let result = family.compute(.subscriber(app: "LovU", userId: "u1", events: events, ids: ["e1", "e2", "e3"]))
        #expect(result.rows.map(\.id) == ["e2"])
        #expect(result.summary.subscriptions.users == 1)
    }
}
