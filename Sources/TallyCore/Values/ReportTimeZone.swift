import Foundation

/// The report time zone: turns instants into the local days, weeks and
/// months that reports count in (the contract's "report time zone").
///
/// Offsets come from the system's time zone database; each lookup is
/// cached per UTC hour, since offsets change on whole hours or less often.
/// The cache is direct-mapped (an hour's slot is the hour modulo
/// ``cacheSlots``, about seven years of hours): a look-up is an index and a
/// compare, where a dictionary would hash the hour on every instant a
/// report turns into a day.
public final class ReportTimeZone: @unchecked Sendable {   // `identifier` and `zone` are immutable; the cache is used with `lock` held
    public let identifier: String
    private let zone: TimeZone
    private let lock = NSLock()
    /// The hour each slot holds (`Int64.min` when empty) and its offset.
    private var cachedHours = [Int64](repeating: .min, count: ReportTimeZone.cacheSlots)
    private var cachedOffsets = [Int](repeating: 0, count: ReportTimeZone.cacheSlots)
    static let cacheSlots = 1 << 16

    /// A zone by IANA identifier (`America/Sao_Paulo`), or nil when unknown.
    public init?(identifier: String) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.identifier = identifier
        self.zone = zone
    }

    /// Seconds east of UTC at `instant`.
    public func offsetSeconds(at instant: Timestamp) -> Int {
        let hour = instant.seconds >= 0 ? instant.seconds / 3600 : -((-instant.seconds + 3599) / 3600)
        let slot = Int(truncatingIfNeeded: hour) & (Self.cacheSlots - 1)
        lock.lock()
        defer { lock.unlock() }
        if cachedHours[slot] == hour { return cachedOffsets[slot] }
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(hour * 3600)))
        cachedHours[slot] = hour
        cachedOffsets[slot] = offset
        return offset
    }

    /// The local calendar day of `instant`.
    public func localDate(of instant: Timestamp) -> LocalDate {
        let local = instant.seconds + Int64(offsetSeconds(at: instant))
        let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
        return LocalDate(daysSinceEpoch: days)
    }

    /// The first instant of local day `date` (local midnight; DST gaps move it forward).
    public func startOfDay(_ date: LocalDate) -> Timestamp {
        let midnightUTC = Timestamp(seconds: date.daysSinceEpoch * 86_400)
        // The offset at local midnight is the offset near it; try both candidates.
        var guess = midnightUTC.adding(seconds: -Int64(offsetSeconds(at: midnightUTC)))
        let adjusted = midnightUTC.adding(seconds: -Int64(offsetSeconds(at: guess)))
        if localDate(of: adjusted) == date { guess = adjusted }
        if localDate(of: guess) != date {
            // Midnight skipped by a DST change: the day starts at the first local instant on it.
            guess = guess.adding(seconds: 3600)
        }
        return guess
    }

    /// The first instant after month `month` (T in the contract).
    public func endOfMonth(_ month: YearMonth) -> Timestamp { startOfDay(month.adding(months: 1).firstDay) }
}
