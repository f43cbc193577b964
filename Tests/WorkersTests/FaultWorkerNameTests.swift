import Foundation
import SpeechCore
import Testing

@testable import Workers

extension WorkerEngineTests {
    /// Conformance plants a worker fault by name (`fault-worker[error,after0]`): the mode and the
    /// number of audio requests before the fault come from the brackets; a setting the worker does
    /// not take is an error naming it.
    @Test func aFaultWorkerNamedWithItsSettings() async throws {
        let faulty = try FaultWorker.configured(["error", "after0"])
        let error = await #expect(throws: EngineError.self) {
            let session = try await faulty.makeSession(EngineSessionConfiguration(locale: "en-US"))
            try await feed(session, count: 1)
            _ = try await session.finalize(through: MediaTime(value: 1_600, timescale: 16_000))
        }
        #expect(error.map { "\($0)".contains("planted worker error") } == true, "\(String(describing: error))")
        await faulty.shutdown()
        let healthy = try FaultWorker.configured(["ok"])
        let session = try await healthy.makeSession(EngineSessionConfiguration(locale: "en-US"))
        try await feed(session, count: 3)
        _ = try await session.finalize(through: MediaTime(value: 4_800, timescale: 16_000))
        await session.close()
        await healthy.shutdown()
        for bad in [["boom"], ["after2"], ["hang", "crash-mid"], ["hang", "after-1"]] {
            let refused = #expect(throws: EngineError.self) { try FaultWorker.configured(bad) }
            guard case .invalidSetting(engine: "fault-worker", _, _)? = refused else {
                Issue.record("\(bad): \(String(describing: refused))")
                continue
            }
        }
    }
}
