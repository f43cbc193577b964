/// One setting of the harness, declared once (in ``HarnessSettings``): the environment variable
/// and `.speech-harness.json` key that set it, the command-line option that sets it for one run,
/// what it takes, its default and what it does. Reading a setting validates it, so a bad value is
/// an error naming the setting, the value and what is allowed, wherever it is read.
public struct Setting<Value: Sendable>: Sendable, SettingDescription {
    public let variable: String
    public let key: String
    public let option: String?
    public let group: SettingGroup
    public let allowed: String
    public let defaultText: String
    public let summary: String
    public let kind: SettingKind
    /// The value when the setting is not given (nil for optional settings, whose `Value` is an
    /// optional: a path that is not given means "none").
    public let defaultValue: Value
    private let reader: @Sendable (String) -> Value?

    public init(
        _ variable: String, key: String, option: String? = nil, group: SettingGroup, allowed: String,
        default defaultValue: Value, defaultText: String, summary: String, kind: SettingKind = .text,
        parse: @escaping @Sendable (String) -> Value?
    ) {
        self.kind = kind
        self.variable = variable
        self.key = key
        self.option = option
        self.group = group
        self.allowed = allowed
        self.defaultValue = defaultValue
        self.defaultText = defaultText
        self.summary = summary
        self.reader = parse
    }

    /// The value `text` stands for; an error naming the setting when it stands for none.
    public func parse(_ text: String, from source: SettingError.Source = .environment) throws(SettingError) -> Value {
        guard let value = reader(text) else {
            throw SettingError(variable: variable, value: text, expected: allowed, source: source)
        }
        return value
    }

    /// The value given in `variables` (blank counts as not given), else nil.
    public func given(in variables: [String: String]) throws(SettingError) -> Value? {
        try givenText(in: variables).map { text throws(SettingError) in try parse(text) }
    }

    public func accepts(_ text: String) -> Bool { reader(text) != nil }

    /// The value given in `variables`, else the default.
    public func value(in variables: [String: String]) throws(SettingError) -> Value {
        try given(in: variables) ?? defaultValue
    }
}

/// What the settings table shows of a setting, whatever its value type.
public protocol SettingDescription: Sendable {
    var variable: String { get }
    var key: String { get }
    var option: String? { get }
    var group: SettingGroup { get }
    var allowed: String { get }
    var defaultText: String { get }
    var summary: String { get }
    /// What kind of value it takes, for the command line's option.
    var kind: SettingKind { get }
    /// Whether `text` is a value the setting can take.
    func accepts(_ text: String) -> Bool
}

/// What kind of value a setting takes.
public enum SettingKind: Sendable, Equatable {
    case text
    case oneOf([String])
    case wholeNumber(ClosedRange<Int>)
    case number(ClosedRange<Double>)
}

/// Where a setting acts, for the settings table.
public enum SettingGroup: String, Sendable, CaseIterable {
    case engine = "Engine choice and assets"
    case whisper = "The Whisper worker"
    case faultWorker = "The faulty worker"
    case device = "The simulated device"
    case files = "Files and folders"
    case testing = "Testing the harness"
}

/// A setting that does not hold a value it can take.
public struct SettingError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Where the value came from.
    public enum Source: Sendable, Equatable {
        case environment
        /// A key of a configuration file, at its path.
        case file(path: String, key: String)
    }

    public var variable: String
    public var value: String
    public var expected: String
    public var source: Source

    public init(variable: String, value: String, expected: String, source: Source = .environment) {
        self.variable = variable
        self.value = value
        self.expected = expected
        self.source = source
    }

    public var description: String {
        switch source {
        case .environment: "\(variable)='\(value)': expected \(expected)"
        case .file(let path, let key): "\(path): field '\(key)': '\(value)': expected \(expected)"
        }
    }
}

extension Setting where Value == String? {
    /// Any text, such as a path or an engine id; nil when not given.
    public init(
        _ variable: String, key: String, option: String? = nil, group: SettingGroup, allowed: String,
        defaultText: String, summary: String
    ) {
        self.init(
            variable, key: key, option: option, group: group, allowed: allowed, default: nil,
            defaultText: defaultText, summary: summary, parse: { $0 })
    }
}

extension Setting where Value == String {

    /// One of a closed set of words, compared without case; the value is the word as listed.
    public init(
        _ variable: String, key: String, option: String? = nil, group: SettingGroup, oneOf words: [String],
        default defaultValue: String, summary: String
    ) {
        self.init(
            variable, key: key, option: option, group: group,
            allowed: "one of " + words.joined(separator: ", "), default: defaultValue,
            defaultText: defaultValue, summary: summary, kind: .oneOf(words),
            parse: { text in words.first { $0.lowercased() == text.lowercased() } })
    }
}

extension Setting where Value: SettingWord {
    /// One of a closed set, by its words (compared without case); `aliases` are other words for
    /// some of its values (`granted` for `authorized`).
    public init(
        _ variable: String, key: String, option: String? = nil, group: SettingGroup,
        default defaultValue: Value, aliases: [String: Value] = [:], summary: String
    ) {
        let words = Value.allCases.map(\.rawValue) + aliases.keys.sorted()
        var lookup: [String: Value] = [:]
        for value in Value.allCases { lookup[value.rawValue.lowercased()] = value }
        for (word, value) in aliases { lookup[word.lowercased()] = value }
        let table = lookup
        self.init(
            variable, key: key, option: option, group: group,
            allowed: "one of " + words.joined(separator: ", "), default: defaultValue,
            defaultText: defaultValue.rawValue, summary: summary, kind: .oneOf(words),
            parse: { table[$0.lowercased()] })
    }
}

extension Setting where Value == Bool {
    /// A yes-or-no setting written as one of two words (`available`, `unavailable`).
    public init(
        _ variable: String, key: String, option: String? = nil, group: SettingGroup, yes: String, no: String,
        default defaultValue: Bool, summary: String
    ) {
        self.init(
            variable, key: key, option: option, group: group, allowed: "one of \(yes), \(no)", default: defaultValue,
            defaultText: defaultValue ? yes : no, summary: summary, kind: .oneOf([yes, no]),
            parse: { text in
                switch text.lowercased() {
                case yes.lowercased(): true
                case no.lowercased(): false
                default: nil
                }
            })
    }
}

extension Setting where Value == Int {
    /// A whole number in `range`.
    public init(
        _ variable: String, key: String, option: String? = nil, group: SettingGroup, range: ClosedRange<Int>,
        default defaultValue: Int, summary: String
    ) {
        self.init(
            variable, key: key, option: option, group: group,
            allowed: "a whole number from \(range.lowerBound) to \(range.upperBound)", default: defaultValue,
            defaultText: String(defaultValue), summary: summary, kind: .wholeNumber(range),
            parse: { Int($0).flatMap { range.contains($0) ? $0 : nil } })
    }
}

extension Setting where Value == Double {
    /// A finite number in `range`; `unit` names it in the table.
    public init(
        _ variable: String, key: String, option: String? = nil, group: SettingGroup, range: ClosedRange<Double>,
        unit: String, default defaultValue: Double, summary: String
    ) {
        let upper = range.upperBound.isFinite ? " to \(Self.number(range.upperBound))" : " or more"
        self.init(
            variable, key: key, option: option, group: group,
            allowed: "\(unit) from \(Self.number(range.lowerBound))\(upper)", default: defaultValue,
            defaultText: Self.number(defaultValue), summary: summary, kind: .number(range),
            parse: { Double($0).flatMap { $0.isFinite && range.contains($0) ? $0 : nil } })
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension Setting where Value == String? {
    /// The text given in `variables`, trimmed; nil when not given (such a setting takes any text).
    public func text(in variables: [String: String]) -> String? { givenText(in: variables) }
}

extension SettingDescription {
    /// The text `variables` give the setting, trimmed; blank counts as not given.
    public func givenText(in variables: [String: String]) -> String? {
        guard let text = variables[variable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }
}
