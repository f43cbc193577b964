import SpeechCore

/// An engine that answers only for audio it has recordings of (`replay:DIR`) says so with
/// ``EngineError/noRecording(directory:digest:)``. The watch notes it, so that a scenario whose
/// audio the cassettes never heard is reported as skipped with that reason, not as a failure of
/// the clause.
final class RecordedAudioWatch: @unchecked Sendable {
    private let missing = Locked<EngineError?>(nil)

    /// The first "no recording" an engine of the scenario reported.
    var noRecording: EngineError? { missing.withLock { $0 } }

    func note(_ error: any Error) {
        guard let error = error as? EngineError, case .noRecording = error else { return }
        missing.withLock { if $0 == nil { $0 = error } }
    }

    /// `engine` with every session's errors noted here.
    func watching(_ engine: any RecognitionEngine) -> any RecognitionEngine {
        WatchedEngine(base: engine, watch: self)
    }
}

private struct WatchedEngine: EngineAdapter {
    let base: any RecognitionEngine
    let watch: RecordedAudioWatch

    var id: String { base.id }
    var name: String { base.name }
    var capabilities: EngineCapabilities { base.capabilities }
    func isInstalled(locale: String) -> Bool { base.isInstalled(locale: locale) }
    func enrolledSpeakers(locale: String) -> Set<String>? { base.enrolledSpeakers(locale: locale) }
    func assetPackage(for locale: String) -> AssetPackage? { base.assetPackage(for: locale) }
    func replacingBase(_ base: any RecognitionEngine) -> WatchedEngine { WatchedEngine(base: base, watch: watch) }

    func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        WatchedSession(base: try await base.makeSession(configuration), watch: watch)
    }
}

private final class WatchedSession: FailureReportingSession {
    let base: any RecognitionSession
    let watch: RecordedAudioWatch

    init(base: any RecognitionSession, watch: RecordedAudioWatch) {
        self.base = base
        self.watch = watch
    }

    private func noting(_ body: () async throws -> HypothesisUpdate) async throws -> HypothesisUpdate {
        do {
            return try await body()
        } catch {
            watch.note(error)
            throw error
        }
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        try await noting { try await base.accept(audio, at: start) }
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        try await noting { try await base.finalize(through: time) }
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate { await base.cancel(before: time) }

    func onFailure(_ handler: @escaping @Sendable (any Error) -> Void) async {
        let watch = self.watch
        await (base as? any FailureReportingSession)?.onFailure { error in
            watch.note(error)
            handler(error)
        }
    }

    func close() async { await base.close() }
}
