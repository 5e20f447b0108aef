/// `bgsim completion bash|zsh|fish`: shell completion scripts, written from the command table
/// so every command, flag and option completes, and option values complete as files or choices.
enum CompletionCommand {
  static let shells = ["bash", "zsh", "fish"]

  static var command: Command {
    Command(
      name: "completion", synopsis: "bgsim completion bash|zsh|fish",
      summary: "Print a shell completion script for bgsim.",
      details: """
        Install it the usual way, for example:
          bash:  bgsim completion bash > ~/.local/share/bash-completion/completions/bgsim
          zsh:   bgsim completion zsh > "${fpath[1]}/_bgsim"   (then restart zsh)
          fish:  bgsim completion fish > ~/.config/fish/completions/bgsim.fish

        Options:
          -h, --help    show this help
        """,
      run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    guard arguments.positionals.count == 1, let shell = arguments.positionals.first, shells.contains(shell)
    else {
      let found =
        arguments.positionals.isEmpty ? "nothing" : "'\(arguments.positionals.joined(separator: " "))'"
      throw .usage("expected one shell, bash, zsh or fish; found \(found)", command: command.name)
    }
    switch shell {
    case "bash": Console.out(bash, terminator: "")
    case "zsh": Console.out(zsh, terminator: "")
    default: Console.out(fish, terminator: "")
    }
    return ExitCode.ok
  }

  /// Options with fixed values, for completion.
  static func choices(_ option: String) -> [String]? {
    switch option {
    case "--format": return OutputFormat.allCases.map(\.rawValue)
    default: return nil
    }
  }

  /// Whether an option's value is a path (`F`, `FILE`, `DIR`), which completes as files.
  static func takesPath(_ option: Command.Option) -> Bool { ["F", "FILE", "DIR"].contains(option.valueName) }

  /// Every flag and option of a command, with `-h` and `--help`.
  static func words(_ command: Command) -> [String] {
    command.flags + command.options.map(\.name) + (command.flags.contains("--quiet") ? ["-q"] : []) + [
      "--help"
    ]
  }

  static var bash: String {
    let commands = CommandTable.all
    var cases = ""
    for command in commands {
      cases += "    \(command.name)) opts=\"\(words(command).joined(separator: " "))\" ;;\n"
    }
    var valueCases = ""
    var seen = Set<String>()
    for option in commands.flatMap(\.options).sorted(by: { $0.name < $1.name })
    where seen.insert(option.name).inserted {
      let reply =
        choices(option.name).map { "COMPREPLY=($(compgen -W \"\($0.joined(separator: " "))\" -- \"$cur\"))" }
        ?? (takesPath(option) ? "COMPREPLY=($(compgen -f -- \"$cur\"))" : "COMPREPLY=()")
      valueCases += "    \(option.name)) \(reply); return ;;\n"
    }
    return """
      # bash completion for bgsim (bgsim completion bash)
      _bgsim() {
        local cur prev opts
        cur="${COMP_WORDS[COMP_CWORD]}"
        prev="${COMP_WORDS[COMP_CWORD-1]}"
        if [[ $COMP_CWORD -eq 1 ]]; then
          COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " ")) help --help --version -h -V" -- "$cur"))
          return
        fi
        case "$prev" in
      \(valueCases)  esac
        case "${COMP_WORDS[1]}" in
      \(cases)    *) opts="--help" ;;
        esac
        if [[ "$cur" == -* ]]; then
          COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        else
          COMPREPLY=($(compgen -f -- "$cur"))
        fi
      }
      complete -o filenames -F _bgsim bgsim

      """
  }

  static var zsh: String {
    let commands = CommandTable.all
    let described = commands.map { "    '\($0.name):\(quoteZsh($0.summary))'" }.joined(separator: "\n")
    var cases = ""
    for command in commands {
      var specs: [String] = []
      for flag in command.flags {
        specs.append("'\(flag)[\(flag.dropFirst(2))]'")
      }
      if command.flags.contains("--quiet") { specs.append("'-q[quiet]'") }
      for option in command.options {
        let action =
          choices(option.name).map { "(\($0.joined(separator: " ")))" }
          ?? (takesPath(option) ? "_files" : " ")
        specs.append(
          "'\(option.repeatable ? "*" : "")\(option.name)=[\(option.valueName)]:\(option.valueName):\(action)'"
        )
      }
      specs.append("'--help[show the help]'")
      specs.append("'*:file:_files'")
      cases += "    \(command.name)) _arguments \\\n      " + specs.joined(separator: " \\\n      ") + " ;;\n"
    }
    return """
      #compdef bgsim
      # zsh completion for bgsim (bgsim completion zsh)
      _bgsim() {
        local -a commands
        commands=(
      \(described)
        )
        if (( CURRENT == 2 )); then
          _describe 'command' commands
          return
        fi
        local command=$words[2]
        shift words
        (( CURRENT-- ))
        case $command in
      \(cases)  esac
      }
      _bgsim "$@"

      """
  }

  static var fish: String {
    var lines = [
      "# fish completion for bgsim (bgsim completion fish)",
      "complete -c bgsim -f -n __fish_use_subcommand -s h -l help -d 'show the help'",
      "complete -c bgsim -f -n __fish_use_subcommand -s V -l version -d 'print the version'",
    ]
    for command in CommandTable.all {
      lines.append(
        "complete -c bgsim -f -n __fish_use_subcommand -a \(command.name) -d '\(quoteFish(command.summary))'")
      let when = "-n '__fish_seen_subcommand_from \(command.name)'"
      for flag in command.flags {
        let short = flag == "--quiet" ? " -s q" : ""
        lines.append("complete -c bgsim \(when)\(short) -l \(flag.dropFirst(2))")
      }
      for option in command.options {
        let values =
          choices(option.name).map { " -f -a '\($0.joined(separator: " "))'" }
          ?? (takesPath(option) ? " -F" : " -f")
        lines.append("complete -c bgsim \(when) -l \(option.name.dropFirst(2)) -r\(values)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func quoteZsh(_ s: String) -> String {
    s.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: ":", with: "\\:")
  }

  static func quoteFish(_ s: String) -> String { s.replacingOccurrences(of: "'", with: "\\'") }
}
