import PropertyBased
import Testing
@testable import TallyCore
@testable import TallyWire

/// Every keyed record: random values → line → value, equal and byte for byte the same line.
@Suite("Wire: keyed records round-trip")
struct WireRecordTests {
    typealias R = WireRandom

    @Test func expenseRecords() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            withoutThrowing { () throws in
                var g = SplitMix64(seed: seed)
                let couple = Couple(id: R.string(&g), name: R.string(&g), currency: R.currency(&g))
                #expect(try wireRoundTrip(couple) == couple)
                let member = Member(id: R.string(&g), coupleId: R.string(&g), displayName: R.string(&g))
                #expect(try wireRoundTrip(member) == member)
                let expense = ExpenseFact(id: R.string(&g), coupleId: R.string(&g), paidBy: R.string(&g), amount: R.int64(&g),
                                          currency: R.currency(&g), date: R.date(&g), description: R.string(&g), tag: R.string(&g),
                                          agreementId: R.optionalString(&g), split: R.split(&g), source: R.source(&g))
                #expect(try wireRoundTrip(expense) == expense)
                let settlement = SettlementFact(id: R.string(&g), coupleId: R.string(&g), fromMember: R.string(&g), toMember: R.string(&g),
                                                amount: R.int64(&g), currency: R.currency(&g), date: R.date(&g), source: R.source(&g))
                #expect(try wireRoundTrip(settlement) == settlement)
                let agreement = Agreement(id: R.string(&g), coupleId: R.string(&g), description: R.string(&g), amount: R.int64(&g),
                                          currency: R.currency(&g), paidBy: R.string(&g), split: R.split(&g), tag: R.string(&g),
                                          dayOfMonth: R.int(&g), startDate: R.date(&g), endDate: Bool.random(using: &g) ? nil : R.date(&g),
                                          sourceFile: R.string(&g), sourceLine: R.int(&g))
                #expect(try wireRoundTrip(agreement) == agreement)
                let rate = FxRate(date: R.date(&g), currency: R.currency(&g), base: R.currency(&g), rate: R.decimal(&g))
                #expect(try wireRoundTrip(rate) == rate)
            }
        }
    }

    @Test func fitnessRecords() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            withoutThrowing { () throws in
                var g = SplitMix64(seed: seed)
                let challenge = Challenge(id: R.string(&g), groupId: R.string(&g), name: R.string(&g), startDate: R.date(&g), endDate: R.date(&g))
                #expect(try wireRoundTrip(challenge) == challenge)
                let membership = GroupMembership(groupId: R.string(&g), userId: R.string(&g), joinedAt: R.timestamp(&g),
                                                 leftAt: Bool.random(using: &g) ? nil : R.timestamp(&g))
                #expect(try wireRoundTrip(membership) == membership)
                let checkin = CheckinFact(id: R.string(&g), groupId: R.string(&g), challengeId: R.string(&g), userId: R.string(&g),
                                          displayName: R.string(&g), photoURL: R.optionalString(&g), workoutEntryId: R.optionalString(&g),
                                          minutes: R.int(&g), createdAt: R.timestamp(&g), duplicateOf: R.optionalString(&g), source: R.source(&g))
                #expect(try wireRoundTrip(checkin) == checkin)
                let day = DailyActivity(userId: R.string(&g), date: R.date(&g), steps: R.double(&g), activeCalories: R.double(&g),
                                        walkingDistanceKm: R.double(&g))
                let back = try wireRoundTrip(day)
                #expect([back.steps, back.activeCalories, back.walkingDistanceKm].map(\.bitPattern)
                    == [day.steps, day.activeCalories, day.walkingDistanceKm].map(\.bitPattern))
                #expect(back == day)
            }
        }
    }

    @Test func kpiRecords() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            withoutThrowing { () throws in
                var g = SplitMix64(seed: seed)
                let source = Bool.random(using: &g) ? nil : R.source(&g)
                let event = UserSubscriptionEvent(app: R.string(&g), userId: R.string(&g), event: SubscriptionEvent(
                    kind: SubscriptionEventKind.allCases.randomElement(using: &g)!, timestamp: R.timestamp(&g),
                    productId: R.optionalString(&g), context: R.optionalString(&g), source: source))
                #expect(try wireRoundTrip(event) == event)
                let product = ProductCatalog.Entry(productId: R.string(&g), app: R.string(&g), plan: R.string(&g), yearly: Bool.random(using: &g),
                                                   price: R.int64(&g), currency: R.currency(&g))
                #expect(try wireRoundTrip(product) == product)
                let connection = PartnerConnection(userId: R.string(&g), partnerId: R.string(&g), connectedAt: R.timestamp(&g),
                                                   disconnectedAt: Bool.random(using: &g) ? nil : R.timestamp(&g))
                #expect(try wireRoundTrip(connection) == connection)
                let swipe = Swipe(id: R.string(&g), fromUserId: R.string(&g), toUserId: R.string(&g),
                                  action: SwipeAction.allCases.randomElement(using: &g)!, timestamp: R.timestamp(&g))
                #expect(try wireRoundTrip(swipe) == swipe)
                let match = SwipeMatch(userA: R.string(&g), userB: R.string(&g), formedAt: R.timestamp(&g))
                #expect(try wireRoundTrip(match) == match)
            }
        }
    }

    @Test func everyKindIsDistinctAndWellFormed() {
        let kinds = WireKinds.all.map { $0.wireKind }
        #expect(Set(kinds).count == kinds.count)
        for kind in kinds {
            #expect(!kind.isEmpty && kind.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }, "\(kind)")
        }
    }

    @Test func anExampleLineReadsAsDocumented() throws {
        let line = "expense.v1\tc1\te1\tm1\t-1250\tBRL\t2026-10-03\tMarket\\tfair\tfood\t\\N\texpenses/expenses.csv\t7\tshares\t2\tm1\t2\tm2\t1.5\n"
        let expense = try WireLineReader.records(ExpenseFact.self, in: Array(line.utf8))[0]
        #expect(expense == ExpenseFact(id: "e1", coupleId: "c1", paidBy: "m1", amount: -1250, currency: brl, date: day("2026-10-03"),
                                       description: "Market\tfair", tag: "food", agreementId: nil,
                                       split: rule(.shares, "m1:2;m2:1.5"), source: SourceRef(file: "expenses/expenses.csv", line: 7)))
        #expect(String(decoding: expense.wireLine, as: UTF8.self) == line)
    }
}
