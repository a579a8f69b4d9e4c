import Foundation
import RealmFormat
import RealmObjects
@testable import RealmBrowser
import RealmTestSupport

/// Sessions on the shared fixtures, and what their dumps (realm-core's own) say, for tests
/// that compare the screen with the dump.
enum BrowserFixtures {
    static func open(_ path: String) throws -> RealmFile { try RealmFile(path: path) }

    /// A session on `path` with a screen of `rows` × `columns`.
    static func session(_ path: String, className: String? = nil, writable: Bool = false,
                        rows: Int = 30, columns: Int = 120) throws -> BrowserSession {
        let file = try open(path)
        let session = BrowserSession(file: file, options: .init(path: path, className: className, writable: writable,
                                                                 reopen: { try RealmFile(path: path) }))
        session.size = (rows, columns)
        _ = session.render()
        return session
    }

    /// The canonical dump's objects of one class, in ObjKey order.
    static func objects(_ fixture: String, _ className: String) throws -> [[String: Any]] {
        let path = Fixtures.path(fixture)
        guard let data = Fixtures.expectedDump(for: path),
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let objects = json["objects"] as? [String: Any], let list = objects[className] as? [[String: Any]] else {
            throw Missing(what: "\(fixture): no dump objects for \(className)")
        }
        return list
    }

    /// `{"$key": N}` → N.
    static func key(_ identity: Any?) -> Int64? {
        ((identity as? [String: Any])?["$key"] as? NSNumber)?.int64Value
    }

    struct Missing: Error { let what: String }

    /// A writable copy of a fixture in a scratch directory (removed by the caller).
    static func copy(_ fixture: String) throws -> (directory: String, path: String) {
        let dir = Fixtures.temporaryDirectory()
        return (dir, try Fixtures.copy(fixture, into: dir))
    }
}

extension BrowserSession {
    /// Types keys as a person would.
    func type(_ keys: Key...) { for k in keys { handle(k) } }
    func type(text: String) { for c in text { handle(.character(c)) } }

    /// The screen's lines as text.
    var screen: [String] { render().lines.map(\.text) }

    var table: TablePane? { stack.last as? TablePane }
}

extension TablePane {
    /// The text of one column for every row shown (tests read whole tables of small fixtures).
    func columnTexts(_ name: String) -> [String] {
        guard let c = columns.firstIndex(where: { self.name(of: $0) == name }) else { return [] }
        return (0..<rowCount).map { cell(row: $0, columns[c]).0 }
    }

    func keys() -> [Int64] { (0..<rowCount).compactMap { key(ofRow: $0) } }

    func moveTo(column name: String) {
        if let c = columns.firstIndex(where: { self.name(of: $0) == name }) { column = c }
    }
}
