/// Identifiers in the shapes Firebase uses: 28-character user ids and
/// 20-character Firestore document ids, both base62.
enum FirebaseID {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// The user id of person `index` in `namespace`, derived without storing anything:
    /// the same (seed, namespace, index) always gives the same id.
    static func uid(seed: UInt64, namespace: UInt64, index: Int) -> String {
        var state = seed ^ (namespace &* 0xD6E8_FEB8_6659_FD93) ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        var bytes = [UInt8](repeating: 0, count: 28)
        var word = RandomSource.splitMix(&state)
        for i in 0..<28 {
            if i % 10 == 0 { word = RandomSource.splitMix(&state) }
            bytes[i] = alphabet[Int(word % 62)]
            word /= 62
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A Firestore auto id (20 characters) drawn from `random`.
    static func documentID(_ random: inout RandomSource) -> String {
        var bytes = [UInt8](repeating: 0, count: 20)
        var word = random.next()
        for i in 0..<20 {
            if i % 10 == 0 { word = random.next() }
            bytes[i] = alphabet[Int(word % 62)]
            word /= 62
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Namespaces, so that the same index gives different people in different apps.
    static let fypMatch: UInt64 = 1
    static let fitToday: UInt64 = 2
    static let lovU: UInt64 = 3
    static let fisioFlow: UInt64 = 4
}
