import RealmFormat
import RealmObjects

/// What Tab offers for the word before the cursor.
struct Completion: Equatable {
    /// Full replacements for the word.
    var candidates: [String] = []
    /// Whether a space follows a single match (not after a link, so a key path can go on).
    var appendSpace = true
    /// The candidates are paths (readline marks directories and lists base names).
    var filenames = false
}

/// Tab completion for the shell: commands, dot-commands and their arguments, options and
/// their values, class names, property names after a class, key paths through links
/// (`Person.dogs.` offers Dog's properties), query keywords and operators, file names.
/// It knows the line only up to the cursor; it never throws and never reads objects.
struct Completer {
    /// The classes of the open file (empty when none is open).
    let classes: [ObjectClass]

    /// Characters that end a word; the same set is given to readline, so both agree on where
    /// the word being completed starts. Dots, @, $, -, / and [] stay inside a word.
    static let wordBreaks: Set<UInt8> = Set(" \t\n\"'=<>!(){},&|;".utf8)

    /// UTF-8 offset where the word ending at the end of `prefix` starts.
    static func wordStart(_ prefix: String) -> Int {
        let bytes = Array(prefix.utf8)
        var i = bytes.count
        while i > 0, !wordBreaks.contains(bytes[i - 1]) { i -= 1 }
        return i
    }

    /// Completions for the text before the cursor (tests, and the readline hook through
    /// `complete(prefix:wordStart:)`).
    func complete(_ prefix: String) -> Completion { complete(prefix: prefix, wordStart: Self.wordStart(prefix)) }

    func complete(prefix: String, wordStart: Int) -> Completion {
        let bytes = Array(prefix.utf8)
        let start = max(0, min(wordStart, bytes.count))
        let before = String(decoding: bytes[0..<start], as: UTF8.self)
        let word = String(decoding: bytes[start...], as: UTF8.self)
        let scan = LooseWords(before)
        let words = scan.words

        guard let first = words.first else {
            if scan.openQuote != nil { return Completion() }
            return firstWord(word)
        }
        if first.hasPrefix(".") { return dotCommandArgument(first, Array(words.dropFirst()), word: word, scan: scan) }
        if first == "help" { return Completion(candidates: matching(word, commandNames + DotCommand.all.map { "." + $0.name })) }
        if let command = Commands.named(first), first != "shell" {
            return commandArgument(command.spec, Array(words.dropFirst()), word: word, scan: scan, before: before)
        }
        // The short query form: Class[.link…] where …
        let head = first.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let root = objectClass(head[0]) else { return Completion() }
        var target: ObjectClass? = root
        for link in head.dropFirst() { target = target.flatMap { linkTarget($0, link) } }
        guard let target else { return Completion() }
        if words.count == 1 && scan.openQuote == nil {
            return keywords(word, ["where", "SORT(", "DISTINCT(", "LIMIT("], appendSpace: word.lowercased().hasPrefix("w") || word.isEmpty)
        }
        // The predicate: after `where`, or from SORT(…)/LIMIT(…) on.
        var rest = Substring(before).drop { $0 == " " || $0 == "\t" }.drop { $0 != " " && $0 != "\t" && $0 != "\n" }
        rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if rest.lowercased().hasPrefix("where") { rest = rest.dropFirst(5) }
        return predicateCompletion(target, context: String(rest), word: word)
    }

    // MARK: words in each position

    var commandNames: [String] { Commands.all.map { $0.spec.name }.filter { $0 != "shell" } }

    func firstWord(_ word: String) -> Completion {
        if word.hasPrefix(".") {
            return Completion(candidates: matching(word, DotCommand.all.map { "." + $0.name }))
        }
        if let dot = word.lastIndex(of: ".") {
            // Class.link.li → links only (the short form follows links).
            let path = word[..<dot].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let root = objectClass(path[0]) else { return Completion() }
            var target: ObjectClass? = root
            for link in path.dropFirst() { target = target.flatMap { linkTarget($0, link) } }
            guard let target else { return Completion() }
            let stem = String(word[...dot])
            let links = target.properties.filter { $0.type == "object" }.map { stem + $0.name }
            return Completion(candidates: matching(word, links), appendSpace: false)
        }
        let candidates = matching(word, commandNames + ["help"] + classes.map(\.name))
        return Completion(candidates: candidates)
    }

    func dotCommandArgument(_ typed: String, _ args: [String], word: String, scan: LooseWords) -> Completion {
        guard let command = try? DotCommand.resolve(String(typed.dropFirst())) else { return Completion() }
        if command.name == "open" {
            if word.hasPrefix("-") { return Completion(candidates: matching(word, ["--key-file", "--key"])) }
            if args.last == "--key" { return Completion() }
            return files(word)
        }
        if command.name == "follow" {
            if args.isEmpty { return firstWord(word).filteredToClassesAndPaths(classes) }
            let head = args[0].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            var target = objectClass(head[0])
            for link in head.dropFirst() { target = target.flatMap { linkTarget($0, link) } }
            guard let target else { return Completion() }
            if args.count == 1 { return keywords(word, ["where"]) }
            return predicateCompletion(target, context: args.dropFirst(2).joined(separator: " ") + (scan.trailingSpace ? " " : ""), word: word)
        }
        switch command.completes {
        case .nothing: return Completion()
        case .onOff: return args.isEmpty ? Completion(candidates: matching(word, ["on", "off"])) : Completion()
        case .modes: return args.isEmpty ? Completion(candidates: matching(word, ResultFormats.names(for: .shell))) : Completion()
        case .classes: return Completion(candidates: matching(word, classes.map(\.name)))
        case .files: return args.isEmpty ? files(word) : Completion()
        case .topics: return Completion(candidates: matching(word, DotCommand.all.map { "." + $0.name } + commandNames))
        case .keyPath: return Completion()
        }
    }

    func commandArgument(_ spec: CommandSpec, _ args: [String], word: String, scan: LooseWords, before: String) -> Completion {
        // Which option takes a value here, and how many positionals come before the word.
        var expecting: CommandSpec.Option?
        var positionals = [String]()
        for a in args {
            if expecting != nil {
                expecting = nil
                continue
            }
            if a.hasPrefix("--"), !a.contains("=") {
                expecting = spec.options.first { "--" + $0.long == a && $0.valueName != nil }
            } else if a.hasPrefix("-"), a.count == 2 {
                expecting = spec.options.first { $0.short.map { "-" + String($0) } == a && $0.valueName != nil }
            } else if !a.hasPrefix("-") {
                positionals.append(a)
            }
        }
        // `--format=js`: the word starts after '='.
        if expecting == nil, before.hasSuffix("="), let last = args.last, last.hasPrefix("--") {
            let name = String(last.dropFirst(2).prefix { $0 != "=" })
            expecting = spec.options.first { $0.long == name && $0.valueName != nil }
        }
        let className = positionals.first
        let takesClass = spec.arguments.count > 1 && spec.arguments[1].name == "CLASS"

        if scan.openQuote != nil {
            // Inside quotes: a predicate (query's PREDICATE, --where) gets property completion.
            let isPredicate = (spec.name == "query" && positionals.count == 1 && expecting == nil) || expecting?.long == "where"
            if isPredicate, let className, let c = objectClass(className) {
                return predicateCompletion(c, context: scan.quotedText, word: word)
            }
            return Completion()
        }
        if let option = expecting {
            if let choices = option.choices { return Completion(candidates: matching(word, choices)) }
            if option.long == "class" { return Completion(candidates: matching(word, classes.map(\.name))) }
            if option.takesPath { return files(word) }
            if option.long == "where", let className, let c = objectClass(className) {
                return predicateCompletion(c, context: "", word: word)
            }
            return Completion()
        }
        if word.hasPrefix("-") {
            let options = spec.options.map { "--" + $0.long } + ["--help"]
            return Completion(candidates: matching(word, options))
        }
        if spec.name == "import", positionals.isEmpty {
            // `import [CLASS] DATA`: a class, or the data file of a dump or JSON Lines.
            let names = matching(word, classes.map(\.name))
            return names.isEmpty ? files(word) : Completion(candidates: names)
        }
        if takesClass && positionals.isEmpty { return Completion(candidates: matching(word, classes.map(\.name))) }
        if spec.name == "query", positionals.count == 1, let c = className.flatMap(objectClass) {
            return predicateCompletion(c, context: "", word: word)
        }
        if spec.name == "import", positionals.count == 1 { return files(word) }
        if spec.name == "create" && positionals.isEmpty { return files(word) }
        return Completion()
    }

    // MARK: predicates

    static let operators = ["==", "!=", "<", "<=", ">", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "IN", "BETWEEN", "TEXT"]
    static let connectives = ["AND", "OR", "SORT(", "DISTINCT(", "LIMIT("]
    static let conditionStarts = ["NOT", "ANY", "ALL", "NONE", "SUBQUERY(", "TRUEPREDICATE", "FALSEPREDICATE"]

    /// Completion inside a predicate on `objectClass`; `context` is the predicate text before
    /// the word.
    func predicateCompletion(_ objectClass: ObjectClass, context: String, word: String) -> Completion {
        let tokens = PredicateTokens(context)
        if tokens.inOrdering {
            if tokens.last?.kind == .path { return keywords(word, ["ASC", "DESC"]) }
            return keyPath(objectClass, word)
        }
        if word.contains(".") { return keyPath(objectClass, word) }
        switch tokens.position {
        case .conditionStart(let quantified):
            var completion = keyPath(objectClass, word)
            if !quantified {
                let words = keywords(word, Self.conditionStarts, appendSpace: true).candidates
                completion.candidates += words
                if completion.candidates.count > 1 { completion.appendSpace = true }
            }
            return completion
        case .afterPath:
            return keywords(word, Self.operators)
        case .afterOperator:
            return keywords(word, ["null", "true", "false"])
        case .afterValue:
            return keywords(word, Self.connectives, appendSpace: !word.uppercased().hasPrefix("S") && !word.uppercased().hasPrefix("D") && !word.uppercased().hasPrefix("L"))
        }
    }

    /// Properties and key paths: `na` → `name`; `dogs.` → `dogs.name`, `dogs.@count`, …
    func keyPath(_ objectClass: ObjectClass, _ word: String) -> Completion {
        var parts = word.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let last = parts.removeLast()
        var current: ObjectClass? = objectClass
        var collectionOfValues = false
        var isCollection = false
        for part in parts {
            guard let c = current, !part.hasPrefix("@"), let p = c.property(named: part) else { return Completion() }
            isCollection = p.collection != nil
            if p.type == "object" {
                current = linkTarget(c, part)
                collectionOfValues = false
            } else {
                current = nil
                collectionOfValues = p.collection != nil || p.type == "mixed"
            }
        }
        let stem = parts.isEmpty ? "" : parts.joined(separator: ".") + "."
        var names = [String]()
        if let current {
            names += current.properties.map(\.name)
            if isCollection { names += ["@count", "@size", "@avg.", "@min.", "@max.", "@sum."] }
            if parts.isEmpty && current.backlinks.isEmpty == false { names.append("@links.") }
        } else if collectionOfValues {
            names += ["@count", "@size", "@avg", "@min", "@max", "@sum", "@keys", "@values", "@type"]
        } else if !parts.isEmpty {
            return Completion()
        }
        var candidates = matching(stem + last, names.map { stem + $0 })
        if candidates.isEmpty { candidates = matching(stem + last, names.map { stem + $0 }, ignoringCase: true) }
        // A single link or collection keeps the cursor on the word, ready for '.'.
        var appendSpace = true
        if candidates.count == 1 {
            let name = String(candidates[0].dropFirst(stem.count))
            if name.hasSuffix(".") { appendSpace = false }
            if let c = current, let p = c.property(named: name), p.type == "object" || p.collection != nil { appendSpace = false }
        }
        return Completion(candidates: candidates, appendSpace: appendSpace)
    }

    // MARK: helpers

    func objectClass(_ name: String) -> ObjectClass? { classes.first { $0.name == name } }

    func linkTarget(_ c: ObjectClass, _ name: String) -> ObjectClass? {
        guard let p = c.property(named: name), p.type == "object", let target = p.objectType else { return nil }
        return objectClass(target)
    }

    /// Keywords matching the word regardless of case, written in the word's case (all-lower
    /// word: lower-case keywords).
    func keywords(_ word: String, _ list: [String], appendSpace: Bool = true) -> Completion {
        let lower = !word.isEmpty && word == word.lowercased() && word != word.uppercased()
        let found = list.filter { $0.lowercased().hasPrefix(word.lowercased()) }.map { lower ? $0.lowercased() : $0 }
        let single = found.count == 1 && found[0].hasSuffix("(")
        return Completion(candidates: found, appendSpace: appendSpace && !single)
    }

    /// Candidates starting with `word` (each once, in order).
    func matching(_ word: String, _ list: [String], ignoringCase: Bool = false) -> [String] {
        var seen = Set<String>()
        let lowerWord = word.lowercased()
        return list.filter { candidate in
            (ignoringCase ? candidate.lowercased().hasPrefix(lowerWord) : candidate.hasPrefix(word)) && seen.insert(candidate).inserted
        }
    }

    /// File names: the directory part of the word listed, hidden files only when asked for.
    func files(_ word: String) -> Completion {
        var directory = "."
        var stem = ""
        var base = word
        if let slash = word.lastIndex(of: "/") {
            stem = String(word[...slash])
            base = String(word[word.index(after: slash)...])
            directory = stem == "/" ? "/" : String(stem.dropLast())
            if directory.hasPrefix("~"), let home = Platform.homeDirectory() { directory = home + directory.dropFirst() }
            if directory.isEmpty { directory = "/" }
        }
        let entries = Platform.listDirectory(directory)
            .filter { $0.name.hasPrefix(base) && (base.hasPrefix(".") || !$0.name.hasPrefix(".")) }
            .map { stem + $0.name }
            .sorted()
        return Completion(candidates: entries, appendSpace: true, filenames: true)
    }
}

extension Completion {
    /// `.follow` takes classes and key paths only.
    func filteredToClassesAndPaths(_ classes: [ObjectClass]) -> Completion {
        var c = self
        c.candidates = candidates.filter { candidate in
            candidate.contains(".") || classes.contains { $0.name == candidate }
        }
        if c.candidates.count == 1 && !c.candidates[0].contains(".") { c.appendSpace = false }
        return c
    }
}

/// The words of a command line up to the cursor, tolerating an open quote: the words before
/// it, and the text inside it.
struct LooseWords {
    var words: [String] = []
    /// The quote character still open at the cursor.
    var openQuote: Character?
    /// Text inside the open quote, before the word being completed.
    var quotedText = ""
    /// Whether the open quote started a new word (rather than continuing an option `--x=`).
    var quotedWordIsOptionValue = false
    var trailingSpace = false

    init(_ text: String) {
        var current = ""
        var inWord = false
        var quote: Character?
        for c in text {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
                continue
            }
            if c == " " || c == "\t" || c == "\n" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
                continue
            }
            inWord = true
            if c == "'" || c == "\"" {
                quote = c
                quotedWordIsOptionValue = current.hasPrefix("--") && current.hasSuffix("=")
                continue
            }
            current.append(c)
        }
        if let quote {
            openQuote = quote
            // The text of the open quoted word: everything after its opening quote.
            if let open = text.lastIndex(of: quote) { quotedText = String(text[text.index(after: open)...]) }
            if quotedWordIsOptionValue {
                let name = current.prefix { $0 != "=" }
                words.append(String(name))
            }
        } else if inWord {
            words.append(current)
        }
        trailingSpace = text.last == " "
    }
}

/// A rough scan of a predicate before the cursor: enough to know whether a property, an
/// operator, a value or a connective comes next.
struct PredicateTokens {
    enum Kind { case path, keyword, op, value, open, close, comma }
    struct Token { let kind: Kind; let text: String }

    enum Position {
        /// A condition starts (after AND, OR, NOT, '(' or at the beginning); `quantified`
        /// after ANY/ALL/NONE, where only a key path fits.
        case conditionStart(quantified: Bool)
        case afterPath, afterOperator, afterValue
    }

    var tokens: [Token] = []
    var last: Token? { tokens.last }
    /// Inside SORT( or DISTINCT( not yet closed.
    var inOrdering = false

    static let connectiveWords: Set<String> = ["AND", "OR", "NOT", "WHERE"]
    static let quantifiers: Set<String> = ["ANY", "ALL", "NONE", "SOME"]
    static let operatorWords: Set<String> = ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "IN", "BETWEEN", "TEXT"]
    static let valueWords: Set<String> = ["TRUEPREDICATE", "FALSEPREDICATE", "TRUE", "FALSE", "NULL", "NIL"]

    init(_ text: String) {
        let chars = Array(text)
        var i = 0
        var depthAtOrdering: Int?
        var depth = 0
        while i < chars.count {
            let c = chars[i]
            if c == " " || c == "\t" || c == "\n" { i += 1; continue }
            if c == "'" || c == "\"" {
                var j = i + 1
                while j < chars.count, chars[j] != c { j += chars[j] == "\\" ? 2 : 1 }
                tokens.append(Token(kind: .value, text: String(chars[i..<min(j + 1, chars.count)])))
                i = j + 1
                continue
            }
            if c.isLetter || c == "_" || c == "$" || c == "@" {
                var j = i
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || "_$@.[]".contains(chars[j]) { j += 1 }
                let word = String(chars[i..<j])
                let upper = word.uppercased()
                let bare = upper.hasSuffix("[C]") ? String(upper.dropLast(3)) : upper
                if Self.connectiveWords.contains(upper) || Self.quantifiers.contains(upper) {
                    tokens.append(Token(kind: .keyword, text: upper))
                } else if Self.operatorWords.contains(bare) {
                    tokens.append(Token(kind: .op, text: upper))
                } else if Self.valueWords.contains(upper) {
                    tokens.append(Token(kind: .value, text: upper))
                } else if (upper == "SORT" || upper == "DISTINCT" || upper == "LIMIT"), j < chars.count, chars[j] == "(" {
                    tokens.append(Token(kind: .keyword, text: upper))
                    if upper != "LIMIT" { depthAtOrdering = depth }
                } else {
                    tokens.append(Token(kind: .path, text: word))
                }
                i = j
                continue
            }
            if c.isNumber || (c == "-" && i + 1 < chars.count && chars[i + 1].isNumber) {
                var j = i + 1
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || ".:@-+".contains(chars[j]) { j += 1 }
                tokens.append(Token(kind: .value, text: String(chars[i..<j])))
                i = j
                continue
            }
            if "=<>!&|".contains(c) {
                var j = i
                while j < chars.count, "=<>!&|".contains(chars[j]) { j += 1 }
                let op = String(chars[i..<j])
                tokens.append(Token(kind: op == "&&" || op == "||" || op == "!" ? .keyword : .op, text: op))
                i = j
                continue
            }
            switch c {
            case "(", "{": depth += 1; tokens.append(Token(kind: .open, text: String(c)))
            case ")", "}":
                depth -= 1
                if let d = depthAtOrdering, depth <= d { depthAtOrdering = nil }
                tokens.append(Token(kind: .close, text: String(c)))
            case ",": tokens.append(Token(kind: .comma, text: ","))
            default: tokens.append(Token(kind: .value, text: String(c)))
            }
            i += 1
        }
        inOrdering = depthAtOrdering != nil
    }

    var position: Position {
        guard let last else { return .conditionStart(quantified: false) }
        switch last.kind {
        case .keyword:
            return .conditionStart(quantified: Self.quantifiers.contains(last.text))
        case .open, .comma:
            return .conditionStart(quantified: false)
        case .path:
            return .afterPath
        case .op:
            return .afterOperator
        case .value, .close:
            return .afterValue
        }
    }
}
