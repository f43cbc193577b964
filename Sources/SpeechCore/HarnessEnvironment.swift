import Foundation

/// The environment the harness runs under, read from the process once: the `SPEECH_HARNESS_*`
/// settings library code consults and the variables child processes (workers, programs under test)
/// inherit. The command line adds its options to a copy and runs a command under it, so nothing
/// changes the process's own environment; library code reads ``current``, never `ProcessInfo`.
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

    /// The value of `setting`, for code under Apple's API, which cannot throw: a bad value, or a
    /// configuration file that cannot be read, stops the program with a message naming it
    /// (``stop(_:)``).
    public func valueOrStop<Value>(_ setting: Setting<Value>) -> Value {
        if let configurationProblem { Self.stop(configurationProblem) }
        do { return try setting.value(in: variables) } catch { Self.stop(error) }
    }

    /// This environment, or the configuration file's problem.
    public func checked() throws(ConfigurationFileError) -> HarnessEnvironment {
        if let configurationProblem { throw configurationProblem }
        return self
    }

    /// The environment of the running command (the process's unless a caller set another).
    @TaskLocal public static var current = process

    public subscript(name: String) -> String? { variables[name] }

    /// Stops the program over a setting it cannot run with, naming it: for settings read under
    /// Apple's API, which has no way to throw, and where guessing would hide the mistake.
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
