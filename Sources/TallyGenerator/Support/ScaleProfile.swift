import TallyCore

/// The sizes and knobs behind a ``GeneratorScale`` and a ``GeneratorShape``.
///
/// Every knob past `gzipLevel` has the value that reproduces the `default`
/// shape, so the historical scales write the same bytes as before the knobs.
struct ScaleProfile: Equatable {
    /// Months of data, ending with the anchor month.
    var months: Int
    var couples: Int
    var expenses: Int
    var swipeUsers: Int
    var swipes: Int
    var groups: Int
    var checkinMembers: Int
    var checkins: Int
    var healthUsers: Int
    var appleHealthExports: Int
    /// Days covered by each Apple Health export.
    var appleHealthDays: Int
    var subscriptionUsers: Int
    /// Rows of each rejected bad-row kind.
    var badRowsPerKind: Int
    /// zlib level for `.gz` files.
    var gzipLevel: Int32

    /// The last day of data in the anchor month (`nil`: its last day; 15: data ends mid-month).
    var anchorMonthDays: Int? = nil
    /// Members per couple: `nil` is the historical pattern (2, with every tenth couple
    /// of 3 and every twentieth of 4); a range (within 2...4) starts each couple at its
    /// lower bound and adds a member while `extraMemberChance` says so.
    var membersPerCouple: ClosedRange<Int>? = nil
    var extraMemberChance: Double = 0
    /// Share of expenses written with older versions (a quarter of them deleted).
    var expenseHistoryShare: Double = 0.04
    /// Chance that a couple records a settlement in a month.
    var settlementChance: Double = 0.35
    /// Multiplies each kind of agreement's chance (1: about 2.2 agreements a couple).
    var agreementFactor: Double = 1
    /// The first `heavyCouples` couples write `heavyCoupleExpenses` expenses each over the
    /// window, in addition to the other couples' share of `expenses`.
    var heavyCouples = 0
    var heavyCoupleExpenses = 0
    /// The first `heavySwipers` users (the earliest sign-ups) make `heavySwiperShare` of the swipes.
    var heavySwipers = 0
    var heavySwiperShare: Double = 0
    /// The first `hugeGroups` check-in groups have `hugeGroupMembers` members each.
    var hugeGroups = 0
    var hugeGroupMembers = 0
    /// Whether the swipes are written gzip-compressed (`swipes.ndjson.gz`) or plain (`swipes.ndjson`).
    var compressSwipes = true

    static func of(_ scale: GeneratorScale) -> ScaleProfile {
        switch scale {
        case .small:
            return ScaleProfile(months: 8, couples: 20, expenses: 1_500, swipeUsers: 300, swipes: 15_000,
                                groups: 3, checkinMembers: 40, checkins: 1_500, healthUsers: 30,
                                appleHealthExports: 3, appleHealthDays: 10, subscriptionUsers: 600,
                                badRowsPerKind: 3, gzipLevel: 9)
        case .medium:
            return ScaleProfile(months: 12, couples: 8_000, expenses: 1_000_000, swipeUsers: 200_000,
                                swipes: 10_000_000, groups: 2_400, checkinMembers: 36_000, checkins: 1_000_000,
                                healthUsers: 3_100, appleHealthExports: 5, appleHealthDays: 60,
                                subscriptionUsers: 600_000, badRowsPerKind: 200, gzipLevel: 1)
        case .large:
            return ScaleProfile(months: 12, couples: 40_000, expenses: 5_000_000, swipeUsers: 1_000_000,
                                swipes: 50_000_000, groups: 12_000, checkinMembers: 180_000, checkins: 5_000_000,
                                healthUsers: 15_500, appleHealthExports: 10, appleHealthDays: 90,
                                subscriptionUsers: 3_000_000, badRowsPerKind: 1_000, gzipLevel: 1)
        }
    }

    /// The profile of `shape` at `scale`: `default` is ``of(_:)``; the other shapes are
    /// their `medium` sizes times `factor` (`small` 0.01, `medium` 1, `large` 5 unless given),
    /// with the scale's bad rows, Apple Health exports and gzip level.
    static func of(_ scale: GeneratorScale, shape: GeneratorShape, factor: Double? = nil) -> ScaleProfile {
        let base = of(scale)
        guard shape != .default else { return base }
        let f = factor ?? (scale == .small ? 0.01 : scale == .medium ? 1 : 5)
        var p = base
        /// Sets the row counts from their `medium` sizes, each with a floor that keeps a tiny set meaningful.
        func sizes(couples: Int, atLeast coupleFloor: Int = 4, expenses: Int, swipeUsers: Int, swipes: Int, groups: Int,
                   checkinMembers: Int, checkins: Int, healthUsers: Int, subscriptionUsers: Int) {
            func n(_ medium: Int, _ floor: Int) -> Int { max(floor, Int((Double(medium) * f).rounded())) }
            p.couples = n(couples, coupleFloor)
            p.expenses = n(expenses, 50)
            p.swipeUsers = n(swipeUsers, 20)
            p.swipes = n(swipes, 200)
            p.groups = n(groups, 2)
            p.checkinMembers = n(checkinMembers, 12)
            p.checkins = n(checkins, 50)
            p.healthUsers = n(healthUsers, 3)
            p.subscriptionUsers = n(subscriptionUsers, 40)
        }
        switch shape {
        case .default:
            break
        case .studio:
            sizes(couples: 50_000, expenses: 1_208_000, swipeUsers: 200_000, swipes: 10_000_000, groups: 2_970,
                  checkinMembers: 37_869, checkins: 985_469, healthUsers: 5_000, subscriptionUsers: 700_000)
            p.months = 7
            p.anchorMonthDays = 15
            p.membersPerCouple = 2...4
            p.extraMemberChance = 0.089
            p.expenseHistoryShare = 0.041
            p.settlementChance = 0.31
            p.agreementFactor = 0.09
            p.compressSwipes = false
        case .skewed:
            sizes(couples: 2_000, atLeast: 200, expenses: 600_000, swipeUsers: 200_000, swipes: 10_000_000, groups: 1_200,
                  checkinMembers: 14_400, checkins: 1_000_000, healthUsers: 3_100, subscriptionUsers: 600_000)
            p.membersPerCouple = 2...4
            p.extraMemberChance = 0.2
            p.heavyCouples = 2
            p.heavyCoupleExpenses = max(20, Int((50_000 * f).rounded()))
            p.heavySwipers = 3
            p.heavySwiperShare = 0.3
            p.hugeGroups = 1
            p.hugeGroupMembers = max(20, Int((10_000 * f).rounded()))
        case .manyCouples:
            sizes(couples: 400_000, expenses: 1_000_000, swipeUsers: 200_000, swipes: 2_000_000, groups: 2_400,
                  checkinMembers: 36_000, checkins: 300_000, healthUsers: 3_100, subscriptionUsers: 200_000)
            p.membersPerCouple = 2...2
            p.settlementChance = 0.1
            p.agreementFactor = 0.3
        }
        return p
    }

    /// This profile over `months` months ending with `anchorMonth` instead of its own ``months``: the
    /// populations (couples and their members and cards, swipe users, check-in groups and members, health
    /// users) stay as they are, and what accrues with time keeps the rate it has over the profile's own
    /// window, so its totals grow with the window: expenses (heavy couples' too) in proportion to the months;
    /// swipes, check-ins, subscription signups (and so their events and App Store rows) and the days of
    /// each Apple Health export in proportion to the days. Expenses go by months because each couple
    /// writes a number of them per month (the anchor month's included when the shape ends it early);
    /// the others are spread over days. Bad rows stay `badRowsPerKind` of each kind.
    ///
    /// Over the profile's own months it is the profile unchanged.
    func over(months: Int, anchorMonth: YearMonth) -> ScaleProfile {
        precondition(months >= 1, "at least one month")
        let own = GenerationWindow(anchorMonth: anchorMonth, months: self.months, anchorMonthDays: anchorMonthDays)
        let window = GenerationWindow(anchorMonth: anchorMonth, months: months, anchorMonthDays: anchorMonthDays)
        let byMonths = Double(months) / Double(self.months)
        let byDays = Double(window.dayCount) / Double(own.dayCount)
        /// `value` times `ratio`, never rounded down to nothing.
        func grown(_ value: Int, _ ratio: Double) -> Int {
            value == 0 ? 0 : max(1, Int((Double(value) * ratio).rounded()))
        }
        var p = self
        p.months = months
        p.expenses = grown(expenses, byMonths)
        p.heavyCoupleExpenses = grown(heavyCoupleExpenses, byMonths)
        p.swipes = grown(swipes, byDays)
        p.checkins = grown(checkins, byDays)
        p.subscriptionUsers = grown(subscriptionUsers, byDays)
        p.appleHealthDays = grown(appleHealthDays, byDays)
        return p
    }
}
