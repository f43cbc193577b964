/// A mistake in how the tool was called: reported with usage, exit status 2.
public struct UsageError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var command: String
    public var description: String { message }
}

/// An option a command accepts, for parsing and for its help text.
struct OptionSpec: Sendable {
    var name: String
    var value: String?  // placeholder when the option takes a value; nil for a flag
    var help: String
    var repeatable = false
}

/// A subcommand: its path ("corpus validate"), arguments, options and what it does.
struct CommandSpec: Sendable {
    var path: String
    var synopsis: String
    var summary: String
    var options: [OptionSpec]
    var positionals: ClosedRange<Int>
    var details: String = ""
    /// What the command does; the path is its only registration.
    var run: @Sendable (_ arguments: ParsedArguments, _ console: Console) async throws -> Int32

    func helpText() -> String {
        var lines = ["Usage: speech-harness \(path) \(synopsis)".trimmingCharacters(in: .whitespaces), "", summary]
        if !details.isEmpty { lines += ["", details] }
        let all = options + [OptionSpec(name: "help", value: nil, help: "Show this help.")]
        let cells = all.map { ("  --\($0.name)" + ($0.value.map { " <\($0)>" } ?? ""), $0.help) }
        let width = cells.map(\.0.count).max()! + 2
        lines += ["", "Options:"] + cells.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 }
        return lines.joined(separator: "\n")
    }
}

/// Parsed options and positional arguments of one command.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var wantsHelp = false

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) }

    func int(_ name: String, default fallback: Int, in range: ClosedRange<Int>, command: String) throws -> Int {
        guard let text = value(name) else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                message:
                    "--\(name) expects a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'",
                command: command)
        }
        return number
    }

    func double(_ name: String, command: String) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number > 0, number.isFinite else {
            throw UsageError(message: "--\(name) expects a positive number, got '\(text)'", command: command)
        }
        return number
    }

    static func parse(_ arguments: [String], spec: CommandSpec) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                if argument.hasPrefix("-") && argument.count > 1 && !onlyPositionals && argument != "-" {
                    throw UsageError(message: "unknown option '\(argument)'", command: spec.path)
                }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if name == "help" {
                parsed.wantsHelp = true
                continue
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw UsageError(message: "unknown option '--\(name)'", command: spec.path)
            }
            if option.value == nil {
                if inlineValue != nil { throw UsageError(message: "--\(name) takes no value", command: spec.path) }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError(message: "--\(name) needs a value <\(option.value!)>", command: spec.path)
                }
                value = arguments[index]
                index += 1
            }
            if parsed.values[name] != nil && !option.repeatable {
                throw UsageError(message: "--\(name) given more than once", command: spec.path)
            }
            parsed.values[name, default: []].append(value)
        }
        if !parsed.wantsHelp && !spec.positionals.contains(parsed.positionals.count) {
            let range = spec.positionals
            let expected =
                range.lowerBound == range.upperBound
                ? "\(range.lowerBound)"
                : range.upperBound == Int.max
                    ? "at least \(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
            throw UsageError(
                message:
                    "expected \(expected) argument\(range.upperBound == 1 ? "" : "s"), got \(parsed.positionals.count)",
                command: spec.path)
        }
        return parsed
    }
}
