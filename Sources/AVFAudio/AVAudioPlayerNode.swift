import AudioIO
import Foundation
import SpeechCore
import VirtualDevice

public typealias AVAudioNodeCompletionHandler = @Sendable () -> Void
public typealias AVAudioPlayerNodeCompletionHandler = @Sendable (AVAudioPlayerNodeCompletionCallbackType) -> Void

/// When a completion handler is called. The virtual speaker has no output latency, so the three
/// moments coincide: the cycle that renders a segment's last frame, once the speaker has it.
public enum AVAudioPlayerNodeCompletionCallbackType: Int, Sendable {
    case dataConsumed = 0
    case dataRendered = 1
    case dataPlayedBack = 2
}

public struct AVAudioPlayerNodeBufferOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The buffer plays again and again (its handler is called when the player stops).
    public static let loops = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 0)
    /// The buffer replaces whatever is scheduled.
    public static let interrupts = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 1)
    /// As `interrupts`; a looping buffer is replaced at once rather than at its loop point.
    public static let interruptsAtLoop = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 2)
}

/// Plays buffers and files through the engine's output, which on Linux is the virtual speaker
/// (`VirtualSpeaker`: what reached the output, per channel, and `SPEECH_HARNESS_SPEAKER`).
///
/// Audio is converted to the player's output format (the format of its connection) when it is
/// scheduled, and to the output's rate while it plays. The player's timeline starts at `play()`
/// and stands still while paused; `stop()` clears what is scheduled and calls its handlers.
open class AVAudioPlayerNode: AVAudioNode, @unchecked Sendable {
    struct Completion: Sendable {
        var callbackType: AVAudioPlayerNodeCompletionCallbackType
        var handler: AVAudioPlayerNodeCompletionHandler?

        func call() { handler?(callbackType) }
    }

    private struct State {
        var queue: PlaybackQueue<Completion>?
        var playing = false
        /// The output sample time at which the player's time 0 falls, while playing.
        var origin: Int64?
        /// A `play(at:)` time not reached yet, on the output's timeline.
        var startsAt: Int64?
        /// Output frames the player had played when it was paused.
        var pausedFrames: Int64 = 0
        var bridge: RateBridge?
    }

    private let state = Locked(State())

    public override init() { super.init() }

    open override var numberOfInputs: Int { 0 }

    open var volume: Float = 1
    open var pan: Float = 0

    open var isPlaying: Bool { state.withLock { $0.playing } }

    // MARK: Scheduling

    open func scheduleBuffer(_ buffer: AVAudioPCMBuffer, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        scheduleBuffer(buffer, at: nil, options: [], completionHandler: completionHandler)
    }

    open func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
        completionHandler: AVAudioNodeCompletionHandler? = nil
    ) {
        scheduleBuffer(
            buffer, at: when, options: options, completionCallbackType: .dataConsumed,
            completionHandler: Self.ignoringType(completionHandler))
    }

    open func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        scheduleBuffer(
            buffer, at: nil, options: [], completionCallbackType: callbackType, completionHandler: completionHandler)
    }

    /// Schedules a buffer in the player's output format (its channel count; Apple's engine requires it).
    open func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
        completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        let format = outputFormat(forBus: 0)
        guard buffer.format.channelCount == format.channelCount else {
            AVFAudioException.requiredConditionFailed(
                "_outputFormat.channelCount == buffer.format.channelCount",
                hint:
                    "the buffer has \(buffer.format.channelCount) channels; the player's output has \(format.channelCount)"
            )
        }
        guard let pcm = buffer.pcmBuffer else {
            AVFAudioException.requiredConditionFailed(
                "IsFormatSupported(buffer.format)", hint: "sample type \(buffer.format.commonFormat) is not supported")
        }
        let completion = Completion(callbackType: callbackType, handler: completionHandler)
        schedule(pcm.floatChannels, rate: pcm.format.sampleRate, at: when, options: options, completion: completion)
    }

    open func scheduleFile(
        _ file: AVAudioFile, at when: AVAudioTime?, completionHandler: AVAudioNodeCompletionHandler? = nil
    ) {
        scheduleFile(
            file, at: when, completionCallbackType: .dataConsumed,
            completionHandler: Self.ignoringType(completionHandler))
    }

    /// Schedules the whole file. A file that cannot be read schedules nothing and calls the
    /// handler at once, with the reason on standard error (Apple's player logs and plays nothing).
    open func scheduleFile(
        _ file: AVAudioFile, at when: AVAudioTime?,
        completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        scheduleSegment(
            file, startingFrame: 0, frameCount: nil, at: when, completionCallbackType: callbackType,
            completionHandler: completionHandler)
    }

    open func scheduleSegment(
        _ file: AVAudioFile, startingFrame startFrame: AVAudioFramePosition, frameCount numberFrames: AVAudioFrameCount,
        at when: AVAudioTime?, completionHandler: AVAudioNodeCompletionHandler? = nil
    ) {
        scheduleSegment(
            file, startingFrame: startFrame, frameCount: Int(numberFrames), at: when,
            completionCallbackType: .dataConsumed, completionHandler: Self.ignoringType(completionHandler))
    }

    open func scheduleSegment(
        _ file: AVAudioFile, startingFrame startFrame: AVAudioFramePosition, frameCount numberFrames: AVAudioFrameCount,
        at when: AVAudioTime?, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        scheduleSegment(
            file, startingFrame: startFrame, frameCount: Int(numberFrames), at: when,
            completionCallbackType: callbackType, completionHandler: completionHandler)
    }

    open func scheduleFile(_ file: AVAudioFile, at when: AVAudioTime?) async {
        await withCheckedContinuation { done in scheduleFile(file, at: when) { done.resume() } }
    }

    open func scheduleFile(
        _ file: AVAudioFile, at when: AVAudioTime?,
        completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType
    ) async -> AVAudioPlayerNodeCompletionCallbackType {
        await withCheckedContinuation { done in
            scheduleFile(file, at: when, completionCallbackType: callbackType) { done.resume(returning: $0) }
        }
    }

    open func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = []
    )
        async
    {
        await withCheckedContinuation { done in scheduleBuffer(buffer, at: when, options: options) { done.resume() } }
    }

    open func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
        completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType
    ) async -> AVAudioPlayerNodeCompletionCallbackType {
        await withCheckedContinuation { done in
            scheduleBuffer(buffer, at: when, options: options, completionCallbackType: callbackType) {
                done.resume(returning: $0)
            }
        }
    }

    private func scheduleSegment(
        _ file: AVAudioFile, startingFrame: AVAudioFramePosition, frameCount: Int?, at when: AVAudioTime?,
        completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler?
    ) {
        let completion = Completion(callbackType: callbackType, handler: completionHandler)
        do {
            let reader = try AudioFileReader(path: file.url.path)
            if startingFrame > 0 { try reader.seek(toFrame: startingFrame) }
            let wanted = frameCount ?? Int(max(0, reader.info.frameCount - startingFrame))
            let block = try reader.read(maxFrames: wanted)
            let channels =
                block?.floatChannels ?? Array(repeating: [], count: reader.info.format.channelCount)
            schedule(channels, rate: reader.info.format.sampleRate, at: when, options: [], completion: completion)
        } catch {
            FileHandle.standardError.write(Data("AVAudioPlayerNode: cannot schedule \(file.url.path): \(error)\n".utf8))
            completion.call()
        }
    }

    /// Converts audio to the player's output format and queues it.
    private func schedule(
        _ channels: [[Float]], rate: Double, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions,
        completion: Completion
    ) {
        let format = outputFormat(forBus: 0)
        var converted = ChannelMap.map(channels, to: Int(format.channelCount))
        if rate != format.sampleRate {
            converted = converted.map {
                (try? SampleRateConverter.convert($0, from: rate, to: format.sampleRate)) ?? []
            }
        }
        let start = when.flatMap { time -> Int64? in
            guard time.isSampleTimeValid else { return nil }
            let timeRate = time.sampleRate > 0 ? time.sampleRate : format.sampleRate
            return Int64((Double(time.sampleTime) * format.sampleRate / timeRate).rounded())
        }
        let dropped = state.withLock { state -> [Completion] in
            if state.queue == nil || state.queue?.channelCount != Int(format.channelCount) {
                state.queue = PlaybackQueue(channelCount: Int(format.channelCount))
            }
            var dropped: [Completion] = []
            if !options.isDisjoint(with: [.interrupts, .interruptsAtLoop]) {
                dropped = state.queue!.removeAll(keepingTimeline: true)
            }
            state.queue!.schedule(converted, at: start, loops: options.contains(.loops), token: completion)
            return dropped
        }
        dropped.forEach { $0.call() }
        engine?.playbackScheduled()
    }

    /// An old-style handler as one that is told the callback type.
    private static func ignoringType(_ handler: AVAudioNodeCompletionHandler?) -> AVAudioPlayerNodeCompletionHandler? {
        guard let handler else { return nil }
        return { @Sendable (_: AVAudioPlayerNodeCompletionCallbackType) in handler() }
    }

    // MARK: Playing

    /// Starts (or resumes) the player at the output's next cycle. The engine must be running.
    open func play() { play(at: nil) }

    /// Starts the player at `when` on the output's timeline (a sample time), or at once.
    open func play(at when: AVAudioTime?) {
        guard let engine else { AVFAudioException.requiredConditionFailed("_engine != nil") }
        guard engine.isRunning else {
            AVFAudioException.requiredConditionFailed(
                "_engine->IsRunning()", hint: "start the AVAudioEngine before playing a player node")
        }
        let next = engine.nextOutputSample
        let startAt = when.flatMap { $0.isSampleTimeValid ? max(next, $0.sampleTime) : nil } ?? next
        state.withLock { state in
            guard !state.playing else { return }
            state.playing = true
            state.origin = startAt - state.pausedFrames
            state.startsAt = startAt > next ? startAt : nil
            if state.queue == nil {
                state.queue = PlaybackQueue(channelCount: Int(outputFormat(forBus: 0).channelCount))
            }
        }
        engine.playbackScheduled()
    }

    /// Stops the player's timeline where it is; `play()` goes on from there.
    open func pause() {
        let now = engine?.nextOutputSample ?? 0
        state.withLock { state in
            guard state.playing, let origin = state.origin else { return }
            state.playing = false
            state.pausedFrames = max(0, now - origin)
            state.origin = nil
        }
    }

    /// Stops playing, drops everything scheduled (calling its handlers) and resets the timeline.
    open func stop() {
        let dropped = state.withLock { state -> [Completion] in
            state.playing = false
            state.origin = nil
            state.startsAt = nil
            state.pausedFrames = 0
            state.bridge = nil
            return state.queue?.removeAll() ?? []
        }
        dropped.forEach { $0.call() }
    }

    /// Nothing to prepare: audio is converted when it is scheduled.
    open func prepare(withFrameCount frameCount: AVAudioFrameCount) {}

    open override func reset() { stop() }

    // MARK: Timelines

    /// The player's time at `nodeTime` (a time on the output's timeline); nil when not playing.
    open func playerTime(forNodeTime nodeTime: AVAudioTime) -> AVAudioTime? {
        guard nodeTime.isSampleTimeValid, let (origin, rate, outputRate) = timelines() else { return nil }
        let nodeSample =
            Double(nodeTime.sampleTime) * outputRate / (nodeTime.sampleRate > 0 ? nodeTime.sampleRate : outputRate)
        let playerSample = AVAudioFramePosition(((nodeSample - Double(origin)) * rate / outputRate).rounded())
        return AVAudioTime(hostTime: nodeTime.hostTime, sampleTime: playerSample, atRate: rate)
    }

    /// The output's time at `playerTime`; nil when not playing.
    open func nodeTime(forPlayerTime playerTime: AVAudioTime) -> AVAudioTime? {
        guard playerTime.isSampleTimeValid, let (origin, rate, outputRate) = timelines() else { return nil }
        let sample =
            Double(playerTime.sampleTime) * outputRate / (playerTime.sampleRate > 0 ? playerTime.sampleRate : rate)
        return AVAudioTime(sampleTime: origin + AVAudioFramePosition(sample.rounded()), atRate: outputRate)
    }

    /// Where player time 0 falls on the output's timeline, with the player's and the output's
    /// rates; nil when the player is not playing.
    private func timelines() -> (origin: Int64, rate: Double, outputRate: Double)? {
        guard let engine, engine.outputRate > 0, let origin = state.withLock({ $0.playing ? $0.origin : nil }) else {
            return nil
        }
        return (origin, outputFormat(forBus: 0).sampleRate, engine.outputRate)
    }

    // MARK: Rendering (the engine's output thread)

    /// Whether the player is playing with audio scheduled (it may still be waiting for its start
    /// time: the output's clock must run on to reach it).
    var hasAudio: Bool {
        state.withLock { state in state.playing && !(state.queue?.isEmpty ?? true) }
    }

    /// Renders one output cycle: `frames` frames at `outputRate`, in the player's channel count.
    /// Nil when the player is not playing (or not yet at its start time).
    func render(frames: Int, at sample: Int64, outputRate: Double) -> (channels: [[Float]], finished: [Completion])? {
        let rate = outputFormat(forBus: 0).sampleRate
        return state.withLock { state in
            guard state.playing, var queue = state.queue else { return nil }
            if let startsAt = state.startsAt {
                guard sample >= startsAt else { return nil }
                state.startsAt = nil
            }
            var finished: [Completion] = []
            let channels: [[Float]]
            if rate == outputRate {
                let cycle = queue.render(frames: frames)
                channels = cycle.channels
                finished = cycle.finished
            } else {
                if state.bridge?.inputRate != rate || state.bridge?.outputRate != outputRate {
                    state.bridge = RateBridge(inputRate: rate, outputRate: outputRate, channelCount: queue.channelCount)
                }
                channels = state.bridge!.take(frames) { wanted in
                    let cycle = queue.render(frames: wanted)
                    finished += cycle.finished
                    return cycle.channels
                }
            }
            state.queue = queue
            let gain = volume
            return (gain == 1 ? channels : channels.map { $0.map { $0 * gain } }, finished)
        }
    }
}

/// Streams audio from a player's rate to the output's: pulls player frames as needed and keeps
/// what the resampler gave beyond the cycle for the next one.
struct RateBridge {
    let inputRate: Double
    let outputRate: Double
    private var converters: [SampleRateConverter]
    private var pending: [[Float]]

    init(inputRate: Double, outputRate: Double, channelCount: Int) {
        self.inputRate = inputRate
        self.outputRate = outputRate
        converters = (0..<channelCount).compactMap { _ in try? SampleRateConverter(from: inputRate, to: outputRate) }
        pending = Array(repeating: [], count: channelCount)
    }

    mutating func take(_ frames: Int, pull: (Int) -> [[Float]]) -> [[Float]] {
        guard converters.count == pending.count else {
            return Array(repeating: [Float](repeating: 0, count: frames), count: pending.count)
        }
        // The resampler holds back a little audio at first; a few pulls fill the cycle.
        var attempts = 0
        while (pending.first?.count ?? frames) < frames, attempts < 64 {
            attempts += 1
            let missing = frames - (pending.first?.count ?? 0)
            let wanted = max(1, Int((Double(missing) * inputRate / outputRate).rounded(.up)))
            let input = pull(wanted)
            for index in pending.indices {
                pending[index] += (try? converters[index].process(input[index])) ?? []
            }
        }
        for index in pending.indices where pending[index].count < frames {
            pending[index] += [Float](repeating: 0, count: frames - pending[index].count)
        }
        let out = pending.map { Array($0.prefix(frames)) }
        pending = pending.map { Array($0.dropFirst(frames)) }
        return out
    }
}
