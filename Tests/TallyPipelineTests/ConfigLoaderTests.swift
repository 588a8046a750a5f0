import Testing
import TallyCore
@testable import TallyPipeline

@Suite("tally.yml")
struct ConfigLoaderTests {
    @Test func emptyFileGivesDefaults() throws {
        #expect(try ConfigLoader.parse("", file: "tally.yml") == TallyConfig())
    }

    @Test func everySetting() throws {
        let config = try ConfigLoader.parse("""
            timezone: Europe/Madrid
            locale: es-ES
            statements:
              trendMonths: 12
              exactTransferLimit: 16
            leaderboards:
              minimumWorkoutMinutes: 45
              rankChangeDays: 14
            kpis:
              conversionWindowDays: 14
              retentionDays: 60
              conversionTargetMin: 0.1
              conversionTargetMax: 0.3
              retentionTarget: 0.9
            products:
              - productId: fisioflow.silver.monthly
                app: fisioflow
                plan: silver
                period: monthly
                price: "97.00"
                currency: BRL
            """, file: "tally.yml")
        #expect(config.timezone == "Europe/Madrid")
        #expect(config.locale == "es-ES")
        #expect(config.statements.trendMonths == 12)
        #expect(config.statements.exactTransferLimit == 16)
        #expect(config.leaderboards.minimumWorkoutMinutes == 45)
        #expect(config.leaderboards.rankChangeDays == 14)
        #expect(config.kpis.conversionWindowDays == 14)
        #expect(config.kpis.retentionDays == 60)
        #expect(config.kpis.retentionTarget == 0.9)
        #expect(config.products == [TallyConfig.Product(productId: "fisioflow.silver.monthly", app: "fisioflow",
                                                        plan: "silver", period: "monthly", price: 9700,
                                                        currency: Currency(code: "BRL")!)])
    }

    @Test("activity.minimumDaysRanked: a week by default, any number of days a month can hold")
    func activityMinimumDays() throws {
        #expect(TallyConfig().activity.minimumDaysRanked == 7)
        #expect(try ConfigLoader.parse("activity:\n  minimumDaysRanked: 10", file: "tally.yml").activity.minimumDaysRanked == 10)
        #expect(try ConfigLoader.parse("activity:\n  minimumDaysRanked: 1", file: "tally.yml").activity.minimumDaysRanked == 1)
    }

    @Test("changes: a dataset's volume is flagged beyond half its month-before, from 100 rows; both settable")
    func changesThresholds() throws {
        #expect(TallyConfig().changes == RunChanges.Thresholds(volumeChange: 0.5, minimumRows: 100))
        let config = try ConfigLoader.parse("changes:\n  volumeChange: 1.5\n  minimumRows: 1000", file: "tally.yml")
        #expect(config.changes == RunChanges.Thresholds(volumeChange: 1.5, minimumRows: 1000))
    }

    @Test func categoryLabels() throws {
        let config = try ConfigLoader.parse("""
            statements:
              categoryLabels:
                mercado: Supermercado
                "": Outros gastos
                Saúde: Saúde e farmácia
            """, file: "tally.yml")
        #expect(config.statements.categoryLabels == ["mercado": "Supermercado", "": "Outros gastos", "Saúde": "Saúde e farmácia"])
        #expect(try ConfigLoader.parse("statements:\n  trendMonths: 6", file: "tally.yml").statements.categoryLabels.isEmpty)
    }

    @Test("errors name the file, the line and the setting", arguments: [
        ("timezon: UTC", "tally.yml line 1: unknown setting 'timezon'"),
        ("timezone: Mars/Olympus", "tally.yml line 1: timezone 'Mars/Olympus' is not an IANA time zone"),
        ("statements:\n  trendMonths: many", "tally.yml line 2: statements.trendMonths must be a whole number"),
        ("statements:\n  trendMonths: 0", "tally.yml line 2: statements.trendMonths is 0; it must be between 1 and 36"),
        ("kpis:\n  retentionTarget: 80", "tally.yml line 2: kpis.retentionTarget must be a fraction between 0 and 1"),
        ("locale: fr-FR", "tally.yml line 1: locale 'fr-FR' is not one of pt-BR, en-US, es-ES"),
        ("products:\n  - productId: x\n    app: a\n    plan: p\n    period: weekly\n    price: '1'\n    currency: BRL",
         "tally.yml line 5: period 'weekly' is not monthly or yearly"),
        ("- just\n- a list", "tally.yml line 1: the file must be a mapping of settings"),
        ("timezone: [unclosed", "tally.yml: not valid YAML"),
        ("activity:\n  minimumDaysRanked: 0", "tally.yml line 2: activity.minimumDaysRanked is 0; it must be between 1 and 31"),
        ("activity:\n  minimumDaysRanked: 32", "tally.yml line 2: activity.minimumDaysRanked is 32; it must be between 1 and 31"),
        ("activity:\n  minimumDaysRanked: a week", "tally.yml line 2: activity.minimumDaysRanked must be a whole number"),
        ("activity:\n  minimumDays: 7", "tally.yml line 2: unknown setting 'minimumDays'"),
        ("statements:\n  categoryLabels: Mercado", "tally.yml line 2: statements.categoryLabels must be a mapping of tag: label"),
        ("statements:\n  categoryLabels:\n    mercado: [a, b]", "tally.yml line 3: statements.categoryLabels.mercado must be text"),
        ("statements:\n  categoryLabels:\n    mercado: ''", "tally.yml line 3: statements.categoryLabels.mercado is blank"),
        ("statements:\n  categoryLabels:\n    pets: Bichos\n    pets: Animais", "tally.yml: not valid YAML: Parser: expected all keys to be unique"),
        ("statements:\n  categoryLabels:\n    casa: \"Casa\\ne contas\"", "tally.yml line 3: statements.categoryLabels.casa must be one line"),
        ("changes:\n  volumeChange: 0", "tally.yml line 2: changes.volumeChange must be a share above 0"),
        ("changes:\n  volumeChange: half", "tally.yml line 2: changes.volumeChange must be a share above 0"),
        ("changes:\n  minimumRows: -1", "tally.yml line 2: changes.minimumRows"),
        ("changes:\n  volume: 0.5", "tally.yml line 2: unknown setting 'volume'"),
    ])
    func errors(yaml: String, message: String) {
        do {
            _ = try ConfigLoader.parse(yaml, file: "tally.yml")
            Issue.record("expected an error for \(yaml)")
        } catch {
            #expect("\(error)".hasPrefix(message), "got: \(error)")
        }
    }
}
