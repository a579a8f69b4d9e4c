import CCrypto

/// AES-256-CBC without padding and HMAC-SHA224 over whole 4096-byte pages, from libcrypto
/// (realm-format.md §14.1).
///
/// One cipher per open file, not per page: the AES key schedules (one per direction) and the
/// HMAC key are set up once, and each page only re-initializes with its IV / resets the MAC.
/// Setting them up per page cost more than the page's own decryption (a count scan of an
/// encrypted 1M-row file touches ~8,000 pages). Not thread-safe: one thread at a time uses it
/// (`DecryptedPages` hands its ciphers out from a pool, one per page being decrypted), hence
/// `@unchecked Sendable`.
///
/// Two AES implementations of libcrypto, chosen by how much there is to do. EVP's (AES-NI,
/// ~0.8 µs a page) costs ~7 million instructions the first time a process sets one up
/// (OpenSSL 3 fetches and builds every cipher of its provider), about 2.5 ms; the low-level
/// `AES_cbc_encrypt` (tables, ~15 µs a page) needs no set-up. A cipher does its first
/// `tablePages` pages with the tables — all that `info`, a lookup or a short write touch —
/// and every later one with EVP; a caller that knows it is about to do many (a scan's
/// prefetch, encrypting a whole file) asks for EVP at once (`preferAccelerated`). Both give
/// the same bytes (`PageCipherTests`).
final class PageCipher: @unchecked Sendable {
    static let pageSize = 4096
    static let macSize = PageMAC.size
    /// Break-even is ~170 pages (2.5 ms of set-up over 14 µs saved a page); switching well
    /// before it bounds what a long job loses to the tables to under a millisecond.
    static let tablePages = 48

    private let aesKey: [UInt8]
    private let mac: PageMAC
    private var tablePagesLeft = PageCipher.tablePages
    private var decryptSchedule: AES_KEY?
    private var encryptSchedule: AES_KEY?
    private var decryptContext: OpaquePointer?
    private var encryptContext: OpaquePointer?

    init(key: EncryptionKey) {
        aesKey = Array(key.bytes[0..<32])
        mac = PageMAC(key: key.bytes[32..<64])
    }

    deinit {
        if let c = decryptContext { EVP_CIPHER_CTX_free(c) }
        if let c = encryptContext { EVP_CIPHER_CTX_free(c) }
    }

    /// HMAC-SHA224 of `data` into `out` (28 bytes); false if libcrypto fails.
    func hmac(_ data: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Bool {
        mac.authenticate(data, into: out)
    }

    /// From now on every page goes through EVP (the caller has many to do).
    func preferAccelerated() { tablePagesLeft = 0 }

    /// Decrypts (or encrypts) one page with the 16-byte IV; false if libcrypto fails.
    func crypt(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, iv: UnsafeRawBufferPointer, encrypt: Bool) -> Bool {
        guard iv.count == 16, output.count >= input.count, input.count % 16 == 0 else { return false }
        if tablePagesLeft > 0 {
            tablePagesLeft -= 1
            return tableCrypt(input, into: output, iv: iv, encrypt: encrypt)
        }
        guard let ctx = cipherReady(encrypt: encrypt) else { return false }
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

    /// The low-level AES of libcrypto, its key schedule made on first use per direction.
    private func tableCrypt(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, iv: UnsafeRawBufferPointer, encrypt: Bool) -> Bool {
        guard var schedule = (encrypt ? encryptSchedule : decryptSchedule) ?? makeSchedule(encrypt: encrypt) else { return false }
        var chain = (UInt64(0), UInt64(0))            // AES_cbc_encrypt advances the IV it is given
        withUnsafeMutableBytes(of: &chain) { $0.copyMemory(from: iv) }
        withUnsafeMutableBytes(of: &chain) { c in
            AES_cbc_encrypt(input.baseAddress!.assumingMemoryBound(to: UInt8.self),
                            output.baseAddress!.assumingMemoryBound(to: UInt8.self), input.count, &schedule,
                            c.baseAddress!.assumingMemoryBound(to: UInt8.self), encrypt ? AES_ENCRYPT : AES_DECRYPT)
        }
        return true
    }

    private func makeSchedule(encrypt: Bool) -> AES_KEY? {
        var schedule = AES_KEY()
        let status = aesKey.withUnsafeBufferPointer { key in
            encrypt ? AES_set_encrypt_key(key.baseAddress, 256, &schedule) : AES_set_decrypt_key(key.baseAddress, 256, &schedule)
        }
        guard status == 0 else { return nil }
        if encrypt { encryptSchedule = schedule } else { decryptSchedule = schedule }
        return schedule
    }

    /// The EVP context of one direction, made and keyed on first use (AES's decryption key
    /// schedule differs from its encryption one, so each direction keeps its own).
    private func cipherReady(encrypt: Bool) -> OpaquePointer? {
        if let c = encrypt ? encryptContext : decryptContext { return c }
        guard Self.libcryptoReady, let ctx = EVP_CIPHER_CTX_new() else { return nil }
        let ok = aesKey.withUnsafeBytes { key in
            EVP_CipherInit_ex(ctx, EVP_aes_256_cbc(), nil, key.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, encrypt ? 1 : 0) == 1
        }
        guard ok, EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 else { EVP_CIPHER_CTX_free(ctx); return nil }
        if encrypt { encryptContext = ctx } else { decryptContext = ctx }
        return ctx
    }

    /// libcrypto initialized without reading the system's OpenSSL configuration: realmsh uses
    /// nothing it could configure, and reading it costs ~2 million instructions.
    private static let libcryptoReady: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_LOAD_CONFIG), nil) == 1

    /// `n` random bytes from libcrypto's CSPRNG.
    static func randomBytes(_ n: Int) -> [UInt8]? {
        guard libcryptoReady else { return nil }
        var out = [UInt8](repeating: 0, count: n)
        let ok = out.withUnsafeMutableBytes { RAND_bytes($0.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(n)) == 1 }
        return ok ? out : nil
    }
}
