import CSndFile
import Foundation
import SpeechCore

/// What a file holds, as libsndfile reads its header.
public struct AudioFileInfo: Sendable, Hashable {
    public var path: String
    /// Native rate and channels; samples are always delivered as Float32.
    public var format: AudioFormat
    public var frameCount: Int64
    /// Container and encoding names, e.g. "WAV" and "Signed 16 bit PCM".
    public var container: String
    public var encoding: String

    public var duration: MediaTime { MediaTime(sampleIndex: frameCount, sampleRate: format.sampleRate) }
    public var durationSeconds: Double { Double(frameCount) / format.sampleRate }
}

/// The layout of headerless audio, which libsndfile cannot guess.
public struct RawAudioFormat: Sendable, Hashable {
    public enum Encoding: String, Sendable, CaseIterable {
        case pcm8 = "s8"
        case pcm16 = "s16"
        case pcm24 = "s24"
        case pcm32 = "s32"
        case float32 = "f32"
        case ulaw, alaw
    }
    public enum Endianness: String, Sendable { case little, big }

    public var sampleRate: Int
    public var channelCount: Int
    public var encoding: Encoding
    public var endianness: Endianness

    public init(sampleRate: Int, channelCount: Int = 1, encoding: Encoding = .pcm16, endianness: Endianness = .little) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.encoding = encoding
        self.endianness = endianness
    }
}

/// How multi-channel audio becomes mono: stereo is averaged; more channels are refused, because which
/// of them carries the speech is a decision the caller must make.
public enum DownmixPolicy: Sendable {
    case averageStereo

    /// `frames` interleaved frames of `channels` channels mixed down in one pass.
    func mono(interleaved: [Float], frames: Int, channels: Int, path: String) throws -> [Float] {
        switch channels {
        case 2: return (0..<frames).map { (interleaved[2 * $0] + interleaved[2 * $0 + 1]) * 0.5 }
        default: throw AudioIOError.unsupportedChannelLayout(path: path, channels: channels)
        }
    }
}

/// Reads any file libsndfile understands (WAV, FLAC, OGG/Vorbis, AIFF, raw with a stated format…)
/// as Float32, block by block, so a long file is never held in memory whole.
///
/// Not thread-safe: one reader belongs to one task or thread at a time.
public final class AudioFileReader {
    public let info: AudioFileInfo
    private var handle: OpaquePointer?
    private var framesDelivered: Int64 = 0
    private var interleavedScratch: [Float] = []

    public var path: String { info.path }

    /// Opens `path`; give `raw` for headerless files. Throws ``AudioIOError`` naming the file.
    public init(path: String, raw: RawAudioFormat? = nil) throws {
        try AudioFileReader.checkFile(path)
        var sfInfo = SF_INFO()
        if let raw {
            guard raw.sampleRate > 0, raw.sampleRate <= 1_536_000, raw.channelCount > 0, raw.channelCount <= 1024 else {
                throw AudioIOError.invalidFormat(
                    path: path, reason: "raw format \(raw.sampleRate) Hz, \(raw.channelCount) channels")
            }
            sfInfo.samplerate = Int32(raw.sampleRate)
            sfInfo.channels = Int32(raw.channelCount)
            sfInfo.format =
                Int32(SF_FORMAT_RAW) | AudioFileReader.subtype(raw.encoding)
                | Int32(raw.endianness == .little ? SF_ENDIAN_LITTLE : SF_ENDIAN_BIG)
        }
        guard let handle = sf_open(path, Int32(SFM_READ), &sfInfo) else {
            let message = String(cString: sf_strerror(nil))
            throw AudioFileReader.classifyOpenFailure(path: path, message: message)
        }
        self.handle = handle
        let log = AudioFileReader.logText(handle)
        if AudioFileReader.logSaysTruncated(log) {
            sf_close(handle)
            self.handle = nil
            throw AudioIOError.truncated(path: path, reason: "the header declares more audio data than the file holds")
        }
        guard sfInfo.samplerate > 0, sfInfo.channels > 0 else {
            sf_close(handle)
            self.handle = nil
            throw AudioIOError.invalidFormat(path: path, reason: "\(sfInfo.samplerate) Hz, \(sfInfo.channels) channels")
        }
        info = AudioFileInfo(
            path: path,
            format: AudioFormat(sampleRate: Double(sfInfo.samplerate), channelCount: Int(sfInfo.channels)),
            frameCount: Int64(sfInfo.frames),
            container: AudioFileReader.formatName(
                Int32(sfInfo.format) & Int32(SF_FORMAT_TYPEMASK), command: SFC_GET_FORMAT_INFO),
            encoding: AudioFileReader.formatName(
                Int32(sfInfo.format) & Int32(SF_FORMAT_SUBMASK), command: SFC_GET_FORMAT_INFO))
        if info.frameCount == 0 {
            sf_close(handle)
            self.handle = nil
            throw AudioIOError.zeroFrames(path: path)
        }
    }

    deinit { if let handle { sf_close(handle) } }

    /// Frames read so far.
    public var position: Int64 { framesDelivered }

    /// Up to `maxFrames` frames in the file's own channels; nil at the end of the file.
    /// Throws ``AudioIOError/truncated(path:reason:)`` when the data ends before the header said.
    public func read(maxFrames: Int) throws -> PCMBuffer? {
        guard let handle else { return nil }
        precondition(maxFrames > 0)
        let channels = info.format.channelCount
        let got = readInterleaved(handle, maxFrames: maxFrames)
        guard try delivered(got, samples: got * channels) else { return nil }
        var planar = [[Float]](repeating: [], count: channels)
        for c in 0..<channels {
            planar[c].reserveCapacity(got)
            for i in 0..<got { planar[c].append(interleavedScratch[i * channels + c]) }
        }
        SampleCopies.count(got * channels, at: "deinterleave")
        return PCMBuffer(format: info.format, channels: planar)
    }

    /// Up to `maxFrames` frames mixed down to mono by `policy`; nil at the end.
    public func readMono(maxFrames: Int, policy: DownmixPolicy = .averageStereo) throws -> [Float]? {
        if info.format.channelCount > 2 {
            throw AudioIOError.unsupportedChannelLayout(path: path, channels: info.format.channelCount)
        }
        guard let handle else { return nil }
        precondition(maxFrames > 0)
        let channels = info.format.channelCount
        let got: Int
        var mono: [Float]
        if channels == 1 {
            // libsndfile decodes straight into the samples handed on: the one copy of a read.
            mono = [Float](unsafeUninitializedCapacity: maxFrames) { out, count in
                count = Int(sf_readf_float(handle, out.baseAddress, sf_count_t(maxFrames)))
            }
            got = mono.count
        } else {
            got = readInterleaved(handle, maxFrames: maxFrames)
            mono = try policy.mono(interleaved: interleavedScratch, frames: got, channels: channels, path: path)
        }
        return try delivered(got, samples: got) ? mono : nil
    }

    /// Up to `maxFrames` frames, interleaved, into the scratch buffer; how many were read.
    private func readInterleaved(_ handle: OpaquePointer, maxFrames: Int) -> Int {
        let samples = maxFrames * info.format.channelCount
        if interleavedScratch.count < samples { interleavedScratch = [Float](repeating: 0, count: samples) }
        return interleavedScratch.withUnsafeMutableBufferPointer {
            Int(sf_readf_float(handle, $0.baseAddress, sf_count_t(maxFrames)))
        }
    }

    /// Counts `frames` just read (`samples` samples decoded); false at the end of the data, and
    /// an error when it ends before the header said.
    private func delivered(_ frames: Int, samples: Int) throws -> Bool {
        if frames == 0 {
            if framesDelivered < info.frameCount {
                throw AudioIOError.truncated(
                    path: path, reason: "data ends at frame \(framesDelivered) of \(info.frameCount)")
            }
            return false
        }
        framesDelivered += Int64(frames)
        SampleCopies.count(samples, at: "decode")
        return true
    }

    /// Moves to `frame` (0 is the start).
    public func seek(toFrame frame: Int64) throws {
        guard let handle else { return }
        if sf_seek(handle, sf_count_t(frame), SEEK_SET) < 0 {
            throw AudioIOError.unreadable(path: path, reason: "cannot seek to frame \(frame)")
        }
        framesDelivered = frame
    }

    /// The whole file as mono Float32 (stereo averaged). For short files; stream long ones.
    public static func readMono(
        path: String, raw: RawAudioFormat? = nil
    ) throws -> (samples: [Float], sampleRate: Double) {
        let reader = try AudioFileReader(path: path, raw: raw)
        var all: [Float] = []
        all.reserveCapacity(Int(min(reader.info.frameCount, 1 << 26)))
        while let block = try reader.readMono(maxFrames: 65_536) { all.append(contentsOf: block) }
        return (all, reader.info.format.sampleRate)
    }

    /// Header information without reading the audio.
    public static func info(path: String, raw: RawAudioFormat? = nil) throws -> AudioFileInfo {
        try AudioFileReader(path: path, raw: raw).info
    }

    // MARK: Classifying failures

    static func checkFile(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AudioIOError.fileNotFound(path: path)
        }
        if isDirectory.boolValue { throw AudioIOError.unreadable(path: path, reason: "is a directory") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw AudioIOError.unreadable(path: path, reason: "permission denied")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        if size == 0 { throw AudioIOError.emptyFile(path: path) }
    }

    static func classifyOpenFailure(path: String, message: String) -> AudioIOError {
        let lower = message.lowercased()
        if lower.contains("unknown format") || lower.contains("not recognised") || lower.contains("not recognized")
            || lower.contains("unknown data format")
        {
            return .notAudio(path: path, reason: message)
        }
        if lower.contains("short") || lower.contains("truncat") || lower.contains("no 'data' chunk")
            || lower.contains("end of file") || lower.contains("unexpected")
        {
            return .truncated(path: path, reason: message)
        }
        if lower.contains("channel") { return .invalidFormat(path: path, reason: message) }
        return .unreadable(path: path, reason: message)
    }

    static func logText(_ handle: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        _ = buffer.withUnsafeMutableBytes {
            sf_command(handle, Int32(SFC_GET_LOG_INFO), $0.baseAddress, Int32($0.count))
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// libsndfile notes a WAV/AIFF data chunk longer than the file as `data : N (should be M)`.
    /// N larger than M means the file was cut short; the "unknown length" markers of streamed
    /// files (0 and 0xFFFFFFFF) are not truncation.
    static func logSaysTruncated(_ log: String) -> Bool {
        for line in log.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "(" || $0 == ")" })
            guard let first = parts.first, first == "data" || first == "SSND",
                let should = parts.firstIndex(of: "should"), should >= 2, should + 2 < parts.count + 1,
                let declared = UInt64(parts[1]), let actual = UInt64(parts[parts.count - 1])
            else { continue }
            if declared > actual && declared != 0xFFFF_FFFF && declared != 0 { return true }
        }
        return false
    }

    static func formatName(_ format: Int32, command: Int) -> String {
        var formatInfo = SF_FORMAT_INFO()
        formatInfo.format = format
        let status = sf_command(nil, Int32(command), &formatInfo, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
        guard status == 0, let name = formatInfo.name else { return String(format: "0x%06x", format) }
        return String(cString: name)
    }

    static func subtype(_ encoding: RawAudioFormat.Encoding) -> Int32 {
        switch encoding {
        case .pcm8: return Int32(SF_FORMAT_PCM_S8)
        case .pcm16: return Int32(SF_FORMAT_PCM_16)
        case .pcm24: return Int32(SF_FORMAT_PCM_24)
        case .pcm32: return Int32(SF_FORMAT_PCM_32)
        case .float32: return Int32(SF_FORMAT_FLOAT)
        case .ulaw: return Int32(SF_FORMAT_ULAW)
        case .alaw: return Int32(SF_FORMAT_ALAW)
        }
    }
}
