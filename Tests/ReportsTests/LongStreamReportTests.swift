import Metrics
import Records
import Testing

@testable import Reports

@Suite("Long-stream report")
struct LongStreamReportTests {
    static func minute(_ index: Int, shown: Double, cpu: Double, errors: Int) -> LongStreamMinute {
        var minute = LongStreamMinute(
            minute: index, words: ErrorCounts(hits: 10 - errors, substitutions: errors), hypothesisWords: 10,
            confirmedWords: 10)
        minute.hypothesisP50 = shown
        minute.hypothesisP90 = shown * 2
        minute.cpuPerAudioSecond = cpu
        minute.toolResidentPeak = 100 << 20
        minute.workerResidentPeak = (200 + index) << 20
        return minute
    }

    /// Twelve minutes whose latency and compute grow: the summary sets the first five against the last five.
    @Test func theSummarySetsTheFirstMinutesAgainstTheLast() {
        let minutes = (0..<12).map {
            Self.minute($0, shown: 0.5 + Double($0), cpu: 0.1 * Double($0 + 1), errors: $0 < 5 ? 1 : 0)
        }
        let record = LongStreamRecord(
            engine: "policy<x>", stream: "s.wav", audioSeconds: 720, pieces: 90, pacing: "simulated",
            policy: "english", words: minutes.reduce(ErrorCounts()) { $0 + $1.words }, computeSeconds: 72,
            minutes: minutes)
        let failed = LongStreamRecord(
            engine: "broken", stream: "s.wav", audioSeconds: 720, pieces: 90, pacing: "simulated", policy: "english",
            error: "worker exited")
        let markdown = LongStreamReport.markdown([record, failed])
        // Minutes 1–5: P50s 0.5…4.5 (median 2.5), 5 errors in 50 words, CPU 0.1…0.5 (mean 0.3);
        // minutes 8–12: 7.5…11.5 (median 9.5), no errors, CPU 0.8…1.2 (mean 1.0); RSS 304 and 311 MiB.
        #expect(
            markdown.contains(
                "| policy<x> | 10.0% → 0.0% | 2.50 → 9.50 | 5.00 → 19.00 | – → – | – → – | 0.300 → 1.000 | 304 → 311 |")
        )
        #expect(markdown.contains("| broken | failed: worker exited |"))
        #expect(markdown.contains("| 12 | 10 | 0.0% | 11.50 | 23.00 |"))
        let page = LongStreamReport.html([record, failed], links: [], current: "long-stream.html")
        #expect(page.contains("policy&lt;x&gt;") && !page.contains("policy<x>"))
        #expect(page.components(separatedBy: "<svg").count == 2)
    }
}
