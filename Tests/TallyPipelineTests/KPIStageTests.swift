import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyPipeline

/// A small data folder with every KPI input: swipes (a repeated id, a
/// self-swipe, a report), subscriptions (every event kind, an unknown
/// product), LovU connections and both App Store Connect reports.
private func kpiData(in folder: URL) throws {
    func put(_ path: String, _ lines: [String]) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    }
    try put("swipes/users.csv", ["id,createdAt,gender,city,subscription",
                                 "a,2026-01-01T00:00:00Z,female,Recife,free", "b,2026-01-01T00:00:00Z,male,Natal,vip",
                                 "c,2026-01-01T00:00:00Z,,Natal,free"])
    try put("swipes/swipes.csv", ["id,fromUserId,toUserId,action,timestamp",
                                  "s1,a,b,like,2026-10-02T12:00:00-03:00",
                                  "s2,b,a,super_like,2026-10-03T12:00:00-03:00",
                                  "s2,b,a,super_like,2026-10-03T12:00:00-03:00",
                                  "s3,a,c,like,2026-10-03T13:00:00-03:00",
                                  "s4,c,a,like,2026-10-03T14:00:00-03:00",
                                  "s5,c,a,report,2026-10-20T14:00:00-03:00",
                                  "s6,a,a,like,2026-10-03T14:00:00-03:00",
                                  "s7,b,c,pass,2026-09-30T14:00:00-03:00"])
    try put("subscriptions/products.csv", ["productId,app,plan,period,price,currency",
                                           "ff.silver.m,FisioFlow,silver,monthly,97.00,BRL",
                                           "ff.gold.y,FisioFlow,gold,yearly,1970.00,BRL",
                                           "lovu.premium.monthly,LovU,premium,monthly,19.90,BRL"])
    try put("subscriptions/events.csv", ["id,app,userId,event,productId,context,timestamp",
                                         "e1,FisioFlow,u1,signup,,,2026-09-01T12:00:00Z",
                                         "e2,FisioFlow,u1,paywall_shown,,patientLimitReached,2026-09-02T12:00:00Z",
                                         "e3,FisioFlow,u1,trial_started,ff.silver.m,,2026-09-03T12:00:00Z",
                                         "e4,FisioFlow,u1,subscribed,ff.silver.m,,2026-09-10T12:00:00Z",
                                         "e5,FisioFlow,u1,renewed,ff.silver.m,,2026-10-10T12:00:00Z",
                                         "e6,FisioFlow,u1,upgraded,ff.gold.y,,2026-10-12T12:00:00Z",
                                         "e7,FisioFlow,u2,signup,,,2026-10-01T12:00:00Z",
                                         "e8,FisioFlow,u2,subscribed,ff.silver.m,,2026-10-02T12:00:00Z",
                                         "e9,FisioFlow,u2,downgraded,ff.silver.m,,2026-10-05T12:00:00Z",
                                         "e10,FisioFlow,u2,cancelled,ff.silver.m,,2026-10-06T12:00:00Z",
                                         "e11,FisioFlow,u2,expired,ff.silver.m,,2026-10-20T12:00:00Z",
                                         "e12,FisioFlow,u3,subscribed,ff.platinum.m,,2026-10-02T12:00:00Z",
                                         "e13,FisioFlow,u3,refunded,ff.silver.m,,2026-10-03T12:00:00Z",
                                         "e14,FisioFlow,u3,billing_issue,ff.silver.m,,2026-10-03T12:00:00Z"])
    try put("subscriptions/connections.csv", ["userId,partnerId,connectedAt,disconnectedAt",
                                              "p1,p2,2026-09-01T00:00:00Z,"])
    try put("subscriptions/Subscriber_Report_20261003.txt", [
        "Event Date\tApp Name\tSubscription Name\tSubscription Offer Type\tCustomer Price\tSubscriber ID\tRefund",
        "2026-09-03\tLovU\tlovu.premium.monthly\t\t19.90\tp1\t",
        "2026-10-03\tLovU\tlovu.premium.monthly\t\t19.90\tp1\t"])
    try put("subscriptions/Subscription_Event_20261003.tsv", [
        "Event Date\tEvent\tApp Name\tSubscription Name\tQuantity",
        "2026-10-03\tRenew\tLovU\tlovu.premium.monthly\t1",
        "2026-10-03\tTeleport\tLovU\tlovu.premium.monthly\t1"])
}

@Suite("KPI stage end to end", .serialized)
struct KPIStageTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))

    @Test("tally run writes every KPI file with the contract's columns; reruns are byte-identical")
    func endToEnd() throws {
        let work = try temporaryFolder("kpis")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try kpiData(in: data)
        let out = work.appendingPathComponent("out")
        let request = RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!, reproducible: true)
        let outcome = try runner.run(request)
        func csv(_ name: String) throws -> [String] {
            try String(contentsOf: out.appendingPathComponent("kpis/\(name)"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
        }

        let daily = try csv("swipes_daily.csv")
        #expect(daily[0].hasPrefix("date,swipes,swipers,likes,superLikes,passes,reports,matches,likeRate,matchRate"))
        #expect(daily.count == 32)
        #expect(daily[1] == "2026-10-01,0,0,0,0,0,0,0,,")
        #expect(daily[2] == "2026-10-02,1,1,1,0,0,0,0,1.0000,0.0000")
        // a→b matched on the 3rd (b's super_like); a↔c was reported later: no match; the repeat s2 counts once.
        #expect(daily[3] == "2026-10-03,3,3,2,1,0,0,1,1.0000,0.3333")

        #expect(try csv("conversion.csv").prefix(3) == ["app,cohort,signups,converted,conversionRate,windowDays,complete,targetMin,targetMax,vsTarget",
                                                        "FisioFlow,2026-09,1,1,1.0000,30,true,0.1500,0.2000,above",
                                                        "FisioFlow,2026-10,1,1,1.0000,30,false,0.1500,0.2000,pending"])
        let mrr = try csv("mrr.csv")
        #expect(mrr.first == "app,plan,subscribers,mrr,currency,period")
        #expect(mrr.contains("FisioFlow,gold,1,164.17,BRL,2026-10"))       // 1970.00 / 12
        #expect(mrr.contains("LovU,premium,1,19.90,BRL,2026-10"))          // from the Subscriber report
        let paywall = try csv("paywall.csv")
        #expect(paywall.contains("FisioFlow,none,0,1,0,2026-10,0,"))   // no one shown it: no rate
        #expect(try csv("retention.csv")[0].hasPrefix("app,cohort,subscribers,retained30d,retentionRate"))
        #expect(try csv("shared_premium.csv").contains("LovU,2026-10,1,1,2"))
        #expect(try csv("appstore_events.csv").contains("2026-10-03,LovU,lovu.premium.monthly,Renew,renewed,1"))
        let movements = try csv("mrr_movements.csv")
        #expect(movements.contains { $0.hasPrefix("FisioFlow,2026-10,BRL,97.00,0.00,67.17,0.00,0.00,0.00,164.17,67.17,0,1,0,0,0") })

        // Rejects name file, line and reason; the repeated swipe is superseded, not rejected.
        let rejects = try String(contentsOf: out.appendingPathComponent("rejects.csv"), encoding: .utf8)
        #expect(rejects.contains("swipes/swipes.csv,8,s6,fromUserId and toUserId are both"))
        #expect(rejects.contains("subscriptions/events.csv,14,e13,productId 'ff.platinum.m'") == false)
        #expect(rejects.contains("subscriptions/events.csv,13,e12,productId 'ff.platinum.m' is in neither"))
        #expect(rejects.contains("subscriptions/events.csv,15,e14,\"event 'billing_issue'"))
        #expect(rejects.contains("subscriptions/Subscription_Event_20261003.tsv,3,,\"event 'Teleport' is not one of "))
        let swipesInput = try #require(outcome.manifest.inputs.first { $0.path == "swipes/swipes.csv" })
        #expect((swipesInput.rowsRead, swipesInput.rowsUsed, swipesInput.rowsRejected, swipesInput.rowsSuperseded) == (8, 6, 1, 1))

        // The workbook: Summary first, one sheet per report, native charts.
        let book = try XLSXReader(url: out.appendingPathComponent("kpis/kpis.xlsx"))
        #expect(book.sheetNames.first == "Summary")
        for sheet in ["Swipes", "Conversion", "Paywall", "MRR", "MRR by plan", "MRR movements", "Churn", "Retention",
                      "Trials", "Shared premium", "App Store events"] {
            #expect(book.sheetNames.contains(sheet), "no sheet \(sheet)")
        }
        #expect(try book.chartPaths(onSheet: "Swipes").count == 2)
        #expect(try book.chartPaths(onSheet: "MRR by plan").count == 1)
        #expect(try book.chartPaths(onSheet: "Conversion").count == 1)
        #expect(try book.chartPaths(onSheet: "Retention").count == 1)
        let chartKinds = try book.chartPaths.map { try book.text($0) }
        #expect(chartKinds.contains { $0.contains("<c:lineChart>") })
        #expect(chartKinds.contains { $0.contains("<c:grouping val=\"stacked\"/>") })
        #expect(try book.numberFormat("Conversion", "E2") == "0.0%")
        // The headline table's heading row comes after the title and the note's lines.
        #expect(try (1...8).contains { try book.strings("Summary", $0).prefix(4) == ["Metric", "App", "Scope", "This month"] })
        let text = try String(contentsOf: out.appendingPathComponent("kpis/kpis.txt"), encoding: .utf8)
        #expect(text.contains("Free→paid conversion by signup cohort"))
        #expect(outcome.summary.contains { $0.hasPrefix("kpis: ") })

        // A fresh rerun gives the same bytes.
        let again = work.appendingPathComponent("again")
        _ = try runner.run(RunRequest(dataDirectory: data, outDirectory: again, period: YearMonth("2026-10")!, reproducible: true))
        try expectSameReports(out, again)
    }
}
