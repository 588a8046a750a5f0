import Foundation
import TallyReports
import TallyCore
import Yams

/// Reads `tally.yml` into a ``TallyCore/TallyConfig``.
///
/// Every setting is optional; unknown settings and wrong types are errors
/// that name the file, the line and the setting, so a typo never silently
/// falls back to a default.
public enum ConfigLoader {
    /// Loads `url`; nil `url` gives the defaults.
    public static func load(_ url: URL?) throws -> TallyConfig {
        guard let url else { return TallyConfig() }
        return try parse(read(url), file: url.lastPathComponent)
    }

    /// The text of the configuration file at `url`, for a plan to carry to
    /// processes that cannot read the file (``parse(_:file:)`` reads it there).
    public static func read(_ url: URL) throws -> String {
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ConfigError("cannot read config \(url.path): \(FileSystemWords.describe(error).map { $0.hasPrefix(url.path + ": ") ? String($0.dropFirst(url.path.count + 2)) : $0 } ?? "\(error)")")
        }
    }

    /// Parses YAML text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws -> TallyConfig {
        try checkShape(text, file: file)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ConfigError("\(file): not valid YAML: \(error)")
        }
        var config = TallyConfig()
        guard let root else { return config }
        let reader = NodeReader(file: file)
        try reader.mapping(root, path: "", keys: ["timezone", "locale", "statements", "leaderboards", "activity", "kpis", "csv", "changes", "products"]) { key, node in
            switch key {
            case "timezone":
                config.timezone = try reader.string(node, path: key)
                guard ReportTimeZone(identifier: config.timezone) != nil else {
                    throw reader.error(node, "timezone '\(config.timezone)' is not an IANA time zone like America/Sao_Paulo")
                }
            case "locale":
                config.locale = try reader.string(node, path: key)
                guard ["pt-br", "en-us", "es-es"].contains(config.locale.lowercased().replacingOccurrences(of: "_", with: "-")) else {
                    throw reader.error(node, "locale '\(config.locale)' is not one of pt-BR, en-US, es-ES")
                }
            case "statements":
                try reader.mapping(node, path: key, keys: ["trendMonths", "exactTransferLimit", "coupleWorkbooks", "categoryLabels"]) { k, v in
                    switch k {
                    case "trendMonths": config.statements.trendMonths = try reader.int(v, path: "statements.\(k)", in: 1...36)
                    case "coupleWorkbooks": config.statements.coupleWorkbooks = try reader.bool(v, path: "statements.\(k)")
                    case "categoryLabels": config.statements.categoryLabels = try reader.labels(v, path: "statements.\(k)")
                    default: config.statements.exactTransferLimit = try reader.int(v, path: "statements.\(k)", in: 2...24)
                    }
                }
            case "leaderboards":
                try reader.mapping(node, path: key, keys: ["minimumWorkoutMinutes", "rankChangeDays"]) { k, v in
                    switch k {
                    case "minimumWorkoutMinutes": config.leaderboards.minimumWorkoutMinutes = try reader.int(v, path: "leaderboards.\(k)", in: 0...1440)
                    default: config.leaderboards.rankChangeDays = try reader.int(v, path: "leaderboards.\(k)", in: 1...365)
                    }
                }
            case "activity":
                // A month has at most 31 days: a larger minimum would rank nobody.
                try reader.mapping(node, path: key, keys: ["minimumDaysRanked"]) { k, v in
                    config.activity.minimumDaysRanked = try reader.int(v, path: "activity.\(k)", in: 1...31)
                }
            case "kpis":
                try reader.mapping(node, path: key, keys: ["conversionWindowDays", "retentionDays", "conversionTargetMin",
                                                           "conversionTargetMax", "retentionTarget", "reportingCurrency"]) { k, v in
                    let path = "kpis.\(k)"
                    switch k {
                    case "reportingCurrency":
                        let code = try reader.string(v, path: path)
                        guard let currency = Currency(code: code) else {
                            throw reader.error(v, "\(path) '\(code)' is not an ISO 4217 currency code like BRL")
                        }
                        config.kpis.reportingCurrency = currency
                    case "conversionWindowDays": config.kpis.conversionWindowDays = try reader.int(v, path: path, in: 1...366)
                    case "retentionDays": config.kpis.retentionDays = try reader.int(v, path: path, in: 1...366)
                    case "conversionTargetMin": config.kpis.conversionTargetMin = try reader.fraction(v, path: path)
                    case "conversionTargetMax": config.kpis.conversionTargetMax = try reader.fraction(v, path: path)
                    default: config.kpis.retentionTarget = try reader.fraction(v, path: path)
                    }
                }
            case "changes":
                try reader.mapping(node, path: key, keys: ["volumeChange", "minimumRows"]) { k, v in
                    let path = "changes.\(k)"
                    switch k {
                    case "volumeChange":
                        guard let text = v.scalar?.string, let share = Double(text), share > 0, share <= 100 else {
                            throw reader.error(v, "\(path) must be a share above 0 (0.5 flags a move of more than 50%)")
                        }
                        config.changes.volumeChange = share
                    default: config.changes.minimumRows = try reader.int(v, path: path, in: 0...1_000_000_000)
                    }
                }
            case "csv":
                try reader.mapping(node, path: key, keys: ["dialect"]) { k, v in
                    let name = try reader.string(v, path: "csv.\(k)")
                    guard let dialect = CSVDialect(name: name) else {
                        throw reader.error(v, "csv.dialect '\(name)' is not one of \(CSVDialect.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    config.csv.dialect = dialect
                }
            default:
                guard let items = node.sequence else { throw reader.error(node, "products must be a list") }
                config.products = try items.enumerated().map { index, item in try reader.product(item, index: index) }
            }
        }
        if config.kpis.conversionTargetMin > config.kpis.conversionTargetMax {
            throw ConfigError("\(file): kpis.conversionTargetMin is above kpis.conversionTargetMax")
        }
        return config
    }
}

/// A configuration file that cannot be used.
public struct ConfigError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Typed reads of YAML nodes with errors naming the file, line and setting.
struct NodeReader {
    let file: String

    func error(_ node: Node, _ message: String) -> ConfigError {
        let line = node.mark.map { " line \($0.line)" } ?? ""
        return ConfigError("\(file)\(line): \(message)")
    }

    func mapping(_ node: Node, path: String, keys: [String], _ body: (String, Node) throws -> Void) throws {
        guard let mapping = node.mapping else {
            throw error(node, path.isEmpty ? "the file must be a mapping of settings" : "\(path) must be a mapping")
        }
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else { throw error(keyNode, "a setting name must be text") }
            guard keys.contains(key) else {
                let place = path.isEmpty ? "" : " in \(path)"
                throw error(keyNode, "unknown setting '\(key)'\(place) (known: \(keys.joined(separator: ", ")))")
            }
            try body(key, value)
        }
    }

    func string(_ node: Node, path: String) throws -> String {
        guard let scalar = node.scalar else { throw error(node, "\(path) must be text") }
        return scalar.string
    }

    func int(_ node: Node, path: String, in range: ClosedRange<Int>) throws -> Int {
        guard let text = node.scalar?.string, let value = Int(text) else { throw error(node, "\(path) must be a whole number") }
        guard range.contains(value) else {
            throw error(node, "\(path) is \(value); it must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    /// `true` or `false` (YAML 1.2 spelling, any case); anything else names the setting.
    func bool(_ node: Node, path: String) throws -> Bool {
        switch node.scalar?.string.lowercased() {
        case "true"?: return true
        case "false"?: return false
        default: throw error(node, "\(path) must be true or false")
        }
    }

    /// A mapping of text to text labels (`mercado: Supermercado`): each label one line of at most
    /// ``maxLabelLength`` characters, not blank (a tag named twice is refused by the YAML parser).
    func labels(_ node: Node, path: String) throws -> [String: String] {
        guard let mapping = node.mapping else { throw error(node, "\(path) must be a mapping of tag: label (mercado: Supermercado)") }
        var labels: [String: String] = [:]
        for (keyNode, value) in mapping {
            guard let tag = keyNode.scalar?.string else { throw error(keyNode, "\(path): a tag must be text") }
            guard let label = value.scalar?.string else { throw error(value, "\(path).\(tag) must be text (the label)") }
            guard label.contains(where: { !$0.isWhitespace }) else { throw error(value, "\(path).\(tag) is blank; give the label people read") }
            guard !label.contains(where: \.isNewline), label.count <= Self.maxLabelLength else {
                throw error(value, "\(path).\(tag) must be one line of at most \(Self.maxLabelLength) characters")
            }
            labels[tag] = label
        }
        return labels
    }

    /// The longest category label (in characters): a label heads a table row and a chart's bar.
    static let maxLabelLength = 60

    func fraction(_ node: Node, path: String) throws -> Double {
        guard let text = node.scalar?.string, let value = Double(text), value >= 0, value <= 1 else {
            throw error(node, "\(path) must be a fraction between 0 and 1 (0.15 is 15%)")
        }
        return value
    }

    func product(_ node: Node, index: Int) throws -> TallyConfig.Product {
        var fields: [String: (String, Node)] = [:]
        let keys = ["productId", "app", "plan", "period", "price", "currency"]
        try mapping(node, path: "products[\(index)]", keys: keys) { key, value in
            fields[key] = (try string(value, path: "products[\(index)].\(key)"), value)
        }
        for key in keys where fields[key] == nil { throw error(node, "products[\(index)] has no \(key)") }
        let (code, codeNode) = fields["currency"]!
        guard let currency = Currency(code: code) else { throw error(codeNode, "currency '\(code)' is not an ISO 4217 code") }
        let (priceText, priceNode) = fields["price"]!
        guard case .success(let price) = Money.parseMinor(priceText, currency: currency) else {
            throw error(priceNode, "price '\(priceText)' is not an amount of \(code)")
        }
        let period = fields["period"]!.0
        guard period == "monthly" || period == "yearly" else {
            throw error(fields["period"]!.1, "period '\(period)' is not monthly or yearly")
        }
        return TallyConfig.Product(productId: fields["productId"]!.0, app: fields["app"]!.0, plan: fields["plan"]!.0,
                                   period: period, price: price, currency: currency)
    }
}
