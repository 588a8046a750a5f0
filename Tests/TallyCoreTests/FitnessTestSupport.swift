@testable import TallyCore

let saoPaulo = ReportTimeZone(identifier: "America/Sao_Paulo")!

/// A counted check-in on local day `date` (noon São Paulo).
func counted(_ user: String, _ date: String, minutes: Int = 30, name: String? = nil) -> CountedCheckin {
    CountedCheckin(userId: user, displayName: name ?? user, minutes: minutes, createdAt: ts("\(date)T12:00:00-03:00"),
                   day: day(date))
}

let challengeC1 = Challenge(id: "c1", groupId: "g1", name: "Outubro", startDate: day("2026-10-01"), endDate: day("2026-10-31"))
