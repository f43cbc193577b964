@_spi(Harness) import AVFAudio
import CoreMedia
import Foundation
import SpeechCore
import SpeechReference
import VirtualDevice

// The SFSpeechRecognizer programming model on Linux, over any engine of the harness, so code
// written for the legacy API runs here and can be compared with SpeechAnalyzer on the same audio.

public enum SFSpeechRecognizerAuthorizationStatus: Int, Sendable {
    case notDetermined, denied, restricted, authorized

    init(_ state: PermissionState) {
        switch state {
        case .notDetermined: self = .notDetermined
        case .denied: self = .denied
        case .restricted: self = .restricted
        case .authorized: self = .authorized
        }
    }
}

public enum SFSpeechRecognitionTaskHint: Int, Sendable {
    case unspecified, dictation, search, confirmation
}

public typealias SFSpeechRecognitionTaskState = LegacyTaskStateMachine.State

/// A word (or phrase) of a transcription with its place in the audio.
public final class SFTranscriptionSegment: NSObject, @unchecked Sendable {
    public let substring: String
    /// Where `substring` is in the transcription's `formattedString` (UTF-16 offsets).
    public let substringRange: NSRange
    /// Seconds from the start of the request's audio.
    public let timestamp: TimeInterval
    public let duration: TimeInterval
    /// 0…1; 0 in partial results, as the legacy framework reports.
    public let confidence: Float
    public let alternativeSubstrings: [String]
    private let analysis: VoiceAnalysisSource?

    /// The segment's voice measures (final results only; Apple deprecated this in favour of the
    /// result's `speechRecognitionMetadata`).
    public var voiceAnalytics: SFVoiceAnalytics? { analysis?.analytics(from: timestamp, duration: duration) }

    init(
        substring: String, substringRange: NSRange, timestamp: TimeInterval, duration: TimeInterval,
        confidence: Float, alternativeSubstrings: [String], analysis: VoiceAnalysisSource?
    ) {
        self.substring = substring
        self.substringRange = substringRange
        self.timestamp = timestamp
        self.duration = duration
        self.confidence = confidence
        self.alternativeSubstrings = alternativeSubstrings
        self.analysis = analysis
    }

    public convenience init(
        substring: String, substringRange: NSRange, timestamp: TimeInterval, duration: TimeInterval,
        confidence: Float, alternativeSubstrings: [String]
    ) {
        self.init(
            substring: substring, substringRange: substringRange, timestamp: timestamp, duration: duration,
            confidence: confidence, alternativeSubstrings: alternativeSubstrings, analysis: nil)
    }
}

/// One transcription of the whole request's audio so far.
public final class SFTranscription: NSObject, @unchecked Sendable {
    public let formattedString: String
    public let segments: [SFTranscriptionSegment]

    public init(formattedString: String, segments: [SFTranscriptionSegment]) {
        self.formattedString = formattedString
        self.segments = segments
    }

    /// Words joined by spaces, each a segment.
    convenience init(
        words: [RecognizedWord], origin: MediaTime, withConfidence: Bool, alternatives: [Int: [String]] = [:],
        analysis: VoiceAnalysisSource? = nil
    ) {
        var text = ""
        var segments: [SFTranscriptionSegment] = []
        for (index, word) in words.enumerated() {
            if !text.isEmpty { text += " " }
            let location = text.utf16.count
            text += word.text
            segments.append(
                SFTranscriptionSegment(
                    substring: word.text, substringRange: NSRange(location: location, length: word.text.utf16.count),
                    timestamp: (word.range.start - origin).seconds, duration: word.range.duration.seconds,
                    confidence: withConfidence ? Float(word.confidence ?? 0) : 0,
                    alternativeSubstrings: alternatives[index] ?? [],
                    analysis: analysis))
        }
        self.init(formattedString: text, segments: segments)
    }
}

/// A result of a recognition task: the best transcription and the others, cumulative over the request.
public final class SFSpeechRecognitionResult: NSObject, @unchecked Sendable {
    public let bestTranscription: SFTranscription
    /// Best first; never empty.
    public let transcriptions: [SFTranscription]
    public let isFinal: Bool
    /// Harness extra (not in Apple's API): seconds of audio the engine had processed when this
    /// result was made, so a migration diff can place legacy partials on the audio timeline.
    public let processedAudioDuration: TimeInterval
    /// Speaking rate, pauses and voice analytics of the speech; final results only, as Apple's.
    public let speechRecognitionMetadata: SFSpeechRecognitionMetadata?

    public init(
        transcriptions: [SFTranscription], isFinal: Bool, processedAudioDuration: TimeInterval = 0,
        speechRecognitionMetadata: SFSpeechRecognitionMetadata? = nil
    ) {
        precondition(!transcriptions.isEmpty, "a result has at least one transcription")
        self.bestTranscription = transcriptions[0]
        self.transcriptions = transcriptions
        self.isFinal = isFinal
        self.processedAudioDuration = processedAudioDuration
        self.speechRecognitionMetadata = speechRecognitionMetadata
    }
}

/// What every request shares: reporting and recognition options.
public class SFSpeechRecognitionRequest: NSObject, @unchecked Sendable {
    public var taskHint: SFSpeechRecognitionTaskHint = .unspecified
    /// Partial (non-final) results are delivered while audio arrives; on by default.
    public var shouldReportPartialResults = true
    public var contextualStrings: [String] = []
    public var interactionIdentifier: String?
    /// Every engine here runs locally; when false the emulated server limits apply.
    public var requiresOnDeviceRecognition = false
    public var addsPunctuation = false
    /// A prepared custom language model; its phrases go to the engine (see `SFSpeechLanguageModel`).
    public var customizedLanguageModel: SFSpeechLanguageModel.Configuration?

    /// The audio, in order; nil at its end.
    func audioSource() -> AsyncThrowingStream<AVAudioPCMBuffer, any Error> {
        AsyncThrowingStream { $0.finish() }
    }
}

/// Audio supplied buffer by buffer, e.g. from a microphone tap.
public final class SFSpeechAudioBufferRecognitionRequest: SFSpeechRecognitionRequest, @unchecked Sendable {
    private let stream: AsyncThrowingStream<AVAudioPCMBuffer, any Error>
    private let continuation: AsyncThrowingStream<AVAudioPCMBuffer, any Error>.Continuation

    public override init() {
        (stream, continuation) = AsyncThrowingStream.makeStream(of: AVAudioPCMBuffer.self)
        super.init()
    }

    /// The format recognition works in best (16 kHz mono Float32); other formats are converted.
    public var nativeAudioFormat: AVAudioFormat { AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)! }

    /// Adds audio (copied: taps reuse their buffers).
    public func append(_ audioPCMBuffer: AVAudioPCMBuffer) {
        guard let copy = audioPCMBuffer.pcmBuffer.flatMap(AVAudioPCMBuffer.init) else { return }
        copy.carriesCapture(of: audioPCMBuffer)
        copy.handedToRecognition()
        continuation.yield(copy)
    }

    /// No more audio will be appended.
    public func endAudio() { continuation.finish() }

    override func audioSource() -> AsyncThrowingStream<AVAudioPCMBuffer, any Error> { stream }
}

/// Audio from a file, read in 100 ms pieces.
public final class SFSpeechURLRecognitionRequest: SFSpeechRecognitionRequest, @unchecked Sendable {
    public let url: URL

    public init(url URL: URL) {
        self.url = URL
        super.init()
    }

    override func audioSource() -> AsyncThrowingStream<AVAudioPCMBuffer, any Error> {
        let url = self.url
        return AsyncThrowingStream { continuation in
            do {
                let file = try AVAudioFile(forReading: url)
                let frames = AVAudioFrameCount(max(1, file.processingFormat.sampleRate / 10))
                while true {
                    guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: frames) else {
                        break
                    }
                    try file.read(into: buffer)
                    if buffer.frameLength == 0 { break }
                    continuation.yield(buffer)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }
}

public protocol SFSpeechRecognizerDelegate: AnyObject {
    func speechRecognizer(_ speechRecognizer: SFSpeechRecognizer, availabilityDidChange available: Bool)
}

extension SFSpeechRecognizerDelegate {
    public func speechRecognizer(_ speechRecognizer: SFSpeechRecognizer, availabilityDidChange available: Bool) {}
}

/// Callbacks of a task, in this order: speech detected, hypotheses, finished reading audio,
/// final recognition, finished (successfully or not); or was cancelled, then finished (false).
public protocol SFSpeechRecognitionTaskDelegate: AnyObject {
    func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask)
    func speechRecognitionTask(
        _ task: SFSpeechRecognitionTask, didHypothesizeTranscription transcription: SFTranscription)
    func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask)
    func speechRecognitionTask(
        _ task: SFSpeechRecognitionTask, didFinishRecognition recognitionResult: SFSpeechRecognitionResult)
    func speechRecognitionTaskWasCancelled(_ task: SFSpeechRecognitionTask)
    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool)
    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didProcessAudioDuration duration: TimeInterval)
}

extension SFSpeechRecognitionTaskDelegate {
    public func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) {}
    public func speechRecognitionTask(
        _ task: SFSpeechRecognitionTask, didHypothesizeTranscription transcription: SFTranscription
    ) {}
    public func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask) {}
    public func speechRecognitionTask(
        _ task: SFSpeechRecognitionTask, didFinishRecognition recognitionResult: SFSpeechRecognitionResult
    ) {}
    public func speechRecognitionTaskWasCancelled(_ task: SFSpeechRecognitionTask) {}
    public func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {}
    public func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didProcessAudioDuration duration: TimeInterval) {
    }
}

/// The legacy framework's errors, as NSErrors with its domains and codes, so code that checks
/// `(error as NSError).code == 1110` behaves as it does on Apple's systems.
public enum LegacyRecognitionError {
    public static let assistantDomain = "kAFAssistantErrorDomain"
    public static let recognitionDomain = "kLSRErrorDomain"

    public static var noSpeechDetected: NSError {
        NSError(domain: assistantDomain, code: 1110, userInfo: [NSLocalizedDescriptionKey: "No speech detected"])
    }

    public static var canceled: NSError {
        NSError(
            domain: recognitionDomain, code: 301,
            userInfo: [NSLocalizedDescriptionKey: "Recognition request was canceled"])
    }

    /// The "retry" error servers give when a device or app has used up its request quota.
    public static var quotaExceeded: NSError {
        NSError(
            domain: assistantDomain, code: 203,
            userInfo: [NSLocalizedDescriptionKey: "Retry: server request quota exceeded"])
    }

    /// A request made without speech-recognition authorization. Apple does not document this
    /// error; 1700 is the code users report when the system refuses a request.
    public static var notAuthorized: NSError {
        NSError(
            domain: assistantDomain, code: 1700,
            userInfo: [NSLocalizedDescriptionKey: "Speech recognition is not authorized"])
    }

    /// An error as traces and diffs show it: `domain code: description`.
    public static func describe(_ error: NSError) -> String {
        "\(error.domain) \(error.code): \(error.localizedDescription)"
    }

    public static func engineFailed(_ error: any Error) -> NSError {
        NSError(
            domain: assistantDomain, code: 1101,
            userInfo: [NSLocalizedDescriptionKey: "\(error)", NSUnderlyingErrorKey: error as NSError])
    }
}

/// A recogniser for one locale, over the harness's engine for that locale. (Not an NSObject here:
/// Swift on Linux cannot give NSObject's `init()` the failable form `SFSpeechRecognizer()` has.)
public final class SFSpeechRecognizer: @unchecked Sendable {
    /// Whether requests that do not require on-device recognition are held to the server's
    /// one-minute audio limit (on by default, to surface code that relies on longer requests).
    nonisolated(unsafe) public static var emulatesServerLimits = true
    /// The server limit on audio per request.
    public static let serverAudioLimit: TimeInterval = 60

    public let locale: Locale
    @_spi(Harness) public let engine: any RecognitionEngine
    /// Harness extra: a request quota shared by the recognisers that hold it. Server requests
    /// beyond it fail at once with the "retry" error (203); on-device requests never count. Nil:
    /// no quota (the default).
    public var serverRequestQuota: LegacyServerQuota?
    public weak var delegate: (any SFSpeechRecognizerDelegate)?
    public var defaultTaskHint: SFSpeechRecognitionTaskHint = .unspecified
    /// Where handlers and delegate calls run. A private serial queue by default (Apple uses the
    /// main queue, which nothing services in a Linux command-line program or test).
    public var queue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "SFSpeechRecognizer callbacks"
        return queue
    }()

    public static func supportedLocales() -> Set<Locale> {
        let registry = HarnessContext.current.engines
        let tags = registry.ids.compactMap { try? registry.make($0) }.flatMap(\.capabilities.locales)
        return Set(DeviceLocale.current.presenting(tags.map { Locale(identifier: $0) }))
    }

    /// The configured authorization (`SPEECH_HARNESS_AUTHORIZATION`, `authorized` by default, or
    /// the context's `device`), as the user's answer to a request leaves it.
    public static func authorizationStatus() -> SFSpeechRecognizerAuthorizationStatus {
        SFSpeechRecognizerAuthorizationStatus(HarnessContext.current.permissions.speechAuthorization)
    }

    /// There is no one to ask on Linux: a status not yet determined becomes `.authorized`, a
    /// decided one is reported as it is. The handler runs on a background queue, as Apple's does.
    public static func requestAuthorization(
        _ handler: @escaping @Sendable (SFSpeechRecognizerAuthorizationStatus) -> Void
    ) {
        let status = SFSpeechRecognizerAuthorizationStatus(
            HarnessContext.current.permissions.requestSpeechAuthorization())
        DispatchQueue.global().async { handler(status) }
    }

    public convenience init?() {
        self.init(locale: Locale.current)
    }

    /// Nil when no engine supports the locale. When the settings name no usable engine (this
    /// initialiser cannot throw), the recogniser is unavailable and each task fails with the reason.
    public convenience init?(locale: Locale) {
        let tag = DeviceLocale.current.tag(of: locale)
        let engine: any RecognitionEngine
        do {
            engine = try HarnessContext.current.engines.defaultEngine(for: tag)
        } catch EngineError.unsupportedLocale {
            return nil
        } catch {
            self.init(locale: locale, engine: UnusableEngine(locale: tag, problem: error))
            return
        }
        guard engine.supports(locale: tag) else { return nil }
        self.init(locale: locale, engine: engine)
    }

    /// The harness initialiser: this engine, whatever the configuration says.
    @_spi(Harness) public init(locale: Locale, engine: any RecognitionEngine) {
        self.locale = locale
        self.engine = engine
    }

    /// The tag the engine is asked about (`Locale.current` stands for the device's locale).
    var localeTag: String { DeviceLocale.current.tag(of: locale) }

    public var isAvailable: Bool { engine.isInstalled(locale: localeTag) }
    public var supportsOnDeviceRecognition: Bool { true }

    public func recognitionTask(
        with request: SFSpeechRecognitionRequest,
        resultHandler: @escaping (SFSpeechRecognitionResult?, (any Error)?) -> Void
    ) -> SFSpeechRecognitionTask {
        let task = SFSpeechRecognitionTask(recognizer: self, request: request, sink: .handler(resultHandler))
        task.start()
        return task
    }

    public func recognitionTask(
        with request: SFSpeechRecognitionRequest, delegate: any SFSpeechRecognitionTaskDelegate
    ) -> SFSpeechRecognitionTask {
        let task = SFSpeechRecognitionTask(recognizer: self, request: request, sink: .delegate(delegate))
        task.start()
        return task
    }
}

/// A count of server requests against a limit, as the legacy service keeps per device and app.
public final class LegacyServerQuota: Sendable {
    public let limit: Int
    private let used = Locked(0)

    public init(limit: Int) {
        self.limit = limit
    }

    /// Counts one request; false when the quota was already used up.
    func take() -> Bool {
        used.withLock { used in
            guard used < limit else { return false }
            used += 1
            return true
        }
    }

    /// Requests counted so far.
    public var requestsMade: Int { used.withLock { $0 } }

    /// Starts a new quota period.
    public func reset() { used.withLock { $0 = 0 } }
}

/// The engine of a recogniser made while the settings named no usable engine: unavailable, and a
/// session fails with the settings' problem, so the app's task reports it as Apple's would an error.
struct UnusableEngine: RecognitionEngine {
    let locale: String
    let problem: any Error

    var id: String { "unusable" }
    var capabilities: EngineCapabilities {
        EngineCapabilities(
            partialResults: false, wordTimes: false, alternatives: false, confidence: false, locales: [locale],
            formats: [.speech(sampleRate: 16_000)])
    }
    var processes: (any EngineProcesses)? { nil }
    func isInstalled(locale: String) -> Bool { false }
    func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        throw problem
    }
}
