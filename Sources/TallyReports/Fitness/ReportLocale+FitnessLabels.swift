extension ReportLocale {
    /// The fixed words of the leaderboard and activity reports. Translate with ``ReportLocale/fitness(_:)``.
    public enum FitnessLabel: String, Sendable, Hashable, CaseIterable {
        case indexSheet, challengeId, challenge, groupId, startDate, endDate, asOf, participants, leader
        case rank, change, name, userId, checkins, minutes, currentStreak, bestStreak, newcomer
        case leaderboardTitle, topTen, points
        case scoresSheet, summarySheet, date, steps, activeCalories, walkingDistanceKm, score
        case days, avgScore, bestScore, daysAt10kSteps, activityTitle, scoreDistribution, users, dailyScores
        case finalStandings, endedOn, status, inProgress, finalStatus, trendSheet, dailyAverage, usersWithData, noData
        case progress, user, note
    }

    /// The text of `label` in this locale.
    public func fitness(_ label: FitnessLabel) -> String {
        let words = Self.fitnessWords[label]!
        switch self {
        case .ptBR: return words.pt
        case .enUS: return words.en
        case .esES: return words.es
        }
    }

    private static let fitnessWords: [FitnessLabel: (pt: String, en: String, es: String)] = [
        .indexSheet: ("Índice", "Index", "Índice"),
        .challengeId: ("ID do desafio", "Challenge ID", "ID del desafío"),
        .challenge: ("Desafio", "Challenge", "Desafío"),
        .groupId: ("ID do grupo", "Group ID", "ID del grupo"),
        .startDate: ("Início", "Start", "Inicio"),
        .endDate: ("Fim", "End", "Fin"),
        .asOf: ("Posição em", "As of", "A fecha de"),
        .participants: ("Participantes", "Participants", "Participantes"),
        .leader: ("Líder", "Leader", "Líder"),
        .rank: ("Posição", "Rank", "Puesto"),
        .change: ("Variação", "Change", "Cambio"),
        .name: ("Nome", "Name", "Nombre"),
        .userId: ("ID do usuário", "User ID", "ID del usuario"),
        .checkins: ("Check-ins", "Check-ins", "Check-ins"),
        .minutes: ("Minutos", "Minutes", "Minutos"),
        .currentStreak: ("Sequência atual", "Current streak", "Racha actual"),
        .bestStreak: ("Melhor sequência", "Best streak", "Mejor racha"),
        .newcomer: ("novo", "new", "nuevo"),
        .leaderboardTitle: ("Classificação", "Leaderboard", "Clasificación"),
        .topTen: ("10 primeiros", "Top ten", "Los 10 primeros"),
        .points: ("Pontos", "Points", "Puntos"),
        .scoresSheet: ("Pontuações", "Scores", "Puntuaciones"),
        .summarySheet: ("Resumo", "Summary", "Resumen"),
        .date: ("Data", "Date", "Fecha"),
        .steps: ("Passos", "Steps", "Pasos"),
        .activeCalories: ("Calorias ativas", "Active calories", "Calorías activas"),
        .walkingDistanceKm: ("Distância (km)", "Distance (km)", "Distancia (km)"),
        .score: ("Pontuação", "Score", "Puntuación"),
        .days: ("Dias", "Days", "Días"),
        .avgScore: ("Pontuação média", "Average score", "Puntuación media"),
        .bestScore: ("Melhor pontuação", "Best score", "Mejor puntuación"),
        .daysAt10kSteps: ("Dias com 10 mil passos", "Days at 10k steps", "Días con 10 mil pasos"),
        .activityTitle: ("Atividade diária", "Daily activity", "Actividad diaria"),
        .scoreDistribution: ("Distribuição das pontuações médias", "Distribution of average scores", "Distribución de las puntuaciones medias"),
        .users: ("Usuários", "Users", "Usuarios"),
        .dailyScores: ("Pontuação diária", "Daily score", "Puntuación diaria"),
        .finalStandings: ("Classificação final", "Final standings", "Clasificación final"),
        .endedOn: ("encerrado em", "ended", "finalizado el"),
        .status: ("Situação", "Status", "Estado"),
        .inProgress: ("Em andamento", "In progress", "En curso"),
        .finalStatus: ("Final", "Final", "Final"),
        .trendSheet: ("Tendência", "Trend", "Tendencia"),
        .dailyAverage: ("Média diária", "Daily average", "Media diaria"),
        .usersWithData: ("Usuários com dados", "Users with data", "Usuarios con datos"),
        .noData: ("sem dados", "no data", "sin datos"),
        .progress: ("Andamento", "Progress", "Progreso"),
        .user: ("Usuário", "User", "Usuario"),
        .note: ("Observação", "Note", "Observación"),
    ]
}
