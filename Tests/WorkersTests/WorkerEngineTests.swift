import Foundation
import SpeechCore
import TestSupport
import Testing

@testable import Workers

/// The worker protocol with real processes: the fault worker for every failure mode, and the
/// Whisper worker on real speech.
@Suite("Worker engines")
struct WorkerEngineTests {
    /// Every Whisper setting that changes transcripts is in the engine's name; the default seed
    /// keeps the name earlier runs used, so they stay comparable.
    @Test func whisperSettingsNameTheEngine() throws {
        #expect(try WhisperWorker.Settings.fromEnvironment([:]).names == ["tiny.en", "int8", "beam1", "t1"])
        let chosen = try WhisperWorker.Settings.fromEnvironment([
            "SPEECH_HARNESS_WHISPER_BEAM_SIZE": "5", "SPEECH_HARNESS_WHISPER_SEED": "7",
            "SPEECH_HARNESS_WHISPER_COMPUTE_TYPE": "float32",
        ])
        #expect(chosen.names == ["tiny.en", "float32", "beam5", "t1", "seed7"])
        #expect(WhisperWorker.engine(settings: chosen).name == "whisper[tiny.en,float32,beam5,t1,seed7]")
        #expect(throws: EngineError.self) {
            try WhisperWorker.Settings.fromEnvironment(["SPEECH_HARNESS_WHISPER_SEED": "-1"])
        }
        #expect(throws: EngineError.self) {
            try WhisperWorker.Settings.fromEnvironment(["SPEECH_HARNESS_WHISPER_COMPUTE_TYPE": "fp4"])
        }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let ci = ProcessInfo.processInfo.environment["CI"] == "true"

    func faultEngine(
        _ mode: String, after: Int = 2, timeout: Duration = .seconds(30),
        clock: any Clock<Duration> = ContinuousClock(),
        protocolVersion: Int = WorkerProtocol.latest, maximumWorkers: Int = 2
    ) -> WorkerEngine {
        FaultWorker.engine(
            mode: mode, after: after, root: Self.root, callTimeout: timeout, clock: clock,
            protocolVersion: protocolVersion,
            maximumWorkers: maximumWorkers)
    }

    let chunk = PCMBuffer(mono: [Float](repeating: 0.01, count: 1_600), sampleRate: 16_000)

    func feed(_ session: any RecognitionSession, count: Int) async throws {
        for i in 0..<count {
            _ = try await session.accept(chunk, at: MediaTime(value: Int64(i * 1_600), timescale: 16_000))
        }
    }

    @Test(arguments: [1, 2]) func happyPath(protocolVersion: Int) async throws {
        let engine = faultEngine("ok", protocolVersion: protocolVersion)
        let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        #expect(await engine.negotiatedProtocol == protocolVersion)
        try await feed(session, count: 5)
        let update = try await session.finalize(through: MediaTime(value: 8_000, timescale: 16_000))
        #expect(update.finalized.flatMap(\.words).map(\.text) == ["ok"])
        #expect(update.finalizedThrough == MediaTime(value: 1, timescale: 2))
        await session.close()
        let peaks = await engine.shutdown()
        #expect(peaks.count == 1 && peaks[0] > 1_000_000, "one worker ran, and its peak memory was read: \(peaks)")
    }

    /// Code that owns an engine gives its processes back through the protocol: an adapter over a
    /// worker has the worker's processes, and stopping them through the adapter stops the worker.
    @Test func adaptersGiveBackTheWorkersProcesses() async throws {
        let engine = faultEngine("ok")
        let adapted = PassThrough(base: PassThrough(base: engine))
        #expect(adapted.processes === engine.processes && engine.processes != nil)
        let session = try await adapted.makeSession(EngineSessionConfiguration(locale: "en-US"))
        try await feed(session, count: 1)
        await session.close()
        #expect(await adapted.shutdown().count == 1, "the worker under two adapters was stopped")
        #expect(await engine.shutdown().isEmpty, "nothing was left running")
    }

    /// Every fault fails the session with a typed error quoting the worker's stderr, in both
    /// protocol versions. In version 2 audio is not answered, so a fault mid-utterance shows at
    /// the latest when the session is finalised.
    @Test(
        arguments: [1, 2],
        [
            ("exit-at-start", "failing at start"), ("crash-mid", "crashing mid-utterance"),
            ("garbage", "(session 1) (not valid JSON): this is not json"),
            ("oversized", "over 8388608 bytes"),
            ("error", "planted worker error"),
        ])
    func faultsBecomeEngineErrorsWithTheStderrTail(
        protocolVersion: Int, fault: (mode: String, expected: String)
    ) async throws {
        let engine = faultEngine(fault.mode, protocolVersion: protocolVersion)
        let error = await #expect(throws: EngineError.self) {
            let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
            try await feed(session, count: 5)
            _ = try await session.finalize(through: MediaTime(value: 8_000, timescale: 16_000))
        }
        #expect(error.map { "\($0)".contains(fault.expected) } == true, "\(String(describing: error))")
        if fault.mode != "error" { #expect(error.map { "\($0)".contains("worker stderr") } == true) }
        // The failed worker was stopped; the next session starts a fresh one (whose fault is due
        // only after two chunks).
        if fault.mode != "exit-at-start" && fault.mode != "error" {
            let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
            try await feed(session, count: 1)
            await session.close()
        }
        await engine.shutdown()
    }

    /// Sessions that run at once each get a worker process of their own, up to the pool's size;
    /// beyond it they share one, taking turns, and a session that is never closed blocks nobody.
    @Test func parallelSessionsGetTheirOwnWorkersAndThenShare() async throws {
        let engine = faultEngine("ok", maximumWorkers: 2)
        let first = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        let second = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        let third = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        for session in [first, second, third] { try await feed(session, count: 2) }
        for session in [third, second] {
            let update = try await session.finalize(through: MediaTime(value: 3_200, timescale: 16_000))
            #expect(update.finalized.flatMap(\.words).map(\.text) == ["ok"])
            await session.close()
        }
        // `first` is never closed: a later session still gets a worker at once.
        let fourth = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        try await feed(fourth, count: 1)
        await fourth.close()
        #expect(await engine.shutdown().count == 1, "two processes served four sessions; the one still held stays")
        await first.close()
        #expect(await engine.shutdown().count == 1)
    }

    /// In random mode the fate of a session follows from its audio: the same audio meets the same
    /// fault every time; at rate 0 nothing fails, at rate 1 everything does, at finalize.
    @Test func randomModeIsDecidedByTheAudio() async throws {
        func outcome(rate: String, seed: String) async -> String {
            let engine = FaultWorker.engine(
                mode: "random", root: Self.root, extra: ["FAULT_RATE": rate, "FAULT_SEED": seed])
            defer { Task { await engine.shutdown() } }
            do {
                let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
                try await feed(session, count: 5)
                let update = try await session.finalize(through: MediaTime(value: 8_000, timescale: 16_000))
                await session.close()
                return update.finalized.flatMap(\.words).map(\.text).joined()
            } catch {
                return "\(error)".contains("crashing at finalize")
                    ? "crash" : "\(error)".contains("malformed reply") ? "garbage" : "other"
            }
        }
        #expect(await outcome(rate: "0", seed: "a") == "ok")
        let first = await outcome(rate: "1", seed: "b")
        #expect(["crash", "garbage"].contains(first))  // "hang" would need the call timeout
        #expect(await outcome(rate: "1", seed: "b") == first)
    }

    /// A hung worker is detected by the call timeout, measured on a virtual clock (no sleeping).
    /// In protocol 2 audio is not waited for, so the hang shows when a reply is due (finalize).
    @Test(arguments: [1, 2]) func aHungWorkerTimesOutAndIsStopped(protocolVersion: Int) async throws {
        let clock = VirtualClock()
        let engine = faultEngine("hang", timeout: .seconds(5), clock: clock, protocolVersion: protocolVersion)
        let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        try await feed(session, count: 2)
        let hanging = Task {
            _ = try await session.accept(chunk, at: MediaTime(value: 3_200, timescale: 16_000))
            return try await session.finalize(through: MediaTime(value: 4_800, timescale: 16_000))
        }
        while clock.sleeperCount < 1 { await Task.yield() }
        clock.advance(by: .seconds(5))
        let error = await #expect(throws: EngineError.self) { try await hanging.value }
        // The failure names its kind, the call it came in and how the stopped worker ended.
        guard case .workerFailed(_, let failure)? = error else {
            Issue.record("not a worker failure: \(String(describing: error))")
            return
        }
        // Protocol 1 waits for a reply to each audio request, protocol 2 first at finalize.
        let call = protocolVersion == 1 ? "audio" : "finalize"
        #expect(failure.kind == .noReply(seconds: 5) && failure.call == call && failure.session == 1)
        // SIGTERM, or SIGKILL when the worker had not gone shortly after it.
        #expect([.signal(SIGTERM), .signal(SIGKILL)].contains(failure.exit), "\(failure)")
        #expect(failure.stderrTail.contains("hanging"), "\(failure)")
        #expect(
            "\(failure)".hasPrefix(
                "no reply to '\(call)' (session 1) within 5.0 seconds; the worker was stopped (killed by"),
            "\(failure)")
        // The next session gets a fresh worker.
        let again = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        _ = try await again.accept(chunk, at: .zero)
        await engine.shutdown()
    }

    /// A worker that crashed names its exit in every later call: the session's own calls say it
    /// failed earlier in this session, a session sharing the process says it was another
    /// session's call, so a bystander is never taken for a fault of its own.
    @Test func laterCallsNameTheFailureAndWhoseCallItWas() async throws {
        let engine = faultEngine("crash-mid", after: 2, protocolVersion: 1, maximumWorkers: 1)
        let victim = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        let bystander = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        let error = await #expect(throws: EngineError.self) { try await feed(victim, count: 3) }
        guard case .workerFailed(_, let failure)? = error else {
            Issue.record("not a worker failure: \(String(describing: error))")
            return
        }
        #expect(failure.kind == .stopped && failure.call == "audio" && failure.session == 1)
        #expect(failure.exit == .status(9), "\(failure)")
        let again = await #expect(throws: EngineError.self) {
            _ = try await victim.finalize(through: MediaTime(value: 4_800, timescale: 16_000))
        }
        #expect(again == .workerFailedEarlier(engine: "fault-worker", failure: failure, sameSession: true))
        let shared = await #expect(throws: EngineError.self) { try await feed(bystander, count: 1) }
        #expect(shared == .workerFailedEarlier(engine: "fault-worker", failure: failure, sameSession: false))
        #expect(
            shared.map { "\($0)".contains("another session's call") && "\($0)".contains("exited with status 9") }
                == true,
            "\(String(describing: shared))")
        await victim.close()
        await bystander.close()
        await engine.shutdown()
    }

    static var whisperInstalled: Bool {
        ci || FileManager.default.isExecutableFile(atPath: root + "/.venv/bin/python")
    }

    @Test(.enabled(if: whisperInstalled)) func whisperTranscribesARealClip() async throws {
        let engine = WhisperWorker.engine(root: Self.root)
        #expect(engine.isInstalled(locale: "en-US"))
        let path = "/usr/share/pocketsphinx/test/data/cards/005.wav"
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let samples = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let buffer = PCMBuffer(
            format: AudioFormat(sampleRate: 16_000, channelCount: 1, sampleType: .int16), channels: [samples])
        let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        var offset = 0
        while offset < buffer.frameCount {
            let end = min(buffer.frameCount, offset + 1_600)
            _ = try await session.accept(
                buffer.slice(offset..<end), at: MediaTime(value: Int64(offset), timescale: 16_000))
            offset = end
        }
        let update = try await session.finalize(through: buffer.duration)
        let words = update.finalized.flatMap(\.words)
        let tokens = words.map { $0.text.lowercased().filter { $0.isLetter || $0.isNumber } }
        // Reference: "eight of spades four of clubs seven of hearts". Measured here, tiny.en writes
        // "8 of spades, 4 of close, 7 of hearts": digits as numerals, one word wrong.
        let reference = ["8", "of", "spades", "4", "of", "clubs", "7", "of", "hearts"]
        let hits = zip(tokens, reference).filter { $0 == $1 }.count
        #expect(tokens.count == reference.count && hits >= 7, "whisper said: \(tokens)")
        for (a, b) in zip(words, words.dropFirst()) { #expect(a.range.start <= b.range.start) }
        #expect((words.last?.range.end.seconds ?? 99) <= buffer.duration.seconds + 0.05)
        #expect(words.allSatisfy { ($0.confidence ?? -1) > 0 })
        await session.close()
        await engine.shutdown()
    }

    /// Silero VAD in the Whisper worker: a listening session's probabilities are the same however
    /// the audio is cut into frames (the detector's state runs on from window to window), low in the
    /// clip's leading silence and high in its speech; a detector the worker does not name is an error.
    @Test(.enabled(if: whisperInstalled)) func sileroVADHearsSpeechWhateverTheFraming() async throws {
        let engine = WhisperWorker.engine(root: Self.root)
        let data = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/cards/005.wav"))
        let samples = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map {
            Float($0) / 32_768
        }
        let detector = engine.voiceActivity(model: WhisperWorker.voiceActivityModel)
        func probabilities(piece: Int) async throws -> [Float] {
            let stream = try await detector.makeStream()
            var all: [Float] = []
            for start in stride(from: 0, to: samples.count, by: piece) {
                all += try await stream.append(Array(samples[start..<min(samples.count, start + piece)])).probabilities
            }
            await stream.close()
            return all
        }
        let tenths = try await probabilities(piece: 1_600)
        let odd = try await probabilities(piece: 3_001)
        #expect(tenths.count == samples.count / 512 && odd.count == tenths.count)
        #expect(zip(tenths, odd).allSatisfy { abs($0 - $1) < 1e-4 })
        #expect(tenths.prefix(6).allSatisfy { $0 < 0.35 } && (tenths.max() ?? 0) > 0.9)
        await #expect(throws: EngineError.self) {
            try await engine.voiceActivity(model: "webrtc-vad").makeStream()
        }
        await engine.shutdown()
    }

    /// A session whose first audio starts late (the streaming policies open one per window, 600 s
    /// into a stream) decodes what it was sent, not the silence before it: 1 s of audio is 1 s to
    /// decode. Before, the window was decoded after 600 s of zeros, a cost that grew with every
    /// window of a long stream. Gaps after the first audio stay, as silence.
    @Test(.enabled(if: whisperInstalled)) func aSessionOpenedMidStreamDecodesOnlyWhatItWasSent() throws {
        let script = """
            import sys, numpy as np
            sys.path.insert(0, sys.argv[1])
            import whisper_worker as w
            late = w.Session("en-US", [], False)
            late.add(600.0, np.ones(16000, dtype=np.float32))
            origin, end, audio = late.take_audio(601.0)
            gap = w.Session("en-US", [], False)
            gap.add(0.0, np.ones(8000, dtype=np.float32))
            gap.add(2.0, np.ones(8000, dtype=np.float32))
            gap_origin, gap_end, gap_audio = gap.take_audio(2.5)
            print(origin, end, len(audio), gap_origin, gap_end, len(gap_audio))
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: Self.root + "/.venv/bin/python")
        python.arguments = ["-c", script, Self.root + "/scripts/workers"]
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "600.0 601.0 16000 0.0 2.5 40000", "\(text)")
    }

    /// A worker given one thread runs two: Python's and CTranslate2's decoding thread. numpy's
    /// OpenBLAS would add one per further core, whose busy-waiting counts as the worker's CPU time
    /// (about a fifth more with a core free, less with none, so `--jobs 2` read faster).
    @Test(.enabled(if: whisperInstalled)) func whisperWorkerGivenOneThreadStartsNoOther() throws {
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: Self.root + "/.venv/bin/python")
        worker.arguments = [Self.root + "/scripts/workers/whisper_worker.py"]
        var environment = ProcessInfo.processInfo.environment
        environment["WHISPER_THREADS"] = "1"
        environment["OPENBLAS_NUM_THREADS"] = nil
        environment["OMP_NUM_THREADS"] = nil
        worker.environment = environment
        let input = Pipe()
        let output = Pipe()
        worker.standardInput = input
        worker.standardOutput = output
        worker.standardError = FileHandle.nullDevice
        try worker.run()
        defer {
            try? input.fileHandleForWriting.close()
            worker.waitUntilExit()
        }
        try input.fileHandleForWriting.write(contentsOf: Data(#"{"type":"hello","protocol":1}"#.utf8 + [0x0A]))
        var reply = Data()
        while !reply.contains(0x0A), let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty {
            reply += byte
        }
        #expect(String(decoding: reply, as: UTF8.self).contains(#""type":"ready""#))  // the model is loaded
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(worker.processIdentifier)/task")
        #expect(threads.count == 2, "worker threads: \(threads.sorted())")
    }

    /// A reply is decoded at the boundary: a type the protocol does not have, or a field of the
    /// wrong type, is named with the values allowed or what was found.
    @Test func malformedRepliesNameTheFieldAndTheValuesAllowed() {
        for (line, message) in [
            (
                #"{"type":"hyp","id":1}"#,
                "field 'type': unknown reply type 'hyp' (expected one of: ready, started, hypothesis, ended, error, listening, speech)"
            ),
            (
                #"{"type":"hypothesis","volatile":{"start":0,"end":1,"words":"one"}}"#,
                "field 'volatile.words': expected a list, got a string"
            ),
        ] {
            do {
                _ = try DecodingProblem.decode(WorkerReply.self, from: Data(line.utf8))
                Issue.record("decoded \(line)")
            } catch {
                #expect(error.description == message)
            }
        }
    }
}

/// The smallest adapter: what it does is its base's.
private struct PassThrough: EngineAdapter {
    let base: any RecognitionEngine
    var id: String { base.id }
    var capabilities: EngineCapabilities { base.capabilities }
    func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        try await base.makeSession(configuration)
    }
    func replacingBase(_ base: any RecognitionEngine) -> PassThrough { PassThrough(base: base) }
}

/// WorkerProtocol.md and the types agree: every request the document shows is read into a typed
/// request and written back as the same JSON, every request type is shown, and every complete
/// reply it shows decodes as a reply.
@Suite("Worker protocol document")
struct WorkerProtocolDocumentTests {
    static let document = SystemFixture.packageRoot + "/Sources/Workers/WorkerProtocol.md"

    /// Every `{"type": …}` object, in backticks or in a fenced json block, that is whole JSON
    /// (an example with an ellipsis in it is prose).
    static func examples() throws -> [[String: Any]] {
        let text = try String(contentsOfFile: document, encoding: .utf8)
        let inline = try NSRegularExpression(pattern: "`(\\{\"type\":[^`]*\\})`")
        let fenced = try NSRegularExpression(pattern: "```json\\n(\\{\"type\":[^`]*\\})\\n```")
        return [inline, fenced].flatMap { pattern in
            pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                let json = (text as NSString).substring(with: $0.range(at: 1))
                return try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            }
        }
    }

    @Test func documentedRequestsAreTheTypes() throws {
        let requests = try Self.examples().filter {
            ["hello", "start", "audio", "finalize", "cancel", "listen", "voice", "end", "shutdown"].contains(
                $0["type"] as? String)
        }
        var shown: Set<String> = []
        for example in requests {
            let data = try JSONSerialization.data(withJSONObject: example)
            let line = try JSONDecoder().decode(WorkerRequestLine.self, from: data)
            shown.insert(line.request.type)
            let written = try JSONSerialization.jsonObject(with: line.encoded()) as? NSDictionary
            #expect(written == example as NSDictionary, "\(example)")
        }
        #expect(shown == ["hello", "start", "audio", "finalize", "cancel", "listen", "voice", "end", "shutdown"])
    }

    @Test func documentedRepliesDecode() throws {
        let replies = try Self.examples().filter { WorkerReply.Kind(rawValue: $0["type"] as? String ?? "") != nil }
        #expect(
            Set(replies.compactMap { $0["type"] as? String }).isSuperset(of: [
                "ready", "started", "ended", "listening", "speech",
            ]))
        for example in replies {
            let data = try JSONSerialization.data(withJSONObject: example)
            #expect(throws: Never.self, "\(example)") { try JSONDecoder().decode(WorkerReply.self, from: data) }
        }
    }
}
