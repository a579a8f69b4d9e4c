import RealmFormat

/// Links stored in Mixed values (a `mixed` property, elements of Mixed lists and sets, values
/// of Mixed dictionaries): `{"$link": {"class": C, "id": identity}}` as the canonical dump
/// writes them (fixtures/README.md) becomes a `.typedLink` (realm-format.md §9.12), with
/// realm-core's rules (`Obj::set<Mixed>`, `Group::validate(ObjLink)`): the target must exist,
/// and may be neither embedded nor asymmetric. Its backlink lives in a backlink column of
/// the target table for (origin table, origin column), created with the first such link (§10.6).
extension RealmWriter {
    /// The `.typedLink` a `$link` of a Mixed value of class `origin` names. Problems are
    /// `ValueCoercion.Failure`s, which the caller reports with object, class and property.
    func mixedLink(_ className: String, _ identity: JSONValue, from origin: ObjectClass) throws -> Value {
        typealias Failure = ValueCoercion.Failure
        guard let target = file.objectClass(named: className) else {
            var reason = "$link names no class '\(className)'"
            reason += NameSuggestion.didYouMean(className, among: file.classes.map(\.name))
            throw Failure.mismatch(reason)
        }
        if origin.isAsymmetric { throw Failure.mismatch("links are not allowed in asymmetric classes") }
        if target.isEmbedded { throw Failure.mismatch("cannot link to embedded object: \(className) is an embedded class") }
        if target.isAsymmetric { throw Failure.mismatch("cannot link to ephemeral object: \(className) is an asymmetric class") }
        let editor = try self.editor(target.table.position)
        if case let .object(members) = identity, members.count == 1, members[0].0 == "$key" {
            guard case let .number(text) = members[0].1, let key = Int64(text) else {
                throw Failure.mismatch("$link to \(className): {\"$key\": N} expects an integer N, got \(ValueCoercion.describe(members[0].1))")
            }
            guard editor.contains(key) else { throw Failure.mismatch("$link: no \(className) object has key \(key)") }
            return .typedLink(table: target.table.key, key: key)
        }
        guard let pkName = target.primaryKey, let pk = target.property(named: pkName) else {
            throw Failure.mismatch("$link: \(className) has no primary key: identify the object with {\"$key\": N}")
        }
        let value: Value
        do {
            value = try ValueCoercion.scalar(identity, type: pk.column.type, nullable: pk.isOptional)
        } catch let .mismatch(reason) {
            throw Failure.mismatch("$link to \(className): the primary key \(pkName) \(reason)")
        }
        guard PrimaryKey(value) != nil, let key = try editor.objectKey(primaryKey: value) else {
            throw Failure.mismatch("$link: no \(className) object has primary key \(describe(value))")
        }
        return .typedLink(table: target.table.key, key: key)
    }

    /// The backlink column of `target` for links from `column` of `origin`, created when
    /// `create` and the origin column is one whose backlink columns Realm makes on demand:
    /// Mixed and TypedLink columns, and dictionaries (realm-core `Obj::set_backlink`,
    /// `Table::find_or_add_backlink_column`). Link columns get theirs with the column (§10.6).
    func backlinkColumn(in target: TableEditor, origin: TableEditor, column: TableModel.ColumnModel,
                        create: Bool) throws(FormatError) -> Int? {
        if let b = target.columns.firstIndex(where: { $0.isBacklink && $0.targetTable == origin.key && $0.oppositeColumn == column.key }) {
            return b
        }
        guard create, column.type == .mixed || column.type == .typedLink || column.collection == .dictionary else { return nil }
        let key = SchemaBuilder.newColumnKey(columns: target.columns, sequence: target.table.columnKeySequence,
                                             table: target.key, type: .backlink, attributes: [])
        let backlink = TableModel.ColumnModel(name: "", type: .backlink, attributes: [], key: key,
                                              specType: Int64(ColumnType.backlink.rawValue), specAttributes: 0,
                                              targetTable: origin.key, oppositeColumn: column.key, isIndexed: false)
        let b = try target.appendBacklinkColumn(backlink)
        // Creation plans hold a row of the table's old width.
        creationPlans = creationPlans.filter { $0.value.editor !== target }
        if lastCreationPlan?.editor === target { lastCreationPlan = nil }
        return b
    }
}
