import AVFAudio
import CoreMedia
import EngineCore
import Foundation
import SpeechCore
import Testing

@_spi(Harness) @testable import SpeechReference

/// Seeded model-based testing: random sequences of API calls and inputs run against the analyzer
/// and against a small independent model of the documented rules, then checked for invariants.
///
/// Every sequence ends with `cancelAndFinishNow()`, after which no caller may still be waiting: a
/// hang shows as a waiter count above zero, never as a stuck test. Virtual time is audio time;
/// nothing sleeps.
@Suite("SpeechAnalyzer model-based", .isolatedResources)
struct AnalyzerModelTests {
    static let traceSeed = ProcessInfo.processInfo.environment["SPEECH_HARNESS_MODEL_SEED"].flatMap(UInt64.init)
    /// A bounded sample in `swift test`; scripts/model-sequences runs seeds 0..N-1 at scale (10,000
    /// of them in scripts/test).
    static let sequences = Int(ProcessInfo.processInfo.environment["SPEECH_HARNESS_MODEL_SEQUENCES"] ?? "") ?? 1_000
    /// The first seed: given (scripts/model-sequences runs the seeds in shards), or drawn anew for
    /// each run and printed, so that runs cover other seeds than the fixed ones and a failure replays.
    static let firstSeed =
        UInt64(ProcessInfo.processInfo.environment["SPEECH_HARNESS_MODEL_FIRST"] ?? "")
        ?? UInt64.random(in: 1_000_000..<1_000_000_000)
    /// Where the run's counts are written (tab-separated), for scripts/model-sequences.
    static let reportPath = ProcessInfo.processInfo.environment["SPEECH_HARNESS_MODEL_REPORT"]

    /// What a waiting call ended with.
    enum Outcome: Equatable, CustomStringConvertible {
        case success, cancelled
        case failed(String)
        var description: String {
            switch self {
            case .success: return "success"
            case .cancelled: return "cancelled"
            case .failed(let e): return "failed(\(e))"
            }
        }
    }

    /// The rules, as simply as they can be said, for outcomes the model can predict.
    struct Model {
        var consumed: Double?
        var finalizedAtLeast = 0.0
        var finished = false
        var failure: String?
        var faultAt: Double
        /// finish(after:) calls still waiting for their audio.
        var pendingFinish: [Double] = []

        /// What a finalize/finish waiter for `t` must end with, once the sequence is over.
        /// Nil where the rules allow either (e.g. engine endpoints the model does not track).
        func expectedWaiter(
            target: Double, registeredWhileActive: Bool, resolvedBy consumedAtResolution: Double?
        ) -> Outcome? {
            if let consumedAtResolution, target <= consumedAtResolution + 1e-9 { return .success }
            if let failure { return .failed(failure) }
            return registeredWhileActive ? .cancelled : nil
        }
    }

    struct Waiter {
        var kind: String
        var target: Double
        var task: Task<Outcome, Never>
    }

    @Test func randomSequencesHoldTheInvariants() async throws {
        var failures: [String] = []
        var hangs = 0
        var violations = 0
        let trace = ProcessInfo.processInfo.environment["SPEECH_HARNESS_MODEL_TRACE"] != nil
        let seeds = Self.traceSeed.map { [$0] } ?? Array(Self.firstSeed..<Self.firstSeed + UInt64(Self.sequences))
        if Self.traceSeed == nil {
            print(
                "model sequences: seeds \(Self.firstSeed)..<\(Self.firstSeed + UInt64(Self.sequences)); replay with "
                    + "SPEECH_HARNESS_MODEL_FIRST=\(Self.firstSeed) SPEECH_HARNESS_MODEL_SEQUENCES=\(Self.sequences)")
        }
        for seed in seeds {
            if trace { FileHandle.standardError.write(Data("seed \(seed)\n".utf8)) }
            guard let problem = await runSequence(seed: seed) else { continue }
            if problem.isHang { hangs += 1 } else { violations += 1 }
            if failures.count < 5 { failures.append("seed \(seed): \(problem.message)") }
        }
        if let path = Self.reportPath {
            let row =
                "\(seeds.first ?? 0)\t\(seeds.count)\t\(violations)\t\(hangs)\n" + failures.map { "\($0)\n" }.joined()
            try Data(row.utf8).write(to: URL(fileURLWithPath: path))
        }
        #expect(
            failures.isEmpty,
            "\(violations) rule violations, \(hangs) hangs; first:\n\(failures.joined(separator: "\n"))")
    }

    /// A broken invariant. A hang is a caller still waiting once the analyzer has finished.
    struct Problem: ExpressibleByStringInterpolation {
        var message: String
        var isHang = false
        init(stringLiteral value: String) { message = value }
        init(stringInterpolation: DefaultStringInterpolation) {
            message = String(stringInterpolation: stringInterpolation)
        }
        static func hang(_ message: String) -> Problem {
            var problem = Problem(stringLiteral: message)
            problem.isHang = true
            return problem
        }
    }

    /// Starts a waiting call and returns once it is either registered with the analyzer or answered,
    /// so that the next step of the sequence happens after it (no sleeping, no races).
    func spawn(
        _ kind: String, _ target: Double, on analyzer: SpeechAnalyzer,
        _ call: @escaping @Sendable () async throws -> Void
    ) async -> Waiter {
        let before = await analyzer.waitersRegistered
        let finished = OneShot()
        let task = Task {
            let result = await outcome(call)
            finished.fire()
            return result
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await finished.wait() }
            group.addTask { await analyzer.waiterRegistered(after: before) }
            await group.next()
            group.cancelAll()
        }
        return Waiter(kind: kind, target: target, task: task)
    }

    func outcome(_ body: () async throws -> Void) async -> Outcome {
        do {
            try await body()
            return .success
        } catch is CancellationError {
            return .cancelled
        } catch {
            return .failed("\(error)")
        }
    }

    /// One random sequence; returns the first broken invariant, or nil.
    func runSequence(seed: UInt64) async -> Problem? {
        var rng = SeededGenerator(seed: seed &* 0x9E37_79B9 &+ 17)
        let wordCount = Int.random(in: 0...6, using: &rng)
        var cursor = 0.1
        var words: [EngineScript.Word] = []
        for i in 0..<wordCount {
            let start = cursor + Double(Int.random(in: 0...4, using: &rng)) * 0.1
            let end = start + 0.1 + Double(Int.random(in: 0...3, using: &rng)) * 0.1
            words.append(.init("w\(i)", start: start, end: end, revisions: rng.nextUnit() < 0.3 ? ["r\(i)"] : nil))
            cursor = end + 0.05
        }
        let faultAt = rng.nextUnit() < 0.15 ? Double(Int.random(in: 1...20, using: &rng)) / 10 : Double.infinity
        let script = EngineScript(
            words: words, latency: Double(Int.random(in: 0...2, using: &rng)) * 0.1,
            revisionInterval: 0.1, endpointSilence: rng.nextUnit() < 0.5 ? 0.3 : nil,
            faults: faultAt.isFinite ? [.throwAt(faultAt, message: "fault \(seed)")] : [])
        let engine = ScriptedEngine(script: script)
        let presets: [SpeechTranscriber.Preset] = [
            .transcription, .progressiveTranscription, .timeIndexedProgressiveTranscription,
        ]
        let modules = [
            SpeechTranscriber(
                locale: Locale(identifier: "en-US"), preset: presets.randomElement(using: &rng)!, engine: engine)
        ]
        let ranges = EventLog<CMTimeRange>()
        let analyzer = SpeechAnalyzer(modules: modules)
        let traced = Self.traceSeed == seed
        await analyzer.setVolatileRangeChangedHandler { range, a, b in
            if traced { print("range \(range.start.seconds)..\(range.end.seconds) \(a) \(b)") }
            ranges.append(range)
        }
        var allModules: [SpeechTranscriber] = modules
        var model = Model(faultAt: faultAt)
        var waiters: [Waiter] = []
        var registered: [(Waiter, Bool)] = []

        let steps = Int.random(in: 3...12, using: &rng)
        for _ in 0..<steps {
            let roll = Int.random(in: 0..<100, using: &rng)
            if Self.traceSeed == seed {
                print(
                    "op \(roll) model consumed=\(String(describing: model.consumed)) finished=\(model.finished) failure=\(String(describing: model.failure)) faultAt=\(faultAt)"
                )
            }
            switch roll {
            case 0..<40:
                // Feed 1–8 buffers of 0.1 s; sometimes skip ahead, sometimes go back (disordered).
                let count = Int.random(in: 1...8, using: &rng)
                var start: Double? = nil
                let jump = rng.nextUnit()
                if jump < 0.1, let consumed = model.consumed { start = consumed + 0.3 }
                if jump > 0.95, let consumed = model.consumed, consumed >= 0.2 { start = consumed - 0.2 }
                let begin = start ?? model.consumed ?? 0
                var inputs: [AnalyzerInput] = []
                for i in 0..<count {
                    inputs.append(
                        AnalyzerInput(
                            buffer: Fixture.buffer(seconds: 0.1),
                            bufferStartTime: i == 0 && start != nil ? Fixture.seconds(begin) : nil))
                }
                let result = await outcome { _ = try await analyzer.analyzeSequence(Fixture.stream(inputs)) }
                // Model: what should have happened, buffer by buffer.
                if model.failure == nil && !model.finished {
                    if let consumed = model.consumed, begin < consumed - 1e-9 {
                        model.failure = "audioDisordered"
                    } else {
                        for i in 0..<count {
                            let end = begin + Double(i + 1) * 0.1
                            if end >= faultAt - 1e-9 {
                                model.failure = "fault"
                                break
                            }
                            model.consumed = end
                            if model.pendingFinish.contains(where: { $0 <= end + 1e-9 }) {
                                model.finished = true
                                break
                            }
                        }
                    }
                    if model.failure != nil, case .success = result {
                        return "analyzeSequence succeeded although the model expected \(model.failure!)"
                    }
                    if model.failure == nil, result != .success { return "analyzeSequence \(result) unexpectedly" }
                }
            case 40..<55:
                let target = Double(Int.random(in: 0...30, using: &rng)) * 0.1
                let active = !model.finished && model.failure == nil
                let waiter = await spawn("finalize", target, on: analyzer) {
                    try await analyzer.finalize(through: Fixture.seconds(target))
                }
                waiters.append(waiter)
                registered.append((waiter, active))
            case 55..<62:
                let target = Double(Int.random(in: 0...30, using: &rng)) * 0.1
                let active = !model.finished && model.failure == nil
                let waiter = await spawn("finish", target, on: analyzer) {
                    try await analyzer.finish(after: Fixture.seconds(target))
                }
                waiters.append(waiter)
                registered.append((waiter, active))
                if active && (model.consumed ?? -1) >= target - 1e-9 {
                    _ = await waiter.task.value
                    model.finished = true
                } else if active {
                    model.pendingFinish.append(target)
                }
            case 62..<70:
                let before = Double(Int.random(in: 0...30, using: &rng)) * 0.1
                await analyzer.cancelAnalysis(before: Fixture.seconds(before))
            case 70..<77:
                if model.failure == nil && !model.finished {
                    let extra = SpeechTranscriber(
                        locale: Locale(identifier: "en-US"), preset: .progressiveTranscription, engine: engine)
                    let result = await outcome { try await analyzer.setModules(allModules + [extra]) }
                    if result == .success { allModules.append(extra) }
                }
            case 77..<82:
                await analyzer.cancelAndFinishNow()
                if model.failure == nil { model.finished = true }
            default:
                // A finalize of what was consumed.
                let result = await outcome { try await analyzer.finalize(through: nil) }
                if model.failure == nil && !model.finished && result != .success {
                    return "finalize(nil) on an active session ended \(result)"
                }
            }
        }
        await analyzer.cancelAndFinishNow()

        // Invariant: nobody is left waiting, and every waiter resumed exactly once.
        if await analyzer.pendingWaiterCount != 0 {
            return .hang("\(await analyzer.pendingWaiterCount) callers still waiting after finishing")
        }
        for (waiter, active) in registered {
            let result = await waiter.task.value
            if let failure = model.failure, active, case .failed(let text) = result {
                let expected = failure == "audioDisordered" ? "audioDisordered" : "fault \(seed)"
                if !text.contains(expected) {
                    return "\(waiter.kind)(\(waiter.target)) failed with \(text), expected \(expected)"
                }
            }
            if model.failure == nil, case .failed(let text) = result {
                return "\(waiter.kind)(\(waiter.target)) failed with \(text) in a session without errors"
            }
            if active, (model.consumed ?? -1) < waiter.target - 1e-9, model.failure == nil, result == .success,
                waiter.kind == "finish"
            {
                return "finish(after: \(waiter.target)) succeeded though audio ended at \(model.consumed ?? -1)"
            }
        }

        // Invariants on every module's results.
        for module in allModules {
            let (results, error) = await collect(module.results)
            if let failure = model.failure {
                let expected = failure == "audioDisordered" ? "audioDisordered" : "fault \(seed)"
                if let error, !"\(error)".contains(expected) {
                    return "stream ended with \(error), expected \(expected)"
                }
            } else if let error {
                return "stream ended with \(error) in a session without errors"
            }
            var lastFinalEnd: CMTime = .negativeInfinity
            for result in results {
                if result.isFinal != (result.resultsFinalizationTime >= result.range.end) {
                    return "isFinal rule broken: \(result)"
                }
                if result.alternatives.isEmpty || result.text != result.alternatives[0] {
                    return "alternatives rule broken: \(result)"
                }
                if result.isFinal && !result.plain.isEmpty {
                    // Finalised text never changes: final ranges come in order and never overlap.
                    if result.range.start < lastFinalEnd {
                        return "final result \(result) overlaps an earlier final result"
                    }
                    lastFinalEnd = result.range.end
                }
            }
        }
        // The volatile range's start never moves backwards.
        for (a, b) in zip(ranges.items, ranges.items.dropFirst()) where b.start < a.start {
            return "volatile range start moved back from \(a.start.seconds) to \(b.start.seconds)"
        }
        return nil
    }
}
