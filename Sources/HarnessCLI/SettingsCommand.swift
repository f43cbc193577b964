import SpeechCore

/// `speech-harness settings`: every setting as declared, with the values this run sees.
enum SettingsCommand {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "settings",
            summary:
                "List every setting: its variable, configuration-file key, option, default, and the value in force.",
            options: [
                markdown.spec
            ],
            details:
                "A setting is read from its environment variable, else from its key in .speech-harness.json in the working\ndirectory, else it takes its default. Exit status 1 when a value in force is one the setting cannot take.",
            run: { arguments, console in try run(arguments, console) })
    ]

    static let markdown = Option.flag("markdown", help: "The settings table of docs/configuration.md instead.")

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        if arguments[Self.markdown] {
            console.out(HarnessSettings.markdownTables())
            return 0
        }
        let environment = HarnessContext.current.environment
        if let problem = environment.configurationProblem { console.err("speech-harness settings: \(problem)") }
        var status: Int32 = environment.configurationProblem == nil ? 0 : 1
        for setting in HarnessSettings.all {
            let given = setting.givenText(in: environment.variables)
            var line = "\(setting.variable) (\(setting.key)\(setting.option.map { ", --\($0)" } ?? "")): "
            if let given {
                let valid = setting.accepts(given)
                if !valid { status = 1 }
                line += "'\(given)'" + (valid ? "" : " — not allowed: expected \(setting.allowed)")
            } else {
                line += "default (\(setting.defaultText))"
            }
            console.out(line)
        }
        return status
    }
}
