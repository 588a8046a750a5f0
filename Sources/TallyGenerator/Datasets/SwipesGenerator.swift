import TallyCore

/// Writes `swipes/` (FypMatch, a Firestore export): `users.jsonl` and
/// `swipes.ndjson.gz` (or plain `swipes.ndjson`, as the profile says), day by
/// day over the window; the profile's heavy swipers make a share of the swipes.
///
/// Likes are answered by likes some of the time (matches), some answers are
/// reports (which block the pair), and some likers pass later on the same
/// person. Timestamps mix `-03:00`, `Z` and `Z` with milliseconds.
struct SwipesGenerator {
    let context: GenerationContext

    private enum Action: UInt8 {
        case like, pass, superLike, report

        var text: StaticString {
            switch self {
            case .like: return "like"
            case .pass: return "pass"
            case .superLike: return "super_like"
            case .report: return "report"
            }
        }
    }

    /// A swipe due on a later day, in answer to an earlier one.
    private struct Pending {
        let from: Int32
        let to: Int32
        let action: Action
        let time: Int64
    }

    func generate(into summary: inout GenerationSummary) throws {
        var random = context.random(30)
        let count = context.profile.swipeUsers
        let ids = UserIdTable(seed: context.seed, namespace: FirebaseID.fypMatch, count: count)
        // Users sign up at a steady pace from 300 days before the window until 10 days before its end.
        let origin = context.window.startUTC - 300 * 86_400
        let step = max(1, (context.window.endUTC - 10 * 86_400 - origin) / Int64(count))
        try writeUsers(ids, origin: origin, step: step, random: &random, into: &summary)
        try writeSwipes(ids, origin: origin, step: step, random: &random, into: &summary)
    }

    private func writeUsers(_ ids: UserIdTable, origin: Int64, step: Int64, random: inout RandomSource,
                            into summary: inout GenerationSummary) throws {
        let table = try context.open("swipes/users.jsonl", format: "NDJSON (.jsonl), some \\u escapes, extra photoCount field")
        for index in 0..<ids.count {
            table.beginObject()
            table.key("id"); table.buffer.jsonPlain(ids.id(index))
            table.json("createdAt", timestamp: origin + Int64(index) * step + Int64(random.int(Int(step))),
                       micros: random.int(1000) * 1000, style: .utcMillis)
            let genderRoll = random.int(100)
            if genderRoll < 46 { table.json("gender", "female") }
            else if genderRoll < 92 { table.json("gender", "male") }
            else if genderRoll < 96 { table.json("gender", "non_binary") }
            else { table.jsonNull("gender") }
            table.json("city", random.pick(Vocabulary.cities), escapeNonASCII: random.chance(0.2))
            let plan = random.int(100)
            table.json("subscription", plan < 80 ? "free" : plan < 95 ? "premium" : "vip")
            table.json("photoCount", int: 1 + random.int(6))
            table.endObject()
            try table.endRecord()
        }
        try context.finish(table, into: &summary)
    }

    private func writeSwipes(_ ids: UserIdTable, origin: Int64, step: Int64, random: inout RandomSource,
                             into summary: inout GenerationSummary) throws {
        let window = context.window
        let table = context.profile.compressSwipes
            ? try context.open("swipes/swipes.ndjson.gz", format: "NDJSON, gzip")
            : try context.open("swipes/swipes.ndjson", format: "NDJSON")
        let heavySwipers = context.profile.heavySwipers
        let heavyShare = context.profile.heavySwiperShare
        let target = context.profile.swipes
        let perDay = Double(target) * 0.955 / Double(window.dayCount)
        var schedule = BadRowSchedule(
            kinds: [.swipeOnSelf, .swipeUnknownAction, .swipeTimestampWithoutOffset, .swipeRepeatedId, .swipeRepeatedId],
            perKind: context.profile.badRowsPerKind, expectedGoodRows: target, random: &random)
        var pending = [[Pending]](repeating: [], count: window.dayCount + 8)
        var lastLine: [UInt8] = []
        lastLine.reserveCapacity(256)

        /// Writes one swipe; returns the bytes of the line (without the newline) when asked.
        func writeSwipe(from: Int, to: Int, action: StaticString, time: Int64, style: TimestampStyle,
                        remember: Bool) throws {
            let start = table.buffer.count
            table.beginObject()
            table.key("id"); table.buffer.byte(34); table.buffer.documentID(&random); table.buffer.byte(34)
            table.key("fromUserId"); table.buffer.jsonPlain(ids.id(from))
            table.key("toUserId"); table.buffer.jsonPlain(ids.id(to))
            table.key("action"); table.buffer.byte(34); table.buffer.append(action); table.buffer.byte(34)
            table.json("timestamp", timestamp: time, micros: random.int(1000) * 1000, style: style)
            table.endObject()
            if remember {
                lastLine.removeAll(keepingCapacity: true)
                lastLine.append(contentsOf: table.buffer.bytes[start...])
            }
            try table.endRecord()
        }

        /// A deliberately bad swipe (or a repeat of the last good line).
        func writeBad(_ kind: BadRowKind, from: Int, to: Int, time: Int64) throws {
            switch kind {
            case .swipeOnSelf:
                try writeSwipe(from: from, to: from, action: "like", time: time, style: .saoPaulo, remember: false)
            case .swipeUnknownAction:
                let actions: [StaticString] = ["rewind", "block", "superlike"]
                try writeSwipe(from: from, to: to, action: actions[random.int(actions.count)], time: time, style: .utc,
                               remember: false)
            case .swipeTimestampWithoutOffset:
                try writeSwipe(from: from, to: to, action: "pass", time: time, style: .missingOffset, remember: false)
            case .swipeRepeatedId:
                table.buffer.append(lastLine)
                try table.endRecord()
            default:
                preconditionFailure("\(kind) is not a swipes reject")
            }
        }

        func style() -> TimestampStyle {
            let roll = random.int(4)
            return roll < 2 ? .saoPaulo : roll == 2 ? .utc : .utcMillis
        }

        for dayIndex in 0..<window.dayCount {
            let day = window.day(dayIndex)
            let dayStart = GenerationWindow.utc(day, 0)
            let available = max(2, min(ids.count, Int((dayStart - origin) / step) - 1))
            let weekend = (day.daysSinceEpoch + 4) % 7 == 0 || (day.daysSinceEpoch + 4) % 7 == 6
            let count = Int(perDay * (weekend ? 1.25 : 0.9) * (0.9 + 0.2 * random.unit()))
            for _ in 0..<count {
                let u = random.unit()
                var from = available - 1 - Int(Double(available) * u * u)
                if heavySwipers > 0 && random.chance(heavyShare) { from = random.int(min(heavySwipers, available)) }
                var to = random.int(available - 1)
                if to >= from { to += 1 }
                // Evenings are busiest: hours skew from 07:00 towards midnight.
                let second = 7 * 3600 + Int(Double(17 * 3600 - 1) * (0.5 + 0.5 * random.bell()))
                let time = dayStart + Int64(second)
                let roll = random.int(100)
                let action: Action = roll < 45 ? .like : roll < 95 ? .pass : roll < 99 ? .superLike : .report
                try writeSwipe(from: from, to: to, action: action.text, time: time, style: style(), remember: true)
                if action == .like || action == .superLike, random.chance(0.1) {
                    // The other person answers within five days; now and then with a report.
                    let later = time + Int64(600 + random.int(5 * 86_400))
                    let answer: Action = random.chance(0.08) ? .report : random.chance(0.1) ? .superLike : .like
                    enqueue(Pending(from: Int32(to), to: Int32(from), action: answer, time: later), into: &pending)
                    if random.chance(0.05) {
                        // The first liker changes their mind later: a pass does not undo the match.
                        enqueue(Pending(from: Int32(from), to: Int32(to), action: .pass,
                                         time: later + Int64(3600 + random.int(7 * 86_400))), into: &pending)
                    }
                }
                if let kind = schedule.tick() {
                    try writeBad(kind, from: from, to: to, time: time + 1)
                    summary.add(kind)
                }
            }
            for swipe in pending[dayIndex] where swipe.time < window.endUTC {
                try writeSwipe(from: Int(swipe.from), to: Int(swipe.to), action: swipe.action.text, time: swipe.time,
                               style: style(), remember: true)
            }
            pending[dayIndex] = []
        }
        for kind in schedule.drain() {
            try writeBad(kind, from: 0, to: 1, time: window.endUTC - 60)
            summary.add(kind)
        }
        try context.finish(table, into: &summary)
    }

    private func enqueue(_ swipe: Pending, into pending: inout [[Pending]]) {
        let dayIndex = Int(GenerationWindow.localDate(swipe.time).daysSinceEpoch - context.window.firstDay.daysSinceEpoch)
        if dayIndex < pending.count { pending[dayIndex].append(swipe) }
    }
}
