/// The headline figures each report family gives a run (``RunFigure``):
/// the numbers of its terminal lines, named so that the next run can
/// compare them. A figure that counts a dataset's rows dated in the month
/// names the dataset, and its volume is watched (``RunChanges``).
public enum FamilyFigures {
    /// Couples, members, the month's expenses (the expenses dataset's volume),
    /// suggested transfers and the spending per currency.
    public static func statements(_ totals: StatementTotals, period: YearMonth) -> [RunFigure] {
        var figures: [RunFigure] = [
            .count("statements", "couples", period, totals.couples),
            .count("statements", "members", period, totals.members),
            .count("statements", "expenses", period, totals.expenses, dataset: "expenses"),
            .count("statements", "suggested transfers", period, totals.transfers),
        ]
        for currency in totals.currencies {
            figures.append(.money("statements", "spent \(currency.code)", period, totals.spending(in: currency), currency))
        }
        return figures
    }

    /// Challenges with a board, boards that became final in the month, users
    /// ranked and check-ins counted, as of `asOf`.
    public static func leaderboards(_ report: LeaderboardsFamily.Report, finished: Int, asOf: LocalDate) -> [RunFigure] {
        let month = asOf.yearMonth
        return [
            .count("leaderboards", "challenges", month, report.boards),
            .count("leaderboards", "boards finished", month, finished),
            .count("leaderboards", "users ranked", month, report.users),
            .count("leaderboards", "check-ins counted", month, report.counted),
        ]
    }

    /// Whether `board` became final in the month of its as-of day: its
    /// challenge ended that month, before the as-of day.
    public static func finishedInMonth(_ board: Leaderboard) -> Bool {
        board.isFinal && board.challenge.endDate.yearMonth == board.asOf.yearMonth
    }

    /// Users, user-days (the health dataset's volume) and the mean of the users' average scores.
    public static func activity(_ report: ActivityFamily.Report, period: YearMonth) -> [RunFigure] {
        var figures: [RunFigure] = [
            .count("activity", "users", period, report.users.count),
            .count("activity", "user-days", period, report.userDays, dataset: "health"),
        ]
        if let mean = report.meanOfAverages {
            figures.append(RunFigure(family: "activity", name: "average score", month: period.description,
                                     value: ActivityScore.format(mean, decimals: 1)))
        }
        return figures
    }

    /// Every KPI headline (``KPIHeadline``) of `report`, with last month's
    /// value as a figure of that month where the headline gives one. Swipes
    /// are the swipes dataset's volume. A figure per app and currency names
    /// its currency (`Paid subscribers fisioflow BRL`); a cohort's rate is a
    /// figure of the cohort's month (`Free→paid conversion LovU`, 2026-08),
    /// without last month's.
    public static func kpis(_ report: KPIReport) -> [RunFigure] {
        let period = report.period
        var figures: [RunFigure] = []
        for headline in KPIHeadline.of(report) {
            let cohort = headline.cohort
            let name = "\(headline.metric) \(headline.app)" + (headline.currency.map { " \($0.code)" } ?? "")
            let dataset = headline.metric == "Swipes" ? "swipes" : nil
            func figure(_ value: KPIHeadline.Value, _ month: YearMonth) -> RunFigure? {
                switch value {
                case .count(let n): return .count("kpis", name, month, n, dataset: dataset)
                case .money(let minor, let currency): return .money("kpis", name, month, minor, currency)
                case .rate(let rate): return .rate("kpis", name, month, rate)
                }
            }
            if let now = figure(headline.current, cohort ?? period) { figures.append(now) }
            if cohort == nil, let previous = headline.previous, let then = figure(previous, period.adding(months: -1)) {
                figures.append(then)
            }
        }
        return figures
    }
}
