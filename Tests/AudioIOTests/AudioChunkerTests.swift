import Foundation
import SpeechCore
import TestSupport
import Testing

@testable import AudioIO

@Suite("Chunked streaming")
struct AudioChunkerTests {
    /// 15 ms at 22.05 kHz is 330.75 samples: chunk sizes vary by one sample but start times are exact
    /// and the chunks add up to the file.
    @Test func chunkStartsAreExactWithFractionalChunkSizes() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("odd.wav")
        let frames = 22_050
        try AudioFileWriter.writeMono(
            (0..<frames).map { Float($0 % 100) / 200 }, sampleRate: 22_050, to: path, encoding: .float32)
        let chunker = try AudioChunker(path: path, chunkMilliseconds: 15)
        var chunks: [AudioChunk] = []
        while let chunk = try chunker.next() { chunks.append(chunk) }
        #expect(chunks.reduce(0) { $0 + $1.samples.count } == frames)
        for (k, chunk) in chunks.enumerated() {
            let expectedStart = (Int64(k) * 15 * 22_050 + 500) / 1_000
            #expect(chunk.startFrame == expectedStart)
            #expect(chunk.startTime == MediaTime(value: expectedStart, timescale: 22_050))
            if k + 1 < chunks.count { #expect(chunk.startTime + chunk.duration == chunks[k + 1].startTime) }
        }
        #expect(Set(chunks.dropLast().map(\.samples.count)).isSubset(of: [330, 331]))
        // The samples are the file's, in order.
        #expect(chunks.flatMap(\.samples).prefix(3) == [0, 0.005, 0.01])
    }

    @Test func resampledStreamMatchesWholeFileConversion() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("cd.wav")
        let tone = Signal.sine(frequency: 700, sampleRate: 44_100, seconds: 1.3)
        try AudioFileWriter.writeMono(tone, sampleRate: 44_100, to: path, encoding: .float32)
        let chunker = try AudioChunker(path: path, chunkMilliseconds: 100, sampleRate: 16_000)
        var streamed: [Float] = []
        while let chunk = try chunker.next() {
            #expect(chunk.startTime == MediaTime(value: Int64(streamed.count), timescale: 16_000))
            streamed += chunk.samples
        }
        let whole = try SampleRateConverter.convert(tone, from: 44_100, to: 16_000)
        #expect(streamed.count == whole.count)
        #expect(streamed == whole)
    }
}

@Suite("G.722 decoding")
struct G722DecoderTests {
    /// Asterisk's wideband "one" decodes to as many 16 kHz samples as its 8 kHz copy has at 8 kHz × 2,
    /// and, brought down to 8 kHz, closely follows the telephone recording of the same take.
    @Test(.enabled(if: SystemFixture.available(SystemFixture.asteriskDigits)))
    func decodesAsteriskPromptLikeItsTelephoneCopy() throws {
        let wide = try G722Decoder.decodeFile(path: SystemFixture.asteriskDigits + "/1.g722")
        let (narrow, rate) = try AudioFileReader.readMono(path: SystemFixture.asteriskDigits + "/1.wav")
        #expect(rate == 8_000)
        #expect(wide.count == narrow.count * 2)
        let down = try SampleRateConverter.convert(wide, from: 16_000, to: 8_000, quality: .best)
        // The telephone copy went through its own band filter, so compare loudness contours
        // (10 ms frame energies): same take, same contour; and overall level within 4 dB.
        let level = 20 * log10(Signal.rms(down[...]) / Signal.rms(narrow[...]))
        #expect(abs(level) < 4, "level differs by \(level) dB")
        let best = (-3...3).map { lag in correlation(envelope(down), envelope(narrow), lag: lag) }.max() ?? 0
        #expect(best > 0.9, "best envelope correlation \(best)")
        // And the wideband version really is wideband: energy above 4 kHz (measured: about -32 dB of the
        // total; a band-limited signal would leave next to nothing).
        let lowBand = try SampleRateConverter.convert(down, from: 8_000, to: 16_000, quality: .best)
        let highBand = zip(wide, lowBand).map { $0 - $1 }
        let highShare = Signal.rms(highBand[...]) / Signal.rms(wide[...])
        #expect(highShare > 0.01, "share above 4 kHz \(highShare)")
    }

    @Test func emptyInputDecodesToNothing() throws {
        #expect(try G722Decoder.decode([]).isEmpty)
    }

    private func envelope(_ x: [Float]) -> [Float] {
        stride(from: 0, to: x.count - 80, by: 80).map { Float(Signal.rms(x[$0..<$0 + 80])) }
    }

    private func correlation(_ a: [Float], _ b: [Float], lag: Int) -> Double {
        var sab = 0.0, saa = 0.0, sbb = 0.0
        for i in 0..<min(a.count, b.count) {
            let j = i + lag
            guard j >= 0, j < b.count else { continue }
            sab += Double(a[i]) * Double(b[j])
            saa += Double(a[i]) * Double(a[i])
            sbb += Double(b[j]) * Double(b[j])
        }
        return sab / max(1e-12, (saa * sbb).squareRoot())
    }

    /// NaN or infinite samples are a typed error at the first bad frame, naming the file.
    @Test(arguments: [Float.nan, .infinity, -.infinity])
    func nonFiniteSamplesAreTypedErrors(bad: Float) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("bad.wav")
        try AudioFileWriter.writeMono(
            [Float](repeating: 0.1, count: 3_000) + [bad] + [Float](repeating: 0.1, count: 100), sampleRate: 16_000,
            to: path, encoding: .float32)
        let chunker = try AudioChunker(path: path, chunkMilliseconds: 100)
        #expect(throws: AudioIOError.nonFiniteSamples(path: path, frame: 3_000)) {
            while try chunker.next() != nil {}
        }
    }

    /// A rate libsamplerate cannot convert from is an invalid format of that file.
    @Test func unconvertibleRatesNameTheFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("slow.wav")
        try AudioFileWriter.writeMono([Float](repeating: 0, count: 10), sampleRate: 1, to: path, encoding: .pcm16)
        #expect {
            _ = try AudioChunker(path: path, chunkMilliseconds: 100, sampleRate: 16_000)
        } throws: { error in
            guard case AudioIOError.invalidFormat(let named, _) = error else { return false }
            return named == path
        }
    }
}
