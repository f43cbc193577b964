import Foundation
import SpeechCore

/// A mistake in how the tool was called: reported with usage, exit status 2.
public struct UsageError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var command: String
    public var description: String { message }
}

/// An option a command accepts. What it takes (a flag, text, one of a set, a whole number in a
/// range, a positive number) is declared once: parsing checks it, and help and synopsis show it.
struct OptionSpec: Sendable {
    enum Kind: Sendable, Equatable {
        case flag
        /// Any text; the placeholder names it in help.
        case text(String)
        /// One of these words.
        case choice([String])
        /// A whole number in the range; the placeholder names it in help.
        case integer(String, ClosedRange<Int>)
        /// A positive finite number.
        case positive(String)
        /// A finite number in the range.
        case number(String, ClosedRange<Double>)
    }

    var name: String
    var kind: Kind
    var help: String
    var repeatable = false
    /// The command cannot run without it (checked before it runs).
    var required = false
    /// Other names that mean the same option (kept so that older command lines still work).
    var aliases: [String] = []

    /// A flag, or an option taking text named `value`.
    init(name: String, value: String?, help: String, repeatable: Bool = false, required: Bool = false) {
        self.init(
            name: name, kind: value.map(Kind.text) ?? .flag, help: help, repeatable: repeatable, required: required)
    }

    init(
        name: String, kind: Kind, help: String, repeatable: Bool = false, required: Bool = false,
        aliases: [String] = []
    ) {
        self.name = name
        self.kind = kind
        self.help = help
        self.repeatable = repeatable
        self.required = required
        self.aliases = aliases
    }

    /// The option that sets `setting` for one run, its help made from the declaration.
    init(setting: any SettingDescription) {
        let kind: Kind =
            switch setting.kind {
            case .oneOf(let words): .choice(words)
            case .wholeNumber(let range): .integer("n", range)
            case .number, .text: .text("value")
            }
        self.init(
            name: setting.option ?? setting.key, kind: kind,
            help: "\(setting.summary) Default \(setting.defaultText) (sets \(setting.variable)).")
    }

    /// An option whose value is one case of `type`.
    static func choice<T: RawRepresentable & CaseIterable>(
        _ name: String, _ type: T.Type, help: String, repeatable: Bool = false
    ) -> OptionSpec where T.RawValue == String {
        OptionSpec(name: name, kind: .choice(type.allCases.map(\.rawValue)), help: help, repeatable: repeatable)
    }

    /// What help shows after the name; nil for a flag.
    var placeholder: String? {
        switch kind {
        case .flag: nil
        case .text(let name), .integer(let name, _), .positive(let name), .number(let name, _): name
        case .choice(let words): words.joined(separator: "|")
        }
    }

    var usage: String { "--\(name)" + (placeholder.map { " <\($0)>" } ?? "") + (repeatable ? "..." : "") }

    /// Checks a value against the kind; the message says what was expected.
    func check(_ value: String, command: String) throws(UsageError) {
        switch kind {
        case .flag, .text: return
        case .choice(let words):
            guard words.contains(value) else {
                throw UsageError(
                    message: "--\(name) expects one of \(words.joined(separator: ", ")); got '\(value)'",
                    command: command)
            }
        case .integer(_, let range):
            guard let number = Int(value), range.contains(number) else {
                let upper = range.upperBound == Int.max ? "" : " to \(range.upperBound)"
                throw UsageError(
                    message: "--\(name) expects a whole number from \(range.lowerBound)\(upper), got '\(value)'",
                    command: command)
            }
        case .positive:
            guard let number = Double(value), number > 0, number.isFinite else {
                throw UsageError(message: "--\(name) expects a positive number, got '\(value)'", command: command)
            }
        case .number(_, let range):
            guard let number = Double(value), number.isFinite, range.contains(number) else {
                let (low, high) = (String(format: "%g", range.lowerBound), String(format: "%g", range.upperBound))
                let bounds = range.upperBound == .greatestFiniteMagnitude ? "≥ \(low)" : "from \(low) to \(high)"
                throw UsageError(message: "--\(name) expects a number \(bounds), got '\(value)'", command: command)
            }
        }
    }
}

/// A positional argument: one, one or more, or any number (none included).
struct ArgumentSpec: Sendable {
    enum Count: Sendable { case one, oneOrMore, any }
    var name: String
    var count: Count = .one

    static func oneOrMore(_ name: String) -> ArgumentSpec { ArgumentSpec(name: name, count: .oneOrMore) }
    static func any(_ name: String) -> ArgumentSpec { ArgumentSpec(name: name, count: .any) }

    var usage: String {
        switch count {
        case .one: "<\(name)>"
        case .oneOrMore: "<\(name)>..."
        case .any: "[<\(name)>...]"
        }
    }
}

/// A subcommand, declared once: its path ("corpus validate"), arguments, options, a check across
/// options, and what it does. Its synopsis, help, parsing and checks all come from this.
struct CommandSpec: Sendable {
    var path: String
    var summary: String
    var options: [OptionSpec]
    var arguments: [ArgumentSpec] = []
    var details: String = ""
    /// Rules between options that their kinds cannot say (run after parsing, before `run`).
    var validate: (@Sendable (_ arguments: ParsedArguments) throws(UsageError) -> Void)? = nil
    /// What the command does; the path is its only registration.
    var run: @Sendable (_ arguments: ParsedArguments, _ console: Console) async throws -> Int32

    /// How many positional arguments the command takes.
    var positionals: ClosedRange<Int> {
        let least = arguments.filter { $0.count != .any }.count
        let open = arguments.contains { $0.count != .one }
        return least...(open ? Int.max : least)
    }

    /// The arguments, then the required options, then `[options]` when there are others.
    var synopsis: String {
        let required = options.filter(\.required).map(\.usage)
        let optional = options.contains { !$0.required } ? ["[options]"] : []
        return (arguments.map(\.usage) + required + optional).joined(separator: " ")
    }

    func helpText() -> String {
        var lines = ["Usage: speech-harness \(path) \(synopsis)".trimmingCharacters(in: .whitespaces), "", summary]
        if !details.isEmpty { lines += ["", details] }
        let all = options + [OptionSpec(name: "help", value: nil, help: "Show this help.")]
        let cells = all.map { option in
            (
                "  --\(option.name)" + (option.placeholder.map { " <\($0)>" } ?? ""),
                option.help + (option.required ? " (required)" : "") + (option.repeatable ? " (repeatable)" : "")
                    + option.aliases.map { " (also --\($0))" }.joined()
            )
        }
        let width = cells.map(\.0.count).max()! + 2
        lines += ["", "Options:"] + cells.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 }
        return lines.joined(separator: "\n")
    }
}

/// Parsed options and positional arguments of one command, every value already checked against
/// its option's kind. Commands read values through their typed ``Option`` declarations
/// (`arguments[Bench.jobs]`); the values by name are this file's alone.
struct ParsedArguments: Sendable {
    var command = ""
    var positionals: [String] = []
    fileprivate var values: [String: [String]] = [:]
    fileprivate var flags: Set<String> = []
    var wantsHelp = false

    /// The value of `option`, as its declaration types it.
    subscript<Value>(option: Option<Value>) -> Value { option.read(self) }

    /// A usage error of this command.
    func usage(_ message: String) -> UsageError { UsageError(message: message, command: command) }

    static func parse(_ arguments: [String], spec: CommandSpec) throws -> ParsedArguments {
        var parsed = ParsedArguments(command: spec.path)
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
            guard let option = spec.options.first(where: { $0.name == name || $0.aliases.contains(name) }) else {
                throw UsageError(message: "unknown option '--\(name)'", command: spec.path)
            }
            name = option.name
            guard let placeholder = option.placeholder else {
                if inlineValue != nil { throw UsageError(message: "--\(name) takes no value", command: spec.path) }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError(message: "--\(name) needs a value <\(placeholder)>", command: spec.path)
                }
                value = arguments[index]
                index += 1
            }
            if parsed.values[name] != nil && !option.repeatable {
                throw UsageError(message: "--\(name) given more than once", command: spec.path)
            }
            try option.check(value, command: spec.path)
            parsed.values[name, default: []].append(value)
        }
        guard !parsed.wantsHelp else { return parsed }
        if !spec.positionals.contains(parsed.positionals.count) {
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
        for option in spec.options where option.required && parsed.values[option.name] == nil {
            throw UsageError(message: "--\(option.name) is required", command: spec.path)
        }
        try spec.validate?(parsed)
        return parsed
    }
}

/// An option declared with the type its value is read as: a command declares each option once as
/// one of these, its `spec` goes to parsing, checking and help, and the command reads the value with
/// `arguments[option]`: a flag as `Bool`, a whole number as `Int`, one of a set as its enum, a
/// repeated option as an array. Nothing reads an option back by its name.
struct Option<Value: Sendable>: Sendable {
    let spec: OptionSpec
    fileprivate let read: @Sendable (ParsedArguments) -> Value

    fileprivate init(_ spec: OptionSpec, read: @escaping @Sendable (ParsedArguments) -> Value) {
        self.spec = spec
        self.read = read
    }
}

extension Option where Value == Bool {
    static func flag(_ name: String, help: String) -> Self {
        Self(OptionSpec(name: name, value: nil, help: help)) { $0.flags.contains(name) }
    }
}

extension Option where Value == String? {
    /// Text, given at most once.
    static func text(_ name: String, value: String, help: String, aliases: [String] = []) -> Self {
        Self(OptionSpec(name: name, kind: .text(value), help: help, aliases: aliases)) { $0.values[name]?.last }
    }

    /// The option that sets `setting` for one run, read as the setting's text (its declaration
    /// parses and checks it).
    static func setting(_ setting: any SettingDescription) -> Self {
        let spec = OptionSpec(setting: setting)
        return Self(spec) { $0.values[spec.name]?.last }
    }
}

extension Option where Value == String {
    /// Text the command cannot run without (checked when parsed).
    static func required(_ name: String, value: String, help: String) -> Self {
        Self(OptionSpec(name: name, kind: .text(value), help: help, required: true)) { $0.values[name]?.last ?? "" }
    }
}

extension Option where Value == [String] {
    /// Text that may be given many times, in the order given.
    static func texts(
        _ name: String, value: String, help: String, required: Bool = false, aliases: [String] = []
    ) -> Self {
        Self(
            OptionSpec(
                name: name, kind: .text(value), help: help, repeatable: true, required: required, aliases: aliases)
        ) { $0.values[name] ?? [] }
    }
}

extension Option where Value == Int? {
    /// A whole number in `range`.
    static func integer(_ name: String, _ range: ClosedRange<Int>, value: String = "n", help: String) -> Self {
        Self(OptionSpec(name: name, kind: .integer(value, range), help: help)) {
            $0.values[name]?.last.flatMap { Int($0) }
        }
    }
}

extension Option where Value == Double? {
    /// A positive finite number.
    static func positive(_ name: String, value: String, help: String) -> Self {
        Self(OptionSpec(name: name, kind: .positive(value), help: help)) {
            $0.values[name]?.last.flatMap { Double($0) }
        }
    }
}

extension Option where Value == Double? {
    /// A finite number in `range` (default: any number ≥ 0).
    static func number(
        _ name: String, _ range: ClosedRange<Double> = 0...(.greatestFiniteMagnitude), value: String, help: String
    ) -> Self {
        Self(OptionSpec(name: name, kind: .number(value, range), help: help)) {
            $0.values[name]?.last.flatMap { Double($0) }
        }
    }
}

extension Option where Value == [Double] {
    /// Numbers in `range`, given any number of times, in the order given.
    static func numbers(_ name: String, _ range: ClosedRange<Double>, value: String, help: String) -> Self {
        Self(OptionSpec(name: name, kind: .number(value, range), help: help, repeatable: true)) {
            ($0.values[name] ?? []).compactMap { Double($0) }
        }
    }
}

extension Option {
    /// One case of `type`, whose error lists the allowed values.
    static func choice<T: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ type: T.Type, help: String
    ) -> Self where Value == T?, T.RawValue == String {
        Self(OptionSpec.choice(name, type, help: help)) { $0.values[name]?.last.flatMap(T.init(rawValue:)) }
    }
}
