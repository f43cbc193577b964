import CSndFile
import Foundation
import SpeechCore

/// Writes PCM audio to a file with libsndfile, block by block.
///
/// The same samples written with the same settings give the same bytes: no chunk records when the
/// file was written (libsndfile's `PEAK` chunk, which it adds to float WAV and AIFF files and which
/// carries a timestamp, is turned off; Core Audio's WAVE writer adds none either).
public final class AudioFileWriter {
    /// WAV and FLAC store the chosen encoding; OGG always stores Vorbis.
    public enum Container: String, Sendable, CaseIterable { case wav, flac, ogg }
    public enum Encoding: String, Sendable, CaseIterable { case pcm16, pcm24, float32 }

    public let path: String
    public let format: AudioFormat
    private var handle: OpaquePointer?
    public private(set) var framesWritten: Int64 = 0

    /// Creates (or replaces) `path`. `format` gives the rate and channel count of what will be written.
    /// With `updatesHeader`, the header's sizes are rewritten after every write, so the file reads
    /// whole even if it is never closed (Core Audio's default, which `AVAudioFile` keeps).
    public init(
        path: String, format: AudioFormat, container: Container = .wav, encoding: Encoding = .pcm16,
        updatesHeader: Bool = false
    ) throws {
        guard format.isValid, format.sampleRate.rounded() == format.sampleRate, format.sampleRate <= 1_536_000 else {
            throw AudioIOError.invalidFormat(path: path, reason: "\(format)")
        }
        if container == .flac && encoding == .float32 {
            throw AudioIOError.invalidFormat(path: path, reason: "FLAC holds integer samples only")
        }
        self.path = path
        self.format = format
        var info = SF_INFO()
        info.samplerate = Int32(format.sampleRate)
        info.channels = Int32(format.channelCount)
        switch (container, encoding) {
        case (.ogg, _): info.format = Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_VORBIS)
        case (_, .pcm16): info.format = AudioFileWriter.major(container) | Int32(SF_FORMAT_PCM_16)
        case (_, .pcm24): info.format = AudioFileWriter.major(container) | Int32(SF_FORMAT_PCM_24)
        case (_, .float32): info.format = AudioFileWriter.major(container) | Int32(SF_FORMAT_FLOAT)
        }
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw AudioIOError.writeFailed(path: path, reason: String(cString: sf_strerror(nil)))
        }
        // Float input beyond ±1 is clipped, not wrapped, when stored as integers.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        // Before any sample is written: a PEAK chunk holds the second the file was written in.
        sf_command(handle, Int32(SFC_SET_ADD_PEAK_CHUNK), nil, Int32(SF_FALSE))
        if updatesHeader { sf_command(handle, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, Int32(SF_TRUE)) }
        self.handle = handle
    }

    deinit { if let handle { sf_close(handle) } }

    private static func major(_ container: Container) -> Int32 {
        container == .flac ? Int32(SF_FORMAT_FLAC) : Int32(SF_FORMAT_WAV)
    }

    /// Appends a buffer with the writer's rate and channel count.
    public func write(_ buffer: PCMBuffer) throws {
        guard buffer.format.channelCount == format.channelCount, buffer.format.sampleRate == format.sampleRate else {
            throw AudioIOError.invalidFormat(path: path, reason: "buffer is \(buffer.format), file is \(format)")
        }
        try write(interleaved: buffer.interleavedFloats)
    }

    /// Appends mono samples (the writer must be mono).
    public func write(mono samples: [Float]) throws {
        guard format.channelCount == 1 else {
            throw AudioIOError.invalidFormat(
                path: path, reason: "mono samples for a \(format.channelCount)-channel file")
        }
        try write(interleaved: samples)
    }

    private func write(interleaved: [Float]) throws {
        guard let handle else { throw AudioIOError.writeFailed(path: path, reason: "already closed") }
        let frames = interleaved.count / format.channelCount
        let written = interleaved.withUnsafeBufferPointer {
            sf_writef_float(handle, $0.baseAddress, sf_count_t(frames))
        }
        guard Int(written) == frames else {
            throw AudioIOError.writeFailed(path: path, reason: String(cString: sf_strerror(handle)))
        }
        framesWritten += Int64(frames)
    }

    /// Flushes and closes the file; later writes throw.
    public func close() {
        if let handle { sf_close(handle) }
        handle = nil
    }

    /// Writes a whole mono signal to a WAV file.
    public static func writeMono(
        _ samples: [Float], sampleRate: Double, to path: String, encoding: Encoding = .pcm16
    ) throws {
        let writer = try AudioFileWriter(path: path, format: .speech(sampleRate: sampleRate), encoding: encoding)
        try writer.write(mono: samples)
        writer.close()
    }
}
