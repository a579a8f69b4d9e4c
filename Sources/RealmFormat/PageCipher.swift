import CCrypto

/// AES-256-CBC without padding and HMAC-SHA224 over whole 4096-byte pages, from libcrypto
/// (realm-format.md §14.1). No home-made cryptography.
///
/// One cipher per open file, not per page: the AES key schedules (one per direction) and the
/// HMAC key are set up once, and each page only re-initializes with its IV / resets the MAC.
/// Setting them up per page cost more than the page's own decryption (a count scan of an
/// encrypted 1M-row file touches ~8,000 pages). Not thread-safe: one thread at a time uses it
/// (`DecryptedPages` hands its ciphers out from a pool, one per page being decrypted), hence
/// `@unchecked Sendable`.
final class PageCipher: @unchecked Sendable {
    static let pageSize = 4096
    static let macSize = 28

    private let aesKey: [UInt8]
    private let hmacKey: [UInt8]
    private var decryptContext: OpaquePointer?
    private var encryptContext: OpaquePointer?
    private var mac: OpaquePointer?
    private var macContext: OpaquePointer?

    init(key: EncryptionKey) {
        aesKey = Array(key.bytes[0..<32])
        hmacKey = Array(key.bytes[32..<64])
    }

    deinit {
        if let c = decryptContext { EVP_CIPHER_CTX_free(c) }
        if let c = encryptContext { EVP_CIPHER_CTX_free(c) }
        if let c = macContext { EVP_MAC_CTX_free(c) }
        if let m = mac { EVP_MAC_free(m) }
    }

    /// HMAC-SHA224 of `data` into `out` (28 bytes); false if libcrypto fails.
    func hmac(_ data: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Bool {
        guard out.count >= Self.macSize, let ctx = macReady() else { return false }
        var length = 0
        return EVP_MAC_update(ctx, data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count) == 1
            && EVP_MAC_final(ctx, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &length, Self.macSize) == 1
            && length == Self.macSize
    }

    /// Decrypts (or encrypts) one page with the 16-byte IV; false if libcrypto fails.
    func crypt(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, iv: UnsafeRawBufferPointer, encrypt: Bool) -> Bool {
        guard iv.count == 16, output.count >= input.count, let ctx = cipherReady(encrypt: encrypt) else { return false }
        // Cipher and key stay as set up; only the IV is new.
        guard EVP_CipherInit_ex(ctx, nil, nil, nil, iv.baseAddress!.assumingMemoryBound(to: UInt8.self), encrypt ? 1 : 0) == 1 else { return false }
        var written: Int32 = 0
        guard EVP_CipherUpdate(ctx, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &written,
                               input.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(input.count)) == 1,
              written == Int32(input.count) else { return false }
        var final: Int32 = 0
        return EVP_CipherFinal_ex(ctx, output.baseAddress!.assumingMemoryBound(to: UInt8.self) + Int(written), &final) == 1
    }

    func crypt(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, iv: [UInt8], encrypt: Bool) -> Bool {
        iv.withUnsafeBytes { crypt(input, into: output, iv: $0, encrypt: encrypt) }
    }

    /// The context of one direction, made and keyed on first use (AES's decryption key
    /// schedule differs from its encryption one, so each direction keeps its own).
    private func cipherReady(encrypt: Bool) -> OpaquePointer? {
        if let c = encrypt ? encryptContext : decryptContext { return c }
        guard let ctx = EVP_CIPHER_CTX_new() else { return nil }
        let ok = aesKey.withUnsafeBytes { key in
            EVP_CipherInit_ex(ctx, EVP_aes_256_cbc(), nil, key.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, encrypt ? 1 : 0) == 1
        }
        guard ok, EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 else { EVP_CIPHER_CTX_free(ctx); return nil }
        if encrypt { encryptContext = ctx } else { decryptContext = ctx }
        return ctx
    }

    /// The HMAC context keyed once; each later use only resets it (a nil key keeps the key).
    private func macReady() -> OpaquePointer? {
        if let ctx = macContext {
            return EVP_MAC_init(ctx, nil, 0, nil) == 1 ? ctx : nil
        }
        guard let m = EVP_MAC_fetch(nil, "HMAC", nil) else { return nil }
        guard let ctx = EVP_MAC_CTX_new(m) else { EVP_MAC_free(m); return nil }
        let ok = "digest".withCString { name in
            "SHA224".withCString { digest in
                var params = [OSSL_PARAM_construct_utf8_string(name, UnsafeMutablePointer(mutating: digest), 0),
                              OSSL_PARAM_construct_end()]
                return hmacKey.withUnsafeBytes { key in
                    EVP_MAC_init(ctx, key.baseAddress!.assumingMemoryBound(to: UInt8.self), key.count, &params) == 1
                }
            }
        }
        guard ok else { EVP_MAC_CTX_free(ctx); EVP_MAC_free(m); return nil }
        mac = m
        macContext = ctx
        return ctx
    }

    /// `n` random bytes from libcrypto's CSPRNG.
    static func randomBytes(_ n: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: n)
        let ok = out.withUnsafeMutableBytes { RAND_bytes($0.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(n)) == 1 }
        return ok ? out : nil
    }
}
