import Foundation
import SpeechCore

/// Where the tool writes: results to `out`, diagnostics to `err`. Tests capture both.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    public static let standard = Console(
        out: { text in FileHandle.standardOutput.write(Data((text + "\n").utf8)) },
        err: { text in FileHandle.standardError.write(Data((text + "\n").utf8)) })
}

/// The `speech-harness` command line: parses arguments, runs one command, returns the exit status
/// (0 success, 1 the command ran and found problems or failed, 2 usage error).
public enum SpeechHarnessTool {
    public static let version = "0.1.0"

    static let commands: [CommandSpec] =
        CorpusCommands.specs + AudioCommands.specs + EngineCommands.specs + SettingsCommand.specs + EnrollCommand.specs
        + ConformanceCommand.specs + BenchRunCommand.specs
        + BenchCommands.specs + LongStreamCommand.specs + EngineBenchCommand.specs + OverheadCommand.specs
        + ScoreCommand.specs
        + MigrateLintCommand.specs
        + MigrateDiffCommand.specs + TraceDiffCommand.specs

    static func overview() -> String {
        var lines = [
            "speech-harness \(version): test speech-to-text code against a Linux reference of Apple's",
            "SpeechAnalyzer, and measure recognition engines on accuracy, latency, speed and memory.",
            "",
            "Usage: speech-harness <command> [options]",
            "",
            "Commands:",
        ]
        let width = commands.map(\.path.count).max()! + 4
        lines += commands.map { "  " + $0.path.padding(toLength: width, withPad: " ", startingAt: 0) + $0.summary }
        lines += [
            "", "Run 'speech-harness <command> --help' for a command's options.",
            "Exit status: 0 success, 1 problems found or the command failed, 2 usage error.",
        ]
        return lines.joined(separator: "\n")
    }

    /// Runs the tool with `arguments` (without the program name).
    public static func run(_ arguments: [String], console: Console = .standard) async -> Int32 {
        if arguments.isEmpty || arguments == ["help"] || arguments == ["--help"] || arguments == ["-h"] {
            console.out(overview())
            return 0
        }
        if arguments == ["--version"] || arguments == ["version"] {
            console.out("speech-harness \(version)")
            return 0
        }
        // Longest command path that prefixes the arguments.
        let match =
            commands
            .filter { spec in
                let words = spec.path.split(separator: " ").map(String.init)
                return arguments.count >= words.count && Array(arguments.prefix(words.count)) == words
            }
            .max { $0.path.count < $1.path.count }
        guard let spec = match else {
            let group = commands.filter { $0.path.hasPrefix(arguments[0] + " ") }
            if !group.isEmpty {
                let wanted =
                    arguments.count > 1
                    ? "unknown \(arguments[0]) command '\(arguments[1])'" : "'\(arguments[0])' needs a command"
                if arguments.count > 1 && ["--help", "-h", "help"].contains(arguments[1]) {
                    console.out(
                        group.map { "speech-harness \($0.path) \($0.synopsis)\n    \($0.summary)" }.joined(
                            separator: "\n"))
                    return 0
                }
                console.err(
                    "speech-harness: \(wanted); one of: \(group.map { String($0.path.split(separator: " ")[1]) }.joined(separator: ", "))"
                )
                return 2
            }
            console.err("speech-harness: unknown command '\(arguments[0])'. Run 'speech-harness --help'.")
            return 2
        }
        let rest = Array(arguments.dropFirst(spec.path.split(separator: " ").count))
        do {
            let parsed = try ParsedArguments.parse(rest, spec: spec)
            if parsed.wantsHelp {
                console.out(spec.helpText())
                return 0
            }
            // A configuration file that cannot be read would leave its settings silently unused.
            if let problem = HarnessContext.current.environment.configurationProblem, spec.path != "settings" {
                console.err("speech-harness \(spec.path): \(problem)")
                return 2
            }
            return try await spec.run(parsed, console)
        } catch let error as UsageError {
            console.err("speech-harness \(error.command): \(error.message)")
            console.err("Run 'speech-harness \(error.command) --help' for usage.")
            return 2
        } catch {
            console.err("speech-harness \(spec.path): \(error)")
            return 1
        }
    }
}
