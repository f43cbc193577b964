@_spi(Harness) import AVFAudio
@_spi(Harness) import AVFoundation
@_spi(Harness) import CoreMedia
import Foundation
import SpeechCore
import VirtualDevice

/// SDK 27: audio from a capture device as analyzer input, converted to a format the modules take.
///
/// Capture is started and stopped through ``captureSession``. Each read of ``analyzerInputs`` is a
/// new sequence that carries only the audio captured from then on. A sequence ends when the
/// provider's ``captureAudioDataOutput`` goes away (the session and the provider both let go of),
/// not when the session stops: after `stopRunning()`, finish the analysis with a finish method
/// (`finalize(through: nil)` then `cancelAndFinishNow()`, say).
public final class CaptureInputSequenceProvider {
    /// The session capture runs in: the one `providerWithSession` made, or the app's own.
    public let captureSession: AVCaptureSession
    /// The output that routes captured audio into the provider's sequences. `providerWithSession`
    /// adds it to its session; with the app's own session, the app adds it. Its delegate and queue
    /// are the provider's: do not replace them.
    public let captureAudioDataOutput: AVCaptureAudioDataOutput
    private let hub: CaptureHub
    /// Apple's capture runs in a task of this priority; here audio arrives on the output's queue.
    private let priority: TaskPriority?

    /// A provider for the app's own `session`, converting to `analyzerFormat`. It makes an audio
    /// data output for the app to add to the session, and changes nothing else. Throws
    /// `unexpectedAudioFormat` for a format that is not linear PCM the analyzer can take.
    public init(session: AVCaptureSession, analyzerFormat: AVAudioFormat, priority: TaskPriority?) throws {
        guard analyzerFormat.audioFormat != nil else {
            throw SFSpeechError(.unexpectedAudioFormat, "the analyzer format \(analyzerFormat) is not one it takes")
        }
        captureSession = session
        self.priority = priority
        let queue = DispatchQueue(label: "SpeechHarness.CaptureInputSequenceProvider")
        hub = CaptureHub(format: analyzerFormat, queue: queue)
        captureAudioDataOutput = AVCaptureAudioDataOutput()
        captureAudioDataOutput.setSampleBufferDelegate(hub, queue: queue)
        captureAudioDataOutput.retain(hub) { [hub] in hub.end() }
        if HelperFaults.planted("captureEndsAtStop") {
            stopObserver = NotificationCenter.default.addObserver(
                forName: AVCaptureSession.didStopRunningNotification, object: session, queue: nil
            ) { [hub] _ in hub.end() }
        }
    }

    /// A planted fault's observer (the sequences end at `stopRunning()`).
    private var stopObserver: (any NSObjectProtocol)?

    deinit { stopObserver.map(NotificationCenter.default.removeObserver) }

    /// A provider with a session of its own around `captureDevice`, its output added. On a device
    /// with an app audio session (iOS here) it configures the shared `AVAudioSession` for recording
    /// and activates it. Throws `cannotConfigureAudioSystem` when the device cannot be opened or the
    /// audio session cannot be configured, and as ``AnalyzerInputConverter/converter(compatibleWith:)``
    /// does for the modules.
    public static func providerWithSession(
        from captureDevice: AVCaptureDevice, compatibleWith modules: [any SpeechModule], priority: TaskPriority? = nil
    ) async throws -> CaptureInputSequenceProvider {
        let format = try await AnalyzerInputConverter.bestFormat(for: modules, considering: naturalFormat())
        let input: AVCaptureDeviceInput
        do {
            if !HelperFaults.planted("audioSystemNotChecked") { try configureAudioSession() }
            input = try AVCaptureDeviceInput(device: captureDevice)
        } catch {
            throw SFSpeechError(.cannotConfigureAudioSystem, "\(captureDevice.localizedName): \(error)")
        }
        let session = AVCaptureSession()
        let provider = try CaptureInputSequenceProvider(session: session, analyzerFormat: format, priority: priority)
        session.beginConfiguration()
        session.addInput(input)
        session.addOutput(provider.captureAudioDataOutput)
        session.commitConfiguration()
        return provider
    }

    /// A provider for the app's own `session` (which it never reconfigures), in the best format the
    /// modules share for `captureDevice`; the app adds ``captureAudioDataOutput`` to the session.
    public static func provider(
        from captureDevice: AVCaptureDevice, in session: AVCaptureSession, compatibleWith modules: [any SpeechModule],
        priority: TaskPriority? = nil
    ) async throws -> CaptureInputSequenceProvider {
        let format = try await AnalyzerInputConverter.bestFormat(for: modules, considering: naturalFormat())
        return try CaptureInputSequenceProvider(session: session, analyzerFormat: format, priority: priority)
    }

    /// The audio captured from now on, as timed inputs in the analyzer's format.
    public var analyzerInputs: some Sendable & AsyncSequence<AnalyzerInput, any Error> { hub.subscribe() }

    /// The microphone's hardware format.
    private static func naturalFormat() -> AVAudioFormat? {
        let microphone = DeviceSettings.current.microphone
        return AVAudioFormat(
            standardFormatWithSampleRate: microphone.sampleRate, channels: AVAudioChannelCount(microphone.channelCount))
    }

    /// The shared audio session set for recording (an app's recording category is kept) and made
    /// active. Apple's pages do not say which category the provider sets.
    private static func configureAudioSession() throws {
        let audioSession = AVAudioSession.sharedInstance()
        if audioSession.category != .record && audioSession.category != .playAndRecord {
            try audioSession.setCategory(.record, mode: audioSession.mode)
        }
        try audioSession.setActive(true)
    }
}

/// The provider's delegate: each captured sample buffer, converted for every sequence taken so far.
final class CaptureHub: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    private struct Subscriber {
        let continuation: AsyncThrowingStream<AnalyzerInput, any Error>.Continuation
        let converter: AnalyzerInputConverter
    }
    private let format: AVAudioFormat
    /// The output's callback queue: every use of a subscriber's converter happens on it.
    private let queue: DispatchQueue
    private let state = Locked<(subscribers: [UUID: Subscriber], ended: Bool)>(([:], false))

    init(format: AVAudioFormat, queue: DispatchQueue) {
        self.format = format
        self.queue = queue
    }

    func subscribe() -> AsyncThrowingStream<AnalyzerInput, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: AnalyzerInput.self)
        let id = UUID()
        let added = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            state.subscribers[id] = Subscriber(
                continuation: continuation, converter: AnalyzerInputConverter(analyzerFormat: format))
            return true
        }
        guard added else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The output went away: every sequence ends (after what its converter still held), and
    /// sequences taken later end at once. On the callback queue, after what was delivered before.
    func end() {
        let subscribers = state.withLock { state -> [Subscriber] in
            state.ended = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        // The converters are used on the queue only, one block after another.
        nonisolated(unsafe) let ending = subscribers
        queue.async {
            for subscriber in ending {
                if let tail = try? subscriber.converter.flush() { tail.forEach { subscriber.continuation.yield($0) } }
                subscriber.continuation.finish()
            }
        }
    }

    /// Called on the output's serial queue, so each subscriber's converter is used by one thread.
    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        let subscribers = state.withLock { $0.subscribers }
        guard !subscribers.isEmpty,
            let description = sampleBuffer.formatDescription,
            let format = AVAudioFormat(formatDescription: description),
            let bytes = try? sampleBuffer.dataBuffer?.dataBytes()
        else { return }
        for (id, subscriber) in subscribers {
            guard
                let pcm = AVAudioPCMBuffer(
                    pcmFormat: format, bytes: bytes, frames: AVAudioFrameCount(sampleBuffer.numSamples))
            else { continue }
            pcm.carriesCapture(leases: sampleBuffer.harnessAttachments.compactMap { $0 as? CaptureLease })
            do {
                for input in try subscriber.converter.convert(pcm, startingAt: sampleBuffer.presentationTimeStamp) {
                    subscriber.continuation.yield(input)
                }
            } catch {
                state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
                subscriber.continuation.finish(throwing: error)
            }
        }
    }
}
