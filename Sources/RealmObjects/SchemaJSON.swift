import RealmFormat

/// The `classes` part of the canonical dump (fixtures/README.md `<class>`, `<property>`).
public enum SchemaJSON {
    public static func writeClasses(_ classes: [ObjectClass], to out: inout JSONEmitter) {
        out.beginArray()
        for c in classes { writeClass(c, to: &out) }
        out.end()
    }

    public static func writeClass(_ c: ObjectClass, to out: inout JSONEmitter) {
        out.beginObject()
        out.key("name")
        out.string(c.name)
        out.key("primaryKey")
        if let pk = c.primaryKey { out.string(pk) } else { out.null() }
        out.key("embedded")
        out.bool(c.isEmbedded)
        out.key("properties")
        out.beginArray()
        for p in c.properties {
            out.beginObject()
            out.key("name")
            out.string(p.name)
            out.key("type")
            out.string(p.type)
            out.key("optional")
            out.bool(p.isOptional)
            out.key("indexed")
            out.bool(p.isIndexed)
            out.key("primaryKey")
            out.bool(p.isPrimaryKey)
            out.key("collection")
            if let kind = p.collection { out.string(kind.rawValue) } else { out.null() }
            out.key("objectType")
            if let t = p.objectType { out.string(t) } else { out.null() }
            // Computed linkingObjects properties are not persisted, so never named here.
            out.key("linkOrigin")
            out.null()
            out.end()
        }
        out.end()
        out.key("backlinks")
        out.beginArray()
        for b in c.backlinks {
            out.beginObject()
            out.key("originClass")
            if let o = b.originClass { out.string(o) } else { out.null() }
            out.key("originProperty")
            if let p = b.originProperty { out.string(p) } else { out.null() }
            out.end()
        }
        out.end()
        out.end()
    }
}
