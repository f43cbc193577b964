import Foundation
import SpeechCore
import VirtualDevice

extension Notification.Name {
    /// Posted (object: the engine) when the engine stops because its hardware changed; the
    /// virtual microphone posts it when its recording has run out and it is set to stop
    /// (`SPEECH_HARNESS_MICROPHONE_END`), as a device does when its input goes away.
    public static let AVAudioEngineConfigurationChange = Notification.Name(
        "AVAudioEngineConfigurationChangeNotification")
}

/// A graph of audio nodes with the microphone at its input and the loudspeaker at its output. On
/// Linux both are the virtual ones of `DeviceSettings` (read when the engine is made:
/// the context's `device` in tests, else `SPEECH_HARNESS_MICROPHONE` and friends): player nodes
/// connected to the output, directly or through a mixer, play into ``speaker`` (and into the file
/// `SPEECH_HARNESS_SPEAKER` names), in 10 ms cycles on the microphone's pacing.
open class AVAudioEngine: NSObject, @unchecked Sendable {
    private struct State {
        var running = false
        var inputNode: AVAudioInputNode?
        var attached: Set<AVAudioNode> = []
        /// node → the nodes its output feeds.
        var connections: [ObjectIdentifier: [AVAudioNode]] = [:]
        var capture: CaptureLoop?
        var playback: PlaybackLoop?
        /// The start of the output's last render cycle.
        var renderTime: AVAudioTime?
    }

    private let device: DeviceSettings
    private let permissions: PermissionLedger
    private let state = Locked(State())
    public let outputNode = AVAudioOutputNode()
    public let mainMixerNode = AVAudioMixerNode()
    /// Harness extra: the virtual loudspeaker, with every sample that reached the output while a
    /// player played, for tests that check what a program played.
    @_spi(Harness) public let speaker: VirtualSpeaker

    public override init() {
        device = DeviceSettings.current
        permissions = HarnessContext.current.permissions
        speaker = VirtualSpeaker(outputPath: device.speakerOutput)
        super.init()
        for node in [outputNode, mainMixerNode] as [AVAudioNode] {
            node.engine = self
            state.withLock { _ = $0.attached.insert(node) }
        }
        connect(mainMixerNode, to: outputNode, format: nil)
    }

    /// An engine let go while running stops its microphone and speaker (their threads hold it weakly).
    deinit {
        let (capture, playback) = state.withLock { ($0.capture, $0.playback) }
        capture?.stop()
        playback?.stop()
        speaker.flush()
    }

    /// The microphone; made on first use, as Apple's engine enables input only once it is asked for.
    open var inputNode: AVAudioInputNode {
        state.withLock { state in
            if let node = state.inputNode { return node }
            let node = AVAudioInputNode(device: device)
            node.engine = self
            state.inputNode = node
            state.attached.insert(node)
            return node
        }
    }

    open var isRunning: Bool { state.withLock { $0.running } }

    /// Harness extra: the fast-paced microphone's back-pressure (nil in real time or before the
    /// first start), for tests that check how far capture ran ahead of recognition.
    @_spi(Harness) public var microphoneFlow: CaptureFlow? { state.withLock { $0.capture?.flow } }
    open var attachedNodes: Set<AVAudioNode> { state.withLock { $0.attached } }

    open func attach(_ node: AVAudioNode) {
        node.engine = self
        state.withLock { _ = $0.attached.insert(node) }
        if node is AVAudioPlayerNode && isRunning { startPlayback() }
    }

    open func detach(_ node: AVAudioNode) {
        state.withLock { state in
            state.attached.remove(node)
            state.connections[ObjectIdentifier(node)] = nil
            for key in state.connections.keys { state.connections[key]?.removeAll { $0 === node } }
        }
    }

    /// Connects `node1`'s output to `node2`'s input. A connection from the microphone must keep
    /// the hardware sample rate, or the program terminates as it does on a device.
    open func connect(_ node1: AVAudioNode, to node2: AVAudioNode, format: AVAudioFormat?) {
        if let input = node1 as? AVAudioInputNode, let format {
            let hardware = input.hardwareFormat
            if !format.isValidForAudio || !hardware.isValidForAudio {
                AVFAudioException.requiredConditionFailed(
                    "IsFormatSampleRateAndChannelCountValid(format)", hint: input.noDeviceHint)
            }
            if format.sampleRate != hardware.sampleRate {
                AVFAudioException.requiredConditionFailed(
                    "format.sampleRate == hwFormat.sampleRate",
                    hint: "the connection asks for \(format) but the input runs at \(hardware.sampleRate) Hz")
            }
        }
        let carried = format ?? node1.outputFormat(forBus: 0)
        node2.buses.withLock { $0.inputFormats[0] = carried }
        if node2 is AVAudioMixerNode, node1 is AVAudioInputNode, node2.buses.withLock({ $0.outputFormats[0] }) == nil,
            carried.isValidForAudio
        {
            node2.buses.withLock {
                $0.outputFormats[0] = AVAudioFormat(standardFormatWithSampleRate: carried.sampleRate, channels: 2)!
            }
        }
        if format != nil && !(node1 is AVAudioInputNode) { node1.buses.withLock { $0.outputFormats[0] = format } }
        attach(node1)
        attach(node2)
        state.withLock { state in
            var targets = state.connections[ObjectIdentifier(node1), default: []]
            if !targets.contains(where: { $0 === node2 }) { targets.append(node2) }
            state.connections[ObjectIdentifier(node1)] = targets
        }
    }

    open func disconnectNodeOutput(_ node: AVAudioNode) {
        state.withLock { _ = $0.connections.removeValue(forKey: ObjectIdentifier(node)) }
    }

    open func disconnectNodeInput(_ node: AVAudioNode) {
        state.withLock { state in
            for key in state.connections.keys { state.connections[key]?.removeAll { $0 === node } }
        }
    }

    /// Allocates what starting needs (the microphone's recording is read at `start()`).
    open func prepare() {}

    /// Starts the microphone, if the program asked for it. Throws when a tap or connection needs
    /// input and there is no input device (Core Audio's -10851, as users observe), or when the
    /// virtual microphone's source cannot be read (the error names the file).
    open func start() throws {
        let input = state.withLock { $0.inputNode }
        guard !isRunning else { return }
        // A device setting the engine cannot use (read as its default so far) is reported here.
        _ = try HarnessContext.current.environment.validated()
        if let input, input.device.microphone.source == .none, usesInput(input) {
            throw NSError(
                domain: AVFAudioErrorDomain, code: -10851,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The operation couldn’t be completed. (com.apple.coreaudio.avfaudio error -10851.) "
                        + "There is no input device: \(input.noDeviceHint)"
                ])
        }
        if let input, input.device.microphone.source != .none {
            let loop = try state.withLock({ $0.capture }) ?? makeCapture(for: input)
            state.withLock {
                $0.running = true
                $0.capture = loop
            }
            loop.start()
        } else {
            state.withLock { $0.running = true }
        }
        startPlayback()
    }

    /// Pauses the microphone; `start()` resumes where it left off.
    open func pause() { halt() }

    /// Stops the microphone. Taps stay installed, as on Apple's platforms; sample times go on
    /// from where they stopped when the engine starts again.
    open func stop() { halt() }

    /// Resets the nodes' processing state.
    open func reset() {
        for node in attachedNodes { node.reset() }
    }

    private func halt() {
        let (capture, playback) = state.withLock { state -> (CaptureLoop?, PlaybackLoop?) in
            state.running = false
            return (state.capture, state.playback)
        }
        capture?.stop()
        playback?.stop()
        speaker.flush()
    }

    // MARK: Output

    /// The start of the last render cycle of the output (or, with no player, the microphone's
    /// next sample); nil while the engine is stopped.
    var lastRenderTime: AVAudioTime? {
        state.withLock { state -> AVAudioTime? in
            guard state.running else { return nil }
            if let time = state.renderTime { return time }
            guard let capture = state.capture, let input = state.inputNode else { return nil }
            return AVAudioTime(sampleTime: capture.nextSampleTime, atRate: input.device.microphone.sampleRate)
        }
    }

    /// Where the output's next cycle starts (player start times are counted from it).
    var nextOutputSample: Int64 { state.withLock { $0.playback?.nextSampleTime } ?? 0 }

    /// The rate of what the output plays: that of the connection into the output node.
    var outputRate: Double { outputNode.inputFormat(forBus: 0).sampleRate }

    /// A player has audio or started: run the output, and wake it if it waits (fast pacing).
    func playbackScheduled() {
        guard isRunning else { return }
        startPlayback()
        state.withLock { $0.playback }?.wake()
    }

    /// Starts the output's cycles once the engine runs and a player is attached.
    private func startPlayback() {
        let loop = state.withLock { state -> PlaybackLoop? in
            guard state.running, state.attached.contains(where: { $0 is AVAudioPlayerNode }) else { return nil }
            if let loop = state.playback { return loop }
            let rate = outputNode.inputFormat(forBus: 0).sampleRate
            let loop = PlaybackLoop(sampleRate: rate, pacing: device.microphone.pacing) { [weak self] cycle in
                self?.renderOutput(cycle) ?? false
            }
            state.playback = loop
            return loop
        }
        loop?.start()
    }

    /// One output cycle: mixes the players that reach the output into the speaker, then calls
    /// the handlers of what finished. False when nothing played.
    private func renderOutput(_ cycle: PlaybackLoop.Cycle) -> Bool {
        let format = outputNode.inputFormat(forBus: 0)
        let channelCount = Int(format.channelCount)
        let sources = players(feeding: outputNode, gain: 1)
        let realtime = device.microphone.pacing == .realtime
        let time = AVAudioTime(hostTime: cycle.hostTime, sampleTime: cycle.sampleTime, atRate: format.sampleRate)
        guard
            sources.contains(where: { $0.player.hasAudio })
                || (realtime && sources.contains(where: { $0.player.isPlaying }))
        else {
            if realtime { state.withLock { $0.renderTime = time } }
            return false
        }
        var mix = Array(repeating: [Float](repeating: 0, count: cycle.frames), count: channelCount)
        var finished: [AVAudioPlayerNode.Completion] = []
        for (player, gain) in sources {
            guard let out = player.render(frames: cycle.frames, at: cycle.sampleTime, outputRate: format.sampleRate)
            else { continue }
            for (index, samples) in ChannelMap.map(out.channels, to: channelCount).enumerated() {
                for frame in 0..<min(cycle.frames, samples.count) { mix[index][frame] += samples[frame] * gain }
            }
            finished += out.finished
        }
        speaker.receive(mix, format: AudioFormat(sampleRate: format.sampleRate, channelCount: channelCount))
        state.withLock { $0.renderTime = time }
        finished.forEach { $0.call() }
        return true
    }

    /// The players whose output reaches `node`, directly or through mixers, with the mixers' gain.
    private func players(feeding node: AVAudioNode, gain: Float) -> [(player: AVAudioPlayerNode, gain: Float)] {
        let (attached, connections) = state.withLock { ($0.attached, $0.connections) }
        var found: [(AVAudioPlayerNode, Float)] = []
        for source in attached where connections[ObjectIdentifier(source)]?.contains(where: { $0 === node }) == true {
            if let player = source as? AVAudioPlayerNode {
                found.append((player, gain))
            } else if let mixer = source as? AVAudioMixerNode {
                found += players(feeding: mixer, gain: gain * mixer.outputVolume)
            }
        }
        return found
    }

    private func usesInput(_ input: AVAudioInputNode) -> Bool {
        input.hasTaps || state.withLock { !($0.connections[ObjectIdentifier(input)] ?? []).isEmpty }
    }

    private func makeCapture(for input: AVAudioInputNode) throws -> CaptureLoop {
        let mic = input.device.microphone
        let recording = try MicrophoneRecording.load(
            mic.source, sampleRate: mic.sampleRate, channelCount: mic.channelCount)
        let requested = input.requestedTapFrames ?? UInt32(mic.sampleRate * 0.1)
        let muted = permissions.recordPermission != .authorized
        return CaptureLoop(
            recording: recording, settings: mic,
            schedule: CaptureSchedule(sampleRate: mic.sampleRate, requestedFrames: requested),
            muted: muted,
            deliver: { [weak self] captured in self?.route(captured, from: input, sampleRate: mic.sampleRate) },
            ended: { [weak self] ending in self?.inputEnded(ending, microphone: mic) })
    }

    /// Delivers a microphone buffer to the input's tap and to every node downstream of it.
    private func route(_ captured: CapturedBuffer, from input: AVAudioInputNode, sampleRate: Double) {
        var seen: Set<ObjectIdentifier> = []
        var pending: [AVAudioNode] = [input]
        let connections = state.withLock { $0.connections }
        while let node = pending.popLast() {
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            node.deliverToTap(captured, sampleRate: sampleRate)
            pending += connections[ObjectIdentifier(node)] ?? []
        }
    }

    /// The microphone stopped on its own: its recording ran out (the device went away), a call
    /// took it, or the route changed. The engine stops, and tells the app as a device would.
    private func inputEnded(_ ending: CaptureLoop.Ending, microphone: MicrophoneSettings) {
        state.withLock { $0.running = false }
        let session = AVAudioSession.sharedInstance()
        switch ending {
        case .sourceEnded:
            NotificationCenter.default.post(name: .AVAudioEngineConfigurationChange, object: self)
        case .interrupted:
            session.interrupted()
            NotificationCenter.default.post(
                name: AVAudioSession.interruptionNotification, object: session,
                userInfo: [AVAudioSessionInterruptionTypeKey: AVAudioSession.InterruptionType.began.rawValue])
            // The call lasts its stated time in real time; in fast pacing time follows the samples,
            // and the samples of the call are skipped, so it ends at once.
            var seconds = 0.0
            if case .call(let at, let until) = microphone.interruption, microphone.pacing == .realtime {
                seconds = until - at
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                NotificationCenter.default.post(
                    name: AVAudioSession.interruptionNotification, object: session,
                    userInfo: [
                        AVAudioSessionInterruptionTypeKey: AVAudioSession.InterruptionType.ended.rawValue,
                        AVAudioSessionInterruptionOptionKey: AVAudioSession.InterruptionOptions.shouldResume.rawValue,
                    ])
            }
        case .routeChanged:
            NotificationCenter.default.post(
                name: AVAudioSession.routeChangeNotification, object: session,
                userInfo: [
                    AVAudioSessionRouteChangeReasonKey: AVAudioSession.RouteChangeReason.oldDeviceUnavailable.rawValue
                ])
            NotificationCenter.default.post(name: .AVAudioEngineConfigurationChange, object: self)
        }
    }

    /// A tap was installed or removed: the capture schedule is made for the first tap's size.
    func tapsChanged() {
        state.withLock { state in
            if !state.running, state.capture?.nextSampleTime == 0 { state.capture = nil }
        }
    }
}
