import Foundation

/// The environment the harness runs under, read from the process once: the `SPEECH_HARNESS_*`
/// settings library code consults and the variables child processes (workers, programs under test)
/// inherit. It is part of ``HarnessContext``: a front door changes a copy, so nothing changes the
/// process's own environment, and library code reads its context's, never `ProcessInfo`.
public struct HarnessEnvironment: Sendable, Hashable {
    public var variables: [String: String]
    /// The working directory's configuration file when it could not be read; programs that read
    /// settings report it (``checked()``), and choosing the configured engine fails with it.
    public var configurationProblem: ConfigurationFileError?

    public init(_ variables: [String: String], configurationProblem: ConfigurationFileError? = nil) {
        self.variables = variables
        self.configurationProblem = configurationProblem
    }

    /// The process's environment as it was at the first use, with the settings of the working
    /// directory's `.speech-harness.json` under the variables the environment does not set (so
    /// child processes inherit them too).
    public static let process = loading(
        ProcessInfo.processInfo.environment, directory: FileManager.default.currentDirectoryPath)

    /// `variables` with the settings of the configuration file in `directory` added beneath them.
    public static func loading(_ variables: [String: String], directory: String) -> HarnessEnvironment {
        do {
            guard let file = try ConfigurationFile.load(directory: directory) else {
                return HarnessEnvironment(variables)
            }
            var merged = variables
            for (name, value) in file.values where HarnessSettings.named(name)?.givenText(in: variables) == nil {
                merged[name] = value
            }
            return HarnessEnvironment(merged)
        } catch {
            return HarnessEnvironment(variables, configurationProblem: error)
        }
    }

    /// The value of `setting` in this environment (see ``Setting/value(in:)``).
    public func value<Value>(_ setting: Setting<Value>) throws(SettingError) -> Value {
        try setting.value(in: variables)
    }

    /// The value of `setting`, for code under Apple's API that cannot throw: a value the setting
    /// cannot take reads as its default here, and the first throwing call of the harness's Apple API
    /// reports it (``validated()``), so a test with a bad setting fails and the process goes on.
    public func valueOrDefault<Value>(_ setting: Setting<Value>) -> Value {
        (try? setting.value(in: variables)) ?? setting.defaultValue
    }

    /// Formerly stopped the program over a bad value; a library never ends its host's process.
    @available(
        *, deprecated, renamed: "valueOrDefault(_:)",
        message: "read with valueOrDefault(_:) and report the problem with validated()"
    )
    public func valueOrStop<Value>(_ setting: Setting<Value>) -> Value { valueOrDefault(setting) }

    /// What keeps this environment's settings from being used: the configuration file's problem,
    /// else the first setting (in the settings table's order) given a value it cannot take.
    public var settingsProblem: HarnessSettingsProblem? {
        if let configurationProblem { return .configurationFile(configurationProblem) }
        for setting in HarnessSettings.all {
            if let text = setting.givenText(in: variables), !setting.accepts(text) {
                return .setting(SettingError(variable: setting.variable, value: text, expected: setting.allowed))
            }
        }
        return nil
    }

    /// This environment, or what keeps its settings from being used: the check the harness's
    /// throwing Apple API makes before it acts on the settings.
    public func validated() throws(HarnessSettingsProblem) -> HarnessEnvironment {
        if let settingsProblem { throw settingsProblem }
        return self
    }

    /// This environment, or the configuration file's problem.
    public func checked() throws(ConfigurationFileError) -> HarnessEnvironment {
        if let configurationProblem { throw configurationProblem }
        return self
    }

    /// The environment of the running task's context (``HarnessContext/environment``).
    @available(*, deprecated, message: "read HarnessContext.current.environment; set it on a HarnessContext")
    public static var current: HarnessEnvironment { HarnessContext.current.environment }

    public subscript(name: String) -> String? { variables[name] }

    /// Stops the program over a setting it cannot run with. Only programs may end the process: the
    /// harness's libraries report a bad setting at their first throwing call (``validated()``).
    @available(*, deprecated, message: "throw validated()'s error instead; a library must not end its host's process")
    public static func stop(_ problem: any Error) -> Never {
        FileHandle.standardError.write(Data("speech-harness: \(problem)\n".utf8))
        exit(2)
    }

    /// A copy with `name` set to `value`.
    public func setting(_ name: String, to value: String) -> HarnessEnvironment {
        var copy = self
        copy.variables[name] = value
        return copy
    }
}

/// A setting the harness cannot use: what the first throwing call of its Apple API throws when the
/// environment, `.speech-harness.json` or a scenario's device gives a value a setting cannot take.
public enum HarnessSettingsProblem: Error, CustomStringConvertible, Sendable, Equatable {
    /// The working directory's configuration file could not be read.
    case configurationFile(ConfigurationFileError)
    /// A setting holds a value it cannot take.
    case setting(SettingError)

    public var description: String {
        switch self {
        case .configurationFile(let problem): "\(problem)"
        case .setting(let problem): "\(problem)"
        }
    }
}
