/// Shell completion for `realmsh` in bash, zsh and fish (`realmsh completion SHELL`), made
/// from the same declarations as the help text (`Commands.all`'s `CommandSpec`s): the
/// subcommands with their abstracts, each one's options with their help, the closed choices
/// of options like `--format`, file names for options that take a path
/// (`CommandSpec.Option.takesPath`) and for the arguments.
enum CompletionScripts {
    static let shells = ["bash", "zsh", "fish"]

    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": return bash()
        case "zsh": return zsh()
        case "fish": return fish()
        default: return nil
        }
    }

    static var specs: [CommandSpec] { Commands.all.map { $0.spec } }

    static func optionWords(_ spec: CommandSpec) -> [String] {
        spec.options.flatMap { o in (o.short.map { ["-\($0)"] } ?? []) + ["--" + o.long] } + ["-h", "--help"]
    }

    // MARK: bash

    static func bash() -> String {
        var lines = [
            "# bash completion for realmsh: realmsh completion bash > ~/.local/share/bash-completion/completions/realmsh",
            "_realmsh() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
            "    if [[ $COMP_CWORD -eq 1 ]]; then",
            "        COMPREPLY=( $(compgen -W \"\(specs.map(\.name).joined(separator: " ")) -h --help -V --version\" -- \"$cur\") $(compgen -f -- \"$cur\") )",
            "        return",
            "    fi",
            "    local opts=\"\"",
            "    case \"${COMP_WORDS[1]}\" in",
        ]
        for spec in specs {
            lines.append("    \(spec.name))")
            lines.append("        opts=\"\(optionWords(spec).joined(separator: " "))\"")
            var cases = [String]()
            for o in spec.options where o.valueName != nil {
                let names = ((o.short.map { ["-\($0)"] } ?? []) + ["--" + o.long]).joined(separator: "|")
                if let choices = o.choices {
                    cases.append("            \(names)) COMPREPLY=( $(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\") ); return ;;")
                } else if o.takesPath {
                    cases.append("            \(names)) COMPREPLY=( $(compgen -f -- \"$cur\") ); return ;;")
                } else {
                    cases.append("            \(names)) COMPREPLY=(); return ;;")
                }
            }
            if spec.name == "help" {
                cases.append("            *) COMPREPLY=( $(compgen -W \"\(specs.map(\.name).joined(separator: " "))\" -- \"$cur\") ); return ;;")
            }
            if spec.name == "completion" {
                cases.append("            *) COMPREPLY=( $(compgen -W \"\(shells.joined(separator: " "))\" -- \"$cur\") ); return ;;")
            }
            if !cases.isEmpty {
                lines.append("        case \"$prev\" in")
                lines += cases
                lines.append("        esac")
            }
            lines.append("        ;;")
        }
        lines += [
            "    esac",
            "    if [[ \"$cur\" == -* ]]; then",
            "        COMPREPLY=( $(compgen -W \"$opts\" -- \"$cur\") )",
            "    else",
            "        COMPREPLY=( $(compgen -f -- \"$cur\") )",
            "    fi",
            "}",
            "complete -o filenames -F _realmsh realmsh",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: zsh

    /// Text inside a zsh single-quoted word, and inside `[…]` of an `_arguments` spec.
    static func zshQuoted(_ s: String, inBrackets: Bool = false) -> String {
        var out = s.replacing("'", with: "'\\''")
        if inBrackets { out = out.replacing("[", with: "\\[").replacing("]", with: "\\]") }
        return out
    }

    static func zsh() -> String {
        var lines = [
            "#compdef realmsh",
            "# zsh completion for realmsh: realmsh completion zsh > \"${fpath[1]}/_realmsh\"",
            "_realmsh() {",
            "    local -a commands",
            "    commands=(",
        ]
        for spec in specs { lines.append("        '\(spec.name):\(zshQuoted(spec.abstract))'") }
        lines += [
            "    )",
            "    if (( CURRENT == 2 )); then",
            "        _describe -t commands 'realmsh subcommand' commands",
            "        _files",
            "        return",
            "    fi",
            "    (( CURRENT-- )); shift words",
            "    case $words[1] in",
        ]
        for spec in specs {
            var args = [String]()
            for o in spec.options {
                let help = zshQuoted(firstSentence(o.help), inBrackets: true)
                var value = ""
                if let v = o.valueName {
                    if let choices = o.choices { value = ":\(v):(\(choices.joined(separator: " ")))" } else if o.takesPath {
                        value = ":\(v):_files"
                    } else {
                        value = ":\(v): "
                    }
                }
                let names = o.short.map { "{-\($0),--\(o.long)}" } ?? "--\(o.long)"
                let repeatable = o.repeatable ? "*" : ""
                if o.short != nil {
                    args.append("'\(repeatable)'\(names)'[\(help)]\(value)'")
                } else {
                    args.append("'\(repeatable)\(names)[\(help)]\(value)'")
                }
            }
            args.append("'(- *)'{-h,--help}'[Show help information.]'")
            switch spec.name {
            case "help": args.append("'1:subcommand:(\(specs.map(\.name).joined(separator: " ")))'")
            case "completion": args.append("'1:shell:(\(shells.joined(separator: " ")))'")
            default: if !spec.arguments.isEmpty { args.append("'*:file:_files'") }
            }
            lines.append("    \(spec.name))")
            lines.append("        _arguments \\")
            lines.append(args.map { "            " + $0 }.joined(separator: " \\\n"))
            lines.append("        ;;")
        }
        lines += ["    esac", "}", "_realmsh \"$@\""]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: fish

    static func fishQuoted(_ s: String) -> String { "'" + s.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'" }

    static func fish() -> String {
        var lines = [
            "# fish completion for realmsh: realmsh completion fish > ~/.config/fish/completions/realmsh.fish",
            "complete -c realmsh -f",
            "complete -c realmsh -n __fish_use_subcommand -F",
            "complete -c realmsh -n __fish_use_subcommand -s V -l version -d 'Show the version.'",
        ]
        for spec in specs {
            lines.append("complete -c realmsh -n __fish_use_subcommand -a \(spec.name) -d \(fishQuoted(spec.abstract))")
        }
        for spec in specs {
            let condition = "-n '__fish_seen_subcommand_from \(spec.name)'"
            for o in spec.options {
                var parts = ["complete -c realmsh", condition]
                if let s = o.short { parts.append("-s \(s)") }
                parts.append("-l \(o.long)")
                if o.valueName != nil {
                    if let choices = o.choices { parts.append("-x -a \(fishQuoted(choices.joined(separator: " ")))") } else if o.takesPath {
                        parts.append("-r -F")
                    } else {
                        parts.append("-x")
                    }
                }
                parts.append("-d \(fishQuoted(firstSentence(o.help)))")
                lines.append(parts.joined(separator: " "))
            }
            switch spec.name {
            case "help": lines.append("complete -c realmsh \(condition) -x -a \(fishQuoted(specs.map(\.name).joined(separator: " ")))")
            case "completion": lines.append("complete -c realmsh \(condition) -x -a \(fishQuoted(shells.joined(separator: " ")))")
            default: if !spec.arguments.isEmpty { lines.append("complete -c realmsh \(condition) -F") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An option's help up to its first sentence, for the short descriptions menus show.
    static func firstSentence(_ help: String) -> String {
        guard let end = help.firstRange(of: ". ") else { return help }
        return String(help[..<end.lowerBound]) + "."
    }
}
