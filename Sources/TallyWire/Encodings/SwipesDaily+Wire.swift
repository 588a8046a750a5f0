import TallyCore

/// A ``SwiperSet`` with a wire form: its users as a count and one field each.
public protocol WireSwiperSet: SwiperSet, Equatable {
    /// Names the set's form in the record kind (`numbered` → `swipes-daily-numbered`).
    static var wireSetName: String { get }
    /// Writes the number of users, then each user, in a fixed order.
    func encode(into writer: inout WireWriter)
    /// Reads what ``encode(into:)`` writes.
    init(fields: inout WireFields) throws(WireError)
}

extension NumberedSwiperSet: WireSwiperSet {
    public static let wireSetName = "numbered"

    /// The users' numbers, ascending.
    public func encode(into writer: inout WireWriter) {
        writer.count(count)
        for (w, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                let bit = rest.trailingZeroBitCount
                writer.int(Int64(w * 64 + bit))
                rest &= rest - 1
            }
        }
    }

    public init(fields: inout WireFields) throws(WireError) {
        self.init()
        for _ in 0..<(try fields.count("swipers.count")) {
            let user = try fields.int64("swiper")
            guard user >= 0, user < 1 << 40 else { throw fields.error("\(user) is not a swiper number") }
            insert(user)
        }
    }
}

extension HashedSwiperSet: WireSwiperSet where User == String {
    public static var wireSetName: String { "hashed" }

    /// The user ids in byte order.
    public func encode(into writer: inout WireWriter) {
        writer.count(users.count)
        for user in users.sorted(by: ByteOrder.precedes) { writer.string(user) }
    }

    public init(fields: inout WireFields) throws(WireError) {
        self.init()
        for _ in 0..<(try fields.count("swipers.count")) { insert(try fields.string("swiper")) }
    }
}

extension SwipesDailyAccumulator: WireRecord where Swipers: WireSwiperSet {
    public static var wireKind: String { "swipes-daily-" + Swipers.wireSetName }
    public static var wireVersion: Int { 1 }
    /// A month's total over partitions: not routed by a key.
    public static var wireKeyFieldCount: Int { 0 }

    /// `swipes-daily-numbered.v1  month  dayCount  (swipes  likes  superLikes
    /// passes  reports  matches  swipers.count  swiper…)…`, one group per day
    /// of the month in order.
    public func encode(into writer: inout WireWriter) {
        writer.month(month)
        writer.count(days.count)
        for (day, users) in zip(days, swipers) {
            writer.int(day.swipes)
            writer.int(day.likes)
            writer.int(day.superLikes)
            writer.int(day.passes)
            writer.int(day.reports)
            writer.int(day.matches)
            users.encode(into: &writer)
        }
    }

    public init(fields: inout WireFields) throws(WireError) {
        self.init(month: try fields.month("month"))
        let count = try fields.int("dayCount")
        guard count == days.count else { throw fields.error("\(month) has \(days.count) days, not \(count)") }
        for i in days.indices {
            days[i].swipes = try fields.int("swipes")
            days[i].likes = try fields.int("likes")
            days[i].superLikes = try fields.int("superLikes")
            days[i].passes = try fields.int("passes")
            days[i].reports = try fields.int("reports")
            days[i].matches = try fields.int("matches")
            swipers[i] = try Swipers(fields: &fields)
        }
    }
}
