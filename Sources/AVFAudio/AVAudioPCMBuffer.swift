import Foundation
import SpeechCore
import VirtualDevice

/// The base of audio buffers, as in AVFAudio.
public class AVAudioBuffer: NSObject, @unchecked Sendable {
    public let format: AVAudioFormat

    init(format: AVAudioFormat) { self.format = format }
}

/// PCM audio in memory with a fixed capacity and a settable length, laid out as its format says
/// (one buffer per channel when deinterleaved, one interleaved buffer otherwise).
///
/// Like Apple's class it is not thread-safe; hand a buffer to one owner at a time.
public final class AVAudioPCMBuffer: AVAudioBuffer, @unchecked Sendable {
    public let frameCapacity: AVAudioFrameCount
    private var storedLength: AVAudioFrameCount = 0
    /// The samples in the format's layout; made the first time they are needed: a buffer filled
    /// whole by `replaceFrames(with:at: 0)` and read only through `pcmBuffer` never has any.
    private var storage: Storage?

    /// Frames of valid audio; at most `frameCapacity` (larger values are clamped).
    public var frameLength: AVAudioFrameCount {
        get { storedLength }
        set {
            let length = min(newValue, frameCapacity)
            if let frames = unchanged?.frameCount, frames != Int(length) {
                _ = materialized()
                unchanged = nil
            }
            storedLength = length
        }
    }

    /// The frames as last written whole by `replaceFrames(with:at: 0)`, kept while nothing else can
    /// have changed them: no raw pointer has been handed out. `pcmBuffer` then returns them as
    /// they are, and they reach the storage only if someone asks for it, so audio crosses from the
    /// harness to an engine without being copied here.
    private var unchanged: PCMBuffer?
    private var pointersHandedOut = false

    /// Raw access to the storage: from now on only the storage says what the buffer holds.
    private func handOutPointers() -> Storage {
        let storage = materialized()
        pointersHandedOut = true
        unchanged = nil
        return storage
    }

    /// The storage, holding what the buffer holds.
    private func materialized() -> Storage {
        if let storage { return storage }
        let made = Storage(format: format, frameCapacity: frameCapacity)
        storage = made
        if let unchanged { write(unchanged, at: 0, into: made) }
        return made
    }

    /// The fast-paced microphone's leases on the audio this buffer holds (see `CaptureFlow`):
    /// copies and conversions carry them; a recogniser settles them when it has consumed the buffer.
    var captureLeases: [CaptureLease] = []

    /// Harness extra for recognisers: this buffer is on its way to one, so the virtual microphone
    /// behind it now keeps pace with recognition.
    @_spi(Harness) public func handedToRecognition() {
        for lease in captureLeases { lease.handedToRecognition() }
    }

    /// Harness extra for recognisers: this buffer's audio has been consumed, so the virtual
    /// microphone behind it may deliver more.
    @_spi(Harness) public func consumedByRecognition() {
        for lease in captureLeases { lease.consumed() }
    }

    /// Harness extra for recognisers: the recogniser that consumed this buffer has finished and
    /// will consume no more, so the virtual microphone behind it stops waiting for recognition.
    @_spi(Harness) public func recognitionStopped() {
        for lease in captureLeases { lease.recognitionStopped() }
    }

    /// Harness extra: this buffer holds audio these leases are on (a sample buffer's, say).
    @_spi(Harness) public func carriesCapture(leases: [CaptureLease]) {
        captureLeases += leases
    }

    /// Harness extra: this buffer holds `other`'s audio (a copy or a conversion of it).
    @_spi(Harness) public func carriesCapture(of other: AVAudioPCMBuffer) {
        captureLeases += other.captureLeases
    }

    /// Samples between consecutive frames of one channel: the channel count when interleaved, else 1.
    public var stride: Int { format.isInterleaved ? Int(format.channelCount) : 1 }

    public init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount) {
        guard format.bytesPerSample > 0 else { return nil }
        self.frameCapacity = frameCapacity
        super.init(format: format)
    }

    /// Float32 samples, one pointer per channel buffer; nil unless the format is Float32.
    public var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? {
        let storage = handOutPointers()
        return format.commonFormat == .pcmFormatFloat32 ? UnsafePointer(storage.floatPointers) : nil
    }

    /// Int16 samples, one pointer per channel buffer; nil unless the format is Int16.
    public var int16ChannelData: UnsafePointer<UnsafeMutablePointer<Int16>>? {
        let storage = handOutPointers()
        return format.commonFormat == .pcmFormatInt16 ? UnsafePointer(storage.int16Pointers) : nil
    }

    /// Int32 samples, one pointer per channel buffer; nil unless the format is Int32.
    public var int32ChannelData: UnsafePointer<UnsafeMutablePointer<Int32>>? {
        let storage = handOutPointers()
        return format.commonFormat == .pcmFormatInt32 ? UnsafePointer(storage.int32Pointers) : nil
    }

    // MARK: Bridging to SpeechCore

    /// The valid frames as a SpeechCore buffer (planar); nil for sample types the harness does not carry.
    /// Read back from the storage once, then kept while nothing can change the storage (no
    /// pointer handed out), so a buffer yielded again and again is not copied again.
    public var pcmBuffer: PCMBuffer? {
        if let unchanged { return unchanged }
        let read = readBack()
        if !pointersHandedOut { unchanged = read }
        return read
    }

    private func readBack() -> PCMBuffer? {
        guard let audioFormat = format.audioFormat else { return nil }
        let storage = materialized()
        let floatPointers = storage.floatPointers, int16Pointers = storage.int16Pointers
        let channels = Int(format.channelCount), frames = Int(frameLength), step = stride
        SampleCopies.count(frames * channels, at: "buffer-readback")
        switch format.commonFormat {
        case .pcmFormatFloat32:
            let planes = (0..<channels).map { c -> [Float] in
                let base = floatPointers[format.isInterleaved ? 0 : c] + (format.isInterleaved ? c : 0)
                if step == 1 { return Array(UnsafeBufferPointer(start: base, count: frames)) }
                return (0..<frames).map { base[$0 * step] }
            }
            return PCMBuffer(format: audioFormat, channels: planes)
        case .pcmFormatInt16:
            let planes = (0..<channels).map { c -> [Int16] in
                let base = int16Pointers[format.isInterleaved ? 0 : c] + (format.isInterleaved ? c : 0)
                if step == 1 { return Array(UnsafeBufferPointer(start: base, count: frames)) }
                return (0..<frames).map { base[$0 * step] }
            }
            return PCMBuffer(format: audioFormat, channels: planes)
        default:
            return nil
        }
    }

    /// A new buffer holding `buffer`'s samples in `buffer.format`'s layout.
    public convenience init?(_ buffer: PCMBuffer) {
        guard let format = AVAudioFormat(buffer.format) else { return nil }
        self.init(pcmFormat: format, frameCapacity: AVAudioFrameCount(buffer.frameCount))
        try? replaceFrames(with: buffer, at: 0)
    }

    /// Writes `buffer`'s frames starting at frame `offset` (converting Float32/Int16 as needed) and
    /// extends `frameLength` to cover them.
    public func replaceFrames(with buffer: PCMBuffer, at offset: Int) throws {
        let channels = Int(format.channelCount)
        guard buffer.format.channelCount == channels, offset + buffer.frameCount <= Int(frameCapacity) else {
            throw AVAudioBufferError.doesNotFit(frames: buffer.frameCount, channels: buffer.format.channelCount)
        }
        guard [.pcmFormatFloat32, .pcmFormatInt16].contains(format.commonFormat) else {
            throw AVAudioBufferError.unsupportedSampleType(format.commonFormat)
        }
        if !pointersHandedOut && offset == 0 && buffer.frameCount >= Int(frameLength)
            && buffer.format == format.audioFormat
        {
            // The whole buffer, exactly: kept as it is; the storage, if any, is rewritten only
            // when asked for.
            storage = nil
            unchanged = buffer
            storedLength = AVAudioFrameCount(buffer.frameCount)
            return
        }
        write(buffer, at: offset, into: materialized())
        unchanged = nil
        frameLength = AVAudioFrameCount(max(Int(frameLength), offset + buffer.frameCount))
    }

    private func write(_ buffer: PCMBuffer, at offset: Int, into storage: Storage) {
        let step = stride
        switch format.commonFormat {
        case .pcmFormatFloat32:
            for (c, plane) in buffer.floatChannels.enumerated() {
                let base = storage.floatPointers[format.isInterleaved ? 0 : c] + (format.isInterleaved ? c : 0)
                for (i, x) in plane.enumerated() { base[(offset + i) * step] = x }
            }
        case .pcmFormatInt16:
            for (c, plane) in buffer.int16Channels.enumerated() {
                let base = storage.int16Pointers[format.isInterleaved ? 0 : c] + (format.isInterleaved ? c : 0)
                for (i, x) in plane.enumerated() { base[(offset + i) * step] = x }
            }
        default:
            return
        }
        SampleCopies.count(buffer.frameCount * buffer.format.channelCount, at: "buffer-storage")
    }

    /// The memory behind the channel pointers: zeroed, one block per channel (one when interleaved).
    private final class Storage {
        let channelBuffers: [UnsafeMutableRawPointer]
        let floatPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
        let int16Pointers: UnsafeMutablePointer<UnsafeMutablePointer<Int16>>
        let int32Pointers: UnsafeMutablePointer<UnsafeMutablePointer<Int32>>

        init(format: AVAudioFormat, frameCapacity: AVAudioFrameCount) {
            let channels = Int(format.channelCount)
            let buffers = format.isInterleaved ? 1 : channels
            let bytes = max(1, Int(frameCapacity) * (format.isInterleaved ? channels : 1) * format.bytesPerSample)
            channelBuffers = (0..<buffers).map { _ in
                let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
                raw.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
                return raw
            }
            floatPointers = .allocate(capacity: max(1, buffers))
            int16Pointers = .allocate(capacity: max(1, buffers))
            int32Pointers = .allocate(capacity: max(1, buffers))
            for (i, raw) in channelBuffers.enumerated() {
                floatPointers[i] = raw.assumingMemoryBound(to: Float.self)
                int16Pointers[i] = raw.assumingMemoryBound(to: Int16.self)
                int32Pointers[i] = raw.assumingMemoryBound(to: Int32.self)
            }
        }

        deinit {
            channelBuffers.forEach { $0.deallocate() }
            floatPointers.deallocate()
            int16Pointers.deallocate()
            int32Pointers.deallocate()
        }
    }
}

/// Why samples could not be placed in a buffer.
public enum AVAudioBufferError: Error, CustomStringConvertible, Sendable {
    case doesNotFit(frames: Int, channels: Int)
    case unsupportedSampleType(AVAudioCommonFormat)

    public var description: String {
        switch self {
        case .doesNotFit(let frames, let channels):
            return "\(frames) frames of \(channels) channels do not fit the buffer"
        case .unsupportedSampleType(let type): return "sample type \(type) is not supported on Linux"
        }
    }
}
