import Foundation

/// The environment the harness runs under, read from the process once: the `SPEECH_HARNESS_*`
/// settings library code consults and the variables child processes (workers, programs under test)
/// inherit. The command line adds its options to a copy and runs a command under it, so nothing
/// changes the process's own environment; library code reads ``current``, never `ProcessInfo`.
public struct HarnessEnvironment: Sendable, Hashable {
    public var variables: [String: String]

    public init(_ variables: [String: String]) { self.variables = variables }

    /// The process's environment as it was at the first use.
    public static let process = HarnessEnvironment(ProcessInfo.processInfo.environment)

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
