/// One column of a table: its Spec entries plus what its ColKey and the table's per-column
/// slots say (realm-format.md §7.1, §7.5, §7.6).
public struct Column: Sendable {
    /// Position in the Spec: public columns first, then backlink columns.
    public let specIndex: Int
    /// Empty for backlink columns.
    public let name: String
    /// Normalized: a format ≤ 23 `linkList` is reported as `link` with the list attribute.
    public let type: ColumnType
    public let attributes: ColumnAttributes
    public let key: ColumnKey
    /// DataType of dictionary keys (2 = string, 0 = int), from the Spec types array (§7.5).
    public let dictionaryKeyType: Int
    /// Root of the column's search index, or nil (table slot 4).
    public let searchIndexRef: Int?
    /// Link and backlink columns: the table on the other side (table slot 7).
    public let targetTable: TableKey?
    /// Link and backlink columns: the column on the other side (table slot 8).
    public let oppositeColumn: ColumnKey?

    // Inlinable: single-object reads from other modules ask for it once per object.
    @inlinable public var leafIndex: Int { key.leafIndex }
    public var isBacklink: Bool { type == .backlink }
    public var isNullable: Bool { attributes.contains(.nullable) }
    /// `collection != nil` as one test of the raw bits (`.list` 32, `.dictionary` 64, `.set`
    /// 128): inlined into single-object reads of other modules, which ask once per object.
    @inlinable public var isCollection: Bool { attributes.rawValue & (32 | 64 | 128) != 0 }
    public var collection: CollectionKind? {
        if attributes.contains(.list) { return .list }
        if attributes.contains(.set) { return .set }
        if attributes.contains(.dictionary) { return .dictionary }
        return nil
    }
    /// A general (not full-text) search index exists (§17.4).
    public var hasSearchIndex: Bool { searchIndexRef != nil && !attributes.contains(.fullText) }

    init(specIndex: Int, name: String, specType: Int64, specAttributes: Int64, key: ColumnKey,
         searchIndexRef: Int?, targetTable: TableKey?, oppositeColumn: ColumnKey?) throws(FormatError) {
        var attributes = key.attributes.union(ColumnAttributes(rawValue: Int(specAttributes) & 0x101))
        guard var type = ColumnType(rawValue: key.rawType) else {
            throw .corrupt(offset: 0, reason: "column '\(name)' has unknown type \(key.rawType)")
        }
        if type == .linkList {
            type = .link
            attributes.insert(.list)
        }
        self.specIndex = specIndex
        self.name = name
        self.type = type
        self.attributes = attributes
        self.key = key
        self.dictionaryKeyType = Int(specType >> 16)
        self.searchIndexRef = searchIndexRef
        self.targetTable = targetTable
        self.oppositeColumn = oppositeColumn
    }
}
