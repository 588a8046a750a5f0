import TallyCore

/// A row of `checkins/challenges`.
public struct ChallengeRecord: Sendable, Equatable {
    public var challenge: Challenge
}

/// A row of `checkins/members`: one membership span.
public struct GroupMemberRecord: Sendable, Equatable {
    public var membership: GroupMembership
}

/// A row of `checkins/checkins`, well-formed (the counting rules come later,
/// per challenge, in ``TallyCore/CheckinResolver``).
public struct CheckinRecord: Sendable, Equatable {
    public var id: String
    public var groupId: String
    public var challengeId: String
    public var userId: String
    /// The display name; the user id when the row has none.
    public var displayName: String
    public var userPhotoURL: String?
    public var checkInPhotoURL: String?
    public var workoutEntryId: String?
    public var minutes: Int
    public var createdAt: Timestamp

    public init(id: String, groupId: String, challengeId: String, userId: String, displayName: String, userPhotoURL: String?, checkInPhotoURL: String?, workoutEntryId: String?, minutes: Int, createdAt: Timestamp) {
        self.id = id
        self.groupId = groupId
        self.challengeId = challengeId
        self.userId = userId
        self.displayName = displayName
        self.userPhotoURL = userPhotoURL
        self.checkInPhotoURL = checkInPhotoURL
        self.workoutEntryId = workoutEntryId
        self.minutes = minutes
        self.createdAt = createdAt
    }
}

extension CheckinRecord {
    /// The record of a row's fields (Strings made from their bytes).
    public init(_ f: CheckinFields) {
        func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        id = text(f.id)
        groupId = text(f.groupId)
        challengeId = text(f.challengeId)
        userId = text(f.userId)
        displayName = f.displayName.map(text) ?? userId
        userPhotoURL = f.userPhotoURL.map(text)
        checkInPhotoURL = f.checkInPhotoURL.map(text)
        workoutEntryId = f.workoutEntryId.map(text)
        minutes = f.minutes
        createdAt = f.createdAt
    }
}

/// A row of `checkins/checkins` as byte views of its text fields, valid
/// during the reader's callback only: check-ins are a large table, so no
/// Strings are made on their way to the warehouse.
public struct CheckinFields {
    public var id: UnsafeBufferPointer<UInt8>
    public var groupId: UnsafeBufferPointer<UInt8>
    public var challengeId: UnsafeBufferPointer<UInt8>
    public var userId: UnsafeBufferPointer<UInt8>
    /// Nil when the row has none (the user id is shown instead).
    public var displayName: UnsafeBufferPointer<UInt8>?
    public var userPhotoURL: UnsafeBufferPointer<UInt8>?
    public var checkInPhotoURL: UnsafeBufferPointer<UInt8>?
    public var workoutEntryId: UnsafeBufferPointer<UInt8>?
    public var minutes: Int
    public var createdAt: Timestamp
}
