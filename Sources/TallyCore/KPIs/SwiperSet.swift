/// The distinct users who swiped on one day, as ``SwipesDailyAccumulator`` keeps them.
public protocol SwiperSet: Sendable {
    associatedtype User
    init()
    /// Adds a user (a repeat changes nothing).
    mutating func insert(_ user: User)
    /// Adds every user of `other`.
    mutating func formUnion(_ other: Self)
    /// The number of distinct users.
    var count: Int { get }
}

/// Users by id, in a `Set`: for ids that are not numbered.
public struct HashedSwiperSet<User: Hashable & Sendable>: SwiperSet {
    package var users: Set<User> = []
    public init() {}
    public mutating func insert(_ user: User) { users.insert(user) }
    public mutating func formUnion(_ other: Self) { users.formUnion(other.users) }
    public var count: Int { users.count }
}

/// Users numbered densely from 1 (as the warehouse numbers swipers), one
/// bit each: a month of days costs 62 × users / 8 bytes whatever the
/// activity, where a set of numbers costs bytes per user and day and grows
/// with every swiper.
public struct NumberedSwiperSet: SwiperSet {
    package var words: [UInt64] = []
    public private(set) var count = 0
    public init() {}

    public mutating func insert(_ user: Int64) {
        precondition(user >= 0, "swiper numbers start at 0")
        let word = Int(user >> 6), bit = UInt64(1) << UInt64(user & 63)
        if word >= words.count { words += Array(repeating: 0, count: max(word + 1 - words.count, words.count)) }
        if words[word] & bit == 0 {
            words[word] |= bit
            count += 1
        }
    }

    public mutating func formUnion(_ other: Self) {
        if other.words.count > words.count { words += Array(repeating: 0, count: other.words.count - words.count) }
        count = 0
        for i in words.indices {
            if i < other.words.count { words[i] |= other.words[i] }
            count += words[i].nonzeroBitCount
        }
    }
}

extension NumberedSwiperSet: Equatable {
    /// Same users (the words' lengths may differ).
    public static func == (a: Self, b: Self) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<max(a.words.count, b.words.count) where (i < a.words.count ? a.words[i] : 0) != (i < b.words.count ? b.words[i] : 0) {
            return false
        }
        return true
    }
}

extension HashedSwiperSet: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.users == b.users }
}
