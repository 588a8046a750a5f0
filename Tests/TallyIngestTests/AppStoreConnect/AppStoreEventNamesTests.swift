import Foundation
import Testing
import TallyCore
@testable import TallyIngest

@Suite("App Store Connect event names, today's and older")
struct AppStoreEventNamesTests {
    @Test("today's names (App Store Connect Help, Subscription events) map onto contract events", arguments: [
        ("Start Introductory Offer", SubscriptionEventKind.subscribed),
        ("Subscribe", .subscribed),
        ("Opt-In", .subscribed),
        ("Start Offer Code", .subscribed),
        ("Paid Subscription from Introductory Offer", .subscribed),
        ("Paid Subscription from Opt-In", .subscribed),
        ("Paid Subscription from Offer Code", .subscribed),
        ("Crossgrade From Introductory Offer", .upgraded),
        ("Downgrade From Introductory Offer", .downgraded),
        ("Upgrade From Introductory Offer", .upgraded),
        ("Crossgrade from Opt-In", .upgraded),
        ("Reactivate", .subscribed),
        ("Reactivate with Upgrade", .subscribed),
        ("Reactivation to Offer Code with Downgrade", .subscribed),
        ("Renew", .renewed),
        ("Renewal from Billing Retry", .renewed),
        ("Renewal from Billing Grace Period", .renewed),
        ("Cancel", .cancelled),
        ("Canceled from Billing Retry", .cancelled),
        ("Canceled from Billing Grace Period", .cancelled),
        ("Canceled After Renewal Extension", .cancelled),
        ("Refund", .refunded),
    ])
    func todaysNames(name: String, kind: SubscriptionEventKind) {
        #expect(AppStoreEventNames.kind(of: name) == kind)
        #expect(AppStoreEventNames.kind(of: "  \(name.uppercased()) ") == kind)
    }

    @Test("the older spellings still map", arguments: [
        ("Start Introductory Price", SubscriptionEventKind.subscribed),
        ("Paid Subscription from Introductory Price", .subscribed),
        ("Paid Subscription from Free Trial", .subscribed),
        ("Start Promotional Offer", .subscribed),
        ("Start Free Trial", .trialStarted),
        ("Free Trial", .trialStarted),
        ("Renewal", .renewed),
        ("Crossgrade from Monthly to Yearly", .upgraded),
        ("Canceled", .cancelled),
        ("Cancelled", .cancelled),
        ("Expired", .expired),
    ])
    func olderNames(name: String, kind: SubscriptionEventKind) {
        #expect(AppStoreEventNames.kind(of: name) == kind)
    }

    @Test("an introductory offer of type Free Trial starts a trial; other offer types subscribe")
    func introductoryFreeTrial() {
        #expect(AppStoreEventNames.kind(of: "Start Introductory Offer", offerType: "Free Trial") == .trialStarted)
        #expect(AppStoreEventNames.kind(of: "Start Introductory Price", offerType: " free trial ") == .trialStarted)
        #expect(AppStoreEventNames.kind(of: "Start Introductory Offer", offerType: "Pay As You Go") == .subscribed)
        #expect(AppStoreEventNames.kind(of: "Subscribe", offerType: "Free Trial") == .subscribed)
    }

    @Test("events without a contract equivalent have no kind", arguments: [
        "Billing Retry from Paid Subscription", "Billing Retry from Offer Code with Crossgrade", "Renewal Extension",
        "Enter Billing Grace Period", "Subscribed", "",
    ])
    func noEquivalent(name: String) {
        #expect(AppStoreEventNames.kind(of: name) == nil)
    }

    @Test("a Subscription Event report in today's names is read with the offer type")
    func todaysReport() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tally-asc-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("events.tsv")
        let tsv = [
            "Event Date\tEvent\tApp Name\tSubscription Name\tSubscription Offer Type\tQuantity",
            "2026-10-03\tStart Introductory Offer\tLovU\tlovu.premium.monthly\tFree Trial\t5",
            "2026-10-03\tStart Introductory Offer\tLovU\tlovu.premium.monthly\tPay Up Front\t2",
            "2026-10-04\tPaid Subscription from Introductory Offer\tLovU\tlovu.premium.monthly\t\t3",
            "2026-10-04\tCanceled from Billing Retry\tLovU\tlovu.premium.monthly\t\t1",
            "",
        ].joined(separator: "\n")
        try Data(tsv.utf8).write(to: url)
        let reader = try AppStoreConnectReader(url: url, displayPath: "subscriptions/events.tsv")
        var counts: [AppStoreEventCount] = []
        var rejects: [String] = []
        try reader.read { row in
            switch row {
            case .count(let count, _): counts.append(count)
            case .malformed(_, _, let reason): rejects.append(reason.text)
            default: Issue.record("unexpected row \(row)")
            }
        }
        #expect(rejects.isEmpty)
        #expect(counts.map(\.event) == [.trialStarted, .subscribed, .subscribed, .cancelled])
        #expect(counts.map(\.appleEvent) == ["Start Introductory Offer", "Start Introductory Offer",
                                             "Paid Subscription from Introductory Offer", "Canceled from Billing Retry"])
        #expect(counts.map(\.quantity) == [5, 2, 3, 1])
    }
}
