import TallyCore

/// Writes one Apple Health export, `health/<userId>/export.xml`, in the Health
/// app's own layout: XML declaration, inline DTD, `<HealthData locale=…>`,
/// `<ExportDate>`, `<Me>`, then records grouped by type, workouts and
/// activity summaries.
///
/// The walks are recorded twice, by the iPhone and by the Apple Watch, with
/// slightly different counts (a reader must take the larger per-source daily
/// sum, not the total). Units vary by persona (`kcal`, `Cal`, `kJ`; `km`,
/// `mi`, `m`), some walks end near local midnight, one persona travels (UTC+1
/// offsets), and HeartRate, Workout and ActivitySummary entries are there to be ignored.
struct AppleHealthExportWriter {
    let context: GenerationContext
    let persona: Persona
    let userId: String
    let exportIndex: Int

    /// Who the export belongs to and how their devices spell units.
    struct Persona {
        let locale: String
        let phone: String
        let watch: String
        let thirdParty: String
        let energyUnit: String
        /// kcal per unit of `energyUnit`.
        let energyPerKcal: Double
        let distanceUnit: String
        /// Units of `distanceUnit` per km.
        let distancePerKm: Double
        let birthDate: String
        let sex: String
        /// Whether some walks happen abroad, written with a +0100 offset.
        let travels: Bool
        /// Whether the export comes as `export.zip` (localised inner name, macOS extras).
        var zipped = false

        static let all = [
            Persona(locale: "pt_BR", phone: "iPhone de Ana", watch: "Apple Watch de Ana", thirdParty: "Strava",
                    energyUnit: "kcal", energyPerKcal: 1, distanceUnit: "km", distancePerKm: 1, birthDate: "1993-04-12",
                    sex: "HKBiologicalSexFemale", travels: false, zipped: true),
            Persona(locale: "en_US", phone: "Bruno’s iPhone", watch: "Bruno’s Apple Watch", thirdParty: "Nike Run Club",
                    energyUnit: "Cal", energyPerKcal: 1, distanceUnit: "mi", distancePerKm: 0.621371192,
                    birthDate: "1990-11-02", sex: "HKBiologicalSexMale", travels: true),
            Persona(locale: "en_AU", phone: "Chloe's iPhone", watch: "Chloe's Apple Watch", thirdParty: "Strava",
                    energyUnit: "kJ", energyPerKcal: 4.184, distanceUnit: "km", distancePerKm: 1, birthDate: "1988-07-23",
                    sex: "HKBiologicalSexFemale", travels: false),
        ]
    }

    /// A macOS `.DS_Store` stub and AppleDouble resource fork: bytes a reader must skip.
    static let dsStore: [UInt8] = [0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31] + [UInt8](repeating: 0, count: 24)
    static let resourceFork: [UInt8] = [0, 5, 0x16, 7, 0, 2, 0, 0] + Array("Mac OS X        ".utf8) + [0, 0]

    /// One walk as both devices saw it.
    private struct Walk {
        let start: Int64
        let minutes: Int
        let phoneSteps: Int
        let watchSteps: Int?
        let km: Double
        let kcal: Double
        let abroad: Bool
    }

    func write(random: inout RandomSource, into summary: inout GenerationSummary) throws {
        let window = context.window
        let days = min(context.profile.appleHealthDays, window.dayCount)
        var walks: [Walk] = []
        for offset in (window.dayCount - days)..<window.dayCount {
            let day = window.day(offset)
            let abroad = persona.travels && offset % 7 == 3
            for k in 0..<(2 + random.int(4)) {
                // Mostly daytime; the last walk of some days ends near local midnight.
                let late = k == 0 && random.chance(0.25)
                let second = late ? 23 * 3600 + 30 * 60 + random.int(25 * 60) : 6 * 3600 + random.int(15 * 3600)
                let minutes = late ? 5 + random.int(20) : 8 + random.int(35)
                let steps = minutes * (90 + random.int(40))
                let watch: Int? = random.chance(0.8) ? Int(Double(steps) * (0.92 + 0.16 * random.unit())) : nil
                walks.append(Walk(start: GenerationWindow.utc(day, second), minutes: minutes, phoneSteps: steps,
                                  watchSteps: watch, km: Double(steps) * 0.00074, kcal: Double(steps) * 0.045, abroad: abroad))
            }
        }
        walks.sort { $0.start < $1.start }

        let table: TableFile
        if persona.zipped {
            // As shared from a Portuguese iPhone and re-zipped on a Mac: a localised XML name,
            // a resource fork under __MACOSX/ and a .DS_Store beside it.
            table = try context.openZip("health/" + userId + "/export.zip", entry: "apple_health_export/exportar.xml",
                                        extras: [("apple_health_export/.DS_Store", Self.dsStore),
                                                 ("__MACOSX/apple_health_export/._exportar.xml", Self.resourceFork)],
                                        format: "Apple Health export.zip (\(persona.locale), exportar.xml, __MACOSX/)")
        } else {
            table = try context.open("health/" + userId + "/export.xml",
                                     format: "Apple Health export.xml (\(persona.locale), inline DTD)")
        }
        header(table)
        // Step counts: phone and watch, the same walks.
        for walk in walks {
            try record(table, type: "HKQuantityTypeIdentifierStepCount", source: .phone, unit: "count", walk: walk,
                       value: { $0.int(Int64(walk.phoneSteps)) })
            if let watch = walk.watchSteps {
                try record(table, type: "HKQuantityTypeIdentifierStepCount", source: .watch, unit: "count", walk: walk,
                           value: { $0.int(Int64(watch)) })
            }
        }
        // Distance: in the persona's unit; a running app writes meters for some walks.
        for walk in walks {
            try record(table, type: "HKQuantityTypeIdentifierDistanceWalkingRunning", source: .phone, unit: persona.distanceUnit,
                       walk: walk, value: { $0.decimal(Int64(walk.km * self.persona.distancePerKm * 100_000), scale: 5) })
            if let watch = walk.watchSteps {
                let km = walk.km * Double(watch) / Double(walk.phoneSteps)
                if walk.minutes > 30 {
                    try record(table, type: "HKQuantityTypeIdentifierDistanceWalkingRunning", source: .thirdParty, unit: "m",
                               walk: walk, value: { $0.decimal(Int64(km * 1_000_000), scale: 3) })
                } else {
                    try record(table, type: "HKQuantityTypeIdentifierDistanceWalkingRunning", source: .watch,
                               unit: persona.distanceUnit, walk: walk,
                               value: { $0.decimal(Int64(km * self.persona.distancePerKm * 100_000), scale: 5) })
                }
            }
        }
        // Active energy: the watch, in the persona's unit; the phone estimates some in kcal too.
        for walk in walks {
            if walk.watchSteps != nil {
                try record(table, type: "HKQuantityTypeIdentifierActiveEnergyBurned", source: .watch, unit: persona.energyUnit,
                           walk: walk, value: { $0.decimal(Int64(walk.kcal * self.persona.energyPerKcal * 1000), scale: 3) })
            } else {
                try record(table, type: "HKQuantityTypeIdentifierActiveEnergyBurned", source: .phone, unit: "kcal",
                           walk: walk, value: { $0.decimal(Int64(walk.kcal * 0.9 * 1000), scale: 3) })
            }
        }
        // Unrelated records a reader must skip.
        for walk in walks where walk.watchSteps != nil {
            try record(table, type: "HKQuantityTypeIdentifierHeartRate", source: .watch, unit: "count/min", walk: walk,
                       value: { $0.int(Int64(88 + random.int(40))) },
                       metadata: ("HKMetadataKeyHeartRateMotionContext", "2"))
            try record(table, type: "HKQuantityTypeIdentifierAppleExerciseTime", source: .watch, unit: "min", walk: walk,
                       value: { $0.int(Int64(walk.minutes)) })
        }
        workouts(table, walks: walks)
        activitySummaries(table, days: days, random: &random)
        table.buffer.append("</HealthData>\n")
        try context.finish(table, into: &summary)
    }

    private enum Source { case phone, watch, thirdParty }

    private func header(_ table: TableFile) {
        let b = { (text: StaticString) in table.buffer.append(text) }
        b("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        b("<!DOCTYPE HealthData [\n<!-- HealthKit Export Version: 11 -->\n")
        b("<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>\n")
        b("<!ATTLIST HealthData\n  locale CDATA #REQUIRED\n>\n")
        b("<!ELEMENT ExportDate EMPTY>\n<!ATTLIST ExportDate\n  value CDATA #REQUIRED\n>\n")
        b("<!ELEMENT Me EMPTY>\n<!ATTLIST Me\n")
        b("  HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED\n")
        b("  HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED\n")
        b("  HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED\n")
        b("  HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED\n")
        b("  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #IMPLIED\n>\n")
        b("<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>\n<!ATTLIST Record\n")
        b("  type          CDATA #REQUIRED\n  unit          CDATA #IMPLIED\n  value         CDATA #IMPLIED\n")
        b("  sourceName    CDATA #REQUIRED\n  sourceVersion CDATA #IMPLIED\n  device        CDATA #IMPLIED\n")
        b("  creationDate  CDATA #IMPLIED\n  startDate     CDATA #REQUIRED\n  endDate       CDATA #REQUIRED\n>\n")
        b("<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>\n<!ATTLIST Workout\n")
        b("  workoutActivityType   CDATA #REQUIRED\n  duration              CDATA #IMPLIED\n")
        b("  durationUnit          CDATA #IMPLIED\n  totalDistance         CDATA #IMPLIED\n")
        b("  totalDistanceUnit     CDATA #IMPLIED\n  totalEnergyBurned     CDATA #IMPLIED\n")
        b("  totalEnergyBurnedUnit CDATA #IMPLIED\n  sourceName            CDATA #REQUIRED\n")
        b("  sourceVersion         CDATA #IMPLIED\n  device                CDATA #IMPLIED\n")
        b("  creationDate          CDATA #IMPLIED\n  startDate             CDATA #REQUIRED\n")
        b("  endDate               CDATA #REQUIRED\n>\n")
        b("<!ELEMENT ActivitySummary EMPTY>\n<!ATTLIST ActivitySummary\n")
        b("  dateComponents           CDATA #IMPLIED\n  activeEnergyBurned       CDATA #IMPLIED\n")
        b("  activeEnergyBurnedGoal   CDATA #IMPLIED\n  activeEnergyBurnedUnit   CDATA #IMPLIED\n")
        b("  appleMoveTime            CDATA #IMPLIED\n  appleMoveTimeGoal        CDATA #IMPLIED\n")
        b("  appleExerciseTime        CDATA #IMPLIED\n  appleExerciseTimeGoal    CDATA #IMPLIED\n")
        b("  appleStandHours          CDATA #IMPLIED\n  appleStandHoursGoal      CDATA #IMPLIED\n>\n")
        b("<!ELEMENT MetadataEntry EMPTY>\n<!ATTLIST MetadataEntry\n  key   CDATA #REQUIRED\n  value CDATA #REQUIRED\n>\n")
        b("]>\n")
        table.buffer.append("<HealthData locale=\"")
        table.buffer.append(persona.locale)
        table.buffer.append("\">\n <ExportDate value=\"")
        table.buffer.timestamp(context.window.endUTC - 2 * 3600 + Int64(exportIndex * 97), style: .appleHealth)
        table.buffer.append("\"/>\n <Me HKCharacteristicTypeIdentifierDateOfBirth=\"")
        table.buffer.append(persona.birthDate)
        table.buffer.append("\" HKCharacteristicTypeIdentifierBiologicalSex=\"")
        table.buffer.append(persona.sex)
        b("\" HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeNotSet\" HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n")
    }

    private func sourceAttributes(_ table: TableFile, _ source: Source) {
        let buffer = { (text: String) in table.buffer.xmlAttribute(text) }
        table.buffer.append(" sourceName=\"")
        switch source {
        case .phone:
            buffer(persona.phone)
            table.buffer.append("\" sourceVersion=\"17.6.1\" device=\"")
            buffer("<<HKDevice: 0x28" + String(exportIndex) + "4f1c0a0>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.6.1>")
        case .watch:
            buffer(persona.watch)
            table.buffer.append("\" sourceVersion=\"10.6\" device=\"")
            buffer("<<HKDevice: 0x30" + String(exportIndex) + "2772a0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.6>")
        case .thirdParty:
            buffer(persona.thirdParty)
            table.buffer.append("\" sourceVersion=\"394")
        }
        table.buffer.append("\"")
    }

    /// One `<Record …/>` line (or with a metadata child), counted as a record.
    private func record(_ table: TableFile, type: StaticString, source: Source, unit: String, walk: Walk,
                        value: (inout ByteBuffer) -> Void, metadata: (String, String)? = nil) throws {
        let style: TimestampStyle = .appleHealth
        let end = walk.start + Int64(walk.minutes * 60)
        table.buffer.append(" <Record type=\"")
        table.buffer.append(type)
        table.buffer.append("\"")
        sourceAttributes(table, source)
        table.buffer.append(" unit=\"")
        table.buffer.append(unit)
        table.buffer.append("\" creationDate=\"")
        appleDate(table, end + 40 + Int64(source == .watch ? 17 : 0), abroad: walk.abroad, style: style)
        table.buffer.append("\" startDate=\"")
        appleDate(table, walk.start, abroad: walk.abroad, style: style)
        table.buffer.append("\" endDate=\"")
        appleDate(table, end, abroad: walk.abroad, style: style)
        table.buffer.append("\" value=\"")
        value(&table.buffer)
        if let metadata {
            table.buffer.append("\">\n  <MetadataEntry key=\"")
            table.buffer.append(metadata.0)
            table.buffer.append("\" value=\"")
            table.buffer.append(metadata.1)
            table.buffer.append("\"/>\n </Record")
        } else {
            table.buffer.append("\"/")
        }
        table.buffer.append(">")
        try table.endRecord()
    }

    /// Apple's `yyyy-MM-dd HH:mm:ss ±zzzz`, in São Paulo time or, abroad, UTC+1.
    private func appleDate(_ table: TableFile, _ utc: Int64, abroad: Bool, style: TimestampStyle) {
        guard abroad else { table.buffer.timestamp(utc, style: style); return }
        // +0100 local = UTC + 1 h; written through the UTC formatter shifted by an hour.
        var shifted = ByteBuffer(capacity: 32)
        shifted.timestamp(utc + 3600, style: .utc)
        var text = shifted.bytes
        text[10] = UInt8(ascii: " ")
        text.removeLast()   // the Z
        table.buffer.append(text)
        table.buffer.append(" +0100")
    }

    private func workouts(_ table: TableFile, walks: [Walk]) {
        for (index, walk) in walks.enumerated() where walk.minutes > 30 && index % 2 == 0 {
            let end = walk.start + Int64(walk.minutes * 60)
            table.buffer.append(" <Workout workoutActivityType=\"HKWorkoutActivityTypeWalking\" duration=\"")
            table.buffer.int(Int64(walk.minutes))
            table.buffer.append("\" durationUnit=\"min\" totalDistance=\"")
            table.buffer.decimal(Int64(walk.km * persona.distancePerKm * 1000), scale: 3)
            table.buffer.append("\" totalDistanceUnit=\"")
            table.buffer.append(persona.distanceUnit)
            table.buffer.append("\" totalEnergyBurned=\"")
            table.buffer.decimal(Int64(walk.kcal * persona.energyPerKcal * 10), scale: 1)
            table.buffer.append("\" totalEnergyBurnedUnit=\"")
            table.buffer.append(persona.energyUnit)
            table.buffer.append("\"")
            sourceAttributes(table, .watch)
            table.buffer.append(" creationDate=\"")
            appleDate(table, end + 60, abroad: walk.abroad, style: .appleHealth)
            table.buffer.append("\" startDate=\"")
            appleDate(table, walk.start, abroad: walk.abroad, style: .appleHealth)
            table.buffer.append("\" endDate=\"")
            appleDate(table, end, abroad: walk.abroad, style: .appleHealth)
            table.buffer.append("\">\n  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n")
            table.buffer.append("  <MetadataEntry key=\"HKTimeZone\" value=\"America/Sao_Paulo\"/>\n </Workout>\n")
        }
    }

    private func activitySummaries(_ table: TableFile, days: Int, random: inout RandomSource) {
        let window = context.window
        for offset in (window.dayCount - days)..<window.dayCount {
            table.buffer.append(" <ActivitySummary dateComponents=\"")
            table.buffer.date(window.day(offset))
            table.buffer.append("\" activeEnergyBurned=\"")
            table.buffer.decimal(Int64(150_000 + random.int(500_000)), scale: 3)
            table.buffer.append("\" activeEnergyBurnedGoal=\"500\" activeEnergyBurnedUnit=\"")
            table.buffer.append(persona.energyUnit)
            table.buffer.append("\" appleMoveTime=\"0\" appleMoveTimeGoal=\"0\" appleExerciseTime=\"")
            table.buffer.int(Int64(10 + random.int(60)))
            table.buffer.append("\" appleExerciseTimeGoal=\"30\" appleStandHours=\"")
            table.buffer.int(Int64(6 + random.int(8)))
            table.buffer.append("\" appleStandHoursGoal=\"12\"/>\n")
        }
    }
}
