/// The user ids of one app, computed once and kept as one contiguous block of
/// bytes (28 per id), so hot loops append ids without allocating strings.
struct UserIdTable {
    static let width = 28
    private(set) var bytes: [UInt8]
    let count: Int

    init(seed: UInt64, namespace: UInt64, count: Int) {
        self.count = count
        bytes = []
        bytes.reserveCapacity(count * UserIdTable.width)
        for index in 0..<count {
            bytes.append(contentsOf: FirebaseID.uid(seed: seed, namespace: namespace, index: index).utf8)
        }
    }

    /// The id of user `index` as bytes.
    func id(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index * UserIdTable.width)..<((index + 1) * UserIdTable.width)]
    }

    /// The id of user `index` as a string.
    func string(_ index: Int) -> String { String(decoding: id(index), as: UTF8.self) }
}

extension ByteBuffer {
    /// A JSON string of characters that need no escaping (ids).
    mutating func jsonPlain(_ bytes: ArraySlice<UInt8>) {
        byte(34)
        append(bytes)
        byte(34)
    }

    /// A Firestore-style 20-character document id drawn from `random`.
    mutating func documentID(_ random: inout RandomSource) {
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        alphabet.withUTF8Buffer { letters in
            var word = random.next()
            for i in 0..<20 {
                if i % 10 == 0 { word = random.next() }
                byte(letters[Int(word % 62)])
                word /= 62
            }
        }
    }
}
