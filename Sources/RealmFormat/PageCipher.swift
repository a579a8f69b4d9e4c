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
final class PageCipher: @unchecked Sendable {
    static let pageSize = 4096
    static let macSize = PageMAC.size

    private let aesKey: [UInt8]
    private let mac: PageMAC
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

    /// Decrypts (or encrypts) one page with the 16-byte IV; false if libcrypto fails.
    func crypt(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, iv: UnsafeRawBufferPointer, encrypt: Bool) -> Bool {
        guard iv.count == 16, output.count >= input.count, input.count % 16 == 0,
              let ctx = cipherReady(encrypt: encrypt) else { return false }
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
        guard let cipher = Self.aes256CBC, let ctx = EVP_CIPHER_CTX_new() else { return nil }
        let ok = aesKey.withUnsafeBytes { key in
            EVP_CipherInit_ex(ctx, cipher, nil, key.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, encrypt ? 1 : 0) == 1
        }
        guard ok, EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 else { EVP_CIPHER_CTX_free(ctx); return nil }
        if encrypt { encryptContext = ctx } else { decryptContext = ctx }
        return ctx
    }

    /// AES-256-CBC as a method of our own over the functions of libcrypto's built-in
    /// `EVP_aes_256_cbc()` (its AES-NI code where the CPU has it), made once per process.
    ///
    /// Why not that cipher itself: OpenSSL 3 answers its first use by fetching it from the
    /// default provider, which builds every cipher the provider has — ~7 million instructions,
    /// about 2.5 ms, more than `realmsh info` or a count scan of an encrypted file spends on
    /// everything else. A cipher made with `EVP_CIPHER_meth_new` is used as it is, with no
    /// fetch. Should a libcrypto have no built-in functions for it, the provider's is used.
    /// Both give the same bytes (`PageCipherTests`). libcrypto is initialized without reading
    /// the system's OpenSSL configuration (nothing realmsh uses is configurable; ~2M instructions).
    // nonisolated(unsafe): made once (a lazy static), never changed after; libcrypto only reads it.
    nonisolated(unsafe) private static let aes256CBC: OpaquePointer? = {
        guard libcryptoReady, let builtIn = EVP_aes_256_cbc() else { return nil }
        guard let initialize = EVP_CIPHER_meth_get_init(builtIn), let run = EVP_CIPHER_meth_get_do_cipher(builtIn),
              let method = EVP_CIPHER_meth_new(EVP_CIPHER_get_nid(builtIn), EVP_CIPHER_get_block_size(builtIn),
                                               EVP_CIPHER_get_key_length(builtIn)) else { return builtIn }
        guard EVP_CIPHER_meth_set_iv_length(method, EVP_CIPHER_get_iv_length(builtIn)) == 1,
              EVP_CIPHER_meth_set_flags(method, EVP_CIPHER_get_flags(builtIn)) == 1,
              EVP_CIPHER_meth_set_impl_ctx_size(method, EVP_CIPHER_impl_ctx_size(builtIn)) == 1,
              EVP_CIPHER_meth_set_init(method, initialize) == 1,
              EVP_CIPHER_meth_set_do_cipher(method, run) == 1 else {
            EVP_CIPHER_meth_free(method)
            return builtIn
        }
        return method
    }()

    private static let libcryptoReady: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_LOAD_CONFIG), nil) == 1

    /// `n` random bytes from libcrypto's CSPRNG.
    static func randomBytes(_ n: Int) -> [UInt8]? {
        guard libcryptoReady else { return nil }
        var out = [UInt8](repeating: 0, count: n)
        let ok = out.withUnsafeMutableBytes { RAND_bytes($0.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(n)) == 1 }
        return ok ? out : nil
    }
}
