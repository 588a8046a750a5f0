/// The words generated rows are made of: Brazilian names, places, expense
/// descriptions by category, challenge names. Some entries carry the awkward
/// text real exports hold (commas, quotes, line breaks, accents, emoji).
enum Vocabulary {
    static let firstNames = [
        "Ana", "Bruno", "Camila", "Diego", "Eduarda", "Felipe", "Gabriela", "Henrique", "Isabela", "João",
        "Larissa", "Lucas", "Mariana", "Mateus", "Natália", "Otávio", "Paula", "Rafael", "Sofia", "Thiago",
        "Beatriz", "Caio", "Débora", "Enzo", "Fernanda", "Gustavo", "Helena", "Igor", "Júlia", "Leonardo",
        "Letícia", "Marcelo", "Nicole", "Pedro", "Renata", "Samuel", "Tatiana", "Vinícius", "Yasmin", "Conceição",
    ]
    static let lastNames = [
        "Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes",
        "Costa", "Ribeiro", "Martins", "Carvalho", "Araújo", "Melo", "Barbosa", "Cardoso", "Nogueira", "Magalhães",
    ]
    /// Display names with the characters that trip up writers of CSV and JSON.
    static let awkwardDisplayNames = [
        "João \"Jota\" Pereira", "Ana, a Corredora", "Zoë 🏃‍♀️", "Conceição D'Ávila", "Léo\\Backslash", "Maria 💪🏽 Souza",
    ]
    static let cities = [
        "São Paulo", "Rio de Janeiro", "Belo Horizonte", "Curitiba", "Porto Alegre", "Salvador", "Recife",
        "Fortaleza", "Brasília", "Florianópolis", "Campinas", "Goiânia", "Manaus", "Belém", "Vitória",
    ]
    static let spaceNames = ["Casa da Praia", "República Aurora", "Apê 302", "Família Nogueira", "Viagem Chile 🇨🇱"]

    /// Expense categories with typical amounts (in major units) and descriptions.
    struct Tag {
        let name: String
        let typical: Double
        let weight: Int
        let descriptions: [String]
    }

    static let tags: [Tag] = [
        Tag(name: "mercado", typical: 180, weight: 30, descriptions: [
            "Supermercado Extra", "Almoço no Pão de Açúcar", "Feira de domingo", "Hortifruti", "Atacadão, compra do mês",
            "Padaria", "Açougue do Zé",
        ]),
        Tag(name: "restaurante", typical: 95, weight: 18, descriptions: [
            "Jantar no japonês 🍣", "iFood", "Pizza de sexta", "Almoço de domingo", "Café da manhã na Benedita",
            "Rodízio \"Fogo de Chão\"", "Bar do Alemão, chopp e petiscos",
        ]),
        Tag(name: "transporte", typical: 45, weight: 14, descriptions: [
            "Uber", "99 pro aeroporto", "Gasolina", "Estacionamento shopping", "Pedágio", "Bilhete Único",
        ]),
        Tag(name: "casa", typical: 150, weight: 12, descriptions: [
            "Conta de luz", "Internet fibra", "Gás", "Produtos de limpeza", "Conserto da máquina de lavar",
            "Faxina\nquinzenal (Dona Cida)",
        ]),
        Tag(name: "lazer", typical: 120, weight: 10, descriptions: [
            "Cinema + pipoca 🍿", "Show no Allianz", "Ingressos teatro", "Parque Ibirapuera, aluguel de bike", "Livros",
        ]),
        Tag(name: "saude", typical: 130, weight: 7, descriptions: [
            "Farmácia", "Consulta dentista", "Academia (mensalidade)", "Exames de rotina", "Drogasil",
        ]),
        Tag(name: "viagem", typical: 600, weight: 5, descriptions: [
            "Hotel em Paraty", "Passagem aérea GOL", "Airbnb Ubatuba", "Passeio de barco, Ilhabela",
        ]),
        Tag(name: "pets", typical: 110, weight: 4, descriptions: [
            "Ração do Thor 🐶", "Veterinário", "Banho e tosa", "Areia do gato",
        ]),
    ]

    static let tagWeights: [Int] = tags.map(\.weight)

    static let foreignDescriptions: [String: [String]] = [
        "USD": ["Dinner in NYC", "Uber Miami", "Amazon.com order", "Museum tickets, MoMA"],
        "EUR": ["Jantar em Lisboa", "Trem Paris–Lyon", "Museu do Prado", "Hotel em Roma"],
        "JPY": ["Ramen em Tóquio 🍜", "Shinkansen Tokyo–Kyoto", "Don Quijote", "Sushi em Osaka"],
        "BRL": ["Presentes do Brasil", "Churrascaria em SP"],
    ]

    static let cardLabels = [
        "Nubank Roxinho", "Itaú Personnalité Visa", "Inter Gold", "C6 Carbon", "Bradesco Elo", "Santander Free",
        "XP Visa Infinite", "Caixa débito",
    ]

    static let challengeNames = [
        "Desafio 30 dias 💪", "Maratona de Outubro", "Verão sem desculpas", "Corrida do Bairro",
        "Projeto 100 treinos", "Desafio da Firma, edição \"Primavera\"", "Fit em Família", "Queima de Julho 🔥",
    ]

    static let settlementNotes = ["Pix de acerto", "Acerto do mês", "Transferência, metade do aluguel", "", "Acertando as contas 💸"]
}
