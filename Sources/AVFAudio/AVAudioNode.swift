import AudioIO
import Foundation
import SpeechCore
import VirtualDevice

public typealias AVAudioNodeBus = Int
/// Called with each captured buffer and the time of its first sample.
public typealias AVAudioNodeTapBlock = (AVAudioPCMBuffer, AVAudioTime) -> Void

/// A processing block of an ``AVAudioEngine`` with input and output buses. On Linux the only
/// audio that flows is the virtual microphone's: from ``AVAudioInputNode`` to the taps on it and
/// on the nodes it is connected to.
open class AVAudioNode: NSObject, @unchecked Sendable {
    struct Tap {
        var frames: UInt32
        var format: AVAudioFormat
        var deliver: (AVAudioPCMBuffer, AVAudioTime) -> Void
    }

    struct Buses {
        var taps: [AVAudioNodeBus: Tap] = [:]
        var outputFormats: [AVAudioNodeBus: AVAudioFormat] = [:]
        var inputFormats: [AVAudioNodeBus: AVAudioFormat] = [:]
        /// Rate conversion for a tap whose node runs at another rate than the microphone (a mixer).
        var resampler: (from: Double, to: Double, converters: [SampleRateConverter])?
    }

    let buses = Locked(Buses())
    /// The engine the node is attached to.
    public internal(set) weak var engine: AVAudioEngine?

    public override init() { super.init() }

    open var numberOfInputs: Int { 1 }
    open var numberOfOutputs: Int { 1 }

    /// The format audio leaves `bus` in.
    open func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        buses.withLock { $0.outputFormats[bus] } ?? defaultFormat
    }

    /// The format audio arrives at `bus` in.
    open func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        buses.withLock { $0.inputFormats[bus] } ?? defaultFormat
    }

    open func name(forInputBus bus: AVAudioNodeBus) -> String? { nil }
    open func name(forOutputBus bus: AVAudioNodeBus) -> String? { nil }

    /// The format of a bus nobody set: 48 kHz stereo, as Apple's mixer and output report.
    var defaultFormat: AVAudioFormat { AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)! }

    /// Clears processing state (nothing is buffered here).
    open func reset() {}

    /// The start of the engine's last render cycle; nil while the engine is stopped or the node
    /// is not attached.
    open var lastRenderTime: AVAudioTime? { engine?.lastRenderTime }

    /// Installs a tap on an output bus: `tapBlock` gets every buffer that leaves the bus, on the
    /// virtual microphone's thread. `bufferSize` is honoured within 100–400 ms (see
    /// `CaptureSchedule`). As on a device, a second tap on the bus or a format whose sample rate
    /// is not the bus's terminates the program with Apple's "required condition is false" message.
    open func installTap(
        onBus bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?,
        block tapBlock: @escaping AVAudioNodeTapBlock
    ) {
        let busFormat = outputFormat(forBus: bus)
        guard bus >= 0, bus < numberOfOutputs else {
            AVFAudioException.requiredConditionFailed("bus < [self numberOfOutputBusses]")
        }
        let tapFormat = format ?? busFormat
        if let format {
            guard format.isValidForAudio else {
                AVFAudioException.requiredConditionFailed(
                    "IsFormatSampleRateAndChannelCountValid(format)",
                    hint: noDeviceHint)
            }
            if busFormat.isValidForAudio && format.sampleRate != busFormat.sampleRate {
                AVFAudioException.requiredConditionFailed(
                    "format.sampleRate == hwFormat.sampleRate",
                    hint:
                        "the tap asks for \(format) but \(type(of: self)) bus \(bus) runs at \(busFormat.sampleRate) Hz; tap in the bus's format and convert with AVAudioConverter"
                )
            }
        }
        let installed = buses.withLock { buses -> Bool in
            guard buses.taps[bus] == nil else { return false }
            buses.taps[bus] = Tap(frames: bufferSize, format: tapFormat, deliver: tapBlock)
            return true
        }
        if !installed { AVFAudioException.requiredConditionFailed("nullptr == Tap()") }
        engine?.tapsChanged()
    }

    /// SDK 27's tap: the block is `@Sendable` and gets read-only buffers, so it may run anywhere.
    /// Throws instead of terminating where the block-based tap would crash on a second tap.
    open func installAudioTap(
        onBus bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?,
        tapProvider: @escaping @Sendable (AVReadOnlyAudioPCMBuffer, AVAudioTime) -> Void
    ) throws {
        let busFormat = outputFormat(forBus: bus)
        guard bus >= 0, bus < numberOfOutputs else {
            throw NSError(
                domain: AVFAudioErrorDomain, code: -10877,
                userInfo: [NSLocalizedDescriptionKey: "bus \(bus) does not exist"])
        }
        if let format,
            !format.isValidForAudio || (busFormat.isValidForAudio && format.sampleRate != busFormat.sampleRate)
        {
            throw NSError(
                domain: AVFAudioErrorDomain, code: -10868,
                userInfo: [NSLocalizedDescriptionKey: "tap format \(format) does not match the bus format \(busFormat)"]
            )
        }
        let installed = buses.withLock { buses -> Bool in
            guard buses.taps[bus] == nil else { return false }
            buses.taps[bus] = Tap(frames: bufferSize, format: format ?? busFormat) { buffer, when in
                tapProvider(AVReadOnlyAudioPCMBuffer(unsafeRetaining: buffer), when)
            }
            return true
        }
        guard installed else {
            throw NSError(
                domain: AVFAudioErrorDomain, code: -10851,
                userInfo: [
                    NSLocalizedDescriptionKey: "bus \(bus) already has a tap; only one tap may be installed on a bus"
                ])
        }
        engine?.tapsChanged()
    }

    /// Removes the tap on `bus`, if any. Safe while the engine runs.
    open func removeTap(onBus bus: AVAudioNodeBus) {
        buses.withLock { _ = $0.taps.removeValue(forKey: bus) }
        engine?.tapsChanged()
    }

    var hasTaps: Bool { buses.withLock { !$0.taps.isEmpty } }

    /// The buffer size the first tap asked for (the capture schedule follows it).
    var requestedTapFrames: UInt32? { buses.withLock { $0.taps.sorted { $0.key < $1.key }.first?.value.frames } }

    /// Hands a captured buffer to the tap on bus 0, in the tap's format.
    func deliverToTap(_ captured: CapturedBuffer, sampleRate: Double) {
        guard let tap = buses.withLock({ $0.taps[0] }) else { return }
        var channels = ChannelMap.map(captured.channels, to: Int(tap.format.channelCount))
        var sampleTime = captured.sampleTime
        if tap.format.sampleRate != sampleRate {
            channels = resample(channels, from: sampleRate, to: tap.format.sampleRate)
            sampleTime = AVAudioFramePosition(
                (Double(captured.sampleTime) * tap.format.sampleRate / sampleRate).rounded())
        }
        let pcm = PCMBuffer(
            format: AudioFormat(sampleRate: tap.format.sampleRate, channelCount: channels.count), channels: channels)
        guard let buffer = AVAudioPCMBuffer(pcmFormat: tap.format, frameCapacity: AVAudioFrameCount(pcm.frameCount))
        else { return }
        try? buffer.replaceFrames(
            with: tap.format.commonFormat == .pcmFormatInt16 ? pcm.converted(to: .int16) : pcm, at: 0)
        buffer.captureLeases = captured.lease.map { [$0] } ?? []
        tap.deliver(
            buffer, AVAudioTime(hostTime: captured.hostTime, sampleTime: sampleTime, atRate: tap.format.sampleRate))
    }

    private func resample(_ channels: [[Float]], from: Double, to: Double) -> [[Float]] {
        buses.withLock { buses in
            if buses.resampler?.from != from || buses.resampler?.to != to
                || buses.resampler?.converters.count != channels.count
            {
                buses.resampler = (from, to, channels.compactMap { _ in try? SampleRateConverter(from: from, to: to) })
            }
            guard let converters = buses.resampler?.converters, converters.count == channels.count else {
                return channels
            }
            return zip(converters, channels).map { (try? $0.process($1)) ?? [] }
        }
    }

    var noDeviceHint: String {
        "there is no input device (SPEECH_HARNESS_MICROPHONE is unset or 'none'); set it to an audio file, manifest.jsonl#id or 'silence'"
    }
}

/// A node that connects to the audio hardware.
open class AVAudioIONode: AVAudioNode, @unchecked Sendable {
    /// Seconds between the hardware and the node (the virtual devices have none).
    open var presentationLatency: TimeInterval { 0 }
    /// Voice processing (echo cancellation, AGC) is not emulated; enabling it is accepted.
    open var isVoiceProcessingEnabled: Bool { voiceProcessing }
    private var voiceProcessing = false

    open func setVoiceProcessingEnabled(_ enabled: Bool) throws { voiceProcessing = enabled }
}

/// The microphone: its output bus carries the virtual microphone's audio in the hardware format
/// (by default what an iPhone reports: 48 kHz mono Float32). With no input device (the `none`
/// microphone) both of its formats are 0 Hz with no channels, which is what users observe on
/// machines without a microphone: a tap in that format terminates the program, and starting the
/// engine with a format-less tap throws.
open class AVAudioInputNode: AVAudioIONode, @unchecked Sendable {
    let device: DeviceSettings

    init(device: DeviceSettings) {
        self.device = device
        super.init()
    }

    open override var numberOfInputs: Int { 1 }

    var hardwareFormat: AVAudioFormat {
        let mic = device.microphone
        guard mic.source != .none else { return AVAudioFormat(invalidHardwareFormat: ()) }
        return AVAudioFormat(
            standardFormatWithSampleRate: mic.sampleRate, channels: AVAudioChannelCount(mic.channelCount))!
    }

    open override func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat { hardwareFormat }
    open override func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat { hardwareFormat }
}

/// The speaker: what reaches it plays into the engine's virtual loudspeaker. Taps on it must pass
/// a nil format, as Apple requires.
open class AVAudioOutputNode: AVAudioIONode, @unchecked Sendable {
    open override func installTap(
        onBus bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?,
        block tapBlock: @escaping AVAudioNodeTapBlock
    ) {
        if format != nil {
            AVFAudioException.requiredConditionFailed("nullptr == format (an output node's tap takes no format)")
        }
        super.installTap(onBus: bus, bufferSize: bufferSize, format: nil, block: tapBlock)
    }
}

/// A mixer: what is connected to it leaves its output bus in its output format (the virtual
/// microphone's audio, with its channels mapped to the mixer's).
open class AVAudioMixerNode: AVAudioNode, @unchecked Sendable {
    open var outputVolume: Float = 1
    open var nextAvailableInputBus: AVAudioNodeBus { 0 }
    open override var numberOfInputs: Int { 8 }
}
