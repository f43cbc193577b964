@_spi(Harness) import AVFAudio
import CoreMedia
import Foundation
import VirtualDevice

/// The error in a runtime-error notification's user info.
public let AVCaptureSessionErrorKey = "AVCaptureSessionErrorKey"

/// Connects capture inputs to outputs and runs the flow between them. On Linux the one input is the
/// virtual microphone (`AVCaptureDevice.default(for: .audio)`): while the session runs it plays the
/// device's recording to the session's audio data outputs, paced as the device settings say, on
/// a thread of its own. As on iOS, a session holds one output of each kind.
open class AVCaptureSession: NSObject, @unchecked Sendable {
    public static let runtimeErrorNotification = NSNotification.Name("AVCaptureSessionRuntimeErrorNotification")
    public static let didStartRunningNotification = NSNotification.Name("AVCaptureSessionDidStartRunningNotification")
    public static let didStopRunningNotification = NSNotification.Name("AVCaptureSessionDidStopRunningNotification")

    private struct State {
        var inputs: [AVCaptureInput] = []
        var outputs: [AVCaptureOutput] = []
        var configuring = 0
        var capture: CaptureLoop?
        var running = false
    }
    private let state = Locked(State())

    public override init() { super.init() }

    deinit { state.withLock { $0.capture }?.stop() }

    open var inputs: [AVCaptureInput] { state.withLock { $0.inputs } }
    open var outputs: [AVCaptureOutput] { state.withLock { $0.outputs } }
    open var isRunning: Bool { state.withLock { $0.running } }

    /// Starts a batch of changes; they apply together at the matching commit (nested batches nest).
    open func beginConfiguration() { state.withLock { $0.configuring += 1 } }
    open func commitConfiguration() { state.withLock { $0.configuring = max(0, $0.configuring - 1) } }

    /// False for an input already in the session.
    open func canAddInput(_ input: AVCaptureInput) -> Bool { !state.withLock { $0.inputs.contains(input) } }

    open func addInput(_ input: AVCaptureInput) {
        guard canAddInput(input) else { AVFoundationException.invalidArgument("cannot add input \(input)") }
        state.withLock { $0.inputs.append(input) }
        linkConnections()
    }

    open func removeInput(_ input: AVCaptureInput) {
        state.withLock { $0.inputs.removeAll { $0 === input } }
        linkConnections()
    }

    /// False for an output already in the session, or a second output of the same kind.
    open func canAddOutput(_ output: AVCaptureOutput) -> Bool {
        !state.withLock { $0.outputs.contains { $0 === output || type(of: $0) == type(of: output) } }
    }

    open func addOutput(_ output: AVCaptureOutput) {
        guard canAddOutput(output) else { AVFoundationException.invalidArgument("cannot add output \(output)") }
        state.withLock { $0.outputs.append(output) }
        linkConnections()
    }

    open func removeOutput(_ output: AVCaptureOutput) {
        state.withLock { $0.outputs.removeAll { $0 === output } }
        output.linked.withLock { $0 = [] }
    }

    /// An audio output is connected to the session while the session has an audio device input.
    private func linkConnections() {
        let (inputs, outputs) = state.withLock { ($0.inputs, $0.outputs) }
        let hasAudio = inputs.contains { ($0 as? AVCaptureDeviceInput)?.device.hasMediaType(.audio) == true }
        for output in outputs {
            output.linked.withLock { connections in
                if !hasAudio {
                    connections = []
                } else if connections.isEmpty {
                    connections = [AVCaptureConnection(output: output, mediaType: .audio)]
                }
            }
        }
    }

    /// Starts the flow and returns once it runs. A failure (the device's recording cannot be read)
    /// is posted as `runtimeErrorNotification`, not thrown, and the session does not run.
    open func startRunning() {
        let starting = state.withLock { state -> Bool in
            guard !state.running else { return false }
            state.running = true
            return true
        }
        guard starting else { return }
        do {
            try (state.withLock { $0.capture } ?? makeCapture())?.start()
        } catch {
            state.withLock { $0.running = false }
            NotificationCenter.default.post(
                name: Self.runtimeErrorNotification, object: self,
                userInfo: [
                    AVCaptureSessionErrorKey: NSError(
                        domain: AVFoundationErrorDomain, code: -11_800,
                        userInfo: [NSLocalizedDescriptionKey: "\(error)"])
                ])
            return
        }
        NotificationCenter.default.post(name: Self.didStartRunningNotification, object: self)
    }

    /// Stops the flow and returns once no more audio will be delivered.
    open func stopRunning() {
        let capture = state.withLock { state -> CaptureLoop?? in
            guard state.running else { return nil }
            state.running = false
            return state.capture
        }
        guard let capture else { return }
        capture?.stop()
        NotificationCenter.default.post(name: Self.didStopRunningNotification, object: self)
    }

    /// The virtual microphone behind the session's device input, playing to its audio outputs;
    /// nil when the session has no audio device input.
    private func makeCapture() throws -> CaptureLoop? {
        guard inputs.contains(where: { ($0 as? AVCaptureDeviceInput)?.device.hasMediaType(.audio) == true })
        else { return nil }
        let mic = DeviceSettings.current.microphone
        let recording = try MicrophoneRecording.load(
            mic.source, sampleRate: mic.sampleRate, channelCount: mic.channelCount)
        let muted = HarnessContext.current.permissions.recordPermission != .authorized
        let loop = CaptureLoop(
            recording: recording, settings: mic,
            schedule: CaptureSchedule(sampleRate: mic.sampleRate, requestedFrames: 1_024), muted: muted,
            deliver: { [weak self] captured in self?.route(captured, sampleRate: mic.sampleRate) },
            ended: { [weak self] _ in self?.sourceEnded() })
        state.withLock { $0.capture = loop }
        return loop
    }

    private func route(_ captured: CapturedBuffer, sampleRate: Double) {
        for output in outputs {
            guard let audio = output as? AVCaptureAudioDataOutput, let connection = output.connection(with: .audio)
            else { continue }
            audio.deliver(captured, sampleRate: sampleRate, through: connection)
        }
    }

    /// The microphone stopped on its own (its recording ended with the stop end mode, a call, a
    /// route change): the session stops, as it does when its device goes away.
    private func sourceEnded() {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.running = false }
            return state.running
        }
        if wasRunning { NotificationCenter.default.post(name: Self.didStopRunningNotification, object: self) }
    }
}
