import CLibCrypto

/// A streaming SHA-256 over OpenSSL's libcrypto (EVP), which uses the CPU's
/// SHA instructions where it has them.
///
/// ```swift
/// let hasher = SHA256Hasher()
/// hasher.update("abc")
/// hasher.hexDigest()   // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
///
/// `hexDigest()` ends the hashing: updating after it is a programming error.
public final class SHA256Hasher {
    private let context: OpaquePointer
    private var finished = false

    public init() {
        guard let made = EVP_MD_CTX_new(), EVP_DigestInit_ex(made, EVP_sha256(), nil) == 1 else {
            preconditionFailure("libcrypto could not start a SHA-256 digest")
        }
        context = made
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(!finished, "SHA256Hasher updated after its digest was taken")
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        guard EVP_DigestUpdate(context, base, bytes.count) == 1 else { preconditionFailure("libcrypto's SHA-256 update failed") }
    }

    /// Adds the bytes of `bytes` (`Data`, `[UInt8]`, …) to the digest.
    public func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) { return done }
        Array(bytes).withUnsafeBytes { update($0) }
    }

    /// Adds the UTF-8 bytes of `text` to the digest.
    public func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The digest as 32 bytes; ends the hashing.
    public func digest() -> [UInt8] {
        precondition(!finished, "SHA256Hasher's digest taken twice")
        finished = true
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &out, &length) == 1, length == 32 else {
            preconditionFailure("libcrypto's SHA-256 could not finish")
        }
        return out
    }

    /// The digest as 64 lowercase hex digits; ends the hashing.
    public func hexDigest() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in digest() {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
