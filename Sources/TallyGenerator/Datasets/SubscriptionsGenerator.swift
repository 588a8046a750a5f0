import TallyCore

/// Writes `subscriptions/`: `products.csv`, `events.csv.gz` (all three apps,
/// each user's events together, users in signup order) and LovU's
/// `connections.ndjson`; and App Store Connect's Subscriber and Subscription
/// Event reports (``AppStoreReportsGenerator``).
///
/// About 15–20% of signups subscribe (most within 30 days, some after a
/// paywall, some after a 7-day trial); subscribers renew each period until
/// they cancel (then expire at the period's end), and some upgrade, downgrade
/// or are refunded. The first converters of each app are given each fate in
/// turn, so every event kind appears even at the small scale.
struct SubscriptionsGenerator {
    let context: GenerationContext

    /// A product of the catalogue.
    struct Product {
        let id: String
        let app: App
        let plan: String
        let yearly: Bool
        let price: Int64
        let currency: String
        /// Position on the app's plan ladder (for upgrades and downgrades).
        let tier: Int
    }

    enum App: Int, CaseIterable {
        case fisioFlow, lovU, fypMatch

        var name: String {
            switch self {
            case .fisioFlow: return "FisioFlow"
            case .lovU: return "LovU"
            case .fypMatch: return "FypMatch"
            }
        }

        var contexts: [String] {
            switch self {
            case .fisioFlow: return ["patientLimitReached", "aiFeatureAccess", "advancedReports", "storageLimit", "therapistLimit"]
            case .lovU: return ["sharedAlbumLimit", "premiumThemes", "memoriesLimit"]
            case .fypMatch: return ["likesLimitReached", "seeWhoLikedYou", "superLikesOut", "boost"]
            }
        }

        /// Share of signups that ever subscribe.
        var conversion: Double {
            switch self {
            case .fisioFlow: return 0.21
            case .lovU: return 0.19
            case .fypMatch: return 0.19
            }
        }
    }

    static let products: [Product] = [
        Product(id: "fisioflow.free", app: .fisioFlow, plan: "free", yearly: false, price: 0, currency: "BRL", tier: 0),
        Product(id: "fisioflow.silver.monthly", app: .fisioFlow, plan: "silver", yearly: false, price: 9_700, currency: "BRL", tier: 1),
        Product(id: "fisioflow.gold.monthly", app: .fisioFlow, plan: "gold", yearly: false, price: 19_700, currency: "BRL", tier: 2),
        Product(id: "fisioflow.platinum.monthly", app: .fisioFlow, plan: "platinum", yearly: false, price: 39_700, currency: "BRL", tier: 3),
        Product(id: "fisioflow.silver.yearly", app: .fisioFlow, plan: "silver", yearly: true, price: 97_000, currency: "BRL", tier: 1),
        Product(id: "fisioflow.gold.yearly", app: .fisioFlow, plan: "gold", yearly: true, price: 197_000, currency: "BRL", tier: 2),
        Product(id: "fisioflow.platinum.yearly", app: .fisioFlow, plan: "platinum", yearly: true, price: 397_000, currency: "BRL", tier: 3),
        Product(id: "lovu.premium.monthly", app: .lovU, plan: "premium", yearly: false, price: 1_990, currency: "BRL", tier: 1),
        Product(id: "lovu.premium.yearly", app: .lovU, plan: "premium", yearly: true, price: 14_990, currency: "BRL", tier: 1),
        Product(id: "lovu.premium.monthly.usd", app: .lovU, plan: "premium", yearly: false, price: 499, currency: "USD", tier: 1),
        Product(id: "fypmatch.premium.monthly", app: .fypMatch, plan: "premium", yearly: false, price: 2_990, currency: "BRL", tier: 1),
        Product(id: "fypmatch.premium.yearly", app: .fypMatch, plan: "premium", yearly: true, price: 23_990, currency: "BRL", tier: 1),
        Product(id: "fypmatch.vip.monthly", app: .fypMatch, plan: "vip", yearly: false, price: 5_990, currency: "BRL", tier: 2),
        Product(id: "fypmatch.vip.yearly", app: .fypMatch, plan: "vip", yearly: true, price: 47_990, currency: "BRL", tier: 2),
    ]

    /// How a converter's subscription ends (or not).
    private enum Fate { case natural, refund, upgrade, downgrade, cancel }

    func generate(into summary: inout GenerationSummary) throws {
        var random = context.random(50)
        try writeProducts(into: &summary)
        try writeEvents(random: &random, into: &summary)
        try AppStoreReportsGenerator(context: context).generate(into: &summary)
    }

    private func writeProducts(into summary: inout GenerationSummary) throws {
        let table = try context.open("subscriptions/products.csv", format: "CSV, LF, camelCase header")
        table.csvHeader(["productId", "app", "plan", "period", "price", "currency"])
        for product in Self.products {
            table.csv(product.id)
            table.csv(product.app.name)
            table.csv(product.plan)
            table.csvRaw(product.yearly ? "yearly" : "monthly")
            table.csvDecimal(product.price, scale: 2)
            table.csv(product.currency)
            try table.endRecord()
        }
        try context.finish(table, into: &summary)
    }

    private func writeEvents(random: inout RandomSource, into summary: inout GenerationSummary) throws {
        let window = context.window
        let events = try context.open("subscriptions/events.csv.gz", format: "CSV, gzip, camelCase header")
        events.csvHeader(["id", "app", "userId", "event", "productId", "context", "timestamp"])
        let connections = try context.open("subscriptions/connections.ndjson", format: "NDJSON, disconnectedAt null or absent")
        let total = context.profile.subscriptionUsers
        let firstSignup = window.startUTC
        let step = max(1, (window.endUTC - 86_400 - firstSignup) / Int64(total))
        var schedule = BadRowSchedule(kinds: [.subscriptionUnknownEvent], perKind: context.profile.badRowsPerKind,
                                      expectedGoodRows: total, random: &random)
        var eventCounter = 0
        var appCounters = [0, 0, 0]
        var converters = [0, 0, 0]
        var waitingPartner: (id: String, signup: Int64)? = nil
        let fypMatchUsers = context.profile.swipeUsers

        func event(_ app: App, _ user: String, _ name: StaticString, product: String, contextText: String = "",
                   at time: Int64) throws {
            guard time < window.endUTC else { return }
            eventCounter += 1
            events.csv("evt-" + ExpensesGenerator.pad(eventCounter, 9))
            events.csv(app.name)
            events.csv(user)
            events.csvRaw(name)
            events.csv(product)
            events.csv(contextText)
            let roll = random.int(10)
            events.csvTimestamp(time, micros: random.int(1000) * 1000,
                                style: roll < 5 ? .utcMillis : roll < 8 ? .saoPaulo : .utc)
            try events.endRecord()
        }

        for index in 0..<total {
            let roll = index % 10
            var app: App = roll < 4 ? .fisioFlow : roll < 7 ? .lovU : .fypMatch
            if app == .fypMatch && appCounters[2] >= fypMatchUsers { app = .lovU }
            let appIndex = appCounters[app.rawValue]
            appCounters[app.rawValue] += 1
            let user: String
            switch app {
            case .fisioFlow: user = FirebaseID.uid(seed: context.seed, namespace: FirebaseID.fisioFlow, index: appIndex)
            case .lovU: user = FirebaseID.uid(seed: context.seed, namespace: FirebaseID.lovU, index: appIndex)
            case .fypMatch: user = context.fypMatchUser(appIndex)
            }
            let signup = firstSignup + Int64(index) * step + Int64(random.int(Int(step)))
            let products = Self.products.filter { $0.app == app && $0.tier > 0 }
            try event(app, user, "signup", product: app == .fisioFlow ? "fisioflow.free" : "", at: signup)

            // Paywalls, mostly in the first weeks.
            var paywalls: [Int64] = []
            for _ in 0..<random.weightedIndex([30, 35, 20, 10, 5]) {
                paywalls.append(signup + Int64(600 + random.int(25 * 86_400)))
            }
            paywalls.sort()
            let converts = random.chance(app.conversion)
            var firstSubscribed: Int64? = nil
            if converts {
                let late = random.chance(0.1)
                firstSubscribed = signup + Int64(late ? 31 * 86_400 + random.int(60 * 86_400) : 3600 + random.int(27 * 86_400))
            }
            for time in paywalls {
                try event(app, user, "paywall_shown", product: "", contextText: random.pick(app.contexts), at: time)
            }
            if !converts && random.chance(0.06) {
                // A trial that ran out without a subscription.
                let trial = signup + Int64(86_400 + random.int(10 * 86_400))
                try event(app, user, "trial_started", product: products[0].id, at: trial)
                try event(app, user, "expired", product: products[0].id, at: trial + 7 * 86_400)
            }
            if var start = firstSubscribed {
                let fateIndex = converters[app.rawValue]
                converters[app.rawValue] += 1
                let forced: [Fate] = [.refund, .upgrade, .downgrade, .cancel]
                let fate: Fate = fateIndex < forced.count ? forced[fateIndex] : .natural
                var product = fate == .downgrade ? products.last { Self.lower(than: $0, in: products) != nil }!
                    : fate == .upgrade ? products.first { Self.higher(than: $0, in: products) != nil }!
                    : pickProduct(products, random: &random)
                if random.chance(0.4) && start - 7 * 86_400 > signup {
                    try event(app, user, "trial_started", product: product.id, at: start - 7 * 86_400)
                }
                try event(app, user, "subscribed", product: product.id, at: start)
                var period = 0
                while start < window.endUTC {
                    let length = Int64(product.yearly ? 365 : 30) * 86_400
                    let end = start + length
                    if fate == .refund || (period == 0 && random.chance(0.02)) {
                        try event(app, user, "refunded", product: product.id, at: start + Int64(3600 + random.int(4 * 86_400)))
                        break
                    }
                    let cancelChance = period == 0 ? 0.1 : product.yearly ? 0.3 : 0.07
                    if (fate == .cancel && period == 0) || (fate == .natural && random.chance(cancelChance)) {
                        try event(app, user, "cancelled", product: product.id, at: start + Int64(random.int(Int(length) - 3600)))
                        try event(app, user, "expired", product: product.id, at: end)
                        break
                    }
                    if let higher = Self.higher(than: product, in: products),
                       (fate == .upgrade && period == 0) || (fate == .natural && random.chance(0.04)) {
                        product = higher
                        try event(app, user, "upgraded", product: product.id, at: start + Int64(86_400 + random.int(20 * 86_400)))
                    } else if let lower = Self.lower(than: product, in: products),
                              (fate == .downgrade && period == 0) || (fate == .natural && random.chance(0.02)) {
                        product = lower
                        try event(app, user, "downgraded", product: product.id, at: start + Int64(86_400 + random.int(20 * 86_400)))
                    }
                    try event(app, user, "renewed", product: product.id, at: end)
                    start = end
                    period += 1
                }
            }
            if let kind = schedule.tick() {
                let names: [StaticString] = ["billing_issue", "grace_period_started", "product_change"]
                try event(app, user, names[random.int(names.count)], product: products[0].id,
                          at: min(signup + 86_400, window.endUTC - 60))
                summary.add(kind)
            }
            if app == .lovU {
                if let partner = waitingPartner, random.chance(0.7) {
                    try writeConnection(connections, user: partner.id, partner: user, after: max(partner.signup, signup),
                                        random: &random)
                    waitingPartner = nil
                } else {
                    waitingPartner = (user, signup)
                }
            }
        }
        for kind in schedule.drain() {
            try event(.fisioFlow, FirebaseID.uid(seed: context.seed, namespace: FirebaseID.fisioFlow, index: 0),
                      "billing_issue", product: "fisioflow.silver.monthly", at: window.endUTC - 60)
            summary.add(kind)
        }
        try context.finish(events, into: &summary)
        try context.finish(connections, into: &summary)
    }

    /// The next plan up: a higher tier of the same period, else (one-tier apps) the yearly product of a monthly one.
    static func higher(than product: Product, in products: [Product]) -> Product? {
        products.first { $0.tier == product.tier + 1 && $0.yearly == product.yearly && $0.currency == product.currency }
            ?? products.first { $0.tier == product.tier && !product.yearly && $0.yearly && $0.currency == product.currency }
    }

    /// The next plan down: a lower paid tier of the same period, else the monthly product of a yearly one.
    static func lower(than product: Product, in products: [Product]) -> Product? {
        products.first { $0.tier == product.tier - 1 && $0.yearly == product.yearly && $0.currency == product.currency }
            ?? products.first { $0.tier == product.tier && product.yearly && !$0.yearly && $0.currency == product.currency }
    }

    private func pickProduct(_ products: [Product], random: inout RandomSource) -> Product {
        let yearly = random.chance(0.12)
        let candidates = products.filter { $0.yearly == yearly }
        // Lower plans sell more: weights 5, 3, 1 along the ladder.
        let weights = candidates.enumerated().map { index, product in
            product.currency == "BRL" ? [5, 3, 1][min(index, 2)] : 1
        }
        return candidates[random.weightedIndex(weights)]
    }

    private func writeConnection(_ table: TableFile, user: String, partner: String, after: Int64,
                                 random: inout RandomSource) throws {
        let connected = after + Int64(600 + random.int(5 * 86_400))
        guard connected < context.window.endUTC else { return }
        table.beginObject()
        table.json("userId", user)
        table.json("partnerId", partner)
        table.json("connectedAt", timestamp: connected, style: .utc)
        if random.chance(0.12) {
            table.json("disconnectedAt", timestamp: min(connected + Int64(86_400 + random.int(120 * 86_400)),
                                                        context.window.endUTC - 1), style: .saoPaulo)
        } else if random.chance(0.5) {
            table.jsonNull("disconnectedAt")
        }
        table.endObject()
        try table.endRecord()
    }
}
