import RealmFormat

/// The values of one object, read in place from the decoded columns of its cluster leaf
/// (no per-object array is built).
public struct ObjectRow: RandomAccessCollection {
    let columns: [[Value]]
    let row: Int
    public var startIndex: Int { 0 }
    public var endIndex: Int { columns.count }
    public subscript(position: Int) -> Value { columns[position][row] }
}

extension RealmFile {
    /// Calls `body` for every object of `objectClass` in ascending ObjKey order (the table's
    /// iteration order) with the values of `properties` (all persisted properties by default).
    /// Decoding is column-wise, one cluster leaf at a time, so memory stays flat.
    public func forEachObject(of objectClass: ObjectClass, properties: [Property]? = nil,
                              _ body: (_ key: Int64, _ values: ObjectRow) throws -> Void) throws {
        try forEachLeaf(of: objectClass, properties: properties) { keys, columns in
            for (r, key) in keys.enumerated() { try body(key, ObjectRow(columns: columns, row: r)) }
        }
    }

    /// The objects of `objectClass` a cluster leaf at a time, in ObjKey order: the leaf's
    /// ObjKeys and its decoded columns (one array per property, one value per object), for
    /// callers that hand whole leaves on (the SQLite export reads them on a second thread).
    public func forEachLeaf(of objectClass: ObjectClass, properties: [Property]? = nil,
                            _ body: (_ keys: [Int64], _ columns: [[Value]]) throws -> Void) throws {
        // Opening a format-22 file deletes the objects of asymmetric tables (§16.3).
        if snapshot.fileFormat == 22 && objectClass.isAsymmetric { return }
        let properties = properties ?? objectClass.properties
        if let rows = legacyRows[objectClass.table.key] {
            try Self.forEachLeaf(of: objectClass, rows: rows, properties: properties, body)
            return
        }
        guard let root = objectClass.table.clusterRef else { return }
        snapshot.resetWorkBudget()
        var failure: Error?
        try ClusterTree(snapshot: snapshot, rootRef: root).forEachLeaf { leaf throws(FormatError) in
            guard failure == nil else { return }
            let columns = try properties.map { p throws(FormatError) in try decodeColumn(p.column, of: objectClass, in: leaf) }
            do { try body((0..<leaf.count).map { leaf.objectKey($0) }, columns) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Like `forEachObject`, but only for the objects at the given positions (in table order,
    /// ascending): leaves without any of them are not decoded.
    public func forEachObject(of objectClass: ObjectClass, atPositions positions: [Int], properties: [Property]? = nil,
                              _ body: (_ position: Int, _ key: Int64, _ values: ObjectRow) throws -> Void) throws {
        if snapshot.fileFormat == 22 && objectClass.isAsymmetric { return }
        let properties = properties ?? objectClass.properties
        if let rows = legacyRows[objectClass.table.key] {
            try Self.forEachObject(of: objectClass, rows: rows, atPositions: positions, properties: properties, body)
            return
        }
        guard let root = objectClass.table.clusterRef, !positions.isEmpty else { return }
        var next = 0
        var start = 0
        var failure: Error?
        try ClusterTree(snapshot: snapshot, rootRef: root).forEachLeaf { leaf throws(FormatError) in
            defer { start += leaf.count }
            guard failure == nil, next < positions.count, positions[next] < start + leaf.count else { return }
            let columns = try properties.map { p throws(FormatError) in try decodeColumn(p.column, of: objectClass, in: leaf) }
            while next < positions.count, positions[next] < start + leaf.count {
                let r = positions[next] - start
                next += 1
                guard r >= 0 else { continue }
                do { try body(start + r, leaf.objectKey(r), ObjectRow(columns: columns, row: r)) } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
    }

    /// The values of one column in one cluster leaf, checked to hold one value per object.
    public func decodeColumn(_ column: Column, of objectClass: ObjectClass, in leaf: ClusterLeaf) throws(FormatError) -> [Value] {
        guard let ref = leaf.columnRef(column.leafIndex) else {
            throw .corrupt(offset: leaf.node.ref, reason: "class '\(objectClass.name)': no data for property '\(column.name)'")
        }
        let values: [Value]
        if column.collection != nil {
            let refs = try snapshot.node(ref)
            guard refs.hasRefs else {
                throw .corrupt(offset: ref, reason: "class '\(objectClass.name)': collection column '\(column.name)' is not a ref array")
            }
            values = try (0..<refs.count).map { i throws(FormatError) in try snapshot.decodeCollection(refs.ref(i), column: column) }
        } else {
            values = try snapshot.decodeLeaf(ref, type: column.type, nullable: column.isNullable, context: .cluster,
                                             enumValues: objectClass.table.enumValuesRef(for: column))
        }
        guard values.count == leaf.count else {
            throw .corrupt(offset: ref, reason: "class '\(objectClass.name)': property '\(column.name)' holds \(values.count) values for \(leaf.count) objects")
        }
        return values
    }

    /// Number of objects of a class, from the cluster tree's size (no values decoded).
    public func objectCount(of objectClass: ObjectClass) throws(FormatError) -> Int {
        if snapshot.fileFormat == 22 && objectClass.isAsymmetric { return 0 }
        if let rows = legacyRows[objectClass.table.key] { return rows.objectKeys.count }
        guard let root = objectClass.table.clusterRef else { return 0 }
        return try ClusterTree(snapshot: snapshot, rootRef: root).count()
    }
}
