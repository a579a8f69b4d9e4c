import CCrypto
@testable import RealmFormat
import XCTest

/// The page cipher's AES-256-CBC and HMAC-SHA224 are the standard ones (realm-format.md §14.1, §14.5) — the encrypted fixtures pin both against files
/// Realm wrote; these pin them on inputs no fixture happens to hold.
final class PageCipherTests: XCTestCase {
    private func randomBytes(_ n: Int, _ rng: inout SystemRandomNumberGenerator) -> [UInt8] {
        (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    private func mac(_ key: [UInt8], _ data: [UInt8]) -> String {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = data.withUnsafeBytes { d in out.withUnsafeMutableBytes { PageMAC(key: key).authenticate(d, into: $0) } }
        XCTAssertTrue(ok)
        return out[0..<28].map { String(format: "%02x", $0) }.joined()
    }

    func testHMACGivesRFC4231SHA224Vectors() {
        // RFC 4231 §4.2 (key shorter than a block), §4.3 (a key shorter than the digest),
        // §4.7 (a key longer than the block, hashed first).
        XCTAssertEqual(mac([UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8)),
                       "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22")
        XCTAssertEqual(mac(Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)),
                       "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44")
        XCTAssertEqual(mac([UInt8](repeating: 0xAA, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)),
                       "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e")
    }

    func testHMACMatchesLibcryptosEVPHMACOnRandomPages() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let key = randomBytes(32, &rng), page = randomBytes(PageCipher.pageSize, &rng)
            var expected = [UInt8](repeating: 0, count: 28)
            var length = 0
            let done = EVP_Q_mac(nil, "HMAC", nil, "SHA224", nil, key, key.count, page, page.count, &expected, 28, &length)
            XCTAssertNotNil(done)
            XCTAssertEqual(length, 28)
            XCTAssertEqual(mac(key, page), expected.map { String(format: "%02x", $0) }.joined())
        }
    }

    /// The cipher realmsh makes of libcrypto's built-in AES functions (no provider fetch)
    /// gives the bytes of the provider's AES-256-CBC, both directions, random keys and IVs.
    func testPageCipherMatchesTheProvidersAES256CBC() throws {
        var rng = SystemRandomNumberGenerator()
        guard let reference = EVP_CIPHER_fetch(nil, "AES-256-CBC", nil) else { return XCTFail("no AES-256-CBC in libcrypto") }
        defer { EVP_CIPHER_free(reference) }
        func referenceCrypt(_ input: [UInt8], key: [UInt8], iv: [UInt8], encrypt: Bool) -> [UInt8] {
            let ctx = EVP_CIPHER_CTX_new()
            defer { EVP_CIPHER_CTX_free(ctx) }
            var out = [UInt8](repeating: 0, count: input.count + 16)
            var n: Int32 = 0, tail: Int32 = 0
            XCTAssertEqual(EVP_CipherInit_ex(ctx, reference, nil, key, iv, encrypt ? 1 : 0), 1)
            XCTAssertEqual(EVP_CIPHER_CTX_set_padding(ctx, 0), 1)
            XCTAssertEqual(EVP_CipherUpdate(ctx, &out, &n, input, Int32(input.count)), 1)
            XCTAssertEqual(EVP_CipherFinal_ex(ctx, &out[Int(n)], &tail), 1)
            return Array(out[0..<Int(n + tail)])
        }
        for k in 0..<8 {
            let keyBytes = randomBytes(64, &rng)
            let cipher = PageCipher(key: try EncryptionKey(contents: keyBytes))
            for n in 0..<10 {
                let page = randomBytes(PageCipher.pageSize, &rng), iv = randomBytes(16, &rng)
                for encrypt in [true, false] {
                    var out = [UInt8](repeating: 0, count: page.count)
                    let ok = page.withUnsafeBytes { p in out.withUnsafeMutableBytes { cipher.crypt(p, into: $0, iv: iv, encrypt: encrypt) } }
                    XCTAssertTrue(ok, "key \(k), page \(n)")
                    XCTAssertEqual(out, referenceCrypt(page, key: Array(keyBytes[0..<32]), iv: iv, encrypt: encrypt),
                                   "key \(k), page \(n), \(encrypt ? "encrypting" : "decrypting")")
                }
            }
        }
    }

    func testAPageThatIsNotWholeBlocksIsRefused() throws {
        let cipher = PageCipher(key: try EncryptionKey(contents: [UInt8](repeating: 7, count: 64)))
        let input = [UInt8](repeating: 1, count: 100)
        var out = [UInt8](repeating: 0, count: 100)
        let ok = input.withUnsafeBytes { i in out.withUnsafeMutableBytes { cipher.crypt(i, into: $0, iv: [UInt8](repeating: 0, count: 16), encrypt: false) } }
        XCTAssertFalse(ok)
    }
}
