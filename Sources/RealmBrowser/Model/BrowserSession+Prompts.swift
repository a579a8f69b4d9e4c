import RealmFormat
import RealmObjects
import RealmQuery

/// A new object, property by property: the required values (primary key first) asked one
/// after the other, each parsed strictly; the rest start empty or null.
struct CreateForm {
    let objectClass: ObjectClass
    let fields: [Property]
    var index = 0
    var values: [String: Value] = [:]

    init(objectClass: ObjectClass) {
        self.objectClass = objectClass
        let required = objectClass.properties.filter {
            $0.isPrimaryKey || (!$0.isOptional && $0.collection == nil && $0.type != "object" && $0.type != "mixed")
        }
        fields = required.filter(\.isPrimaryKey) + required.filter { !$0.isPrimaryKey }
    }

    var field: Property { fields[index] }

    /// What the prompt offers for a field: nothing for the primary key, the type's zero
    /// otherwise (a fresh id for objectId and uuid).
    func suggestion(_ p: Property) -> String {
        if p.isPrimaryKey {
            switch p.column.type {
            case .objectId: return Self.newObjectId()
            case .uuid: return Self.newUUID()
            default: return ""
            }
        }
        switch p.column.type {
        case .int, .double, .float, .decimal: return "0"
        case .bool: return "false"
        case .timestamp: return "1970-01-01T00:00:00Z"
        case .objectId: return Self.newObjectId()
        case .uuid: return Self.newUUID()
        default: return ""
        }
    }

    static func newObjectId() -> String {
        let seconds = UInt32(truncatingIfNeeded: Int(Platform.monotonicSeconds()))
        var bytes = withUnsafeBytes(of: seconds.bigEndian, Array.init)
        for _ in 0..<8 { bytes.append(UInt8.random(in: 0...255)) }
        return ObjectId(bytes: bytes).hexString
    }

    static func newUUID() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
        bytes[6] = bytes[6] & 0x0F | 0x40     // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80     // RFC 4122 variant
        return RealmFormat.UUID(bytes: bytes).uuidString
    }
}

extension BrowserSession {
    // MARK: the input line

    func handleInput(_ key: Key) -> Action {
        guard var line = input, let prompt else { return .none }
        let outcome = line.handle(key)
        input = line
        switch outcome {
        case .editing:
            break
        case .cancel:
            input = nil
            self.prompt = nil
            message = nil
        case .complete:
            complete()
        case .submit:
            submit(prompt, line.text)
        }
        return .none
    }

    private func close() {
        input = nil
        prompt = nil
    }

    private func submit(_ prompt: Prompt, _ text: String) {
        switch prompt {
        case let .query(pane):
            busy("Filtering \(grouped(pane.baseCount)) \(pane.objectClass.name)…", rows: pane.baseCount) { [self] in
                let started = Platform.monotonicSeconds()
                do {
                    try pane.apply(filter: text, sort: pane.sort)
                    close()
                    if !text.isEmpty && queryHistory.last != text { queryHistory.append(text) }
                    say(text.trimmingWhitespace().isEmpty ? "Filter off: \(pane.countLine)." : "\(pane.countLine) (\(Self.milliseconds(since: started)))")
                } catch {
                    say(Self.describe(error), .error)
                }
            }
        case let .search(pane):
            let term = text.isEmpty ? (searchHistory.last ?? "") : text
            close()
            guard !term.isEmpty else { return }
            if searchHistory.last != term { searchHistory.append(term) }
            let column = pane.name(of: pane.columns[pane.column])
            busy("Searching \(column) of \(grouped(pane.rowCount)) \(pane.objectClass.name) for '\(term)'…", rows: pane.rowCount) { [self] in
                if let row = pane.search(term) {
                    move(pane, to: row)
                    say("Found '\(term)' in \(column) (/ and Enter: next).")
                } else {
                    say("'\(term)' is not in column \(column).", .error)
                }
            }
        case let .edit(target):
            let parsed: EditValue
            do { parsed = try EditText.parse(text, for: target.property, target: context.cells.target(of: target.property)) } catch {
                say(error.message, .error)
                return
            }
            close()
            do {
                try Edits(path: options.path).set(target, to: parsed)
                refresh(force: true, announce: false)
                let name = "\(target.objectClass.name)(\(context.cells.identity(target.objectClass, target.key))).\(target.property.name)"
                say("Saved \(name) = \(text.trimmingWhitespace()) — committed, version \(version).", .success)
            } catch {
                say(error.message, .error)
            }
        case var .create(form):
            do {
                let parsed = try EditText.parse(text, for: form.field, target: nil)
                guard case let .value(v) = parsed else { return }
                form.values[form.field.name] = v
            } catch {
                say(error.message, .error)
                return
            }
            form.index += 1
            if form.index < form.fields.count {
                askField(form)
                return
            }
            close()
            finishCreate(form)
        }
    }

    private func complete() {
        guard case let .query(pane) = prompt, var line = input else { return }
        guard let completer = options.complete else { return }
        let result = completer(file.classes, pane.objectClass.name, line.beforeCursor)
        if result.candidates.count == 1 {
            line.replaceBeforeCursor(result.wordLength, with: result.candidates[0] + (result.appendSpace ? " " : ""))
            message = nil
        } else if result.candidates.count > 1 {
            var common = result.candidates[0]
            for c in result.candidates.dropFirst() { while !c.hasPrefix(common) { common.removeLast() } }
            if common.count > result.wordLength { line.replaceBeforeCursor(result.wordLength, with: common) }
            say(result.candidates.joined(separator: "  "))
        } else {
            say("No completions.")
        }
        input = line
    }

    // MARK: query, sort, search

    func startQuery() {
        guard let pane = current as? TablePane else {
            say("Filters apply to tables of objects; go back (Backspace) to one.")
            return
        }
        prompt = .query(pane)
        input = InputLine(prompt: "filter \(pane.objectClass.name) where ", text: pane.filter ?? "", history: queryHistory)
        say("A Realm query (Tab completes properties and key paths); Enter applies, empty clears, Esc cancels.")
    }

    func sortByColumn() {
        guard let pane = current as? TablePane else {
            say("Sorting applies to tables of objects.")
            return
        }
        busy("Sorting \(grouped(pane.rowCount)) \(pane.objectClass.name) by \(pane.name(of: pane.columns[pane.column]))…", rows: pane.rowCount) { [self] in
            let started = Platform.monotonicSeconds()
            do {
                try pane.toggleSort()
                say(pane.sort.map { s in "Sorted by \(pane.name(of: pane.columns[s.column])) \(s.ascending ? "ascending" : "descending") (\(Self.milliseconds(since: started)))." } ?? "Unsorted.")
            } catch {
                say(Self.describe(error), .error)
            }
            move(pane, to: pane.cursor)
        }
    }

    /// Work on many rows (a filter, sort or search of a large class) runs after the screen has
    /// said what is happening: the loop draws, then calls `runPendingWork`. Small ones run now.
    func busy(_ text: String, rows: Int, _ work: @escaping () -> Void) {
        guard rows >= Self.busyRows else { return work() }
        say(text, .warning)
        pendingWork = work
    }

    static let busyRows = 50_000

    static func milliseconds(since start: Double) -> String {
        let ms = (Platform.monotonicSeconds() - start) * 1000
        return ms < 1000 ? "\(Int(ms.rounded())) ms" : "\(Int(ms / 100) / 10).\(Int(ms / 100) % 10) s"
    }

    func startSearch() {
        guard let pane = current as? TablePane else {
            say("Search looks through a table's column; go back (Backspace) to one.")
            return
        }
        prompt = .search(pane)
        input = InputLine(prompt: "search \(pane.name(of: pane.columns[pane.column])) for ", history: searchHistory)
        if let last = searchHistory.last { say("Enter on an empty line searches for '\(last)' again.") }
    }

    // MARK: writes

    private func requireWritable(_ what: String) -> Bool {
        guard writable else {
            say("Read-only: start with 'realmsh browse --write FILE' to \(what).", .error)
            return false
        }
        return true
    }

    /// The property under the cursor, when it can be edited in place.
    func editTarget() -> EditTarget? {
        if let pane = current as? DetailPane { return pane.currentEntry?.edit }
        guard let pane = current as? TablePane, let key = pane.key(ofRow: pane.cursor) else { return nil }
        guard case let .property(index) = pane.columns[pane.column] else { return nil }
        let value = (try? pane.value(row: pane.cursor, property: index)) ?? .null
        return EditTarget(objectClass: pane.objectClass, key: key, property: pane.objectClass.properties[index], value: value)
    }

    func startEdit() {
        guard requireWritable("edit values") else { return }
        guard let target = editTarget() else {
            say("Nothing to edit here: move to a value (the ObjKey and computed lines cannot be edited).", .error)
            return
        }
        let p = target.property
        let linkTarget = context.cells.target(of: p)
        if p.isPrimaryKey { return say("\(p.name) is the primary key: it cannot be changed after creation.", .error) }
        if p.collection != nil {
            return say("\(p.name) is a \(TypeLabel.of(p, target: linkTarget)): edit collections with realmsh update --json.", .error)
        }
        if linkTarget?.isEmbedded == true {
            return say("\(p.name) is an embedded object: edit its properties (Enter opens it).", .error)
        }
        if file.objectClass(named: target.objectClass.name) == nil {
            return say("\(target.objectClass.name) is an internal table; it is not edited.", .error)
        }
        prompt = .edit(target)
        input = InputLine(prompt: "\(p.name) (\(EditText.expected(p, target: linkTarget))) = ",
                          text: EditText.initial(target.value, property: p, cells: context.cells))
        say(editHint(p, target: linkTarget))
    }

    private func editHint(_ p: Property, target: ObjectClass?) -> String {
        var hint = "Enter saves (one transaction), Esc cancels."
        if p.type == "object" { hint = "The \(target?.name ?? "target")'s \(target?.primaryKey ?? "#ObjKey"), or null. " + hint }
        else if p.type == "mixed" { hint = "A literal: 'text', 42, 1.5, true, null, oid(…), uuid(…), a date. " + hint }
        else if p.isOptional { hint = "null clears it. " + hint }
        return hint
    }

    func startCreate() {
        guard requireWritable("add objects") else { return }
        guard let pane = current as? TablePane else { return say("New objects are added from a class's table.", .error) }
        let c = pane.objectClass
        if c.isEmbedded { return say("\(c.name) is embedded: its objects are created inside their parent.", .error) }
        if file.objectClass(named: c.name) == nil { return say("\(c.name) is an internal table; it is not edited.", .error) }
        let form = CreateForm(objectClass: c)
        if form.fields.isEmpty {
            finishCreate(form)
        } else {
            askField(form)
        }
    }

    private func askField(_ form: CreateForm) {
        let p = form.field
        prompt = .create(form)
        input = InputLine(prompt: "new \(form.objectClass.name) \(form.index + 1)/\(form.fields.count): \(p.name) (\(EditText.expected(p, target: nil))) = ",
                          text: form.suggestion(p))
        say("Required values one by one; the other properties start empty or null. Esc cancels.")
    }

    private func finishCreate(_ form: CreateForm) {
        let c = form.objectClass
        do {
            let key = try Edits(path: options.path).create(className: c.name, values: form.values)
            refresh(force: true, announce: false)
            show(className: c.name)
            if let pane = current as? TablePane {
                if let row = pane.row(ofKey: key) {
                    move(pane, to: row)
                    say("Created \(c.name)(\(context.cells.identity(c, key))) — committed, version \(version).", .success)
                } else {
                    say("Created \(c.name)(\(context.cells.identity(c, key))) — committed, version \(version); the filter hides it.", .success)
                }
            }
        } catch {
            say(error.message, .error)
        }
    }

    func confirmDelete() {
        guard requireWritable("delete objects") else { return }
        guard let (c, key) = current?.currentObject() else { return say("No object under the cursor.", .error) }
        if file.objectClass(named: c.name) == nil { return say("\(c.name) is an internal table; it is not edited.", .error) }
        let question = DeletePreview.question(c, key: key, context: context)
        let name = "\(c.name)(\(context.cells.identity(c, key)))"
        confirmation = (question, { [weak self] in
            guard let self else { return }
            do throws(Edits.Failure) {
                try Edits(path: self.options.path).delete(className: c.name, key: key)
                self.refresh(force: true, announce: false)
                self.say("Deleted \(name) — committed, version \(self.version).", .success)
            } catch {
                self.say(error.message, .error)
            }
        })
    }
}
