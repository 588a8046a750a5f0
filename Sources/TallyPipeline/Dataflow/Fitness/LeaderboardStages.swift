import TallyCore
import TallyReports

/// The leaderboards' stages of a dataflow run, after the row rules:
/// `groups` joins each counted challenge with its group's memberships,
/// `workouts` marks the check-ins that repeat a workout
/// (``DuplicateWorkoutRule``), `challenges` builds each challenge's
/// partition (``ChallengePartition``) and computes its board
/// (``LeaderboardsFamily``); check-ins of a challenge that does not exist
/// are rejected by ``OrphanRule``.

/// Key: a group id. Sends each of the group's challenges on with the
/// group's memberships, ordered by user id (bytes) then joinedAt.
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
        memberships.sort { a, b in
            a.userId.utf8.elementsEqual(b.userId.utf8) ? a.joinedAt < b.joinedAt : ByteOrder.precedes(a.userId, b.userId)
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

/// Key: a challenge id. Computes the challenge's board, or rejects its
/// check-ins when no `challenges` row has the id.
struct ChallengesStage {
    let plan: FlowPlan

    /// The leaderboards family of the plan (as of `--as-of`, else the period's last day).
    static func family(_ plan: FlowPlan) -> LeaderboardsFamily {
        LeaderboardsFamily(settings: .init(asOf: plan.asOf ?? plan.period.lastDay, timezone: plan.timezone,
                                           rules: plan.config.leaderboards))
    }

    func run(key: [UInt8], _ records: [FlowRecord], emit: FlowEmit) throws {
        var challenge: (Challenge, [GroupMembership])?
        var checkins: [CheckinFact] = []
        for record in records {
            switch record {
            case .challengeWithMembers(let c, let members): challenge = (c, members)
            case .countedCheckin(let c): checkins.append(c)
            default: preconditionFailure("not a challenge's row: \(record)")
            }
        }
        guard let (c, memberships) = challenge else {
            // Check-ins whose challenge does not exist belong to no partition: they join the family's rejects.
            var summary = LeaderboardsFamily.Summary()
            for checkin in checkins {
                if let reason = OrphanRule.reject(.checkin, parentId: checkin.challengeId, parentExists: false) {
                    summary.rejects.append(Reject(dataset: "checkins", file: checkin.source.file, line: checkin.source.line,
                                                  id: checkin.id, reason: reason))
                }
            }
            emit(.merge, key, .leaderboardsSummary(summary))
            return
        }
        checkins.sort { a, b in a.createdAt == b.createdAt ? ByteOrder.precedes(a.id, b.id) : a.createdAt < b.createdAt }
        let partition = ChallengePartition(challenge: c, checkins: checkins, memberships: memberships)
        let result = Self.family(plan).compute(partition)
        if let folder = plan.staging("leaderboards"), let board = result.rows.board {
            // The board's text file is written here, where it is computed; the merge moves it into place.
            try LeaderboardsOutput.textFile(board, locale: plan.locale, folder: folder).commit()
        }
        emit(.merge, key, .board(result))
    }
}
