import CCrypto

/// HMAC-SHA224 (RFC 2104 over libcrypto's SHA-224), the page authenticator of
/// realm-format.md §14.5, keyed once.
///
/// The construction is written here rather than taken from EVP's HMAC because the first EVP
/// MAC or digest of a process costs libcrypto ~4 million instructions (OpenSSL 3 fetches and
/// builds every algorithm of the operation), about 1.5 ms — more than all of `realmsh info`
/// on an encrypted file does with it. The hashing itself is libcrypto's (SHA extensions where
/// the CPU has them); only the two-pass keyed construction is ours, pinned to RFC 4231's
/// vectors and to EVP's HMAC by `PageCipherTests`.
struct PageMAC {
    static let size = 28
    private static let block = 64

    /// SHA-224 states after absorbing key ⊕ ipad and key ⊕ opad; each MAC starts from copies.
    private var inner = SHA256_CTX()
    private var outer = SHA256_CTX()

    init(key: some Collection<UInt8>) {
        // RFC 2104 §2: a key longer than the block is hashed first; a shorter one zero-padded.
        var padded = [UInt8](repeating: 0, count: Self.block)
        if key.count > Self.block {
            var ctx = SHA256_CTX()
            let bytes = Array(key)
            SHA224_Init(&ctx)
            _ = bytes.withUnsafeBytes { SHA224_Update(&ctx, $0.baseAddress, $0.count) }
            _ = padded.withUnsafeMutableBufferPointer { SHA224_Final($0.baseAddress, &ctx) }
        } else {
            padded.replaceSubrange(0..<key.count, with: key)
        }
        let ipad = padded.map { $0 ^ 0x36 }, opad = padded.map { $0 ^ 0x5C }
        SHA224_Init(&inner)
        SHA224_Init(&outer)
        _ = ipad.withUnsafeBytes { SHA224_Update(&inner, $0.baseAddress, $0.count) }
        _ = opad.withUnsafeBytes { SHA224_Update(&outer, $0.baseAddress, $0.count) }
    }

    /// The MAC of `data` into the first 28 bytes of `out`; false if `out` is too small or
    /// libcrypto fails.
    func authenticate(_ data: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Bool {
        guard out.count >= Self.size else { return false }
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))   // 32 bytes, 28 used
        var ctx = inner
        return withUnsafeMutableBytes(of: &digest) { d -> Bool in
            let p = d.baseAddress!.assumingMemoryBound(to: UInt8.self)
            guard SHA224_Update(&ctx, data.baseAddress, data.count) == 1, SHA224_Final(p, &ctx) == 1 else { return false }
            var o = outer
            return SHA224_Update(&o, p, Self.size) == 1
                && SHA224_Final(out.baseAddress!.assumingMemoryBound(to: UInt8.self), &o) == 1
        }
    }
}
