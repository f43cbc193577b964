/// Errors engines raise.
public enum EngineError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A fault planted by a script or a worker that failed; carries the engine id and detail.
    case failed(engine: String, reason: String)
    case invalidScript(path: String, reason: String)
    case unsupportedLocale(engine: String, locale: String)
    case unsupportedFormat(engine: String, format: String)
    case unknownEngine(String, known: [String])
    /// A setting in an engine's brackets (`whisper[large]`) the engine does not take.
    case invalidSetting(engine: String, setting: String, reason: String)
    case invalidConfiguration(path: String, reason: String)
    case notInstalled(engine: String, locale: String)
    /// A replaying engine has no recording of the audio it was given (`digest`: the SHA-256 of its
    /// opening at 16 kHz) in its cassette folder.
    case noRecording(directory: String, digest: String)
    /// The engine's worker process failed on this call.
    case workerFailed(engine: String, failure: WorkerFailure)
    /// A call made after the worker process had failed: on an earlier call of the same session
    /// or between its calls (`sameSession`), or on the call of another session that shared the
    /// process.
    case workerFailedEarlier(engine: String, failure: WorkerFailure, sameSession: Bool)

    public var description: String {
        switch self {
        case .failed(let engine, let reason): return "engine \(engine) failed: \(reason)"
        case .invalidScript(let path, let reason): return "\(path): invalid engine script: \(reason)"
        case .unsupportedLocale(let engine, let locale): return "engine \(engine) does not support locale \(locale)"
        case .unsupportedFormat(let engine, let format): return "engine \(engine) does not accept \(format)"
        case .unknownEngine(let id, let known):
            return "unknown engine '\(id)' (known engines: \(known.joined(separator: ", ")))"
        case .invalidSetting(let engine, let setting, let reason):
            return "engine \(engine): setting '\(setting)': \(reason)"
        case .invalidConfiguration(let path, let reason): return "\(path): \(reason)"
        case .notInstalled(let engine, let locale): return "engine \(engine) has no assets installed for \(locale)"
        case .noRecording: return describing(audio: "this audio")
        case .workerFailed(let engine, let failure): return "engine \(engine) failed: \(failure)"
        case .workerFailedEarlier(let engine, let failure, let sameSession):
            let when =
                sameSession ? "earlier in this session" : "earlier, on another session's call it shared the worker with"
            return "engine \(engine) failed: the worker failed \(when): \(failure)"
        }
    }
}

extension EngineError {
    /// The error as a run over the file `audio` reports it: a replay's missing recording names
    /// the file as well as the cassette folder (the engine itself sees only samples).
    public func describing(audio: String) -> String {
        guard case .noRecording(let directory, let digest) = self else { return description }
        return "replay: no recording in \(directory) of \(audio) (the SHA-256 of its opening at 16 kHz is \(digest))"
    }
}
