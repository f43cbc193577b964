/// What an engine keeps running outside this process between its sessions (worker processes).
/// The code that owns an engine gives them back through this handle when it is done with the
/// engine, whatever the engine is, instead of knowing which engines have processes.
public protocol EngineProcesses: AnyObject, Sendable {
    /// Stops the processes no session holds; returns the peak resident memory (bytes) of every
    /// process stopped since the last call. A later session starts them again.
    func shutdown() async -> [Int]

    /// The resident memory (bytes) of the processes running now, summed; nil when none runs.
    func residentBytes() async -> Int?
}

extension RecognitionEngine {
    /// None by default: the engine runs in this process.
    public var processes: (any EngineProcesses)? { nil }

    /// Stops the engine's idle processes, if it has any (see `EngineProcesses.shutdown()`).
    @discardableResult
    public func shutdown() async -> [Int] { await processes?.shutdown() ?? [] }
}

extension EngineAdapter {
    /// An adapter's processes are those of the engine it wraps.
    public var processes: (any EngineProcesses)? { base.processes }
}
