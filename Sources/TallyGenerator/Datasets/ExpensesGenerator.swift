import TallyCore

/// Writes `expenses/` (ContaCasal, a Supabase export): couples, members, cards,
/// agreements, fx, expenses and settlements.
///
/// Spellings: `couples.csv` has a BOM, CRLF and snake_case headers;
/// `members.csv` and `cards.csv` snake_case (cards with no final newline);
/// `expenses.csv` a BOM and snake_case headers, plus Supabase's `created_at`
/// column, which the contract does not know; `settlements.csv` CRLF;
/// `agreements.csv` and `fx.csv` plain camelCase CSV.
struct ExpensesGenerator {
    let context: GenerationContext

    private static let brl = Currency(code: "BRL")!
    private static let usd = Currency(code: "USD")!
    private static let eur = Currency(code: "EUR")!
    private static let jpy = Currency(code: "JPY")!
    private static let fxBases = [brl, usd, eur]
    private static let fxCurrencies = [brl, usd, eur, jpy]

    struct MemberPlan {
        let id: String
        let name: String
        let joinedAt: Int64
    }

    struct CardPlan {
        let id: String
        let owner: Int
        let label: String
        let credit: Bool
    }

    struct AgreementPlan {
        let id: String
        let description: String
        let amount: Int64
        let currency: Currency
        let payer: Int
        let split: SplitText
        let tag: String
        let dayOfMonth: Int
        let startDate: LocalDate
        let endDate: LocalDate?
    }

    struct CouplePlan {
        let id: String
        let name: String
        let currency: Currency
        let createdAt: Int64
        let firstMonth: YearMonth
        var members: [MemberPlan]
        var cards: [CardPlan] = []
        var agreements: [AgreementPlan] = []
        let activity: Double
    }

    /// A split type and its `split` text as written.
    struct SplitText {
        var type: String
        var split: String
    }

    /// One `expenses.csv` row before it is written; the optional texts override
    /// the well-formed values for the deliberately bad rows.
    struct ExpenseRow {
        var id: String
        var coupleId: String
        var paidBy: String
        var amount: Int64
        var currency: Currency
        var amountText: String?
        var date: LocalDate
        var dateText: String?
        var description: String
        var descriptionUnquoted = false
        var tag: String
        var cardId = ""
        var agreementId = ""
        var split: SplitText
        var createdAt: Int64
        var updatedAt: Int64
        var updatedStyle: TimestampStyle = .saoPaulo
        var deletedAt: Int64?
        var fieldLimit = Int.max
    }

    func generate(into summary: inout GenerationSummary) throws {
        var random = context.random(10)
        let couples = planCouples(&random)
        let fxStart = firstWeekday(onOrAfter: context.window.firstDay)
        try writeCouples(couples, into: &summary)
        try writeMembers(couples, into: &summary)
        try writeCards(couples, into: &summary)
        try writeAgreements(couples, into: &summary)
        try writeFx(from: fxStart, random: &random, into: &summary)
        try writeExpensesAndSettlements(couples, fxStart: fxStart, random: &random, into: &summary)
    }

    // MARK: Plan

    private func planCouples(_ random: inout RandomSource) -> [CouplePlan] {
        let window = context.window
        var couples: [CouplePlan] = []
        var memberCounter = 0
        var cardCounter = 0
        var agreementCounter = 0
        for index in 0..<context.profile.couples {
            let currency: Currency = index % 10 == 3 ? Self.usd : index % 10 == 7 ? Self.eur : Self.brl
            let size = memberCount(index, random: &random)
            let lateStart = index % 10 == 8
            // Late starters come in the second and third months; a window shorter than the
            // profile's own has them as far into it in proportion, so they still come within it.
            let createdDay = lateStart
                ? window.firstDay.adding(days: lateStartOffset(31 + random.int(60)))
                : window.firstDay.adding(days: -(15 + random.int(500)))
            let createdAt = GenerationWindow.utc(createdDay, 8 * 3600 + random.int(14 * 3600))
            var members: [MemberPlan] = []
            var firstNames: [String] = []
            for m in 0..<size {
                memberCounter += 1
                var first = random.pick(Vocabulary.firstNames)
                while firstNames.contains(first) { first = random.pick(Vocabulary.firstNames) }
                firstNames.append(first)
                let name = random.chance(0.04) ? random.pick(Vocabulary.awkwardDisplayNames)
                    : first + " " + random.pick(Vocabulary.lastNames)
                let joined = m == 0 ? createdAt : createdAt + Int64(random.int(20 * 86_400))
                members.append(MemberPlan(id: Self.memberId(memberCounter), name: name, joinedAt: joined))
            }
            let name = size == 2 ? firstNames[0] + " & " + firstNames[1] : random.pick(Vocabulary.spaceNames)
            var couple = CouplePlan(id: Self.coupleId(index + 1), name: name, currency: currency, createdAt: createdAt,
                                    firstMonth: createdDay.yearMonth, members: members, activity: 0.5 + random.unit())
            for _ in 0..<(1 + random.int(3)) {
                cardCounter += 1
                couple.cards.append(CardPlan(id: "card-" + Self.pad(cardCounter, 6), owner: random.int(size),
                                             label: random.pick(Vocabulary.cardLabels), credit: random.chance(0.7)))
            }
            couple.agreements = planAgreements(for: couple, counter: &agreementCounter, random: &random)
            couples.append(couple)
        }
        return couples
    }

    /// A late starter's first day, `offset` days into the profile's own window, as days into this one:
    /// the same when it is at least as long (the couples start early on, and stay), in proportion when shorter.
    private func lateStartOffset(_ offset: Int) -> Int {
        let window = context.window, own = context.ownWindow
        return window.dayCount >= own.dayCount ? offset : offset * window.dayCount / own.dayCount
    }

    /// Members of couple `index`: the historical pattern, or the profile's range.
    private func memberCount(_ index: Int, random: inout RandomSource) -> Int {
        guard let range = context.profile.membersPerCouple else { return index % 20 == 9 ? 4 : index % 10 == 5 ? 3 : 2 }
        precondition(range.lowerBound >= 2 && range.upperBound <= 4, "couples have 2 to 4 members")
        var size = range.lowerBound
        while size < range.upperBound && random.chance(context.profile.extraMemberChance) { size += 1 }
        return size
    }

    private func planAgreements(for couple: CouplePlan, counter: inout Int, random: inout RandomSource) -> [AgreementPlan] {
        let window = context.window
        let scale = couple.currency.minorUnits
        let unit = Decimal10.pow10(scale)
        let local = couple.currency == Self.brl ? 1.0 : 0.3
        let start = max(couple.createdAt, window.startUTC - 200 * 86_400)
        let startDate = GenerationWindow.localDate(start)
        var plans: [AgreementPlan] = []
        func next() -> String { counter += 1; return "agr-" + Self.pad(counter, 6) }
        let n = couple.members.count
        let factor = context.profile.agreementFactor
        // Where agreements start and end is stretched from the profile's own window onto this one (the
        // same places over the own window): over a longer window they start and end spread over it.
        let months = window.months
        func month(fromEnd back: Int) -> YearMonth { months[max(0, months.count - 1 - context.stretched(months: back))] }
        if random.chance(0.6 * factor) {
            // Rent: ended mid-window for some, ongoing for most; paid on the 5th, 10th or the last day.
            let amount = Int64((1500 + Double(random.int(3000))) * local) * unit
            let end: LocalDate? = random.chance(0.2) ? window.months[window.months.count / 2].lastDay : nil
            let split = random.chance(0.5) ? SplitText(type: "equal", split: "")
                : percentageSplit(couple.members, random: &random)
            plans.append(AgreementPlan(id: next(), description: random.chance(0.5) ? "Aluguel, apto 42" : "Aluguel",
                                       amount: amount, currency: couple.currency, payer: 0, split: split, tag: "casa",
                                       dayOfMonth: random.pick([5, 10, 31]), startDate: startDate, endDate: end))
        }
        if random.chance(0.3 * factor) {
            let amount = Int64((400 + Double(random.int(500))) * local) * unit + Int64(random.int(Int(unit)))
            plans.append(AgreementPlan(id: next(), description: "Condomínio", amount: amount, currency: couple.currency,
                                       payer: random.int(n), split: SplitText(type: "", split: ""), tag: "casa",
                                       dayOfMonth: 31, startDate: startDate, endDate: nil))
        }
        if random.chance(0.7 * factor) {
            let netflix = couple.currency == Self.brl ? 5590 : 1549
            plans.append(AgreementPlan(id: next(), description: "Netflix Premium", amount: Int64(netflix),
                                       currency: couple.currency, payer: random.int(n),
                                       split: SplitText(type: "full", split: couple.members[random.int(n)].id),
                                       tag: "lazer", dayOfMonth: 15,
                                       startDate: window.firstDay.adding(days: random.int(context.stretched(days: 40))),
                                       endDate: random.chance(0.3) ? month(fromEnd: 1).lastDay : nil))
        }
        if random.chance(0.5 * factor) {
            let spotify = couple.currency == Self.brl ? 3490 : 1799
            plans.append(AgreementPlan(id: next(), description: "Spotify Família", amount: Int64(spotify),
                                       currency: couple.currency, payer: random.int(n), split: SplitText(type: "equal", split: ""),
                                       tag: "lazer", dayOfMonth: 31, startDate: startDate, endDate: nil))
        }
        if couple.currency == Self.brl && random.chance(0.25 * factor) {
            // A subscription billed in dollars: each month is converted with that month's fx rate.
            plans.append(AgreementPlan(id: next(), description: "iCloud+ 2 TB (USD)", amount: 999, currency: Self.usd,
                                       payer: random.int(n), split: SplitText(type: "equal", split: ""), tag: "casa",
                                       dayOfMonth: 20,
                                       startDate: months[min(months.count - 1, context.stretched(months: 1))].firstDay
                                           .adding(days: random.int(context.stretched(days: 20))),
                                       endDate: nil))
        }
        return plans
    }

    // MARK: Small tables

    private func writeCouples(_ couples: [CouplePlan], into summary: inout GenerationSummary) throws {
        let table = try context.open("expenses/couples.csv", format: "CSV, UTF-8 BOM, CRLF, snake_case header", crlf: true)
        table.csvHeader(["id", "name", "currency", "created_at"], bom: true)
        for couple in couples {
            table.csv(couple.id)
            table.csv(couple.name)
            table.csv(couple.currency.code)
            table.csvTimestamp(couple.createdAt, style: .saoPaulo)
            try table.endRecord()
        }
        try context.finish(table, into: &summary)
    }

    private func writeMembers(_ couples: [CouplePlan], into summary: inout GenerationSummary) throws {
        let table = try context.open("expenses/members.csv", format: "CSV, LF, snake_case header")
        table.csvHeader(["id", "couple_id", "display_name", "role", "joined_at"])
        for couple in couples {
            for (index, member) in couple.members.enumerated() {
                table.csv(member.id)
                table.csv(couple.id)
                table.csv(member.name)
                table.csvRaw(index == 0 ? "admin" : "member")
                table.csvTimestamp(member.joinedAt, style: .utc)
                try table.endRecord()
            }
        }
        try context.finish(table, into: &summary)
    }

    private func writeCards(_ couples: [CouplePlan], into summary: inout GenerationSummary) throws {
        let table = try context.open("expenses/cards.csv", format: "CSV, LF, snake_case header, no final newline")
        table.csvHeader(["id", "couple_id", "owner_id", "label", "kind"])
        var first = true
        for couple in couples {
            for card in couple.cards {
                if !first { table.newline() }
                first = false
                table.csv(card.id)
                table.csv(couple.id)
                table.csv(couple.members[card.owner].id)
                table.csv(card.label)
                table.csvRaw(card.credit ? "credit" : "debit")
                table.endRecordWithoutNewline()
            }
        }
        try context.finish(table, into: &summary)
    }

    private func writeAgreements(_ couples: [CouplePlan], into summary: inout GenerationSummary) throws {
        let table = try context.open("expenses/agreements.csv", format: "CSV, LF, camelCase header")
        table.csvHeader(["id", "coupleId", "description", "amount", "currency", "paidBy", "splitType", "split", "tag",
                         "dayOfMonth", "startDate", "endDate"])
        for couple in couples {
            for agreement in couple.agreements {
                table.csv(agreement.id)
                table.csv(couple.id)
                table.csv(agreement.description)
                table.csvDecimal(agreement.amount, scale: agreement.currency.minorUnits)
                table.csv(agreement.currency.code)
                table.csv(couple.members[agreement.payer].id)
                table.csv(agreement.split.type)
                table.csv(agreement.split.split)
                table.csv(agreement.tag)
                table.csvInt(agreement.dayOfMonth)
                table.csvDate(agreement.startDate)
                if let end = agreement.endDate { table.csvDate(end) } else { table.csvEmpty() }
                try table.endRecord()
            }
        }
        try context.finish(table, into: &summary)
    }

    /// Business-day rates from every currency to every base the couples use,
    /// as random walks around realistic levels (value of one unit in BRL).
    private func writeFx(from start: LocalDate, random: inout RandomSource, into summary: inout GenerationSummary) throws {
        let table = try context.open("expenses/fx.csv", format: "CSV, LF, camelCase header")
        table.csvHeader(["date", "currency", "base", "rate"])
        var inBRL: [String: Double] = ["BRL": 1, "USD": 5.42, "EUR": 5.91, "JPY": 0.0364]
        var day = start
        while day <= context.window.lastDay {
            if isWeekday(day) {
                for code in ["USD", "EUR", "JPY"] { inBRL[code]! *= 1 + 0.006 * random.bell() }
                for base in Self.fxBases {
                    for currency in Self.fxCurrencies where currency != base {
                        let rate = inBRL[currency.code]! / inBRL[base.code]!
                        table.csvDate(day)
                        table.csv(currency.code)
                        table.csv(base.code)
                        table.csvDecimal(Int64((rate * 1_000_000).rounded()), scale: 6)
                        try table.endRecord()
                    }
                }
            }
            day = day.adding(days: 1)
        }
        try context.finish(table, into: &summary)
    }

    // MARK: Expenses and settlements

    private func writeExpensesAndSettlements(_ couples: [CouplePlan], fxStart: LocalDate, random: inout RandomSource,
                                             into summary: inout GenerationSummary) throws {
        let window = context.window
        let expenses = try context.open("expenses/expenses.csv",
                                        format: "CSV, UTF-8 BOM, LF, snake_case header, extra created_at column, quoted newlines")
        expenses.csvHeader(["id", "couple_id", "paid_by", "amount", "currency", "date", "description", "tag", "card_id",
                            "agreement_id", "split_type", "split", "created_at", "updated_at", "deleted_at"], bom: true)
        let settlements = try context.open("expenses/settlements.csv", format: "CSV, CRLF, camelCase header", crlf: true)
        settlements.csvHeader(["id", "coupleId", "fromMember", "toMember", "amount", "currency", "date", "note"])

        let rejectedKinds = BadRowKind.allCases.filter { $0.file == "expenses/expenses.csv" && $0.outcome == .rejected }
        var schedule = BadRowSchedule(kinds: rejectedKinds, perKind: context.profile.badRowsPerKind,
                                      expectedGoodRows: context.profile.expenses, random: &random)
        let profile = context.profile
        let heavy = min(profile.heavyCouples, couples.count)
        let ordinaryExpenses = heavy == 0 ? profile.expenses : max(0, profile.expenses - heavy * profile.heavyCoupleExpenses)
        let meanPerMonth = Double(ordinaryExpenses) / Double(max(1, couples.count * window.months.count)) * 0.85
        let heavyPerMonth = profile.heavyCoupleExpenses / max(1, window.months.count)
        var expenseCounter = 0
        var settlementCounter = 0
        func nextExpenseId() -> String { expenseCounter += 1; return "exp-" + Self.pad(expenseCounter, 7) }

        for month in window.months {
            for (index, couple) in couples.enumerated() where couple.firstMonth <= month {
                var count = Int(meanPerMonth * couple.activity * (0.7 + 0.6 * random.unit()) + 0.5)
                if index < heavy { count = heavyPerMonth }
                for _ in 0..<count {
                    var row = normalExpense(couple, month: month, fxStart: fxStart, id: nextExpenseId(), random: &random)
                    try writeWithHistory(&row, to: expenses, random: &random, summary: &summary)
                    if let kind = schedule.tick() {
                        let target = couples[random.int(couples.count)]
                        let bad = badExpense(kind, couple: target, month: month, fxStart: fxStart, id: nextExpenseId(),
                                             random: &random)
                        try write(bad, to: expenses)
                        summary.add(kind)
                    }
                }
                for agreement in couple.agreements where covers(agreement, month) && random.chance(0.5) {
                    var row = agreementExpense(agreement, couple: couple, month: month, id: nextExpenseId(), random: &random)
                    try writeWithHistory(&row, to: expenses, random: &random, summary: &summary)
                }
                if random.chance(profile.settlementChance) {
                    settlementCounter += 1
                    try writeSettlement(couple, month: month, id: "stl-" + Self.pad(settlementCounter, 6),
                                        to: settlements, random: &random)
                }
            }
        }
        for kind in schedule.drain() {
            let bad = badExpense(kind, couple: couples[random.int(couples.count)], month: window.anchorMonth,
                                 fxStart: fxStart, id: nextExpenseId(), random: &random)
            try write(bad, to: expenses)
            summary.add(kind)
        }
        try context.finish(expenses, into: &summary)
        try context.finish(settlements, into: &summary)
    }

    private func covers(_ agreement: AgreementPlan, _ month: YearMonth) -> Bool {
        agreement.startDate.yearMonth <= month && (agreement.endDate.map { month <= $0.yearMonth } ?? true)
    }

    /// Writes `row`, sometimes with an older version before or after it (an
    /// edit), or as deleted (an older live version, then the deleting one).
    private func writeWithHistory(_ row: inout ExpenseRow, to table: TableFile, random: inout RandomSource,
                                  summary: inout GenerationSummary) throws {
        let roll = random.unit()
        let share = context.profile.expenseHistoryShare
        guard roll < share else { try write(row, to: table); return }
        if row.updatedAt < row.createdAt + 60 { row.updatedAt = row.createdAt + 60 }
        var older = row
        older.updatedAt = row.createdAt + 30 + Int64(random.int(Int(row.updatedAt - row.createdAt) - 30))
        if roll < share / 4 {
            // Deleted: the live version first, then the winning version with deleted_at.
            row.updatedAt = min(row.updatedAt + Int64(3600 + random.int(5 * 86_400)), context.window.endUTC - 1)
            row.deletedAt = row.updatedAt
            try write(older, to: table)
            try write(row, to: table)
            summary.add(.expenseSuperseded)
            summary.add(.expenseDeleted)
            return
        }
        // Edited: the older version had a typo in the amount or a shorter description.
        if random.chance(0.6) {
            older.amount = row.amount < 0 ? row.amount : row.amount * 10 + Int64(random.int(9))
            if older.split.type == "exact" { older.split = SplitText(type: "equal", split: "") }
        } else {
            older.description = String(row.description.prefix(6))
        }
        let olderFirst = random.chance(0.6)
        if olderFirst { try write(older, to: table) }
        try write(row, to: table)
        if !olderFirst { try write(older, to: table) }
        summary.add(.expenseSuperseded)
        if random.chance(0.2) {
            // A third, even older version, last in the file.
            var oldest = older
            oldest.updatedAt = older.createdAt
            oldest.description = "rascunho"
            try write(oldest, to: table)
            summary.add(.expenseSuperseded)
        }
    }

    private func normalExpense(_ couple: CouplePlan, month: YearMonth, fxStart: LocalDate, id: String,
                               random: inout RandomSource) -> ExpenseRow {
        let window = context.window
        let members = couple.members
        let payer = random.int(members.count)
        let tag = Vocabulary.tags[random.weightedIndex(Vocabulary.tagWeights)]
        var date = month.clampedDay(1 + random.int(month.dayCount))
        if date > window.lastDay { date = window.lastDay }
        var currency = couple.currency
        var amount: Int64
        var description = random.pick(tag.descriptions)
        var tagName = tag.name
        let foreign = random.chance(0.03)
        if foreign {
            currency = random.pick(Self.fxCurrencies.filter { $0 != couple.currency })
            description = random.pick(Vocabulary.foreignDescriptions[currency.code]!)
            tagName = "viagem"
            amount = currency == Self.jpy ? Int64(500 + random.int(300)) * 10 : Int64(500 + random.int(15_000))
            if date < fxStart { date = fxStart }
        } else {
            let local = couple.currency == Self.brl ? 1.0 : 0.3
            amount = Int64(tag.typical * local * random.skewed() * 100)
            let shape = random.unit()
            if shape < 0.2 { amount = max(100, amount / 100 * 100) }       // whole units
            else if shape < 0.25 { amount = amount / 100 * 100 + 1 }        // 100.01: leaves a remainder
            else if shape < 0.27 { amount = 10_001 }                        // exactly 100.01
        }
        let refund = !foreign && random.chance(0.02)
        var split: SplitText
        let typeRoll = random.int(100)
        switch typeRoll {
        case 0..<35: split = SplitText(type: "equal", split: "")
        case 35..<55: split = SplitText(type: "", split: "")
        case 55..<65: split = sharesSplit(members, random: &random)
        case 65..<80: split = percentageSplit(members, random: &random)
        case 80..<90 where !refund && !foreign:
            split = exactSplit(members, amount: amount, scale: currency.minorUnits, random: &random)
        default: split = SplitText(type: "full", split: members[(payer + 1 + random.int(members.count - 1)) % members.count].id)
        }
        if refund {
            amount = -amount
            description = "Estorno: " + description
        }
        let payerCards = couple.cards.filter { $0.owner == payer }
        let created = GenerationWindow.utc(date, 7 * 3600 + random.int(16 * 3600))
        let updated = min(created + Int64(random.chance(0.7) ? random.int(600) : random.int(4 * 86_400)),
                          window.endUTC - 1)
        var row = ExpenseRow(id: id, coupleId: couple.id, paidBy: members[payer].id, amount: amount, currency: currency,
                             date: date, description: description, tag: tagName, split: split, createdAt: created,
                             updatedAt: updated)
        row.updatedStyle = random.chance(0.5) ? .saoPaulo : random.chance(0.5) ? .utcMillis : .saoPauloMicros
        if !payerCards.isEmpty && random.chance(0.5) { row.cardId = random.pick(payerCards).id }
        if random.chance(0.05) { row.tag = "" }
        return row
    }

    private func agreementExpense(_ agreement: AgreementPlan, couple: CouplePlan, month: YearMonth, id: String,
                                  random: inout RandomSource) -> ExpenseRow {
        var date = month.clampedDay(agreement.dayOfMonth).adding(days: -random.int(3))
        if date.yearMonth != month { date = month.firstDay }
        if date < agreement.startDate { date = agreement.startDate }
        if date > context.window.lastDay { date = context.window.lastDay }
        var amount = agreement.amount
        if random.chance(0.1) { amount += amount / 20 }   // a readjusted rent or price
        let created = GenerationWindow.utc(date, 9 * 3600 + random.int(10 * 3600))
        var row = ExpenseRow(id: id, coupleId: couple.id, paidBy: couple.members[agreement.payer].id, amount: amount,
                             currency: agreement.currency, date: date, description: agreement.description + " " + month.description,
                             tag: agreement.tag, split: agreement.split, createdAt: created,
                             updatedAt: min(created + Int64(random.int(3600)), context.window.endUTC - 1))
        row.agreementId = agreement.id
        return row
    }

    /// A well-formed expense of `couple`, then broken in the one way `kind` names.
    private func badExpense(_ kind: BadRowKind, couple: CouplePlan, month: YearMonth, fxStart: LocalDate, id: String,
                            random: inout RandomSource) -> ExpenseRow {
        var row = normalExpense(couple, month: max(month, couple.firstMonth), fxStart: fxStart, id: id, random: &random)
        row.currency = couple.currency
        row.amount = Int64(1000 + random.int(20_000))
        row.split = SplitText(type: "equal", split: "")
        row.description = random.pick(Vocabulary.tags[0].descriptions)
        row.tag = Vocabulary.tags[0].name
        let members = couple.members
        let scale = couple.currency.minorUnits
        switch kind {
        case .expenseCommaDecimal:
            row.amountText = String(row.amount / 100) + "," + Self.pad(Int(row.amount % 100), 2)
        case .expenseTooManyDecimals:
            row.amountText = Decimal10.format(row.amount * 10 + 5, scale: scale + 1)
        case .expenseJPYWithDecimals:
            row.currency = Self.jpy
            row.amountText = String(500 + random.int(90) * 100) + ".0"
            row.description = "Sushi em Osaka"
            if row.date < fxStart { row.date = fxStart }
        case .expenseInvalidDate:
            let short = context.window.months.filter { $0.dayCount < 31 }
            let bad = random.pick(short.isEmpty ? [YearMonth(year: month.year, month: 2)!] : short)
            row.dateText = bad.description + "-" + String(bad.dayCount + 1)
        case .expenseTimestampWithoutOffset:
            row.updatedStyle = .missingOffset
        case .expenseUnknownSplitMember:
            row.split = SplitText(type: "shares", split: members[0].id + ":1;mbr-9" + Self.pad(random.int(100_000), 6) + ":1")
        case .expensePercentagesNot100:
            var parts = members.map { $0.id + ":" + String(100 / members.count) }
            parts[0] = members[0].id + ":" + String(100 / members.count + 10)
            row.split = SplitText(type: "percentage", split: parts.joined(separator: ";"))
        case .expenseExactNotAmount:
            var exact = exactSplit(members, amount: row.amount, scale: scale, random: &random)
            let wrong = exactSplit(members, amount: row.amount - Decimal10.pow10(scale), scale: scale, random: &random)
            exact.split = wrong.split
            row.split = exact
        case .expenseUnknownCouple:
            row.coupleId = "cpl-9" + Self.pad(random.int(100_000), 5)
        case .expenseUnknownSplitType:
            row.split = SplitText(type: random.pick(["half", "ratio", "metade"]), split: "")
        case .expenseEmptyId:
            row.id = ""
        case .expenseWrongFieldCount:
            if random.chance(0.5) {
                row.description = "Pizza, refri e sobremesa"
                row.descriptionUnquoted = true
            } else {
                row.fieldLimit = 10
            }
        case .expenseForeignBeforeFx:
            row.currency = couple.currency == Self.usd ? Self.eur : Self.usd
            row.description = "Compra online antes da viagem"
            row.date = fxStart.adding(days: -(3 + random.int(20)))
            row.createdAt = GenerationWindow.utc(row.date, 12 * 3600)
            row.updatedAt = row.createdAt + 60
        case .expenseSuperseded, .expenseDeleted, .swipeOnSelf, .swipeUnknownAction, .swipeTimestampWithoutOffset,
             .swipeRepeatedId, .checkinWithoutPhoto, .checkinTooShort, .checkinNonMember, .checkinOutsideChallenge,
             .checkinDuplicateWorkout, .healthNegativeSteps, .healthRepeatedDay, .subscriptionUnknownEvent:
            preconditionFailure("\(kind) is not an expenses.csv reject")
        }
        return row
    }

    private func write(_ row: ExpenseRow, to table: TableFile) throws {
        var written = 0
        func field(_ body: () -> Void) {
            guard written < row.fieldLimit else { return }
            body()
            written += 1
        }
        field { table.csv(row.id) }
        field { table.csv(row.coupleId) }
        field { table.csv(row.paidBy) }
        field {
            if let text = row.amountText { table.csv(text) } else { table.csvDecimal(row.amount, scale: row.currency.minorUnits) }
        }
        field { table.csv(row.currency.code) }
        field { if let text = row.dateText { table.csv(text) } else { table.csvDate(row.date) } }
        field { if row.descriptionUnquoted { table.csvVerbatim(row.description) } else { table.csv(row.description) } }
        field { table.csv(row.tag) }
        field { table.csv(row.cardId) }
        field { table.csv(row.agreementId) }
        field { table.csv(row.split.type) }
        field { table.csv(row.split.split) }
        field { table.csvTimestamp(row.createdAt, micros: Int(UInt64(bitPattern: row.createdAt) % 1_000_000), style: .supabase) }
        field { table.csvTimestamp(row.updatedAt, micros: Int(UInt64(bitPattern: row.updatedAt &* 7) % 1_000_000), style: row.updatedStyle) }
        field { if let deleted = row.deletedAt { table.csvTimestamp(deleted, style: .utc) } else { table.csvEmpty() } }
        try table.endRecord()
    }

    private func writeSettlement(_ couple: CouplePlan, month: YearMonth, id: String, to table: TableFile,
                                 random: inout RandomSource) throws {
        let n = couple.members.count
        let from = random.int(n)
        let to = (from + 1 + random.int(n - 1)) % n
        var date = month.clampedDay(1 + random.int(month.dayCount))
        if date > context.window.lastDay { date = context.window.lastDay }
        let unit = Decimal10.pow10(couple.currency.minorUnits)
        let amount = random.chance(0.5) ? Int64(5 + random.int(150)) * 10 * unit : Int64(2_000 + random.int(150_000))
        table.csv(id)
        table.csv(couple.id)
        table.csv(couple.members[from].id)
        table.csv(couple.members[to].id)
        table.csvDecimal(amount, scale: couple.currency.minorUnits)
        table.csv(couple.currency.code)
        table.csvDate(date)
        table.csv(random.pick(Vocabulary.settlementNotes))
        try table.endRecord()
    }

    // MARK: Splits

    private func sharesSplit(_ members: [MemberPlan], random: inout RandomSource) -> SplitText {
        SplitText(type: "shares", split: members.map { $0.id + ":" + String(1 + random.int(3)) }.joined(separator: ";"))
    }

    private func percentageSplit(_ members: [MemberPlan], random: inout RandomSource) -> SplitText {
        let percents: [String]
        switch members.count {
        case 2:
            let pair = random.pick([("50", "50"), ("60", "40"), ("70", "30"), ("40", "60"), ("30", "70"),
                                    ("62.5", "37.5"), ("55", "45")])
            percents = [pair.0, pair.1]
        case 3: percents = random.chance(0.5) ? ["33.33", "33.33", "33.34"] : ["40", "30", "30"]
        default: percents = ["25", "25", "25", "25"]
        }
        return SplitText(type: "percentage",
                         split: zip(members, percents).map { $0.id + ":" + $1 }.joined(separator: ";"))
    }

    /// Exact amounts, in the expense currency, that add up to `amount`.
    private func exactSplit(_ members: [MemberPlan], amount: Int64, scale: Int, random: inout RandomSource) -> SplitText {
        var left = amount
        var parts: [String] = []
        for (index, member) in members.enumerated() {
            let share: Int64
            if index == members.count - 1 {
                share = left
            } else {
                share = Int64(Double(amount) / Double(members.count) * (0.7 + 0.6 * random.unit()))
            }
            left -= share
            parts.append(member.id + ":" + Decimal10.format(share, scale: scale))
        }
        return SplitText(type: "exact", split: parts.joined(separator: ";"))
    }

    // MARK: Helpers

    private func isWeekday(_ date: LocalDate) -> Bool {
        let weekday = (date.daysSinceEpoch + 4) % 7   // 0 = Sunday; 1970-01-01 was a Thursday
        return weekday != 0 && weekday != 6
    }

    private func firstWeekday(onOrAfter date: LocalDate) -> LocalDate {
        var day = date
        while !isWeekday(day) { day = day.adding(days: 1) }
        return day
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    static func coupleId(_ n: Int) -> String { "cpl-" + pad(n, 6) }
    static func memberId(_ n: Int) -> String { "mbr-" + pad(n, 6) }
}
