import Foundation
import Records
import SpeechCore

/// An engine that answers from recorded traces ("cassettes", `replay:DIR`): for audio whose first
/// second matches a recording (`SessionTrace.Audio.headSHA256` in `Records`), it gives the recorded results at
/// their recorded audio times (for a recording paced in real time, when the audio reaches where
/// each arrived, so its latency too); for audio it has no recording of, it fails, naming the
/// directory.
/// A team records on a Mac once, commits the traces, and its Linux tests get Apple's words.
public struct ReplayEngine: RecognitionEngine {
    public let directory: String
    let recordings: [SessionTrace]

    public var id: String { "replay:" + directory }
    public var name: String { id }

    /// What the recordings can answer: the locales some recording heard speech in.
    public let capabilities: EngineCapabilities

    /// The recorded transcriber's locale.
    static func locale(_ trace: SessionTrace) -> String? {
        trace.session.modules.first { $0.kind != .speechDetector }?.locale
    }

    /// Whether the recording's transcriber gave results, rather than failing (a locale Apple had
    /// no assets for is not one this engine has). A call cancelled by its own task is not a failure.
    static func heardSpeech(_ trace: SessionTrace) -> Bool {
        trace.streams.allSatisfy { $0 == .finished }
            && !trace.calls.contains { $0.outcome == .threw && !isCancellation($0.error ?? "") }
    }

    /// Whether an error, as a trace writes it, is a task's cancellation (Swift's CancellationError).
    static func isCancellation(_ error: String) -> Bool {
        let domain = TraceComparison.errorIdentity(error)?.split(separator: " ").first.map(String.init)
        return domain == "Swift.CancellationError" || error.hasPrefix("CancellationError")
    }

    /// Whether the program finalized before the end of the audio: the engine was asked to end a
    /// result there, which a session that does not do so would not see.
    static func finalizesMidStream(_ trace: SessionTrace) -> Bool {
        trace.calls.contains {
            $0.name == "finalize(through:)" && $0.outcome == .returned
                && $0.inputSeconds < trace.session.audio.seconds - 0.01
        }
    }

    /// Loads every `.jsonl` trace in `directory`; a trace that cannot be read, or that lacks the
    /// head digests, is an error naming it.
    public init(directory: String) throws {
        self.directory = directory
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue else {
            throw EngineError.invalidConfiguration(path: directory, reason: "no such cassette folder")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
            $0.hasSuffix(".jsonl")
        }.sorted()
        var recordings: [SessionTrace] = []
        for name in names {
            let trace: SessionTrace
            do {
                trace = try SessionTrace.read(path: directory + "/" + name)
            } catch {
                throw EngineError.invalidConfiguration(path: directory + "/" + name, reason: "\(error)")
            }
            guard trace.session.audio.headSHA256 != nil, trace.session.audio.headPrefixSHA256 != nil else {
                throw EngineError.invalidConfiguration(
                    path: directory + "/" + name,
                    reason:
                        "recorded without the audio's head digests, which replay finds recordings by; record it again")
            }
            recordings.append(trace)
        }
        guard !recordings.isEmpty else {
            throw EngineError.invalidConfiguration(path: directory, reason: "no .jsonl session traces")
        }
        self.recordings = recordings
        capabilities = EngineCapabilities(
            partialResults: true, wordTimes: true, alternatives: true, confidence: true,
            locales: Array(Set(recordings.filter(Self.heardSpeech).compactMap(Self.locale))).sorted(),
            formats: [.speech(sampleRate: 16_000)])
    }

    public func isInstalled(locale: String) -> Bool { supports(locale: locale) }

    public func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        ReplaySession(engine: self, configuration: configuration)
    }

    /// The recordings of audio `matching` in this session's locale, best first:
    /// the closest in how the transcriber was set up (volatile results, word times, dictation), one
    /// that did not finalize mid-stream (a session that does is moved to one that did, there), and
    /// one paced in real time (it knows each result's latency).
    func recordings(
        configuration: EngineSessionConfiguration, matching audio: (SessionTrace.Audio) -> Bool
    ) -> [SessionTrace] {
        let candidates = recordings.filter { trace in
            audio(trace.session.audio) && Self.heardSpeech(trace)
                && Self.locale(trace).map { LocaleTag.equivalent($0, configuration.locale) } ?? false
        }
        func score(_ trace: SessionTrace) -> Int {
            guard let module = trace.session.modules.first(where: { $0.kind != .speechDetector }) else { return 0 }
            let volatile = (module.options["reporting"] ?? []).contains("volatileResults")
            let times = trace.results.contains { $0.runs?.contains { $0.start != nil } == true }
            let dictation = module.kind == .dictationTranscriber
            // A recording that ran to the end says most about the audio (not one cancelled early).
            return (trace.results.contains(where: \.isFinal) ? 32 : 0)
                + (volatile == configuration.reportsPartialResults ? 16 : 0)
                + (Self.finalizesMidStream(trace) ? 0 : 8)
                + (trace.session.pacing == .realtime ? 4 : 0)
                + (times == configuration.wordTimes ? 2 : 0)
                + (dictation == configuration.hints.contains("dictation") ? 1 : 0)
        }
        return candidates.enumerated().sorted { (score($1.element), $0.offset) < (score($0.element), $1.offset) }.map(
            \.element)
    }
}

/// One replayed session: collects the first second to find the recording, then gives each recorded
/// result once the audio reaches it.
final class ReplaySession: RecognitionSession, @unchecked Sendable {
    let engine: ReplayEngine
    let configuration: EngineSessionConfiguration
    private let lock = NSLock()
    /// The first second as 16-bit little-endian samples, and how many 0.1 s blocks were matched.
    private var head: [UInt8] = []
    private var blocks = 0
    /// The recordings that fit what this session has done so far, best first.
    private var candidates: [SessionTrace]?
    /// What of the chosen recording is still to be given.
    private var pending: [SessionTrace.Result] = []
    private var given = 0
    private var heard = 0.0
    /// Whether the chosen recording was paced in real time: its results then come when the audio
    /// reaches where they arrived, so their latency is replayed too.
    private var paced = false
    /// The volatile result given last: an engine keeps saying its current hypothesis until a final
    /// one or a newer one replaces it.
    private var volatile: HypothesisSegment?

    init(engine: ReplayEngine, configuration: EngineSessionConfiguration) {
        self.engine = engine
        self.configuration = configuration
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        try await taking(recordedTime: try acceptLocked(audio, at: start))
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        try await taking(recordedTime: try finalizeLocked(through: time))
    }

    /// Returns `update` after the time the recorded engine took for it (a recording paced in real
    /// time), so that its latency is replayed in real-time pacing as well as in simulated pacing,
    /// which counts the reported compute time instead.
    private func taking(recordedTime update: HypothesisUpdate) async throws -> HypothesisUpdate {
        if let seconds = update.computeSeconds, seconds > 0 {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        }
        return update
    }

    private func acceptLocked(_ audio: PCMBuffer, at start: MediaTime) throws -> HypothesisUpdate {
        try lock.withLock {
            for sample in audio.floatChannels.first ?? [] where head.count < 32_000 {
                let value = Int16(clamping: Int((Double(sample) * 32_768).rounded()))
                head += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
            }
            heard = (start + audio.duration).seconds
            if head.count / 3_200 > blocks { try narrow(to: head.count / 3_200) }
            return due(through: heard, finalizing: false)
        }
    }

    private func finalizeLocked(through time: MediaTime) throws -> HypothesisUpdate {
        try lock.withLock {
            // Audio shorter than a block so far: only a recording of exactly this much audio fits.
            if candidates == nil { try identifyWhole() }
            // Recordings are told apart by their first second; two that share it (the same words
            // said first) differ in length, and one as long as the audio heard is the one.
            if let list = candidates, list.count > 1,
                let best = list.first(where: {
                    abs($0.session.audio.seconds - heard) < 0.01
                }), best != list.first, abs(time.seconds - heard) < 0.01 || time.seconds.isInfinite
            {
                candidates = [best] + list.filter { $0 != best }
                choose(best)
            }
            // Finalizing before the end: a recording that finalized here too fits better.
            let atEnd = candidates?.first.map { time.seconds >= $0.session.audio.seconds - 0.01 } ?? true
            if !atEnd, let list = candidates {
                let fitting = list.filter { trace in
                    trace.calls.contains {
                        $0.name == "finalize(through:)" && abs($0.inputSeconds - time.seconds) < 0.05
                    }
                }
                if let best = fitting.first, best != list.first {
                    candidates = fitting
                    choose(best)
                }
            }
            return due(through: atEnd ? .infinity : time.seconds, finalizing: true)
        }
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        lock.withLock {
            pending = []
            volatile = nil
            return HypothesisUpdate(finalizedThrough: time, computeSeconds: 0)
        }
    }

    func close() async {}

    /// Keeps the recordings whose first `count` tenths of a second are this audio's.
    private func narrow(to count: Int) throws {
        blocks = count
        var digest = SHA256()
        digest.update(Array(head[..<(count * 3_200)]))
        let hex = digest.finalizeHex()
        try choose(
            from: engine.recordings(configuration: configuration) { audio in
                (audio.headPrefixSHA256 ?? []).count >= count && audio.headPrefixSHA256![count - 1] == hex
            }, digest: hex)
    }

    /// Finalizing before a tenth of a second was heard: the recordings of exactly this audio.
    private func identifyWhole() throws {
        var digest = SHA256()
        digest.update(head)
        let hex = digest.finalizeHex()
        try choose(from: engine.recordings(configuration: configuration) { $0.headSHA256 == hex }, digest: hex)
    }

    private func choose(from matching: [SessionTrace], digest: String) throws {
        // More audio only rules recordings out: what the session did so far (a finalize at a time)
        // already chose among the rest.
        let found = candidates.map { current in current.filter { matching.contains($0) } } ?? matching
        guard let best = found.first else { throw EngineError.noRecording(directory: engine.directory, digest: digest) }
        if candidates?.first != best { choose(best) }
        candidates = found
    }

    /// Replays `trace` from where the session is: its results not yet given.
    private func choose(_ trace: SessionTrace) {
        let transcriber = trace.session.modules.first { $0.kind != .speechDetector }?.index ?? 0
        pending = Array(trace.results.filter { $0.module == transcriber }.dropFirst(given))
        paced = trace.session.pacing == .realtime
    }

    /// The recorded results whose audio has been heard, as one update: a volatile result when its
    /// range's end has been heard, a final one when its range is finalized.
    private func due(through time: Double, finalizing: Bool) -> HypothesisUpdate {
        var update = HypothesisUpdate(computeSeconds: 0)
        while let next = pending.first {
            let end = next.start + next.duration
            guard end <= time + 1e-6 || (time.isInfinite && finalizing) else { break }
            // A recorded latency: not before the audio that had been given when the result
            // arrived, unless the session asks for it by finalizing; the time it took after that
            // audio is this answer's compute time, so simulated pacing replays it too.
            if paced, !finalizing, let needed = next.inputSeconds, needed > time + 1e-6 { break }
            // A final result finalized exactly where the audio heard so far ends was, in the
            // recording, the answer to a finalize there (or at the end): it waits for one, or for
            // more audio.
            if next.isFinal && !finalizing && next.finalizedThrough > time - 1e-6 { break }
            pending.removeFirst()
            given += 1
            if paced, let arrival = next.arrival, let needed = next.inputSeconds {
                update.computeSeconds = max(update.computeSeconds ?? 0, arrival - needed)
            }
            let segment = Self.segment(next)
            if next.isFinal {
                update.finalized.append(segment)
                volatile = nil
            } else if configuration.reportsPartialResults {
                volatile = segment
            }
            update.finalizedThrough = MediaTime(seconds: next.finalizedThrough, preferredTimescale: 1_000_000)
        }
        update.volatile = volatile
        return update
    }

    static func segment(_ result: SessionTrace.Result) -> HypothesisSegment {
        func time(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, preferredTimescale: 1_000_000) }
        let range = TimeRange(start: time(result.start), end: time(result.start + result.duration))
        let words: [RecognizedWord] =
            (result.runs ?? []).filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }.map { run in
                let start = run.start.map(time) ?? range.start
                return RecognizedWord(
                    text: run.text,
                    range: TimeRange(start: start, end: run.duration.map { time(run.start! + $0) } ?? range.end),
                    confidence: run.confidence)
            }
        let spoken =
            words.isEmpty
            ? (result.text ?? "").split(separator: " ").map { RecognizedWord(text: String($0), range: range) } : words
        let alternatives = (result.alternatives ?? []).dropFirst().map { $0.split(separator: " ").map(String.init) }
        return HypothesisSegment(range: range, words: spoken, alternatives: Array(alternatives))
    }
}
