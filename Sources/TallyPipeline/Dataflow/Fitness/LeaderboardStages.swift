import TallyCore
import TallyReports
import TallyWire

/// The leaderboards' stages of a dataflow run, after the row rules:
/// `groups` joins each counted challenge with its group's memberships,
/// `workouts` marks the check-ins that repeat a workout
/// (``DuplicateWorkoutRule``), `challenges` hands each challenge key's rows
/// to ``LeaderboardsFamily/compute(key:)``.

/// Key: a group id. Sends each of the group's challenges on with the
/// group's memberships.
struct GroupsStage {
    func run(_ records: [FlowRecord], emit: FlowEmit) {
        var challenges: [Challenge] = []
        var memberships: [GroupMembership] = []
        for record in records {
            switch record {
            case .groupChallenge(let c): challenges.append(c)
            case .groupMembership(let m): memberships.append(m)
            default: preconditionFailure("not a group's row: \(record)")
            }
        }
        for challenge in challenges {
            emit(.challenges, FlowKeys.entity(challenge.id), .challengeWithMembers(challenge, memberships))
        }
    }
}

/// Key: a workout id. Of the counted check-ins of one workout, every one
/// but the original is marked a duplicate of it; all go on to their challenge.
struct WorkoutsStage {
    func run(_ records: [FlowRecord], emit: FlowEmit) {
        var checkins = records.map { record -> CheckinFact in
            guard case .countedCheckin(let c) = record else { preconditionFailure("not a check-in: \(record)") }
            return c
        }
        if checkins.count > 1 {
            let verdicts = DuplicateWorkoutRule.verdicts(checkins.map {
                DuplicateWorkoutRule.Checkin(createdAt: $0.createdAt, path: Array($0.source.file.utf8), line: Int64($0.source.line),
                                             id: Array($0.id.utf8))
            })
            let ids = checkins.map(\.id)
            for (i, verdict) in verdicts.enumerated() {
                if case .duplicate(let original) = verdict { checkins[i].duplicateOf = ids[original] }
            }
        }
        for checkin in checkins { emit(.challenges, FlowKeys.entity(checkin.challengeId), .countedCheckin(checkin)) }
    }
}

/// Key: a challenge id. Its rows (``ChallengeRows``) are computed by
/// ``LeaderboardsFamily/compute(key:)``, which orders them and rejects the
/// check-ins of a challenge no `challenges` row has.
struct ChallengesStage {
    let plan: FlowPlan

    /// The leaderboards family of the plan (as of `--as-of`, else the period's last day).
    static func family(_ plan: FlowPlan) -> LeaderboardsFamily {
        LeaderboardsFamily(settings: .init(asOf: plan.asOf ?? plan.period.lastDay, timezone: plan.timezone,
                                           rules: plan.config.leaderboards))
    }

    func run(key: [UInt8], _ records: [FlowRecord], emit: FlowEmit) throws {
        var rows = ChallengeRows(key: String(decoding: key, as: UTF8.self))
        for record in records {
            switch record {
            case .challengeWithMembers(let c, let members):
                rows.challenge = c
                rows.memberships = members
            case .countedCheckin(let c): rows.checkins.append(c)
            default: preconditionFailure("not a challenge's row: \(record)")
            }
        }
        let computed = Self.family(plan).compute(key: rows)
        guard var result = computed.board else {
            // Check-ins whose challenge does not exist join the family's rejects.
            emit(.merge, key, .leaderboardsSummary(computed.unattached))
            return
        }
        result.summary.merge(computed.unattached)
        if let folder = plan.staging("leaderboards"), let board = result.rows.board {
            // The board's text file is written here, where it is computed; the merge moves it into place.
            try LeaderboardsOutput.textFile(board, locale: plan.locale, pointsRule: PointsRule(plan.config.leaderboards),
                                            folder: folder).commit()
        }
        emit(.merge, key, .board(result))
    }
}
