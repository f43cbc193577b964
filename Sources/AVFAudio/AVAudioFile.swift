import AudioIO
import Foundation
import SpeechCore

/// An audio file open for reading (libsndfile: WAV, FLAC, OGG, AIFF…) or for writing (WAV).
///
/// Reading delivers the processing format: deinterleaved Float32 at the file's rate and channel
/// count, as Apple's class does by default. Errors are ``AudioIOError`` values naming the file.
public final class AVAudioFile: NSObject, @unchecked Sendable {
    public let url: URL
    /// The format on disk (for reading, Int16 or Float32 as the file stores it, reported as Float32
    /// for encodings the harness converts).
    public let fileFormat: AVAudioFormat
    /// The format `read(into:)` delivers.
    public let processingFormat: AVAudioFormat
    private let reader: AudioFileReader?
    private let writer: AudioFileWriter?
    private var position: AVAudioFramePosition = 0

    /// Opens `fileURL` for reading.
    public init(forReading fileURL: URL) throws {
        let reader = try AudioFileReader(path: fileURL.path)
        self.reader = reader
        self.writer = nil
        self.url = fileURL
        let rate = reader.info.format.sampleRate, channels = AVAudioChannelCount(reader.info.format.channelCount)
        let isInt16 = reader.info.encoding.contains("16 bit")
        fileFormat = AVAudioFormat(
            commonFormat: isInt16 ? .pcmFormatInt16 : .pcmFormatFloat32, sampleRate: rate,
            channels: channels, interleaved: true)!
        processingFormat = AVAudioFormat(standardFormatWithSampleRate: rate, channels: channels)!
    }

    /// Opens `fileURL` for reading, delivering Float32 or Int16 (deinterleaved or interleaved).
    public convenience init(forReading fileURL: URL, commonFormat: AVAudioCommonFormat, interleaved: Bool) throws {
        try self.init(forReading: fileURL)
        guard commonFormat == .pcmFormatFloat32 || commonFormat == .pcmFormatInt16 else {
            throw AudioIOError.invalidFormat(
                path: fileURL.path, reason: "processing format \(commonFormat) is not supported")
        }
        processingFormatOverride = AVAudioFormat(
            commonFormat: commonFormat, sampleRate: processingFormat.sampleRate,
            channels: processingFormat.channelCount, interleaved: interleaved)
    }

    private var processingFormatOverride: AVAudioFormat?

    /// Creates a WAV file for writing. Settings keys follow AVFoundation's (`AVSampleRateKey`,
    /// `AVNumberOfChannelsKey`, `AVLinearPCMBitDepthKey`, `AVLinearPCMIsFloatKey`). As with Core
    /// Audio's files, the header's sizes are brought up to date on every write, so a file the app
    /// never closes (it keeps the `AVAudioFile`, or the process ends) still reads whole.
    public init(forWriting fileURL: URL, settings: [String: Any]) throws {
        let rate =
            (settings[AVSampleRateKey] as? Double) ?? (settings[AVSampleRateKey] as? Int).map(Double.init) ?? 16_000
        let channels = (settings[AVNumberOfChannelsKey] as? Int) ?? 1
        let isFloat = (settings[AVLinearPCMIsFloatKey] as? Bool) ?? false
        let bits = (settings[AVLinearPCMBitDepthKey] as? Int) ?? (isFloat ? 32 : 16)
        let encoding: AudioFileWriter.Encoding = isFloat ? .float32 : (bits == 24 ? .pcm24 : .pcm16)
        writer = try AudioFileWriter(
            path: fileURL.path, format: AudioFormat(sampleRate: rate, channelCount: channels), encoding: encoding,
            updatesHeader: true)
        reader = nil
        url = fileURL
        fileFormat = AVAudioFormat(
            commonFormat: isFloat ? .pcmFormatFloat32 : .pcmFormatInt16, sampleRate: rate,
            channels: AVAudioChannelCount(channels), interleaved: true)!
        processingFormat = AVAudioFormat(standardFormatWithSampleRate: rate, channels: AVAudioChannelCount(channels))!
    }

    /// Frames in the file (for writing: frames written so far).
    public var length: AVAudioFramePosition { reader?.info.frameCount ?? writer?.framesWritten ?? 0 }

    /// The next frame `read` will deliver.
    public var framePosition: AVAudioFramePosition {
        get { position }
        set {
            guard let reader else { return }
            let target = max(0, min(newValue, length))
            if (try? reader.seek(toFrame: target)) != nil { position = target }
        }
    }

    private var deliveredFormat: AVAudioFormat { processingFormatOverride ?? processingFormat }

    /// Fills `buffer` from the current position (up to its capacity); at the end of the file the
    /// buffer's `frameLength` is 0.
    public func read(into buffer: AVAudioPCMBuffer) throws {
        try read(into: buffer, frameCount: buffer.frameCapacity)
    }

    /// Reads up to `frames` frames into `buffer`.
    public func read(into buffer: AVAudioPCMBuffer, frameCount frames: AVAudioFrameCount) throws {
        guard let reader else { throw AudioIOError.unreadable(path: url.path, reason: "file is open for writing") }
        guard buffer.format.channelCount == deliveredFormat.channelCount,
            buffer.format.sampleRate == deliveredFormat.sampleRate
        else {
            throw AudioIOError.invalidFormat(
                path: url.path, reason: "buffer format \(buffer.format) does not match \(deliveredFormat)")
        }
        buffer.frameLength = 0
        let wanted = Int(min(frames, buffer.frameCapacity))
        guard wanted > 0, let block = try reader.read(maxFrames: wanted) else { return }
        try buffer.replaceFrames(with: block, at: 0)
        position += AVAudioFramePosition(block.frameCount)
    }

    /// Appends `buffer`'s frames to a file open for writing.
    public func write(from buffer: AVAudioPCMBuffer) throws {
        guard let writer else { throw AudioIOError.writeFailed(path: url.path, reason: "file is open for reading") }
        guard let pcm = buffer.pcmBuffer else {
            throw AudioIOError.writeFailed(
                path: url.path, reason: "sample type \(buffer.format.commonFormat) is not supported")
        }
        try writer.write(pcm)
    }

    /// Closes the file (writers flush); further reads or writes fail.
    public func close() { writer?.close() }
}

public let AVSampleRateKey = "AVSampleRateKey"
public let AVNumberOfChannelsKey = "AVNumberOfChannelsKey"
public let AVLinearPCMBitDepthKey = "AVLinearPCMBitDepthKey"
public let AVLinearPCMIsFloatKey = "AVLinearPCMIsFloatKey"
public let AVFormatIDKey = "AVFormatIDKey"
public let AVLinearPCMIsNonInterleaved = "AVLinearPCMIsNonInterleaved"
public let AVLinearPCMIsBigEndianKey = "AVLinearPCMIsBigEndianKey"
