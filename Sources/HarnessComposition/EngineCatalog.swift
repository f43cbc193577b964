import DSPRecognizer
import EngineCore
import Foundation
import PocketSphinx
import SpeechCore
import StreamingPolicies
import TraceReplay
import Workers

/// Every engine a program can name, with its id, one-line summary and preference (lower is tried
/// first when no engine is named): the scripted engine, PocketSphinx in four modes, the DSP
/// reference engine for each task, Whisper in its worker pool, Whisper under each streaming policy
/// teams migrate from, and the deliberately faulty worker.
public enum EngineCatalog {
    public static func register(into registry: EngineRegistry) {
        registerEngines(into: registry)
        registerStreamingPolicies(into: registry)
        registry.register(
            EngineRegistry.Family(
                prefix: "replay:", pattern: "replay:DIR",
                summary: "answers from the session traces in DIR for audio they recorded (docs/session-traces.md)",
                make: { try ReplayEngine(directory: $0) }))
    }

    /// The engines themselves.
    static func registerEngines(into registry: EngineRegistry) {
        registry.register(
            EngineRegistry.Entry(
                id: "scripted", summary: "says what a script says (SPEECH_HARNESS_SCRIPT=file.json)",
                preference: 100, make: { try ScriptedEngine.fromEnvironment() }))
        for (preference, (search, decoding)) in [
            (PocketSphinxEngine.Search.languageModel, PocketSphinxEngine.Decoding.streaming),
            (.languageModel, .wholeUtterance), (.digits, .streaming), (.digits, .wholeUtterance),
        ].enumerated() {
            let engine = PocketSphinxEngine(search: search, decoding: decoding)
            let what =
                (search == .digits ? "digits grammar" : "n-gram language model") + ", "
                + (decoding == .streaming ? "streaming with partials" : "whole-utterance decoding")
            registry.register(
                EngineRegistry.Entry(
                    id: engine.id, summary: "CMU PocketSphinx 0.8 (Debian), \(what)", preference: 20 + preference,
                    make: { engine }))
        }
        for (preference, task) in DSPEngine.Task.allCases.enumerated() {
            let what = task == .all ? "digits and commands" : task.rawValue
            registry.register(
                EngineRegistry.Entry(
                    id: DSPEngine(task: task).id,
                    summary: "DSP reference: MFCC and one-pass DTW over enrolled templates, \(what)",
                    preference: 40 + preference, make: { DSPEngine(task: task) }))
        }
        registry.register(
            whisperEntry(
                id: "whisper",
                summary:
                    "Whisper (faster-whisper; tiny.en, or base as whisper[base]; int8, beam 1, 1 thread unless SPEECH_HARNESS_WHISPER_* or the brackets say otherwise) in a pool of worker processes",
                preference: 10, over: { $0 }))
        registry.register(
            EngineRegistry.Entry(
                id: "fault-worker",
                summary:
                    "a deliberately faulty worker for reliability checks (SPEECH_HARNESS_FAULT_MODE, _RATE, _SEED, _TIMEOUT; or fault-worker[MODE,afterN])",
                preference: 1_000, make: { try FaultWorker.fromEnvironment() },
                configure: { settings in try FaultWorker.configured(settings) }))
    }

    /// Whisper under the streaming policies teams migrate from: `whisper-streaming-la2` (alias
    /// `whisper-streaming`; 1 s chunks, LocalAgreement-2, 15 s segment trimming, 30 s window),
    /// `whisper-streaming-la2-aligned` (the same with the harness's repair for quickly repeated
    /// words), `whisper-streaming-vac` (LocalAgreement-2 gated by Silero VAD), `whisper-cpp-stream` (whisper.cpp's `stream`: 3 s step, 10 s length, 0.2 s keep),
    /// `whisper-cpp-stream-vad` (its VAD mode, its overlapping blocks read as one transcript so that
    /// no audio is finalized twice), `whisper-cpp-stream-vad-blocks` (the same, each block shown whole
    /// as whisper.cpp prints it) and `whisperkit-stream` (WhisperKit's segment confirmation).
    static func registerStreamingPolicies(into registry: EngineRegistry) {
        for id in ["whisper-streaming-la2", "whisper-streaming"] {
            registry.register(
                whisperEntry(
                    id: id,
                    summary:
                        "Whisper re-decoded every 1 s, committed by LocalAgreement-2 (whisper_streaming's policy)"
                        + (id == "whisper-streaming" ? "; alias of whisper-streaming-la2" : ""),
                    preference: 15, over: { WhisperStyleEngine(base: $0, id: id) }))
        }
        registry.register(
            whisperEntry(
                id: "whisper-streaming-la2-aligned",
                summary:
                    "whisper-streaming-la2 with the harness's repair: a decode that starts with the committed words continues after them (keeps quickly repeated words)",
                preference: 15,
                over: {
                    var policy = LocalAgreementPolicy()
                    policy.repeatRule = .aligned
                    return WhisperStyleEngine(base: $0, policy: policy, id: "whisper-streaming-la2-aligned")
                }))
        registry.register(
            whisperEntry(
                id: "whisper-streaming-vac",
                summary:
                    "whisper-streaming-la2 gated by Silero VAD (whisper_streaming's VAC mode: decodes only voiced audio, finishes an utterance at 500 ms of silence without decoding again)",
                preference: 15,
                over: {
                    VoiceActivityEngine(
                        base: $0,
                        policy: VoiceActivityPolicy(
                            detector: $0.voiceActivity(model: WhisperWorker.voiceActivityModel)),
                        id: "whisper-streaming-vac")
                }))
        registry.register(
            whisperEntry(
                id: "whisperkit-stream",
                summary:
                    "Whisper confirmed as WhisperKit's AudioStreamTranscriber does (all segments but the last two; energy gate)",
                preference: 17, over: { ConfirmationEngine(base: $0, id: "whisperkit-stream") }))
        registry.register(
            whisperEntry(
                id: "whisper-cpp-stream",
                summary: "Whisper in whisper.cpp stream's sliding window (3 s step, 10 s length, 0.2 s keep)",
                preference: 16, over: { SlidingWindowEngine(base: $0, id: "whisper-cpp-stream") }))
        registry.register(
            whisperEntry(
                id: "whisper-cpp-stream-vad",
                summary:
                    "Whisper in whisper.cpp stream's VAD mode (--step 0: a 10 s block when the energy endpointer fires), each block showing what follows the previous block's words",
                preference: 18,
                over: {
                    SlidingWindowEngine(
                        base: $0, policy: SlidingWindowPolicy(step: 0, blockOverlap: .continued),
                        id: "whisper-cpp-stream-vad")
                }))
        registry.register(
            whisperEntry(
                id: "whisper-cpp-stream-vad-blocks",
                summary:
                    "whisper-cpp-stream-vad with every block shown whole, as whisper.cpp prints it (a block whose audio overlaps the previous one says its words again)",
                preference: 18,
                over: {
                    SlidingWindowEngine(
                        base: $0, policy: SlidingWindowPolicy(step: 0, blockOverlap: .shown),
                        id: "whisper-cpp-stream-vad-blocks")
                }))
    }

    /// An engine over the Whisper worker, made by `over` from the worker the settings give. Its
    /// name's brackets may choose the worker's settings (`whisper-streaming-la2[base]`, `whisper[base,beam5]`)
    /// and may repeat the policy's own, so that every name a report prints can be made again.
    static func whisperEntry(
        id: String, summary: String, preference: Int,
        over make: @escaping @Sendable (WorkerEngine) -> any RecognitionEngine
    ) -> EngineRegistry.Entry {
        EngineRegistry.Entry(
            id: id, summary: summary, preference: preference,
            make: { make(WhisperWorker.engine(settings: try .current())) },
            configure: { names in
                let current = try WhisperWorker.Settings.current()
                let own = Set(EngineName.settings(of: make(WhisperWorker.engine(settings: current)).name))
                    .subtracting(current.names)
                let settings = try current.applying(names.filter { !own.contains($0) }, engine: id)
                return make(WhisperWorker.engine(settings: settings))
            },
            variants: WhisperModel.all.filter { $0 != .tinyEnglish }.map { "\(id)[\($0.name)]" })
    }
}
