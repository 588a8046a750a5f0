/// How much data ``DataGenerator`` writes.
///
/// - `small`: a few MB in all, the committed `sample-data/` read by golden tests
///   (about 20 couples and 1,500 expenses over 8 months, 300 FypMatch users with
///   15,000 swipes, 4 challenges with 40 members and 1,500 check-ins, 30 health
///   users, 3 Apple Health exports, 600 subscription users).
/// - `medium`: about 10M swipes, 1M expenses, 1M health days, 1M check-ins and
///   2M subscription events over 12 months (roughly 1.5 GB before compression).
/// - `large`: five times `medium`.
public enum GeneratorScale: String, CaseIterable, Sendable {
    case small
    case medium
    case large
}
