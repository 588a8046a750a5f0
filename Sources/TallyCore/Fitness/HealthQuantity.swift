/// The Apple Health quantities tally reads, and their units.
public enum HealthQuantity: String, Hashable, Sendable, CaseIterable {
    /// `HKQuantityTypeIdentifierStepCount`, unit `count`.
    case steps = "HKQuantityTypeIdentifierStepCount"
    /// `HKQuantityTypeIdentifierActiveEnergyBurned`, to kcal.
    case activeEnergy = "HKQuantityTypeIdentifierActiveEnergyBurned"
    /// `HKQuantityTypeIdentifierDistanceWalkingRunning`, to km.
    case walkingDistance = "HKQuantityTypeIdentifierDistanceWalkingRunning"

    /// The factor that turns a value in `unit` into tally's unit (count,
    /// kcal, km), or nil when the unit is not one of this quantity's.
    /// `Cal` (a food Calorie) is a kcal; `kJ` is 1/4.184 kcal; a mile is 1.609344 km.
    public func factor(unit: String) -> Double? {
        switch (self, unit) {
        case (.steps, "count"): return 1
        case (.activeEnergy, "kcal"), (.activeEnergy, "Cal"): return 1
        case (.activeEnergy, "kJ"): return 1 / 4.184
        case (.activeEnergy, "cal"): return 0.001
        case (.activeEnergy, "J"): return 1 / 4184
        case (.walkingDistance, "km"): return 1
        case (.walkingDistance, "m"): return 0.001
        case (.walkingDistance, "mi"): return 1.609344
        case (.walkingDistance, "ft"): return 0.0003048
        case (.walkingDistance, "yd"): return 0.0009144
        default: return nil
        }
    }

    /// The units ``factor(unit:)`` accepts, for messages.
    public var units: [String] {
        switch self {
        case .steps: return ["count"]
        case .activeEnergy: return ["kcal", "Cal", "kJ", "cal", "J"]
        case .walkingDistance: return ["km", "m", "mi", "ft", "yd"]
        }
    }
}
