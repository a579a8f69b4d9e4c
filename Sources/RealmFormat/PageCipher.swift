import CCrypto

/// AES-256-CBC without padding and HMAC-SHA224 over whole 4096-byte pages, from libcrypto
/// (realm-format.md §14.1). No home-made cryptography.
struct PageCipher {
    static let pageSize = 4096

    let aesKey: [UInt8]
    let hmacKey: [UInt8]

    init(key: EncryptionKey) {
        aesKey = Array(key.bytes[0..<32])
        hmacKey = Array(key.bytes[32..<64])
    }

    /// HMAC-SHA224 of `data` (28 bytes).
    func hmac(_ data: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 28)
        var length = 0
        hmacKey.withUnsafeBytes { key in
            out.withUnsafeMutableBytes { o in
                _ = EVP_Q_mac(nil, "HMAC", nil, "SHA224", nil, key.baseAddress, key.count,
                              data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count,
                              o.baseAddress?.assumingMemoryBound(to: UInt8.self), 28, &length)
            }
        }
        return out
    }

    /// Decrypts (or encrypts) one page with the 16-byte IV; false if libcrypto fails.
    func crypt(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, iv: [UInt8], encrypt: Bool) -> Bool {
        guard let ctx = EVP_CIPHER_CTX_new() else { return false }
        defer { EVP_CIPHER_CTX_free(ctx) }
        let ok = aesKey.withUnsafeBytes { key in
            iv.withUnsafeBytes { ivBytes in
                EVP_CipherInit_ex(ctx, EVP_aes_256_cbc(), nil, key.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                  ivBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), encrypt ? 1 : 0) == 1
            }
        }
        guard ok, EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 else { return false }
        var written: Int32 = 0
        guard EVP_CipherUpdate(ctx, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &written,
                               input.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(input.count)) == 1,
              written == Int32(input.count) else { return false }
        var final: Int32 = 0
        return EVP_CipherFinal_ex(ctx, output.baseAddress!.assumingMemoryBound(to: UInt8.self) + Int(written), &final) == 1
    }

    /// `n` random bytes from libcrypto's CSPRNG.
    static func randomBytes(_ n: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: n)
        let ok = out.withUnsafeMutableBytes { RAND_bytes($0.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(n)) == 1 }
        return ok ? out : nil
    }
}
