import Foundation
import SpeechCore

/// Counts the CPU time an engine reports for its calls: compute that leaves out waiting (a busy
/// core, a shared lock, a queue in front of a worker). A call without a CPU figure counts its wall
/// time and is marked unmeasured.
final class ComputeMeter: Sendable {
    struct Reading: Sendable {
        var engineCPU = 0.0
        /// Calls whose engine reported no CPU time (their wall time stands in for it).
        var unmeasuredCalls = 0
    }

    private let state = Locked(Reading())

    var reading: Reading { state.withLock { $0 } }

    func record(wall: Double, cpu: Double?) {
        state.withLock {
            if let cpu {
                $0.engineCPU += cpu
            } else {
                $0.engineCPU += wall
                $0.unmeasuredCalls += 1
            }
        }
    }
}

/// An engine whose sessions report every call to a meter; everything else is the wrapped engine's.
struct MeteredEngine: RecognitionEngine {
    let base: any RecognitionEngine
    let meter: ComputeMeter

    var id: String { base.id }
    var name: String { base.name }
    var capabilities: EngineCapabilities { base.capabilities }
    func isInstalled(locale: String) -> Bool { base.isInstalled(locale: locale) }
    func enrolledSpeakers(locale: String) -> Set<String>? { base.enrolledSpeakers(locale: locale) }
    func assetPackage(for locale: String) -> AssetPackage? { base.assetPackage(for: locale) }

    func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        MeteredSession(base: try await base.makeSession(configuration), meter: meter)
    }
}

final class MeteredSession: FailureReportingSession {
    let base: any RecognitionSession
    let meter: ComputeMeter

    init(base: any RecognitionSession, meter: ComputeMeter) {
        self.base = base
        self.meter = meter
    }

    private func metered(_ body: () async throws -> HypothesisUpdate) async rethrows -> HypothesisUpdate {
        let clock = ContinuousClock()
        let start = clock.now
        let update = try await body()
        meter.record(wall: start.duration(to: clock.now).seconds, cpu: update.computeSeconds)
        return update
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        try await metered { try await base.accept(audio, at: start) }
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        try await metered { try await base.finalize(through: time) }
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        await metered { await base.cancel(before: time) }
    }

    func onFailure(_ handler: @escaping @Sendable (any Error) -> Void) async {
        await (base as? any FailureReportingSession)?.onFailure(handler)
    }

    func close() async { await base.close() }
}
