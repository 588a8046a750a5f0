/// The sizes behind a ``GeneratorScale``.
struct ScaleProfile {
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
}
