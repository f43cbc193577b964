import AudioIO
import Foundation
import SpeechCore

/// The simulated device's loudspeaker: it keeps every sample that reached the audio engine's
/// output while something played, and writes them to `SPEECH_HARNESS_SPEAKER` when that is set,
/// so that a test can compare what a program played with what it meant to play.
public final class VirtualSpeaker: Sendable {
    private struct State {
        var format: AudioFormat?
        var channels: [[Float]] = []
        var writer: AudioFileWriter?
        var problem: String?
    }

    /// Where played audio is written (a WAV file); nil: kept in memory only.
    public let outputPath: String?
    private let state = Locked(State())

    public init(outputPath: String?) {
        self.outputPath = outputPath
    }

    /// The format of what was played (the engine's output connection); nil before anything played.
    public var format: AudioFormat? { state.withLock { $0.format } }

    /// Every sample played, per channel.
    public var playedChannels: [[Float]] { state.withLock { $0.channels } }

    /// Frames played so far.
    public var playedFrames: Int { state.withLock { $0.channels.first?.count ?? 0 } }

    /// Why the output file could not be written, if it could not.
    public var outputProblem: String? { state.withLock { $0.problem } }

    /// Takes one render cycle's samples. A new format starts a new recording (and a new file).
    public func receive(_ channels: [[Float]], format: AudioFormat) {
        state.withLock { state in
            if state.format != format {
                state.writer?.close()
                state.writer = nil
                state.format = format
                state.channels = Array(repeating: [], count: channels.count)
            }
            for (index, samples) in channels.enumerated() where index < state.channels.count {
                state.channels[index] += samples
            }
            guard let outputPath, state.problem == nil else { return }
            do {
                if let writer = state.writer {
                    try writer.write(PCMBuffer(format: format, channels: channels))
                } else {
                    // First audio, or audio after a flush: the file gets the whole recording.
                    let writer = try AudioFileWriter(path: outputPath, format: format, encoding: .float32)
                    try writer.write(PCMBuffer(format: format, channels: state.channels))
                    state.writer = writer
                }
            } catch {
                state.problem = "\(error)"
                state.writer = nil
            }
        }
    }

    /// Completes the output file (the engine stopped). Audio played later is added to the
    /// recording, and the file is written again with all of it.
    public func flush() {
        state.withLock { state in
            state.writer?.close()
            state.writer = nil
        }
    }
}
