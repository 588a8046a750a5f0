import TallyCore

/// Writes `checkins/` (FitToday, a Firestore export): `challenges.ndjson`,
/// `members.ndjson` and `checkins.ndjson`.
///
/// Groups run one or two challenges; members join before or during a
/// challenge and some leave. Check-ins cluster in the evening, some minutes
/// before or after local midnight (São Paulo), written with `-03:00` or as
/// UTC, so their UTC day differs from their local one. The check-ins file
/// holds one blank line and unknown fields (`appVersion`, a nested `location`).
struct CheckinsGenerator {
    let context: GenerationContext

    private struct Membership {
        let user: Int
        let joinedAt: Int64
        let leftAt: Int64?

        func isMember(at time: Int64) -> Bool { joinedAt <= time && (leftAt.map { time < $0 } ?? true) }
    }

    private struct Challenge {
        let id: String
        let name: String
        let start: LocalDate
        let end: LocalDate
    }

    private struct Group {
        let id: String
        var challenges: [Challenge]
        var members: [Membership]
        /// Challenge days (within the window's end) of the block ending with the window, as planned:
        /// over the own window's length, including any days before a shorter window's start.
        var lastBlockDays = 0
    }

    /// The last good check-in, which the duplicate rows copy.
    private struct Written {
        var group: Int
        var challenge: Int
        var member: Int
        var time: Int64
        var workout: [UInt8]
    }

    func generate(into summary: inout GenerationSummary) throws {
        var random = context.random(40)
        var poolSize = max(8, context.profile.checkinMembers * 4 / 5)
        if context.profile.hugeGroups > 0 { poolSize = max(poolSize, context.profile.hugeGroupMembers * 5 / 4) }
        let users = UserIdTable(seed: context.seed, namespace: FirebaseID.fitToday, count: poolSize + 64)
        let groups = planGroups(poolSize: poolSize, random: &random)
        try writeChallenges(groups, into: &summary)
        try writeMembers(groups, users: users, random: &random, into: &summary)
        try writeCheckins(groups, users: users, poolSize: poolSize, random: &random, into: &summary)
    }

    // MARK: Plan

    private func planGroups(poolSize: Int, random: inout RandomSource) -> [Group] {
        let window = context.window
        let n = window.dayCount
        // The groups' challenges follow the pattern below over blocks as long as the profile's own
        // window, laid back to back from the window's end: one block when the window is the own one,
        // more (the first cut short) when it is longer, one cut short when it is shorter. A challenge
        // cut by the window's start begins on its second day (so the day before it is in the window);
        // one wholly before that is left out, unless the group would have none: then its last one is
        // kept as it ran, before the window, without check-ins. The blocks before the last draw from
        // their own stream, and the last block draws the same numbers whatever is left out, so the
        // groups and their members are the same whatever the window.
        let blockDays = context.ownWindow.dayCount
        let blocks = (n + blockDays - 1) / blockDays
        var earlier = context.random(41)
        var groups: [Group] = []
        var challengeNumber = 0
        /// Three shapes: an early challenge then one still running; one ending in the block's last
        /// month; one starting in it. Offsets in the block, and lengths.
        func spans(_ g: Int, _ random: inout RandomSource) -> [(Int, Int)] {
            switch g % 3 {
            case 0: return [(20 + random.int(30), 50 + random.int(20)), (blockDays - 40 - random.int(30), 60)]
            case 1: return [(blockDays - 75 - random.int(40), 60 + random.int(10))]
            default: return [(blockDays - 12 - random.int(10), 45)]
            }
        }
        for g in 0..<context.profile.groups {
            var group = Group(id: FirebaseID.documentID(&random), challenges: [], members: [])
            for block in 0..<blocks {
                let isLast = block == blocks - 1
                let origin = n - (blocks - block) * blockDays
                let planned = isLast ? spans(g, &random) : spans(g, &earlier)
                if isLast {
                    group.lastBlockDays = planned.reduce(0) { days, span in
                        days + max(0, min(span.0 + span.1, blockDays) - span.0)
                    }
                }
                let keepLast = isLast && group.challenges.isEmpty && planned.allSatisfy { origin + $0.0 + $0.1 - 1 < 1 }
                for (index, (offset, length)) in planned.enumerated() {
                    // As planned inside the window (always so over the own window); cut by its start otherwise.
                    let id = isLast ? FirebaseID.documentID(&random) : FirebaseID.documentID(&earlier)
                    let startOffset = origin + offset
                    let end = startOffset + length - 1
                    let kept = keepLast && index == planned.count - 1
                    guard end >= 1 || kept else { continue }
                    challengeNumber += 1
                    let start = window.day(kept ? startOffset : max(1, startOffset))
                    let name = Vocabulary.challengeNames[challengeNumber % Vocabulary.challengeNames.count]
                    group.challenges.append(Challenge(id: id, name: name, start: start, end: window.day(end)))
                }
            }
            let first = GenerationWindow.utc(group.challenges[0].start, 0)
            let last = GenerationWindow.utc(group.challenges[group.challenges.count - 1].end, 0)
            // The others join over the group's challenges; over a window longer than the own one, over as
            // long a time as the own window gives them (the group fills up early, then stays).
            var lateJoins = last - first
            if n > blockDays { lateJoins = lateJoins * Int64(blockDays) / Int64(n) }
            var size = max(3, context.profile.checkinMembers / context.profile.groups + random.int(7) - 3)
            if g < context.profile.hugeGroups { size = context.profile.hugeGroupMembers }
            var chosen: Set<Int> = []
            for m in 0..<size {
                var user = random.int(poolSize)
                while chosen.contains(user) { user = random.int(poolSize) }
                chosen.insert(user)
                // The founder joined long before and stays; most joined before the first challenge.
                let joinedAt: Int64
                if m == 0 { joinedAt = first - 90 * 86_400 }
                else if random.chance(0.8) { joinedAt = first - Int64(3600 + random.int(60 * 86_400)) }
                else { joinedAt = first + Int64(random.int(Int(max(86_400, lateJoins)))) }
                let leftAt: Int64? = m > 0 && random.chance(0.12)
                    ? joinedAt + Int64(5 * 86_400 + random.int(40 * 86_400)) : nil
                group.members.append(Membership(user: user, joinedAt: joinedAt, leftAt: leftAt))
            }
            groups.append(group)
        }
        return groups
    }

    // MARK: Small tables

    private func writeChallenges(_ groups: [Group], into summary: inout GenerationSummary) throws {
        let table = try context.open("checkins/challenges.ndjson", format: "NDJSON")
        for group in groups {
            for challenge in group.challenges {
                table.beginObject()
                table.json("id", challenge.id)
                table.json("groupId", group.id)
                table.json("name", challenge.name)
                table.json("startDate", date: challenge.start)
                table.json("endDate", date: challenge.end)
                table.endObject()
                try table.endRecord()
            }
        }
        try context.finish(table, into: &summary)
    }

    private func writeMembers(_ groups: [Group], users: UserIdTable, random: inout RandomSource,
                              into summary: inout GenerationSummary) throws {
        let table = try context.open("checkins/members.ndjson", format: "NDJSON, leftAt null or absent")
        for group in groups {
            for member in group.members {
                table.beginObject()
                table.json("groupId", group.id)
                table.key("userId"); table.buffer.jsonPlain(users.id(member.user))
                table.json("joinedAt", timestamp: member.joinedAt, style: .utcMillis)
                if let left = member.leftAt {
                    table.json("leftAt", timestamp: left, style: .saoPaulo)
                } else if random.chance(0.5) {
                    table.jsonNull("leftAt")
                }
                table.endObject()
                try table.endRecord()
            }
        }
        try context.finish(table, into: &summary)
    }

    // MARK: Check-ins

    private func writeCheckins(_ groups: [Group], users: UserIdTable, poolSize: Int, random: inout RandomSource,
                               into summary: inout GenerationSummary) throws {
        let window = context.window
        let table = try context.open("checkins/checkins.ndjson",
                                     format: "NDJSON, one blank line, unknown fields appVersion and location")
        // Calibrate the daily check-in chance to the target count over the own window's length (the
        // last block of challenges, as planned), so that a longer or shorter window keeps the rate.
        var memberDays = 0
        for group in groups { memberDays += group.lastBlockDays * group.members.count }
        let target = context.profile.checkins
        let blockTarget = Double(target) * Double(context.ownWindow.dayCount) / Double(window.dayCount)
        // About a fifth of member-days fall outside a membership (joined late, left early).
        let chance = min(0.95, blockTarget / Double(max(1, memberDays)) / 0.81)
        let rejectedKinds = BadRowKind.allCases.filter { $0.file == "checkins/checkins.ndjson" }
        var schedule = BadRowSchedule(kinds: rejectedKinds, perKind: context.profile.badRowsPerKind,
                                      expectedGoodRows: target, random: &random)
        var last: Written? = nil
        var blankLineWritten = false
        var workout: [UInt8] = []

        func newWorkout() {
            workout.removeAll(keepingCapacity: true)
            let hex: StaticString = "0123456789ABCDEF"
            hex.withUTF8Buffer { digits in
                let a = random.next(), b = random.next()
                for i in 0..<32 {
                    if i == 8 || i == 12 || i == 16 || i == 20 { workout.append(UInt8(ascii: "-")) }
                    let word = i < 16 ? a : b
                    workout.append(digits[Int((word >> UInt64((i % 16) * 4)) & 0xF)])
                }
            }
        }

        func write(group g: Int, challenge c: Int, member m: Int, userOverride: Int? = nil, time: Int64,
                   minutes: Int, photo: Bool, photoAsEmpty: Bool = false) throws {
            let group = groups[g]
            let user = userOverride ?? group.members[m].user
            table.beginObject()
            table.key("id"); table.buffer.byte(34); table.buffer.documentID(&random); table.buffer.byte(34)
            table.json("groupId", group.id)
            table.json("challengeId", group.challenges[c].id)
            table.key("userId"); table.buffer.jsonPlain(users.id(user))
            let name = displayName(user)
            table.json("displayName", name, escapeNonASCII: user % 5 == 0)
            if user % 7 == 0 {
                table.jsonNull("userPhotoURL")
            } else {
                table.key("userPhotoURL")
                table.buffer.append("\"https://lh3.googleusercontent.com/a/")
                table.buffer.append(users.id(user))
                table.buffer.append("=s96-c\"")
            }
            if photo {
                table.key("checkInPhotoURL")
                table.buffer.append("\"https://firebasestorage.googleapis.com/v0/b/fittoday-prod.appspot.com/o/checkins%2F")
                table.buffer.append(group.id)
                table.buffer.append("%2F")
                table.buffer.documentID(&random)
                table.buffer.append(".jpg?alt=media\"")
            } else if photoAsEmpty {
                table.json("checkInPhotoURL", "")
            } else {
                table.jsonNull("checkInPhotoURL")
            }
            table.key("workoutEntryId"); table.buffer.byte(34); table.buffer.append(workout); table.buffer.byte(34)
            table.json("workoutDurationMinutes", int: minutes)
            let roll = random.int(5)
            table.json("createdAt", timestamp: time, micros: random.int(1000) * 1000,
                       style: roll < 2 ? .saoPaulo : roll < 4 ? .utc : .utcMillis)
            table.json("appVersion", roll == 0 ? "3.4.1" : "3.5.0")
            if roll == 4 && random.chance(0.2) {
                table.key("location")
                table.buffer.append("{\"lat\":-23.5613,\"lng\":-46.6565,\"label\":\"Parque Ibirapuera\"}")
            }
            table.endObject()
            try table.endRecord()
            if !blankLineWritten && table.records == 100 {
                table.newline()
                blankLineWritten = true
            }
        }

        func writeBad(_ kind: BadRowKind, after good: Written) throws {
            let group = groups[good.group]
            let challenge = group.challenges[good.challenge]
            switch kind {
            case .checkinWithoutPhoto:
                newWorkout()
                try write(group: good.group, challenge: good.challenge, member: good.member, time: good.time + 900,
                          minutes: 45, photo: false, photoAsEmpty: random.chance(0.5))
            case .checkinTooShort:
                newWorkout()
                try write(group: good.group, challenge: good.challenge, member: good.member, time: good.time + 1200,
                          minutes: 10 + random.int(20), photo: true)
            case .checkinNonMember:
                newWorkout()
                if let leaver = group.members.firstIndex(where: { $0.leftAt != nil }),
                   let left = group.members[leaver].leftAt,
                   GenerationWindow.localDate(left + 3600) <= challenge.end,
                   GenerationWindow.localDate(left + 3600) >= challenge.start,
                   left + 3600 < context.window.endUTC {
                    try write(group: good.group, challenge: good.challenge, member: leaver, time: left + 3600,
                              minutes: 50, photo: true)
                } else {
                    // Someone who never joined any group.
                    try write(group: good.group, challenge: good.challenge, member: 0,
                              userOverride: poolSize + random.int(64), time: good.time + 300, minutes: 40, photo: true)
                }
            case .checkinOutsideChallenge:
                newWorkout()
                // 23:50 local the day before the start: already the start day in UTC.
                let time = GenerationWindow.utc(challenge.start.adding(days: -1), 23 * 3600 + 50 * 60)
                try write(group: good.group, challenge: good.challenge, member: 0, time: time, minutes: 60, photo: true)
            case .checkinDuplicateWorkout:
                workout = good.workout
                try write(group: good.group, challenge: good.challenge, member: good.member,
                          time: good.time + Int64(60 + random.int(240)), minutes: 45, photo: true)
            default:
                preconditionFailure("\(kind) is not a check-ins reject")
            }
        }

        for (g, group) in groups.enumerated() {
            for (c, challenge) in group.challenges.enumerated()
            where challenge.start <= window.lastDay && challenge.start >= window.firstDay {   // not one kept from before
                var day = challenge.start
                while day <= min(challenge.end, window.lastDay) {
                    for (m, member) in group.members.enumerated() where random.chance(chance) {
                        let second: Int
                        let edge = random.int(20)
                        if edge == 0 { second = 23 * 3600 + 30 * 60 + random.int(29 * 60) }   // just before local midnight
                        else if edge == 1 { second = random.int(25 * 60) }                    // just after it
                        else { second = 6 * 3600 + random.int(16 * 3600) }
                        let time = GenerationWindow.utc(day, second)
                        guard member.isMember(at: time), time < window.endUTC else { continue }
                        newWorkout()
                        let minutes = random.chance(0.05) ? 30 : 30 + random.int(91)
                        try write(group: g, challenge: c, member: m, time: time, minutes: minutes, photo: true)
                        let good = Written(group: g, challenge: c, member: m, time: time, workout: workout)
                        last = good
                        if let kind = schedule.tick() {
                            try writeBad(kind, after: good)
                            summary.add(kind)
                        }
                    }
                    day = day.adding(days: 1)
                }
            }
        }
        if let good = last {
            for kind in schedule.drain() {
                try writeBad(kind, after: good)
                summary.add(kind)
            }
        }
        try context.finish(table, into: &summary)
    }

    /// The same display name for a user in every row.
    private func displayName(_ user: Int) -> String {
        let h = RandomSource.hash(UInt64(user) ^ context.seed)
        if h % 29 == 0 { return Vocabulary.awkwardDisplayNames[Int(h / 29 % UInt64(Vocabulary.awkwardDisplayNames.count))] }
        return Vocabulary.firstNames[Int(h % UInt64(Vocabulary.firstNames.count))] + " "
            + Vocabulary.lastNames[Int(h / 64 % UInt64(Vocabulary.lastNames.count))]
    }
}
