import TallyCore

/// How a statement names an expense's category (its raw `tag`) for people:
/// the label the configuration gives the tag (`statements.categoryLabels` in
/// `tally.yml`), else the locale's built-in label for the common tags, else
/// the tag as written, its first letter capitalised when it is all lowercase.
/// The empty tag is the locale's "no category" label (``ReportLocale/Label/untagged``).
///
/// Tags are matched as written first, then ignoring case, accents and the
/// spaces around them (`Saúde`, `saude` and ` SAUDE ` are one tag to the
/// labels). Only people's reports use labels (the statement workbooks and
/// texts); the CSVs keep the raw tags, which are the contract.
///
/// ```swift
/// let labels = CategoryLabels(locale: .ptBR, custom: ["pets": "Bichos"])
/// labels.name("saude")     // "Saúde"
/// labels.name("pets")      // "Bichos"
/// labels.name("academia")  // "Academia"
/// labels.name("")          // "Sem categoria"
/// CategoryLabels(locale: .enUS).name("mercado")   // "Groceries"
/// ```
public struct CategoryLabels: Sendable, Hashable {
    public let locale: ReportLocale
    /// The configured labels, by tag as written.
    public let custom: [String: String]
    /// The configured labels by folded tag (``fold(_:)``).
    private let customFolded: [String: String]

    /// The labels of `locale`, with `custom` (tag → label) before the built-in ones.
    public init(locale: ReportLocale, custom: [String: String] = [:]) {
        self.locale = locale
        self.custom = custom
        var folded: [String: String] = [:]
        // Sorted, so that of two tags folding alike the same one wins on every run.
        for tag in custom.keys.sorted(by: ByteOrder.precedes) where folded[Self.fold(tag)] == nil {
            folded[Self.fold(tag)] = custom[tag]
        }
        customFolded = folded
    }

    /// The name people read for `tag` (see ``CategoryLabels``).
    public func name(_ tag: String) -> String {
        if let label = custom[tag] { return label }
        let key = Self.fold(tag)
        if let label = customFolded[key] { return label }
        if key.isEmpty { return locale.label(.untagged) }
        if let words = Self.builtIn[key] {
            switch locale {
            case .ptBR: return words.pt
            case .enUS: return words.en
            case .esES: return words.es
            }
        }
        let trimmed = Self.trimmed(tag)
        guard trimmed == trimmed.lowercased(), let first = trimmed.first else { return trimmed }
        return first.uppercased() + trimmed.dropFirst()
    }

    /// The built-in label of every tag the locale knows, by folded tag: the tags ContaCasal suggests
    /// (`mercado`, `restaurante`, `transporte`, `casa`, `lazer`, `saude`, `viagem`, `pets`) and other common ones.
    public static func builtInLabels(_ locale: ReportLocale) -> [String: String] {
        builtIn.mapValues { words in
            switch locale {
            case .ptBR: return words.pt
            case .enUS: return words.en
            case .esES: return words.es
            }
        }
    }

    private static let builtIn: [String: (pt: String, en: String, es: String)] = [
        "mercado": ("Mercado", "Groceries", "Supermercado"),
        "restaurante": ("Restaurante", "Restaurants", "Restaurantes"),
        "transporte": ("Transporte", "Transport", "Transporte"),
        "casa": ("Casa", "Home", "Hogar"),
        "lazer": ("Lazer", "Leisure", "Ocio"),
        "saude": ("Saúde", "Health", "Salud"),
        "viagem": ("Viagem", "Travel", "Viajes"),
        "pets": ("Pets", "Pets", "Mascotas"),
        "educacao": ("Educação", "Education", "Educación"),
        "contas": ("Contas", "Bills", "Facturas"),
        "assinaturas": ("Assinaturas", "Subscriptions", "Suscripciones"),
        "compras": ("Compras", "Shopping", "Compras"),
        "roupas": ("Roupas", "Clothing", "Ropa"),
        "presentes": ("Presentes", "Gifts", "Regalos"),
        "farmacia": ("Farmácia", "Pharmacy", "Farmacia"),
        "combustivel": ("Combustível", "Fuel", "Combustible"),
        "filhos": ("Filhos", "Children", "Hijos"),
        "outros": ("Outros", "Other", "Otros"),
    ]

    /// `tag` without the spaces around it, lowercased and without the accents of Portuguese and
    /// Spanish letters: the key tags are matched by (`Saúde ` → `saude`).
    static func fold(_ tag: String) -> String {
        // Printable ASCII without spaces or capitals (most tags: `mercado`)
        // is its own folded form: nothing to trim, lower or strip.
        if tag.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !(0x41...0x5A).contains($0) }) { return tag }
        var out = ""
        for character in trimmed(tag).lowercased() {
            out.append(accentless[character] ?? character)
        }
        return out
    }

    /// `text` without the spaces, tabs and line breaks around it.
    static func trimmed(_ text: String) -> String {
        let isSpace = { (c: Character) in c.isWhitespace }
        guard let start = text.firstIndex(where: { !isSpace($0) }), let end = text.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(text[start...end])
    }

    private static let accentless: [Character: Character] = {
        var map: [Character: Character] = [:]
        for (plain, accented) in [("a", "áàâãä"), ("e", "éèêë"), ("i", "íìîï"), ("o", "óòôõö"), ("u", "úùûü"),
                                  ("c", "ç"), ("n", "ñ")] {
            for c in accented { map[c] = Character(plain) }
        }
        return map
    }()
}
