import TallyCore
import TallyReports
import TallyWire

/// The leaderboards' stages of a dataflow run, after the row rules:
/// `groups` joins each counted challenge with its group's memberships,
/// `workouts` marks the check-ins that repeat a workout
/// (``DuplicateWorkoutRule``), `challenges` hands each challenge key's rows
/// to ``LeaderboardsKeys``.

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
        let checkins = records.map { record -> CheckinFact in
            guard case .countedCheckin(let c) = record else { preconditionFailure("not a check-in: \(record)") }
            return c
        }
        let marked = WhichRowsCount.duplicates(checkins) {
            DuplicateWorkoutRule.Checkin(createdAt: $0.createdAt, path: Array($0.source.file.utf8), line: Int64($0.source.line),
                                         id: Array($0.id.utf8))
        }
        for (checkin, original) in marked {
            var checkin = checkin
            checkin.duplicateOf = original?.id
            emit(.challenges, FlowKeys.entity(checkin.challengeId), .countedCheckin(checkin))
        }
    }
}

/// Key: a challenge id. Its rows (``ChallengeRows``) are computed by
/// ``LeaderboardsKeys``, like every challenge of every transport (the family
/// orders them and rejects the check-ins of a challenge no `challenges` row has).
struct ChallengesStage {
    let plan: FlowPlan

    /// The leaderboards of the plan (as of `--as-of`, else the period's last day).
    static func keys(_ plan: FlowPlan) -> LeaderboardsKeys {
        LeaderboardsKeys(config: plan.config, locale: plan.locale, asOf: plan.asOf ?? plan.period.lastDay, timezone: plan.timezone)
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
        // The board's text file is written here, where it is computed, into the staging folder the merge moves it from.
        let outcome = try Self.keys(plan).compute(rows, folder: try plan.staging("leaderboards"))
        guard let result = outcome.result else {
            emit(.merge, key, .leaderboardsSummary(outcome.unattached))
            return
        }
        try outcome.text?.value.commit()
        emit(.merge, key, .board(result))
    }
}
