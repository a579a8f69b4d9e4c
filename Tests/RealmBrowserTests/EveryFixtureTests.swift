import Foundation
import XCTest
import RealmFormat
import RealmObjects
@testable import RealmBrowser
import RealmTestSupport

/// Every fixture realmsh reads (realm-core's and the SDKs' public files: streaming and compacted
/// forms, encrypted with their key, raw core files, sync and history tables) browses: each class's first and last screen,
/// a detail view, the internal tables, every line as wide as the screen. Files the reader
/// refuses never reach the browser (`realmsh browse` reports them as every command does).
final class EveryFixtureTests: XCTestCase {
    func testEveryReadableFixtureBrowses() throws {
        var browsed = 0
        let publicDirectory = Fixtures.path("public")
        let published = ((try? FileManager.default.contentsOfDirectory(atPath: publicDirectory)) ?? [])
            .filter { $0.hasSuffix(".realm") }.sorted().map { publicDirectory + "/" + $0 }
        for path in Fixtures.allRealmFiles() + published {
            let file: RealmFile
            do {
                let keyPath = String(path.dropLast(".realm".count)) + ".key"
                let key = FileManager.default.fileExists(atPath: keyPath) ? try EncryptionKey(file: keyPath) : nil
                file = try RealmFile(path: path, snapshot: Snapshot(path: path, key: key))
            } catch {
                continue
            }
            let session = BrowserSession(file: file, options: .init(path: path, reopen: { file }))
            session.size = (20, 100)
            session.classes.toggleFold()
            for entry in session.classes.entries {
                guard let name = session.classes.name(of: entry) else { continue }
                session.show(className: name)
                for key in [Key.resize, .character("G"), .character("d"), .backspace, .character("b"), .enter, .backspace, .backspace] {
                    session.handle(key)
                    let frame = session.render()
                    XCTAssertEqual(frame.lines.count, 20, "\(path): \(name)")
                    for line in frame.lines { XCTAssertEqual(line.width, 100, "\(path): \(name) after \(key): \(line.text)") }
                }
                XCTAssertNotEqual(session.message?.style, .error, "\(path): \(name): \(session.message?.text ?? "")")
            }
            browsed += 1
        }
        XCTAssertGreaterThan(browsed, 25)
    }

    /// Damaged copies of basic (bytes flipped, seeded): whatever opens browses without a trap;
    /// what cannot be read shows as a message or a marked cell.
    func testDamagedFilesBrowseWithoutATrap() throws {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("realm-core/basic.realm"))))
        var random = SeededRandom(seed: 15)
        var opened = 0
        for _ in 0..<150 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                bytes[Int.random(in: 24..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
            guard let snapshot = try? Snapshot(image: ByteImage(bytes: bytes)), let file = try? RealmFile(path: "damaged.realm", snapshot: snapshot) else { continue }
            opened += 1
            let session = BrowserSession(file: file, options: .init(path: "/nonexistent/damaged.realm", reopen: { file }))
            session.size = (16, 90)
            for entry in session.classes.entries {
                guard let name = session.classes.name(of: entry) else { continue }
                session.show(className: name)
                for key in [Key.character("G"), .character("d"), .backspace, .character("l"), .character("s"), .enter, .character("b")] {
                    session.handle(key)
                    session.runPendingWork()
                    XCTAssertEqual(session.render().lines.count, 16)
                }
            }
        }
        XCTAssertGreaterThan(opened, 50)
    }
}
