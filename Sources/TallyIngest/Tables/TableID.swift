/// Every table of the data contract: its dataset folder, its file stem and
/// its fields (camelCase, in contract order).
public enum TableID: String, CaseIterable, Sendable, Hashable, Comparable {
    // expenses/ (ContaCasal), in load order: referenced tables first.
    case couples, members, cards, fx, agreements, expenses, settlements
    // health/ (FypMatch HealthKit)
    case activity
    // swipes/ (FypMatch)
    case swipeUsers, swipes
    // checkins/ (FitToday)
    case challenges, groupMembers, checkins
    // subscriptions/ (FisioFlow, LovU, FypMatch)
    case products, events, connections

    /// The dataset folder this table lives in.
    public var dataset: String {
        switch self {
        case .couples, .members, .cards, .fx, .agreements, .expenses, .settlements: return "expenses"
        case .activity: return "health"
        case .swipeUsers, .swipes: return "swipes"
        case .challenges, .groupMembers, .checkins: return "checkins"
        case .products, .events, .connections: return "subscriptions"
        }
    }

    /// The file stem within the dataset folder (`members` for both expenses/ and checkins/).
    public var stem: String {
        switch self {
        case .swipeUsers: return "users"
        case .groupMembers: return "members"
        default: return rawValue
        }
    }

    /// `dataset/stem`, as people name the table.
    public var qualifiedName: String { "\(dataset)/\(stem)" }

    /// The contract's fields, camelCase, in order.
    public var fields: [String] {
        switch self {
        case .couples: return ["id", "name", "currency", "createdAt"]
        case .members: return ["id", "coupleId", "displayName", "role", "joinedAt"]
        case .expenses:
            return ["id", "coupleId", "paidBy", "amount", "currency", "date", "description", "tag", "cardId",
                    "agreementId", "splitType", "split", "updatedAt", "deletedAt"]
        case .settlements: return ["id", "coupleId", "fromMember", "toMember", "amount", "currency", "date", "note"]
        case .agreements:
            return ["id", "coupleId", "description", "amount", "currency", "paidBy", "splitType", "split", "tag",
                    "dayOfMonth", "startDate", "endDate"]
        case .cards: return ["id", "coupleId", "ownerId", "label", "kind"]
        case .fx: return ["date", "currency", "base", "rate"]
        case .activity: return ["userId", "date", "steps", "activeCalories", "walkingDistanceKm"]
        case .swipeUsers: return ["id", "createdAt", "gender", "city", "subscription"]
        case .swipes: return ["id", "fromUserId", "toUserId", "action", "timestamp"]
        case .challenges: return ["id", "groupId", "name", "startDate", "endDate"]
        case .groupMembers: return ["groupId", "userId", "joinedAt", "leftAt"]
        case .checkins:
            return ["id", "groupId", "challengeId", "userId", "displayName", "userPhotoURL", "checkInPhotoURL",
                    "workoutEntryId", "workoutDurationMinutes", "createdAt"]
        case .products: return ["productId", "app", "plan", "period", "price", "currency"]
        case .events: return ["id", "app", "userId", "event", "productId", "context", "timestamp"]
        case .connections: return ["userId", "partnerId", "connectedAt", "disconnectedAt"]
        }
    }

    /// The fields no row can be used without (the decoders throw "… is
    /// empty" for them): a CSV header that lacks one makes the whole file
    /// unusable, so it is refused as a file rather than rejected row by row.
    /// `expenses`: a deleted version needs only id and updatedAt, but a file
    /// without `amount` holds no usable expense.
    public var requiredFields: [String] {
        switch self {
        case .couples: return ["id", "currency"]
        case .members: return ["id", "coupleId"]
        case .cards: return ["id", "coupleId"]
        case .fx: return ["date", "currency", "base", "rate"]
        case .agreements: return ["id", "coupleId", "amount", "currency", "paidBy", "dayOfMonth", "startDate"]
        case .expenses: return ["id", "coupleId", "paidBy", "amount", "currency", "date", "updatedAt"]
        case .settlements: return ["id", "coupleId", "fromMember", "toMember", "amount", "currency", "date"]
        case .activity: return ["userId", "date", "steps", "activeCalories", "walkingDistanceKm"]
        case .swipeUsers: return ["id"]
        case .swipes: return ["id", "fromUserId", "toUserId", "action", "timestamp"]
        case .challenges: return ["id", "groupId", "startDate", "endDate"]
        case .groupMembers: return ["groupId", "userId", "joinedAt"]
        case .checkins: return ["id", "groupId", "challengeId", "userId", "workoutDurationMinutes", "createdAt"]
        case .products: return ["productId", "app", "plan", "period", "price", "currency"]
        case .events: return ["id", "app", "userId", "event", "timestamp"]
        case .connections: return ["userId", "partnerId", "connectedAt"]
        }
    }

    /// The table a `dataset/stem` pair names, if any.
    public static func named(dataset: String, stem: String) -> TableID? {
        allCases.first { $0.dataset == dataset && $0.stem == stem }
    }

    /// Load order: the order of declaration.
    public static func < (a: TableID, b: TableID) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
