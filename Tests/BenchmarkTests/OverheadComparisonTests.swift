import Foundation
import Testing

@testable import Benchmark

/// The overhead figure from pairs, worked out by hand, and the alone side's line protocol against
/// real child processes.
@Suite("Harness overhead")
struct OverheadComparisonTests {
    static func pair(_ round: Int, _ alone: Double, _ harness: Double, same: Bool = true) -> OverheadComparison.Pair {
        .init(
            utterance: "u", round: round, aloneSeconds: alone, harnessSeconds: harness, harnessEngineSeconds: alone,
            sameTranscript: same)
    }

    @Test func theFigureIsTheMedianOfTheRoundsOverheadsOnTheirTotals() throws {
        let comparison = OverheadComparison(pairs: [
            // Round 0: 2.0 s alone, 2.1 s through the harness: +5%.
            Self.pair(0, 1.0, 1.0), Self.pair(0, 1.0, 1.1),
            // Round 1: +2% (a long pair weighs more than a short one).
            Self.pair(1, 0.2, 0.4), Self.pair(1, 4.8, 4.7),
            // Round 2: −1%.
            Self.pair(2, 1.0, 0.99, same: false),
        ])
        let rounds = comparison.roundOverheads
        #expect(rounds.count == 3)
        #expect(abs(rounds[0] - 0.05) < 1e-9 && abs(rounds[1] - 0.02) < 1e-9 && abs(rounds[2] + 0.01) < 1e-9)
        #expect(abs(try #require(comparison.overhead) - 0.02) < 1e-9)
        // Single pairs: 0, +10%, +100%, −2.08%, −1%; sorted, the quartiles are −1%, 0 and +10%.
        let quartiles = try #require(comparison.pairQuartiles)
        #expect(abs(quartiles.low + 0.01) < 1e-9 && abs(quartiles.median) < 1e-9 && abs(quartiles.high - 0.1) < 1e-9)
        #expect(comparison.differingTranscripts == 1)
        #expect(OverheadComparison().overhead == nil)
    }

    @Test func theSideThatGoesFirstAlternates() {
        let firsts = (0..<2).map { round in (0..<4).map { OverheadComparison.aloneFirst(round: round, index: $0) } }
        #expect(firsts == [[true, false, true, false], [false, true, false, true]])
    }

    @Test func theAloneDecoderAnswersALinePerFile() async throws {
        let echo = try AloneDecoderProcess(arguments: [
            "/bin/bash", "-c", #"while read -r p; do printf '0.25\theard %s\n' "$(basename "$p")"; done"#,
        ])
        let first = try await echo.decode("/tmp/a.wav")
        let second = try await echo.decode("/tmp/b.wav")
        echo.close()
        #expect(first.seconds == 0.25 && first.transcript == "heard a.wav")
        #expect(second.transcript == "heard b.wav")
    }

    @Test(arguments: [
        (#"read -r p; echo 'segmentation fault'"#, "answered \"segmentation fault\""),
        (#"read -r p; exit 0"#, "ended without answering"),
        (#"exit 0"#, "/tmp/x.wav"),  // gone before the request: EPIPE or end of output, not SIGPIPE
    ])
    func aDecoderThatAnswersWronglyIsNamed(script: String, reason: String) async throws {
        let broken = try AloneDecoderProcess(arguments: ["/bin/bash", "-c", script])
        defer { broken.close() }
        let error = await #expect(throws: AloneDecoderProcess.Failure.self) { try await broken.decode("/tmp/x.wav") }
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.description.contains("/tmp/x.wav") == true)
    }
}
