import TallyCore

/// The sentences that explain a leaderboard and the activity scores to the
/// people on them, built from the rules (``PointsRule``,
/// ``ChallengeProgress``, ``ActivityScore``) and the configuration, in the
/// report's language.
///
/// ```swift
/// ReportLocale.ptBR.pointsDefinition(PointsRule(minimumWorkoutMinutes: 30))
/// // "Pontos: 1 ponto por check-in contado (no grupo do desafio, com foto, treino de pelo menos 30 min, …)."
/// ReportLocale.enUS.progress(.running(day: 12, of: 45, daysLeft: 33))   // "Day 12 of 45 · 33 days left"
/// ```
extension ReportLocale {
    /// What a point is: one per counted check-in, and the conditions that make a check-in count.
    public func pointsDefinition(_ rule: PointsRule) -> String {
        let conditions = rule.conditions.map(words).joined(separator: ", ")
        let one = PointsRule.pointsPerCheckin
        switch self {
        case .ptBR: return "\(fitness(.points)): \(one) ponto por check-in contado (\(conditions))."
        case .enUS: return "\(fitness(.points)): \(one) point per counted check-in (\(conditions))."
        case .esES: return "\(fitness(.points)): \(one) punto por check-in contado (\(conditions))."
        }
    }

    private func words(_ condition: PointsRule.Condition) -> String {
        switch (condition, self) {
        case (.challengeGroup, .ptBR): return "no grupo do desafio"
        case (.challengeGroup, .enUS): return "in the challenge's group"
        case (.challengeGroup, .esES): return "en el grupo del desafío"
        case (.photo, .ptBR): return "com foto"
        case (.photo, .enUS): return "with a photo"
        case (.photo, .esES): return "con foto"
        case (.minimumMinutes(let m), .ptBR): return "treino de pelo menos \(m) min"
        case (.minimumMinutes(let m), .enUS): return "a workout of at least \(m) min"
        case (.minimumMinutes(let m), .esES): return "entrenamiento de al menos \(m) min"
        case (.member, .ptBR): return "de quem era membro do grupo"
        case (.member, .enUS): return "by a member of the group at the time"
        case (.member, .esES): return "de quien era miembro del grupo"
        case (.withinDates, .ptBR): return "dentro das datas do desafio"
        case (.withinDates, .enUS): return "within the challenge's dates"
        case (.withinDates, .esES): return "dentro de las fechas del desafío"
        case (.oncePerWorkout, .ptBR): return "cada treino conta uma vez"
        case (.oncePerWorkout, .enUS): return "each workout counts once"
        case (.oncePerWorkout, .esES): return "cada entrenamiento cuenta una vez"
        }
    }

    /// How a board is ordered and how ties are ranked (``LeaderboardBuilder/rank(_:)``).
    public var tieRule: String {
        switch self {
        case .ptBR:
            return "Ordem: pontos, depois minutos. Empate em pontos e minutos: mesma posição, e a seguinte pula (1,\u{00A0}2,\u{00A0}2,\u{00A0}4); empatados listados pelo ID do usuário."
        case .enUS:
            return "Order: points, then minutes. Tied on both: the same rank, and the next rank skips (1,\u{00A0}2,\u{00A0}2,\u{00A0}4); tied users listed by user ID."
        case .esES:
            return "Orden: puntos, después minutos. Empate en puntos y minutos: el mismo puesto, y el siguiente salta (1,\u{00A0}2,\u{00A0}2,\u{00A0}4); empatados listados por ID del usuario."
        }
    }

    /// Where a challenge stands: "Dia 12 de 45 · faltam 33 dias", "Dia 45 de 45 · último dia",
    /// "Desafio de 55 dias, encerrado em 12/06/2026".
    public func progress(_ progress: ChallengeProgress) -> String {
        switch (progress, self) {
        case (.upcoming(let n), .ptBR): return n == 1 ? "Começa amanhã" : "Começa em \(n) dias"
        case (.upcoming(let n), .enUS): return n == 1 ? "Starts tomorrow" : "Starts in \(n) days"
        case (.upcoming(let n), .esES): return n == 1 ? "Empieza mañana" : "Empieza en \(n) días"
        case (.running(let day, let of, let left), .ptBR):
            return "Dia \(day) de \(of) · " + (left == 0 ? "último dia" : left == 1 ? "falta 1 dia" : "faltam \(left) dias")
        case (.running(let day, let of, let left), .enUS):
            return "Day \(day) of \(of) · " + (left == 0 ? "last day" : left == 1 ? "1 day left" : "\(left) days left")
        case (.running(let day, let of, let left), .esES):
            return "Día \(day) de \(of) · " + (left == 0 ? "último día" : left == 1 ? "queda 1 día" : "quedan \(left) días")
        case (.finished(let end, let days), .ptBR):
            return "Desafio de \(days) \(days == 1 ? "dia" : "dias"), encerrado em \(formatDate(end))"
        case (.finished(let end, let days), .enUS):
            return "A \(days)-day challenge, ended \(formatDate(end))"
        case (.finished(let end, let days), .esES):
            return "Desafío de \(days) \(days == 1 ? "día" : "días"), finalizado el \(formatDate(end))"
        }
    }

    /// The activity score's formula, from ``ActivityScore``'s goals and weights, and what the average is.
    public var activityScoreFormula: String {
        func n(_ value: Double) -> String { formatInteger(Int64(value)) }
        let (steps, kcal, km) = (n(ActivityScore.stepsGoal), n(ActivityScore.caloriesGoal), n(ActivityScore.kmGoal))
        let (ws, wc, wk) = (n(ActivityScore.stepsWeight), n(ActivityScore.caloriesWeight), n(ActivityScore.kmWeight))
        switch self {
        case .ptBR:
            return "Pontuação do dia (0–100) = \(ws) × mín(passos ÷ \(steps); 1) + \(wc) × mín(calorias ativas ÷ \(kcal) kcal; 1) + \(wk) × mín(distância ÷ \(km) km; 1). "
                + "Pontuação média: a média dos dias com dados (um dia sem dados não conta como 0)."
        case .enUS:
            return "Day score (0–100) = \(ws) × min(steps ÷ \(steps), 1) + \(wc) × min(active calories ÷ \(kcal) kcal, 1) + \(wk) × min(distance ÷ \(km) km, 1). "
                + "Average score: the mean over the days with data (a day without data is not a 0)."
        case .esES:
            return "Puntuación del día (0–100) = \(ws) × mín(pasos ÷ \(steps); 1) + \(wc) × mín(calorías activas ÷ \(kcal) kcal; 1) + \(wk) × mín(distancia ÷ \(km) km; 1). "
                + "Puntuación media: la media de los días con datos (un día sin datos no cuenta como 0)."
        }
    }

    /// How users are ranked by activity, with the minimum of days of data.
    public func activityRankingRule(minimumDays: Int) -> String {
        switch self {
        case .ptBR:
            return "Classificação pela pontuação média com uma casa decimal; médias iguais dividem a posição (1,\u{00A0}2,\u{00A0}2,\u{00A0}4). É preciso ter pelo menos \(daysOfData(minimumDays)) no mês."
        case .enUS:
            return "Ranked by average score to one decimal; equal averages share a rank (1,\u{00A0}2,\u{00A0}2,\u{00A0}4). A user needs at least \(daysOfData(minimumDays)) in the month."
        case .esES:
            return "Clasificación por la puntuación media con un decimal; medias iguales comparten puesto (1,\u{00A0}2,\u{00A0}2,\u{00A0}4). Hace falta tener al menos \(daysOfData(minimumDays)) en el mes."
        }
    }

    /// Why a user is not ranked: "não classificado: 3 dias de dados, o mínimo é 7".
    public func notRanked(days: Int, minimum: Int) -> String {
        switch self {
        case .ptBR: return "não classificado: \(daysOfData(days)), o mínimo é \(minimum)"
        case .enUS: return "not ranked: \(daysOfData(days)), the minimum is \(minimum)"
        case .esES: return "sin clasificar: \(daysOfData(days)), el mínimo es \(minimum)"
        }
    }

    /// The heading of the users listed apart: "Não classificados (menos de 7 dias de dados)".
    public func notRankedHeading(minimum: Int) -> String {
        switch self {
        case .ptBR: return "Não classificados (menos de \(daysOfData(minimum)))"
        case .enUS: return "Not ranked (fewer than \(daysOfData(minimum)))"
        case .esES: return "Sin clasificar (menos de \(daysOfData(minimum)))"
        }
    }

    /// "3 dias de dados", "1 day of data".
    func daysOfData(_ days: Int) -> String {
        switch self {
        case .ptBR: return days == 1 ? "1 dia de dados" : "\(days) dias de dados"
        case .enUS: return days == 1 ? "1 day of data" : "\(days) days of data"
        case .esES: return days == 1 ? "1 día de datos" : "\(days) días de datos"
        }
    }
}
