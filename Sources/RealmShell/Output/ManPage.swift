/// The realmsh(1) manual page in roff (`realmsh help --man`), made from the same declarations
/// as `--help` (`Commands.all`'s `CommandSpec`s: usage, discussion, options with their help,
/// examples), so that the page and the help never disagree.
enum ManPage {
    static func render() -> String {
        var out = [
            ".TH REALMSH 1 \"\" \"realmsh \(RealmShell.version)\" \"User Commands\"",
            ".SH NAME",
            "realmsh \\- open, query, edit and check Realm database files",
            ".SH SYNOPSIS",
            ".B realmsh",
            ".I subcommand",
            "[\\fIoptions\\fR] [\\fIarguments\\fR]",
            ".br",
            ".B realmsh",
            "[\\fB\\-\\-write\\fR] [\\fB\\-c\\fR \\fIcommand\\fR]... \\fIFILE\\fR",
            ".br",
            ".B realmsh",
            ".SH DESCRIPTION",
            text("realmsh reads and writes real Realm files (.realm) in Realm Core's own format, on Linux: their schema, objects "
                 + "(as the canonical Extended JSON dump, JSON Lines or CSV), queries in Realm's query language evaluated as Realm "
                 + "Core does, edits in one transaction, compaction, encryption, migrations, and an interactive shell."),
            ".PP",
            text("realmsh FILE opens the interactive shell on a terminal, runs the commands on standard input or given with -c, "
                 + "and is realmsh info FILE when there is nothing to run. realmsh alone opens the shell with no file on a terminal, "
                 + "and prints the usage (exit status 64) otherwise."),
            ".SH SUBCOMMANDS",
        ]
        for command in Commands.all {
            let spec = command.spec
            out.append(".SS \(spec.name)")
            out.append(text(spec.abstract))
            out.append(".PP")
            out.append(".nf")
            out.append(escape(spec.usage))
            out.append(".fi")
            if !spec.discussion.isEmpty {
                out.append(".PP")
                out.append(text(spec.discussion))
            }
            for a in spec.arguments {
                out.append(".TP")
                out.append("\\fI\(escape(a.name))\\fR")
                out.append(text(a.help))
            }
            for o in spec.options {
                out.append(".TP")
                var left = (o.short.map { "\\fB\\-\($0)\\fR, " } ?? "") + "\\fB\\-\\-\(escape(o.long))\\fR"
                if let v = o.valueName { left += " \\fI\(escape(v))\\fR" }
                out.append(left)
                out.append(text(o.help + (o.choices.map { " (\($0.joined(separator: ", ")))" } ?? "")))
            }
            if !spec.examples.isEmpty {
                out.append(".PP")
                out.append("Examples:")
                out.append(".PP")
                out.append(".RS")
                out.append(".nf")
                out += spec.examples.map(escape)
                out.append(".fi")
                out.append(".RE")
            }
        }
        out += [
            ".SH EXIT STATUS",
            text("0 success, 1 differences found (schema --diff), 64 usage error, 65 bad data or query, 66 missing input, "
                 + "69 unsupported format, 70 internal error, 73 cannot create output, 74 I/O error, 75 locked by another "
                 + "process, 77 a key is needed, wrong key or permission denied, 130 interrupted (Ctrl-C)."),
            ".SH ENVIRONMENT",
            ".TP", "\\fBREALMSH_KEY\\fR", text("The encryption key of the file, as 128 hexadecimal characters."),
            ".TP", "\\fBREALMSH_HISTORY\\fR", text("The shell's history file (empty: no history)."),
            ".TP", "\\fBPAGER\\fR", text("The pager for results taller than the screen (default: less \\-FRSX)."),
            ".TP", "\\fBNO_COLOR\\fR", text("Set: no colour, even on a terminal."),
            ".TP", "\\fBCOLUMNS\\fR, \\fBLINES\\fR", text("The terminal's size, when set."),
            ".SH FILES",
            ".TP", "\\fI$XDG_STATE_HOME/realmsh/history\\fR", text("The shell's history (else ~/.local/state/realmsh/history)."),
            ".SH SEE ALSO",
            text("sqlite3(1); the documentation in Docs/ of the realmsh sources: commands.md, shell.md, query-language.md, migrations.md."),
        ]
        return out.joined(separator: "\n") + "\n"
    }

    /// Roff text: backslashes and dashes escaped, characters beyond ASCII as `\[uXXXX]` (so
    /// any groff reads them), a leading dot or quote kept from being read as a request.
    static func escape(_ s: String) -> String {
        var t = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": t += "\\e"
            case "-": t += "\\-"
            case _ where scalar.isASCII: t.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                t += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        if t.hasPrefix(".") || t.hasPrefix("'") { t = "\\&" + t }
        return t
    }

    /// A paragraph of running text.
    static func text(_ s: String) -> String {
        s.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }.joined(separator: "\n")
    }
}
