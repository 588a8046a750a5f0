/// Which check-ins repeat another's workout: among the check-ins that count
/// (one per id, ``CheckinVersionRule``) and share a `workoutEntryId`, one is
/// the original and each other one is a duplicate of it (which
/// ``CheckinResolver`` then refuses, naming the original).
///
/// Applied by ``WhichRowsCount/duplicates(_:describe:)``, as every transport does.
///
/// Contract: the original is the first by `createdAt`, then by its file's
/// display path (UTF-8 byte order), then line, then id (UTF-8 byte order).
///
/// ```swift
/// let a = DuplicateWorkoutRule.Checkin(createdAt: Timestamp(seconds: 5), path: Array("b.csv".utf8), line: 2, id: Array("x".utf8))
/// let b = DuplicateWorkoutRule.Checkin(createdAt: Timestamp(seconds: 5), path: Array("a.csv".utf8), line: 9, id: Array("y".utf8))
/// DuplicateWorkoutRule.verdicts([a, b])   // [.duplicate(of: 1), .original]
/// ```
public enum DuplicateWorkoutRule {
    /// A counted check-in of the workout, by the fields the rule compares.
    public struct Checkin: Hashable, Sendable {
        public var createdAt: Timestamp
        /// Its file's display path, as UTF-8 bytes.
        public var path: [UInt8]
        /// Its line in its file.
        public var line: Int64
        /// Its id, as UTF-8 bytes (unique among the check-ins that count).
        public var id: [UInt8]

        public init(createdAt: Timestamp, path: [UInt8], line: Int64, id: [UInt8]) {
            self.createdAt = createdAt
            self.path = path
            self.line = line
            self.id = id
        }
    }

    /// What the rule decides for one check-in of the workout.
    public enum Verdict: Hashable, Sendable {
        /// The first check-in of the workout.
        case original
        /// A repeat of the original, given by its index in the group.
        case duplicate(of: Int)
    }

    /// The verdict of each check-in of `group` (counted check-ins sharing a
    /// workout id, in any order), in its order.
    public static func verdicts(_ group: [Checkin]) -> [Verdict] {
        let first = group.indices.min { i, j in
            let a = group[i], b = group[j]
            if a.createdAt != b.createdAt { return a.createdAt < b.createdAt }
            if a.path != b.path { return a.path.lexicographicallyPrecedes(b.path) }
            if a.line != b.line { return a.line < b.line }
            return a.id.lexicographicallyPrecedes(b.id)
        }
        return group.indices.map { $0 == first ? .original : .duplicate(of: first!) }
    }
}
