import TallyCore

/// Writes App Store Connect's two subscription reports into `subscriptions/`,
/// tab-separated with Apple's column headers, for a population of iOS
/// subscribers of LovU and FypMatch (one in twenty subscription users):
///
/// - `Subscriber_Report.txt` (Subscriber report, version 1_3 columns): one
///   row per transaction, each with its Subscriber ID: free-trial starts,
///   purchases and renewals every 30 days (a year for yearly products),
///   refunds (negative price, `Refund` = `Yes`);
/// - `Subscription_Event_Report.txt` (Subscription Event report): the same
///   lives as daily counts per subscription: `Start Free Trial`, `Subscribe`,
///   `Renew`, `Crossgrade from Monthly to Yearly`, `Cancel`, `Refund`.
///
/// Deterministic: the seed decides everything; rows come in day order.
struct AppStoreReportsGenerator {
    let context: GenerationContext

    private struct Product {
        let name: String
        let app: String
        let appID: String
        let subscriptionID: String
        let duration: String
        let price: Int64
        let days: Int64
    }

    private static let products = [
        Product(name: "lovu.premium.monthly", app: "LovU", appID: "6450012345", subscriptionID: "6450012401", duration: "1 Month", price: 1_990, days: 30),
        Product(name: "lovu.premium.yearly", app: "LovU", appID: "6450012345", subscriptionID: "6450012402", duration: "1 Year", price: 14_990, days: 365),
        Product(name: "fypmatch.premium.monthly", app: "FypMatch", appID: "6450067890", subscriptionID: "6450067901", duration: "1 Month", price: 2_990, days: 30),
        Product(name: "fypmatch.premium.yearly", app: "FypMatch", appID: "6450067890", subscriptionID: "6450067902", duration: "1 Year", price: 23_990, days: 365),
    ]

    private struct Transaction {
        let day: LocalDate
        let product: Product
        let subscriber: String
        let trial: Bool
        let refund: Bool
    }

    func generate(into summary: inout GenerationSummary) throws {
        var random = context.random(55)
        let window = context.window
        let subscribers = max(12, context.profile.subscriptionUsers / 20)
        var transactions: [Transaction] = []
        var counts: [String: Int] = [:]   // "date\tproductIndex\tevent"
        func count(_ day: LocalDate, _ product: Int, _ event: String) {
            counts["\(day)\t\(product)\t\(event)", default: 0] += 1
        }
        for index in 0..<subscribers {
            let monthly = (index % 2) * 2          // LovU, FypMatch alternately
            var productIndex = monthly
            let subscriber = String(100_000_000_000_000_000 + Int64(RandomSource.hash(context.seed &+ UInt64(index)) % 899_999_999_999_999_999))
            var day = window.day(random.int(max(1, window.dayCount - 3)))
            if random.chance(0.3) {
                transactions.append(Transaction(day: day, product: Self.products[productIndex], subscriber: subscriber, trial: true, refund: false))
                count(day, productIndex, "Start Free Trial")
                day = day.adding(days: 7)
            }
            var first = true
            while day <= window.lastDay {
                let product = Self.products[productIndex]
                transactions.append(Transaction(day: day, product: product, subscriber: subscriber, trial: false, refund: false))
                count(day, productIndex, first ? "Subscribe" : "Renew")
                if first && random.chance(0.06) {
                    let refundDay = day.adding(days: 1 + random.int(3))
                    if refundDay <= window.lastDay {
                        transactions.append(Transaction(day: refundDay, product: product, subscriber: subscriber, trial: false, refund: true))
                        count(refundDay, productIndex, "Refund")
                    }
                    break
                }
                first = false
                if random.chance(0.12) {
                    let cancelDay = day.adding(days: random.int(Int(product.days)))
                    if cancelDay <= window.lastDay { count(cancelDay, productIndex, "Cancel") }
                    break
                }
                day = day.adding(days: Int(product.days))
                if productIndex == monthly && random.chance(0.05) && day <= window.lastDay {
                    productIndex = monthly + 1
                    count(day, productIndex, "Crossgrade from Monthly to Yearly")
                }
            }
        }
        transactions.sort { ($0.day, $0.subscriber) < ($1.day, $1.subscriber) }
        try writeSubscriberReport(transactions, into: &summary)
        try writeEventReport(counts, into: &summary)
    }

    private func writeSubscriberReport(_ transactions: [Transaction], into summary: inout GenerationSummary) throws {
        let table = try context.open("subscriptions/Subscriber_Report.txt", format: "App Store Connect Subscriber report, TSV")
        table.buffer.append(["Event Date", "App Name", "App Apple ID", "Subscription Name", "Subscription Apple ID",
                             "Subscription Group ID", "Standard Subscription Duration", "Subscription Offer Name",
                             "Promotional Offer ID", "Subscription Offer Type", "Subscription Offer Duration",
                             "Marketing Opt-In Duration", "Customer Price", "Customer Currency", "Developer Proceeds",
                             "Proceeds Currency", "Preserved Pricing", "Proceeds Reason", "Client", "Device", "Country",
                             "Subscriber ID", "Subscriber ID Reset", "Refund", "Purchase Date", "Units"].joined(separator: "\t"))
        table.newline()
        for t in transactions {
            let price: Int64 = t.trial ? 0 : t.refund ? -t.product.price : t.product.price
            let proceeds = price * 70 / 100
            let fields = [t.day.description, t.product.app, t.product.appID, t.product.name, t.product.subscriptionID,
                          "20001234", t.product.duration, "", "", t.trial ? "Free Trial" : "", t.trial ? "1 Week" : "", "",
                          Decimal10.format(price, scale: 2), "BRL", Decimal10.format(proceeds, scale: 2), "BRL", "", "", "",
                          "iPhone", "BR", t.subscriber, "", t.refund ? "Yes" : "", t.refund ? t.day.adding(days: -2).description : "", "1"]
            table.buffer.append(fields.joined(separator: "\t"))
            try table.endRecord()
        }
        try context.finish(table, into: &summary)
    }

    private func writeEventReport(_ counts: [String: Int], into summary: inout GenerationSummary) throws {
        let table = try context.open("subscriptions/Subscription_Event_Report.txt", format: "App Store Connect Subscription Event report, TSV")
        table.buffer.append(["Event Date", "Event", "App Name", "App Apple ID", "Subscription Name", "Subscription Apple ID",
                             "Subscription Group ID", "Standard Subscription Duration", "Subscription Offer Type",
                             "Subscription Offer Duration", "Marketing Opt-In", "Marketing Opt-In Duration", "Preserved Pricing",
                             "Proceeds Reason", "Consecutive Paid Periods", "Original Start Date", "Client", "Device", "State",
                             "Country", "Previous Subscription Name", "Previous Subscription Apple ID", "Days Before Canceling",
                             "Cancellation Reason", "Days Canceled", "Quantity"].joined(separator: "\t"))
        table.newline()
        for key in counts.keys.sorted() {
            let parts = key.split(separator: "\t").map(String.init)
            let product = Self.products[Int(parts[1])!]
            let event = parts[2]
            let fields = [parts[0], event, product.app, product.appID, product.name, product.subscriptionID, "20001234",
                          product.duration, event == "Start Free Trial" ? "Free Trial" : "", event == "Start Free Trial" ? "1 Week" : "",
                          "", "", "", "", "", "", "", "iPhone", "", "BR", "", "", "", event == "Cancel" ? "Other" : "", "",
                          "\(counts[key]!)"]
            table.buffer.append(fields.joined(separator: "\t"))
            try table.endRecord()
        }
        try context.finish(table, into: &summary)
    }
}
